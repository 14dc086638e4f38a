import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { ensurePrometheusPackage } from '../../stack/prometheus.ts';

/** The alert rules are valid, and each fires on its bad case and stays quiet on a good one (promtool's unit tests). */
const dir = resolve(PROJECT_ROOT, 'ops/prometheus');
let promtool: string;
beforeAll(() => {
  promtool = ensurePrometheusPackage(() => undefined);
}, 300_000);

const run = (args: string[], cwd = dir) => spawnSync(promtool, args, { cwd, encoding: 'utf8' });

it('promtool check rules accepts the rules file', () => {
  const result = run(['check', 'rules', 'rules.yml']);
  expect(result.stdout + result.stderr).toContain('SUCCESS: 12 rules found');
  expect(result.status).toBe(0);
});

it('promtool test rules passes every rule unit test', () => {
  const result = run(['test', 'rules', 'rules.test.yml']);
  expect(result.stdout + result.stderr).toContain('SUCCESS');
  expect(result.status).toBe(0);
});

it('the rule tests can fail: an alert expected where the series are healthy is reported', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'webperf-rules-'));
  try {
    writeFileSync(join(scratch, 'rules.yml'), readFileSync(join(dir, 'rules.yml')));
    writeFileSync(
      join(scratch, 'wrong.test.yml'),
      [
        'rule_files: [rules.yml]',
        'tests:',
        '  - interval: 1m',
        '    input_series:',
        `      - { series: 'webperf_scan_queue_pollers{region="eu"}', values: '2x20' }`,
        '    alert_rule_test:',
        '      - eval_time: 10m',
        '        alertname: ScanRegionUnserved',
        '        exp_alerts: [{ exp_labels: { severity: critical, region: eu } }]',
        '',
      ].join('\n'),
    );
    const result = run(['test', 'rules', 'wrong.test.yml'], scratch);
    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('ScanRegionUnserved');
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
});

it('every rule points at a runbook entry that exists in the runbook', () => {
  const rules = readFileSync(join(dir, 'rules.yml'), 'utf8');
  const runbook = readFileSync(resolve(PROJECT_ROOT, 'docs/operations/runbook.md'), 'utf8');
  const anchors = [...rules.matchAll(/runbook: ["']docs\/operations\/runbook\.md#(runbook-[a-z0-9-]+)["']/g)].map(
    (m) => m[1]!,
  );
  expect(anchors).toHaveLength(12);
  for (const anchor of anchors) expect(runbook).toContain(`<a id="${anchor}"></a>`);
});
