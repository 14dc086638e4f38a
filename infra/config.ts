import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadAssetsS3 } from './config/assets.ts';
import { loadClickHouse } from './config/clickhouse.ts';
import { loadIngest } from './config/ingest.ts';
import { loadKeyring } from './config/keys.ts';
import { loadMail } from './config/mail.ts';
import { parseTrustedProxies } from './config/network.ts';
import {
  bool,
  hostPort,
  identifier,
  oneOf,
  port,
  str,
  url,
  userName,
  wholeNumber,
  type Env,
} from './config/parsers.ts';
import { PROJECT_ROOT } from './config/root.ts';
import { DEFAULT_MIN_BENCHMARK_INDEX, loadRegions } from './config/scan.ts';
import type { Config, KeylessConfig } from './config/types.ts';
import { loadWorker, loadWorkerPlacement } from './config/worker.ts';

/**
 * The one place that reads the environment. Every process (api, worker, ingest, stack tooling, tests)
 * calls loadConfig() once at start and passes the typed result down; nothing else reads process.env.
 * Each section has its loader in config/, over the shared parsers of config/parsers.ts.
 */

export { ConfigError } from './config/parsers.ts';
export { PROJECT_ROOT } from './config/root.ts';
export { DEFAULT_MIN_BENCHMARK_INDEX } from './config/scan.ts';
export { SECRET_KEY_VARIABLES } from './config/keys.ts';
export { requireSmtpUrl } from './config/mail.ts';
export {
  SCAN_RUNNER_KINDS,
  WORKER_ROLES,
  type AppEnv,
  type ClickHouseLayout,
  type Config,
  type IngestConnectionLimits,
  type KeylessConfig,
  type S3AssetsConfig,
  type ScanRunnerKind,
  type TokenBucketRule,
  type WorkerRole,
} from './config/types.ts';

export function loadConfig(env?: Env): Config;
export function loadConfig(env: Env, options: { keys: false }): KeylessConfig;
export function loadConfig(env: Env = process.env, options: { keys?: false } = {}): Config | KeylessConfig {
  const appEnv = oneOf(env, 'APP_ENV', ['development', 'test', 'production'] as const, 'development');
  const stateDir = resolve(PROJECT_ROOT, str(env, 'STATE_DIR', '.state'));
  const apiPort = port(env, 'API_PORT', 3000);
  const ingestPort = port(env, 'INGEST_PORT', 3100);
  const production = appEnv === 'production';
  const required = (fallback: string) => (production ? undefined : fallback);

  const scanRegions = loadRegions(env);
  const baseUrl = url(env, 'BASE_URL', required(`http://127.0.0.1:${apiPort}`), ['http:', 'https:']);
  const workerPlacement = loadWorkerPlacement(env, appEnv, scanRegions);
  const config: KeylessConfig = {
    env: appEnv,
    assetsDir: resolve(stateDir, str(env, 'ASSETS_DIR', 'assets')),
    // Processes without keys (ingest, migrations) handle no secrets and store no images.
    assetsS3: options.keys === false ? null : loadAssetsS3(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    stateDir,
    toolsDir: resolve(str(env, 'TOOLS_DIR', join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'webperf', 'tools'))),
    baseUrl,
    api: {
      host: str(env, 'API_HOST', '127.0.0.1'),
      port: apiPort,
      metricsHost: str(env, 'API_METRICS_HOST', '127.0.0.1'),
      metricsPort: port(env, 'API_METRICS_PORT', apiPort >= 65534 ? 65533 : apiPort + 2),
    },
    ingest: loadIngest(env, ingestPort, stateDir, required),
    worker: loadWorker(env, workerPlacement),
    databaseUrl: url(env, 'DATABASE_URL', required('postgres://postgres@127.0.0.1:5432/webperf'), [
      'postgres:',
      'postgresql:',
    ]),
    clickhouse: loadClickHouse(env, required),
    temporal: {
      address: hostPort(env, 'TEMPORAL_ADDRESS', required('127.0.0.1:7233')),
      namespace: str(env, 'TEMPORAL_NAMESPACE', 'default'),
      uiUrl: url(env, 'TEMPORAL_UI_URL', 'http://127.0.0.1:8233', ['http:', 'https:']),
      cliPath: env.TEMPORAL_BIN?.trim() || null,
      taskQueuePrefix: identifier(env, 'TEMPORAL_TASK_QUEUE_PREFIX', 'webperf'),
    },
    chromiumPath: str(env, 'CHROMIUM_PATH', '/usr/bin/chromium'),
    scanUser: userName(env, 'SCAN_USER', 'webperf-scan'),
    scanMinBenchmarkIndex: wholeNumber(env, 'SCAN_MIN_BENCHMARK_INDEX', DEFAULT_MIN_BENCHMARK_INDEX, 1_000_000),
    regions: scanRegions,
    outboundAllowLoopback: bool(env, 'OUTBOUND_ALLOW_LOOPBACK', false),
    callbacksAllowLoopback: bool(env, 'CALLBACKS_ALLOW_LOOPBACK', false),
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    prometheus: { port: port(env, 'PROMETHEUS_PORT', 9090) },
    oauth: {
      registrationsPerHour: wholeNumber(env, 'OAUTH_REGISTRATIONS_PER_HOUR', 20, 1_000_000),
      metadataCaFile: env.OAUTH_METADATA_CA_FILE?.trim() || null,
    },
    mail: loadMail(env, baseUrl, production),
  };
  return options.keys === false ? config : { ...config, keys: loadKeyring(env, appEnv, stateDir) };
}

/** Variables loadConfig() demands in production, for every process. */
const REQUIRED_EVERYWHERE = ['APP_ENV', 'BASE_URL', 'INGEST_URL', 'DATABASE_URL', 'CLICKHOUSE_URL', 'TEMPORAL_ADDRESS'];

/** Variables a production deployment must set explicitly (checked against docker-compose.yml by a test). */
export const REQUIRED_IN_PRODUCTION: Record<'api' | 'worker' | 'ingest', string[]> = {
  api: [...REQUIRED_EVERYWHERE, 'SECRET_KEY', 'API_HOST', 'SMTP_URL'],
  worker: [
    ...REQUIRED_EVERYWHERE,
    'SECRET_KEY',
    'CHROMIUM_PATH',
    'WORKFLOW_BUNDLE_PATH',
    'WORKER_HEALTH_HOST',
    'SMTP_URL',
  ],
  ingest: [...REQUIRED_EVERYWHERE, 'CLICKHOUSE_DATABASE', 'INGEST_HOST', 'SMTP_URL'],
};
