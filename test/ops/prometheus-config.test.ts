import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { ensurePrometheusPackage, prometheusConfig, scrapeTargets } from '../../stack/prometheus.ts';
import { baseTestEnv } from '../harness/shared.ts';

/** The local Prometheus's configuration is valid, and the compose file's scrapes the same jobs on the same ports. */
const config = loadConfig({ ...baseTestEnv(), API_PORT: '3000', WORKER_SDK_METRICS_PORT: '3201' });
let promtool: string;
beforeAll(() => {
  promtool = ensurePrometheusPackage(() => undefined);
}, 300_000);

it('the generated configuration passes promtool check config, rules included', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webperf-prom-'));
  try {
    writeFileSync(join(dir, 'prometheus.yml'), prometheusConfig(config));
    const result = spawnSync(promtool, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    // Every rule of the project's rule file is loaded (counted from the file, so a new rule needs no edit here).
    const rules = parse(readFileSync(resolve(PROJECT_ROOT, 'ops/prometheus/rules.yml'), 'utf8')) as {
      groups: Array<{ rules: unknown[] }>;
    };
    const count = rules.groups.reduce((n, group) => n + group.rules.length, 0);
    expect(count).toBeGreaterThanOrEqual(12);
    expect(result.stdout + result.stderr).toContain(`SUCCESS: ${count} rules found`);
    expect(result.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

interface ScrapeJob {
  job_name: string;
  static_configs?: Array<{ targets: string[] }>;
  dns_sd_configs?: Array<{ names: string[]; type: string; port: number }>;
}

const composeScrape = () =>
  parse(readFileSync(resolve(PROJECT_ROOT, 'ops/prometheus/prometheus.compose.yml'), 'utf8')) as {
    scrape_configs: ScrapeJob[];
  };

/** host:port of every target: the listed ones, and each name found through DNS (every replica of a service). */
const targetsOf = (job: ScrapeJob): string[] => [
  ...(job.static_configs ?? []).flatMap((c) => c.targets),
  ...(job.dns_sd_configs ?? []).flatMap((c) => c.names.map((name) => `${name}:${c.port}`)),
];

it("compose's Prometheus scrapes the same jobs, every instance of each process on the ports compose gives it", () => {
  const compose = parse(readFileSync(resolve(PROJECT_ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { command?: string[]; environment?: Record<string, string> }>;
  };
  const jobs = Object.fromEntries(composeScrape().scrape_configs.map((job) => [job.job_name, targetsOf(job).sort()]));
  expect(Object.keys(jobs).sort()).toEqual(
    scrapeTargets(config)
      .map((t) => t.job)
      .sort(),
  );
  const running = (entry: string) =>
    Object.entries(compose.services).filter(([, svc]) => svc.command?.join(' ') === `node ${entry}`);
  const targets = (entry: string, port: string) =>
    running(entry)
      .map(([name, svc]) => `${name}:${svc.environment![port]}`)
      .sort();
  expect(jobs['webperf-api']).toEqual(targets('server/main.ts', 'API_METRICS_PORT'));
  expect(jobs['webperf-worker']).toEqual(targets('worker/main.ts', 'WORKER_HEALTH_PORT'));
  expect(jobs['webperf-worker-sdk']).toEqual(targets('worker/main.ts', 'WORKER_SDK_METRICS_PORT'));
  expect(jobs['webperf-ingest']).toEqual(targets('ingest/main.ts', 'INGEST_METRICS_PORT'));
  expect(jobs['webperf-worker']).toEqual(['scan-worker:3200', 'webhook-worker:3200', 'worker:3200']);
  expect(jobs['webperf-ingest']).toEqual(['ingest-2:3101', 'ingest:3101']);
  for (const [, svc] of [...running('server/main.ts'), ...running('ingest/main.ts')])
    expect(svc.environment!.API_METRICS_HOST ?? svc.environment!.INGEST_METRICS_HOST).toBe('0.0.0.0');
});

it("compose's Prometheus configuration passes promtool check config too", () => {
  const dir = mkdtempSync(join(tmpdir(), 'webperf-prom-'));
  try {
    const text = readFileSync(resolve(PROJECT_ROOT, 'ops/prometheus/prometheus.compose.yml'), 'utf8').replace(
      '/etc/prometheus/rules.yml',
      resolve(PROJECT_ROOT, 'ops/prometheus/rules.yml'),
    );
    writeFileSync(join(dir, 'prometheus.yml'), text);
    const result = spawnSync(promtool, ['check', 'config', join(dir, 'prometheus.yml')], { encoding: 'utf8' });
    expect(result.stdout + result.stderr).toContain('SUCCESS');
    expect(result.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
