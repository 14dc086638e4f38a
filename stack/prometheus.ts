import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROJECT_ROOT, type Config } from '../infra/config.ts';
import { aptInstall } from './proc.ts';

export const PROMTOOL = '/usr/bin/promtool';
const PROMETHEUS = '/usr/bin/prometheus';

/** Debian's prometheus package (it brings promtool); installed when missing, never started as a system service. */
export function ensurePrometheusPackage(log: (message: string) => void): string {
  if (!existsSync(PROMTOOL) || !existsSync(PROMETHEUS)) aptInstall(['prometheus'], log);
  return PROMTOOL;
}

/** Where each process serves its metrics: the scrape jobs (the compose file's Prometheus has the same jobs). */
export function scrapeTargets(config: Config): Array<{ job: string; target: string }> {
  return [
    { job: 'webperf-api', target: `${config.api.metricsHost}:${config.api.metricsPort}` },
    { job: 'webperf-worker', target: `${config.worker.healthHost}:${config.worker.healthPort}` },
    ...(config.worker.sdkMetricsPort
      ? [{ job: 'webperf-worker-sdk', target: `${config.worker.healthHost}:${config.worker.sdkMetricsPort}` }]
      : []),
    { job: 'webperf-ingest', target: `${config.ingest.metricsHost}:${config.ingest.metricsPort}` },
  ];
}

/** The local Prometheus's configuration: every process every 15 s, and the alert rules. */
export function prometheusConfig(
  config: Config,
  rulesFile = resolve(PROJECT_ROOT, 'ops/prometheus/rules.yml'),
): string {
  return [
    'global:',
    '  scrape_interval: 15s',
    '  evaluation_interval: 15s',
    'rule_files:',
    `  - ${JSON.stringify(rulesFile)}`,
    'scrape_configs:',
    ...scrapeTargets(config).flatMap(({ job, target }) => [
      `  - job_name: ${job}`,
      '    metrics_path: /metrics',
      '    static_configs:',
      `      - targets: [${JSON.stringify(target)}]`,
    ]),
    '',
  ].join('\n');
}

export interface LocalPrometheus {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Runs Prometheus on 127.0.0.1:PROMETHEUS_PORT with its config and data under the state folder, until stopped. */
export function startPrometheus(config: Config, log: (message: string) => void): LocalPrometheus {
  ensurePrometheusPackage(log);
  const dir = resolve(config.stateDir, 'prometheus');
  mkdirSync(resolve(dir, 'data'), { recursive: true });
  const configFile = resolve(dir, 'prometheus.yml');
  writeFileSync(configFile, prometheusConfig(config));
  const output = openSync(resolve(dir, 'prometheus.log'), 'a');
  const child = spawn(
    PROMETHEUS,
    [
      `--config.file=${configFile}`,
      `--storage.tsdb.path=${resolve(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${config.prometheus.port}`,
      '--storage.tsdb.retention.time=7d',
    ],
    {
      stdio: ['ignore', output, output],
    },
  );
  log(`Prometheus starting (pid ${child.pid}, http://127.0.0.1:${config.prometheus.port}, config ${configFile})`);
  return {
    url: `http://127.0.0.1:${config.prometheus.port}`,
    child,
    stop: () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      }),
  };
}
