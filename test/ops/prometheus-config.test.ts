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
    expect(result.stdout + result.stderr).toContain('SUCCESS: 11 rules found');
    expect(result.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("compose's Prometheus scrapes the same jobs, on the ports compose gives the processes", () => {
  const compose = parse(readFileSync(resolve(PROJECT_ROOT, 'docker-compose.yml'), 'utf8')) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };
  const scrape = parse(readFileSync(resolve(PROJECT_ROOT, 'ops/prometheus/prometheus.compose.yml'), 'utf8')) as {
    scrape_configs: Array<{ job_name: string; static_configs: Array<{ targets: string[] }> }>;
  };
  const jobs = Object.fromEntries(
    scrape.scrape_configs.map((job) => [job.job_name, job.static_configs[0]!.targets[0]]),
  );
  expect(Object.keys(jobs).sort()).toEqual(
    scrapeTargets(config)
      .map((t) => t.job)
      .sort(),
  );
  expect(jobs['webperf-api']).toBe(`api:${compose.services.api!.environment!.API_METRICS_PORT}`);
  expect(jobs['webperf-worker']).toBe(`worker:${compose.services.worker!.environment!.WORKER_HEALTH_PORT}`);
  expect(jobs['webperf-worker-sdk']).toBe(`worker:${compose.services.worker!.environment!.WORKER_SDK_METRICS_PORT}`);
  expect(jobs['webperf-ingest']).toBe(`ingest:${compose.services.ingest!.environment!.INGEST_METRICS_PORT}`);
  expect(compose.services.api!.environment!.API_METRICS_HOST).toBe('0.0.0.0');
  expect(compose.services.ingest!.environment!.INGEST_METRICS_HOST).toBe('0.0.0.0');
});
