import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { masterKey, type Keyring } from '../core/keys.ts';
import { WEBHOOK_WORKER_SLOTS_DEFAULT } from '../core/webhooks/limits.ts';
import { RECONCILE_GRACE_DEFAULT_MS, RECONCILE_GRACE_MAX_SECONDS } from '../core/scan/lifecycle.ts';

/**
 * The one place that reads the environment. Every process (api, worker, ingest, stack tooling, tests)
 * calls loadConfig() once at start and passes the typed result down; nothing else reads process.env.
 */

export const PROJECT_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export type AppEnv = 'development' | 'test' | 'production';

/** A token bucket: `rate` tokens a second, at most `burst` saved up. */
export interface TokenBucketRule {
  rate: number;
  burst: number;
}

/**
 * headersMs (INGEST_HEADERS_TIMEOUT_MS, 10 s): the request line and headers must arrive within it;
 * bodyMs (INGEST_BODY_TIMEOUT_MS, 10 s): the body must arrive within it once the headers are in;
 * requestMs (INGEST_REQUEST_TIMEOUT_MS, 20 s): the whole request; max (INGEST_MAX_CONNECTIONS, 4000): open
 * connections of the instance; perAddress (INGEST_MAX_CONNECTIONS_PER_ADDRESS, 32): open connections of one
 * client address (IPv6: one /64).
 */
export interface IngestConnectionLimits {
  headersMs: number;
  bodyMs: number;
  requestMs: number;
  max: number;
  perAddress: number;
}

export interface Config {
  env: AppEnv;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  stateDir: string;
  /** Where scan screenshots and filmstrip frames are stored (the local asset store). */
  assetsDir: string;
  /**
   * ASSETS_BACKEND=s3: scan images go to an S3-compatible bucket instead of ASSETS_DIR, so every api and worker
   * machine sees the same ones (services/s3-assets.ts); null with the default, `local`. See docs/assets.md.
   */
  assetsS3: S3AssetsConfig | null;
  /** Public address of the web/API service; report and share URLs are built on it. */
  baseUrl: string;
  /** metricsHost/Port: the operator port serving /metrics (API_METRICS_HOST/PORT; default 127.0.0.1 and API_PORT + 2), never the public one. */
  api: { host: string; port: number; metricsHost: string; metricsPort: number };
  /**
   * The RUM ingest service (ingest/). spoolDir: its write-ahead spool (one directory per instance, never
   * shared: the default is per port, and a lock file refuses a second process); metricsHost/Port: the operator port serving /metrics (never the public port; default INGEST_PORT + 1); batch: a ClickHouse insert at
   * `rows` rows or every `ms`; spoolMaxBytes: beyond it beacons are refused with 503; acceptHeadless
   * (RUM_ACCEPT_HEADLESS, tests only): headless browsers' beacons are accepted instead of dropped as bots;
   * keepMonths: monthly ClickHouse partitions kept (older ones dropped once a day).
   */
  ingest: {
    host: string;
    port: number;
    publicUrl: string;
    spoolDir: string;
    metricsHost: string;
    metricsPort: number;
    batch: { rows: number; ms: number };
    spoolMaxBytes: number;
    /** INGEST_SPOOL_FSYNC (default true): false acknowledges after the write to the page cache (see docs/live-data.md). */
    spoolFsync: boolean;
    acceptHeadless: boolean;
    keepMonths: number;
    /** RUM_ROLLUP_KEEP_MONTHS (default 25, at least keepMonths): months of daily rollups kept (docs/live-data.md). */
    rollupKeepMonths: number;
    /** Slow and many clients (docs: ingest limits). All per instance. */
    connections: IngestConnectionLimits;
    /** Token buckets on beacons: per source address and per site (per instance). */
    rates: { perAddress: TokenBucketRule; perSite: TokenBucketRule };
  };
  /** scanRegions: the regions whose Lighthouse queue this worker process serves (none when empty). */
  /** sdkMetricsPort: the Temporal SDK's own Prometheus metrics (WORKER_SDK_METRICS_PORT; off when unset: `./svc start` and compose set it). */
  /**
   * role (WORKER_ROLE): the task queues this process serves. `all` (default; `./svc start`): the main queue, its
   * regions' Lighthouse queues and the webhook queue, each a Worker with slots of its own; `main`: all but the
   * webhook queue; `scan`: only its regions' Lighthouse queues (compose's scan-worker); `webhooks`: only the
   * webhook queue (compose's webhook-worker). webhookSlots
   * (WEBHOOK_WORKER_SLOTS): webhook attempts one process sends at once. reconcileGraceMs
   * (RECONCILE_GRACE_SECONDS, default 300): the reconciler looks at a scan or flow run only this long after it was
   * requested (core/scan/lifecycle.ts). scanRunner (SCAN_RUNNER): `lighthouse`
   * (default), or `replay` (APP_ENV=test only): recorded Lighthouse results of the fixture pages instead of
   * Lighthouse runs, for tests whose subject is not Lighthouse (fixtures/replay-runner.ts).
   */
  worker: {
    healthHost: string;
    healthPort: number;
    sdkMetricsPort: number | null;
    workflowBundlePath: string | null;
    scanRegions: string[];
    role: WorkerRole;
    webhookSlots: number;
    reconcileGraceMs: number;
    scanRunner: ScanRunnerKind;
  };
  databaseUrl: string;
  /**
   * ClickHouse. `replicaUrls` (CLICKHOUSE_REPLICA_URLS, comma-separated): the other nodes besides `url`; the
   * processes fail over to them in this order (db/clickhouse/client.ts), and the schema is applied on all. `layout` (CLICKHOUSE_LAYOUT): single | replicated | sharded (replicated shards behind Distributed
   * tables over CLICKHOUSE_CLUSTER); see docs/clickhouse-cluster.md.
   */
  clickhouse: {
    url: string;
    database: string;
    user: string;
    password: string;
    tcpPort: number;
    replicaUrls: string[];
    layout: ClickHouseLayout;
  };
  temporal: { address: string; namespace: string; uiUrl: string; cliPath: string | null; taskQueuePrefix: string };
  chromiumPath: string;
  /** The unprivileged system user a worker running as root runs scan browsers as (infra/scan-user.ts). */
  scanUser: string;
  /**
   * SCAN_MIN_BENCHMARK_INDEX: a run whose Lighthouse benchmark index is below it was measured on an
   * overloaded machine, and is repeated once (then kept, flagged); 0 turns the check off.
   */
  scanMinBenchmarkIndex: number;
  /** slots: scans each region runs at once, i.e. its workers' Lighthouse capacity (SCAN_REGION_SLOTS). */
  regions: { available: string[]; default: string; slots: Record<string, number> };
  /**
   * SECRET_KEY (32 bytes) and, while rotating, SECRET_KEY_PREVIOUS: every purpose's key is derived from
   * them (core/keys.ts). Only the api and worker load them (see loadConfig's `keys` option).
   */
  keys: Keyring;
  /**
   * Scans (the submitted page and every host it reaches) may target loopback addresses only when this is
   * set (OUTBOUND_ALLOW_LOOPBACK), whatever APP_ENV says (a deployment that forgets APP_ENV must not let
   * scanned pages reach its own ports). The start command sets it (its demo scans local pages); the tests too.
   */
  outboundAllowLoopback: boolean;
  /**
   * Requests the service makes on a user's behalf to a URL the user chose, webhooks and Client ID Metadata
   * Documents, may go to loopback addresses only when this is set (CALLBACKS_ALLOW_LOOPBACK, default false).
   * Separate from the scans' switch: the start command opens loopback to scans only, since a webhook's reply
   * is shown to its owner and would expose the machine's local services. Only the tests set it.
   */
  callbacksAllowLoopback: boolean;
  /** Reverse proxies (addresses or CIDR blocks) whose X-Forwarded-For is believed; none by default. */
  trustedProxies: string[];
  /**
   * OAuth: dynamic client registrations per client address and hour (OAUTH_REGISTRATIONS_PER_HOUR, default
   * 20); metadataCaFile (OAUTH_METADATA_CA_FILE, tests only): an extra CA trusted when fetching Client ID
   * Metadata Documents, for documents served over https on loopback with a self-signed certificate.
   */
  oauth: { registrationsPerHour: number; metadataCaFile: string | null };
  /** The local Prometheus `./svc start` runs (PROMETHEUS_PORT, default 9090, on 127.0.0.1). */
  prometheus: { port: number };
  /**
   * E-mail (alerts are sent by the worker, the monthly-limit notice by the ingest, account mail by the api): SMTP_URL (`smtp://` or `smtps://`, credentials in the URL when the
   * server wants them; default the local sink `./svc start` runs, smtp://127.0.0.1:2525; required in production,
   * where it has no default: see `requireSmtpUrl`) and MAIL_FROM (default `WebPerf alerts <alerts@BASE_URL's host>`).
   * operatorEmail (OPERATOR_EMAIL): where the API sends the plan page's upgrade requests; default
   * `operators@BASE_URL's host` outside production, none in production (the page then offers no request form).
   */
  mail: { smtpUrl: string | null; from: string; operatorEmail: string | null };
}

/**
 * The bucket of the S3 asset store. endpoint (S3_ENDPOINT): an S3-compatible server (MinIO, ...), null for
 * AWS's own; region (S3_REGION, default us-east-1); forcePathStyle (S3_FORCE_PATH_STYLE, default true with
 * an endpoint, false without): `endpoint/bucket/key` rather than `bucket.endpoint/key`, which MinIO needs.
 * The access key pair is required: the SDK's own credential chain would read the environment behind our back.
 */
export interface S3AssetsConfig {
  endpoint: string | null;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export class ConfigError extends Error {
  readonly variable: string;
  constructor(variable: string, problem: string) {
    super(`Invalid configuration: ${variable} ${problem}`);
    this.variable = variable;
  }
}

type Env = Record<string, string | undefined>;

function str(env: Env, name: string, fallback: string | undefined): string {
  const value = env[name]?.trim();
  if (value) return value;
  if (fallback === undefined) throw new ConfigError(name, 'is required');
  return fallback;
}

function port(env: Env, name: string, fallback: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > 65535) {
    throw new ConfigError(name, `must be a TCP port (1-65535), got "${raw}"`);
  }
  return Number(raw);
}

function url(env: Env, name: string, fallback: string | undefined, protocols: string[]): string {
  const value = str(env, name, fallback);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(name, `must be an absolute URL, got "${value}"`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(name, `must use ${protocols.join(' or ')}, got "${parsed.protocol}"`);
  }
  return value.replace(/\/+$/, '');
}

function bool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (!raw) return fallback;
  if (['1', 'true', 'yes'].includes(raw)) return true;
  if (['0', 'false', 'no'].includes(raw)) return false;
  throw new ConfigError(name, `must be true or false, got "${raw}"`);
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(name, `must be one of ${allowed.join(', ')}, got "${raw}"`);
  }
  return raw as T;
}

/** host:port, as Temporal's clients take it (no scheme). */
function hostPort(env: Env, name: string, fallback: string | undefined): string {
  const value = str(env, name, fallback);
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$/.exec(value);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > 65535)
    throw new ConfigError(name, `must be host:port (for example 127.0.0.1:7233), got "${value}"`);
  return value;
}

function identifier(env: Env, name: string, fallback: string): string {
  const value = str(env, name, fallback);
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(value))
    throw new ConfigError(name, `must be a plain identifier, got "${value}"`);
  return value;
}

function userName(env: Env, name: string, fallback: string): string {
  const value = str(env, name, fallback);
  if (!/^[a-z_][a-z0-9_-]{0,31}$/.test(value))
    throw new ConfigError(name, `must be a system user name (lower-case letters, digits, - and _), got "${value}"`);
  return value;
}

function wholeNumber(env: Env, name: string, fallback: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > max)
    throw new ConfigError(name, `must be a whole number from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

function atLeastOne(env: Env, name: string, fallback: number, max: number): number {
  const value = wholeNumber(env, name, fallback, max);
  if (value < 1) throw new ConfigError(name, `must be at least 1, got "${value}"`);
  return value;
}

/** Rollups outlive the raw rows they are made of, never the other way round. */
function rollupKeepMonths(env: Env): number {
  const raw = atLeastOne(env, 'RUM_KEEP_MONTHS', 13, 120);
  const months = atLeastOne(env, 'RUM_ROLLUP_KEEP_MONTHS', Math.max(25, raw), 240);
  if (months < raw)
    throw new ConfigError('RUM_ROLLUP_KEEP_MONTHS', `must be at least RUM_KEEP_MONTHS (${raw}), got "${months}"`);
  return months;
}

function regions(env: Env): Config['regions'] {
  const available = str(env, 'SCAN_REGIONS', 'local')
    .split(',')
    .map((r) => r.trim())
    .filter(Boolean);
  for (const region of available) {
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(region)) {
      throw new ConfigError(
        'SCAN_REGIONS',
        `has an invalid region code "${region}" (lower-case letters, digits, dashes)`,
      );
    }
  }
  const fallback = available[0];
  if (fallback === undefined) throw new ConfigError('SCAN_REGIONS', 'must list at least one region');
  const chosen = str(env, 'DEFAULT_REGION', fallback);
  if (!available.includes(chosen))
    throw new ConfigError('DEFAULT_REGION', `must be one of SCAN_REGIONS (${available.join(', ')})`);
  return { available, default: chosen, slots: regionSlots(env, available) };
}

/** SCAN_REGION_SLOTS: `N` for every region, `region=N` entries, or both (`2,eu=4`); default 1 each. */
function regionSlots(env: Env, available: string[]): Record<string, number> {
  const entries = str(env, 'SCAN_REGION_SLOTS', '1')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  const count = (raw: string) => {
    if (!/^\d{1,4}$/.test(raw) || Number(raw) < 1)
      throw new ConfigError('SCAN_REGION_SLOTS', `needs whole numbers of at least 1, got "${raw}"`);
    return Number(raw);
  };
  const bare = entries.filter((e) => !e.includes('='));
  if (bare.length > 1)
    throw new ConfigError('SCAN_REGION_SLOTS', 'may give one number for every region, and region=N entries');
  const fallback = bare[0] === undefined ? 1 : count(bare[0]);
  const slots = Object.fromEntries(available.map((region) => [region, fallback]));
  for (const entry of entries.filter((e) => e.includes('='))) {
    const [region = '', value = ''] = entry.split('=').map((part) => part.trim());
    if (!available.includes(region))
      throw new ConfigError('SCAN_REGION_SLOTS', `names "${region}", which is not in SCAN_REGIONS`);
    slots[region] = count(value);
  }
  return slots;
}

function ingestConnections(env: Env): IngestConnectionLimits {
  const limits = {
    headersMs: atLeastOne(env, 'INGEST_HEADERS_TIMEOUT_MS', 10_000, 600_000),
    bodyMs: atLeastOne(env, 'INGEST_BODY_TIMEOUT_MS', 10_000, 600_000),
    requestMs: atLeastOne(env, 'INGEST_REQUEST_TIMEOUT_MS', 20_000, 600_000),
    max: atLeastOne(env, 'INGEST_MAX_CONNECTIONS', 4000, 1_000_000),
    perAddress: atLeastOne(env, 'INGEST_MAX_CONNECTIONS_PER_ADDRESS', 32, 1_000_000),
  };
  // Node refuses a headers timeout above the request timeout.
  if (limits.headersMs > limits.requestMs)
    throw new ConfigError(
      'INGEST_HEADERS_TIMEOUT_MS',
      `must not exceed INGEST_REQUEST_TIMEOUT_MS (${limits.requestMs})`,
    );
  return limits;
}

/** The variables that hold secret keys: given only to processes that use them (not ingest, not migrate). */
export const SECRET_KEY_VARIABLES = ['SECRET_KEY', 'SECRET_KEY_PREVIOUS', 'S3_SECRET_ACCESS_KEY'];

const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function assetsS3(env: Env): S3AssetsConfig | null {
  if (oneOf(env, 'ASSETS_BACKEND', ['local', 's3'] as const, 'local') === 'local') return null;
  const endpoint = env.S3_ENDPOINT?.trim() ? url(env, 'S3_ENDPOINT', undefined, ['http:', 'https:']) : null;
  const bucket = str(env, 'S3_BUCKET', undefined);
  if (!BUCKET_NAME.test(bucket))
    throw new ConfigError('S3_BUCKET', 'must be an S3 bucket name (a-z, 0-9, dots, dashes)');
  // Never in the message: the value is a secret.
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY?.trim();
  if (!secretAccessKey) throw new ConfigError('S3_SECRET_ACCESS_KEY', 'is required with ASSETS_BACKEND=s3');
  return {
    endpoint,
    region: str(env, 'S3_REGION', 'us-east-1'),
    bucket,
    accessKeyId: str(env, 'S3_ACCESS_KEY_ID', undefined),
    secretAccessKey,
    forcePathStyle: bool(env, 'S3_FORCE_PATH_STYLE', endpoint !== null),
  };
}

export type ClickHouseLayout = { kind: 'single' } | { kind: 'replicated' } | { kind: 'sharded'; cluster: string };
const CLICKHOUSE_LAYOUTS = ['single', 'replicated', 'sharded'] as const;

function clickhouseReplicaUrls(env: Env): string[] {
  const more = (env.CLICKHOUSE_REPLICA_URLS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => url({ CLICKHOUSE_REPLICA_URLS: entry }, 'CLICKHOUSE_REPLICA_URLS', undefined, ['http:', 'https:']));
  return [...new Set(more)];
}

function clickhouseLayout(env: Env): ClickHouseLayout {
  const kind = oneOf(env, 'CLICKHOUSE_LAYOUT', CLICKHOUSE_LAYOUTS, 'single');
  if (kind !== 'sharded') return { kind };
  if (!env.CLICKHOUSE_CLUSTER?.trim())
    throw new ConfigError(
      'CLICKHOUSE_CLUSTER',
      'is required with CLICKHOUSE_LAYOUT=sharded (a cluster in remote_servers)',
    );
  return { kind, cluster: identifier(env, 'CLICKHOUSE_CLUSTER', '') };
}

function base64Key(name: string, raw: string): Buffer {
  const key = Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new ConfigError(name, 'must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return key;
}

function keyring(env: Env, appEnv: AppEnv, stateDir: string): Keyring {
  const current = masterKey(secretKey(env, appEnv, stateDir));
  const previousRaw = env.SECRET_KEY_PREVIOUS?.trim();
  const previous = previousRaw ? masterKey(base64Key('SECRET_KEY_PREVIOUS', previousRaw)) : null;
  return { current, previous: previous && previous.id !== current.id ? previous : null };
}

function secretKey(env: Env, appEnv: AppEnv, stateDir: string): Buffer {
  const raw = env.SECRET_KEY?.trim();
  if (raw) return base64Key('SECRET_KEY', raw);
  if (appEnv === 'production')
    throw new ConfigError('SECRET_KEY', 'is required in production (openssl rand -base64 32)');
  // Development and tests: one key per state folder, made on first start, so stored secrets survive restarts.
  const file = resolve(stateDir, 'secret.key');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { mode: 0o600, flag: 'wx' });
  }
  const key = Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
  if (key.length !== 32) throw new ConfigError('SECRET_KEY', `file ${file} does not hold a 32-byte base64 key`);
  return key;
}

/** The default sender: alerts@ the public host (localhost when BASE_URL names an IP address). */
function mailFrom(env: Env, baseUrl: string): string {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host.replace(/^\[|\]$/g, '')) ? 'localhost' : host;
  const value = str(env, 'MAIL_FROM', `WebPerf alerts <alerts@${domain}>`);
  if (/[\r\n]/.test(value) || !/@/.test(value))
    throw new ConfigError(
      'MAIL_FROM',
      `must be an e-mail address, optionally with a name (Name <address>), got "${value}"`,
    );
  return value;
}

/** OPERATOR_EMAIL: one plain address (no name, no line breaks). */
function operatorEmail(env: Env, baseUrl: string, production: boolean): string | null {
  const host = new URL(baseUrl).hostname;
  const domain = isIP(host.replace(/^\[|\]$/g, '')) ? 'localhost' : host;
  const value = env.OPERATOR_EMAIL?.trim() || (production ? '' : `operators@${domain}`);
  if (!value) return null;
  if (!/^[^\s@<>"',;]+@[^\s@<>"',;]+$/.test(value) || value.length > 254)
    throw new ConfigError('OPERATOR_EMAIL', `must be one e-mail address, got "${value}"`);
  return value;
}

/** The worker, the ingest and the api send e-mail, so they need SMTP_URL; in production there is no default. */
export function requireSmtpUrl(config: Pick<KeylessConfig, 'mail'>): string {
  if (!config.mail.smtpUrl)
    throw new ConfigError(
      'SMTP_URL',
      'is required in production for the worker, the ingest and the api (alert, monthly-limit and account e-mail), e.g. smtps://user:password@smtp.example.com:465',
    );
  return config.mail.smtpUrl;
}

/** TRUSTED_PROXIES: comma-separated IPv4/IPv6 addresses or CIDR blocks, normalised to address/prefix. */
function trustedProxies(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const [address = '', prefix, extra] = entry.split('/');
      const family = isIP(address);
      const bits = prefix === undefined ? (family === 6 ? 128 : 32) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
      if (!family || extra !== undefined || !(bits >= 0 && bits <= (family === 6 ? 128 : 32))) {
        throw new ConfigError(
          'TRUSTED_PROXIES',
          `must list IP addresses or CIDR blocks (10.0.0.0/8, ::1), got "${entry}"`,
        );
      }
      return `${address}/${bits}`;
    });
}

/**
 * A run whose benchmark index is below this was measured on a machine too busy to trust. 1000 is
 * Lighthouse's own threshold for warning that the host CPU is slower than it expects. Measured on a 2-core
 * development box (docs/operations/benchmarks.md, "Median of runs"): 1360-2900 with little else running, 1250-2400 with two
 * Lighthouse runs at once, below 1000 only in moments of four runs at once or a load of 8-18 on 2 cores.
 */
export const DEFAULT_MIN_BENCHMARK_INDEX = 1000;

export const WORKER_ROLES = ['all', 'main', 'scan', 'webhooks'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];
export const SCAN_RUNNER_KINDS = ['lighthouse', 'replay'] as const;
export type ScanRunnerKind = (typeof SCAN_RUNNER_KINDS)[number];

/** Config without the secret keys: for processes that handle no secrets (ingest, migrations). */
export type KeylessConfig = Omit<Config, 'keys'>;

export function loadConfig(env?: Env): Config;
export function loadConfig(env: Env, options: { keys: false }): KeylessConfig;
export function loadConfig(env: Env = process.env, options: { keys?: false } = {}): Config | KeylessConfig {
  const appEnv = oneOf(env, 'APP_ENV', ['development', 'test', 'production'] as const, 'development');
  const stateDir = resolve(PROJECT_ROOT, str(env, 'STATE_DIR', '.state'));
  const apiPort = port(env, 'API_PORT', 3000);
  const ingestPort = port(env, 'INGEST_PORT', 3100);
  const production = appEnv === 'production';
  const required = (fallback: string) => (production ? undefined : fallback);

  const scanRegions = regions(env);
  const baseUrl = url(env, 'BASE_URL', required(`http://127.0.0.1:${apiPort}`), ['http:', 'https:']);
  const workerScanRegions = (env.WORKER_SCAN_REGIONS?.trim() ?? scanRegions.available.join(','))
    .split(',')
    .map((r) => r.trim())
    .filter((r) => r && r !== 'none');
  for (const region of workerScanRegions) {
    if (!scanRegions.available.includes(region))
      throw new ConfigError('WORKER_SCAN_REGIONS', `names "${region}", which is not in SCAN_REGIONS`);
  }
  const workerRole = oneOf(env, 'WORKER_ROLE', WORKER_ROLES, 'all');
  if (workerRole === 'scan' && workerScanRegions.length === 0)
    throw new ConfigError('WORKER_SCAN_REGIONS', 'must name at least one region for WORKER_ROLE=scan');
  const scanRunner = oneOf(env, 'SCAN_RUNNER', SCAN_RUNNER_KINDS, 'lighthouse');
  if (scanRunner === 'replay' && appEnv !== 'test')
    throw new ConfigError('SCAN_RUNNER', 'replay (recorded results of the fixture pages) is for APP_ENV=test only');
  const config: KeylessConfig = {
    env: appEnv,
    assetsDir: resolve(stateDir, str(env, 'ASSETS_DIR', 'assets')),
    // Processes without keys (ingest, migrations) handle no secrets and store no images.
    assetsS3: options.keys === false ? null : assetsS3(env),
    logLevel: oneOf(env, 'LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    stateDir,
    baseUrl,
    api: {
      host: str(env, 'API_HOST', '127.0.0.1'),
      port: apiPort,
      metricsHost: str(env, 'API_METRICS_HOST', '127.0.0.1'),
      metricsPort: port(env, 'API_METRICS_PORT', apiPort >= 65534 ? 65533 : apiPort + 2),
    },
    ingest: {
      host: str(env, 'INGEST_HOST', '127.0.0.1'),
      port: ingestPort,
      publicUrl: url(env, 'INGEST_URL', required(`http://127.0.0.1:${ingestPort}`), ['http:', 'https:']),
      spoolDir: resolve(stateDir, str(env, 'INGEST_SPOOL_DIR', `ingest-spool-${ingestPort}`)),
      metricsHost: str(env, 'INGEST_METRICS_HOST', '127.0.0.1'),
      metricsPort: port(env, 'INGEST_METRICS_PORT', ingestPort === 65535 ? 65534 : ingestPort + 1),
      batch: {
        rows: atLeastOne(env, 'INGEST_BATCH_ROWS', 5000, 100_000),
        ms: atLeastOne(env, 'INGEST_BATCH_MS', 1000, 60_000),
      },
      spoolMaxBytes: atLeastOne(env, 'INGEST_SPOOL_MAX_MB', 2048, 1_000_000) * 1024 * 1024,
      spoolFsync: bool(env, 'INGEST_SPOOL_FSYNC', true),
      acceptHeadless: bool(env, 'RUM_ACCEPT_HEADLESS', false),
      keepMonths: atLeastOne(env, 'RUM_KEEP_MONTHS', 13, 120),
      rollupKeepMonths: rollupKeepMonths(env),
      connections: ingestConnections(env),
      rates: {
        perAddress: {
          rate: atLeastOne(env, 'INGEST_ADDRESS_RATE', 10, 1_000_000),
          burst: atLeastOne(env, 'INGEST_ADDRESS_BURST', 100, 1_000_000),
        },
        perSite: {
          rate: atLeastOne(env, 'INGEST_SITE_RATE', 200, 1_000_000),
          burst: atLeastOne(env, 'INGEST_SITE_BURST', 2000, 1_000_000),
        },
      },
    },
    worker: {
      healthHost: str(env, 'WORKER_HEALTH_HOST', '127.0.0.1'),
      healthPort: port(env, 'WORKER_HEALTH_PORT', 3200),
      sdkMetricsPort: env.WORKER_SDK_METRICS_PORT?.trim() ? port(env, 'WORKER_SDK_METRICS_PORT', 3201) : null,
      workflowBundlePath: env.WORKFLOW_BUNDLE_PATH?.trim()
        ? resolve(PROJECT_ROOT, env.WORKFLOW_BUNDLE_PATH.trim())
        : null,
      scanRegions: workerScanRegions,
      role: workerRole,
      webhookSlots: atLeastOne(env, 'WEBHOOK_WORKER_SLOTS', WEBHOOK_WORKER_SLOTS_DEFAULT, 1000),
      reconcileGraceMs:
        atLeastOne(env, 'RECONCILE_GRACE_SECONDS', RECONCILE_GRACE_DEFAULT_MS / 1000, RECONCILE_GRACE_MAX_SECONDS) *
        1000,
      scanRunner,
    },
    databaseUrl: url(env, 'DATABASE_URL', required('postgres://postgres@127.0.0.1:5432/webperf'), [
      'postgres:',
      'postgresql:',
    ]),
    clickhouse: {
      url: url(env, 'CLICKHOUSE_URL', required('http://127.0.0.1:8123'), ['http:', 'https:']),
      database: identifier(env, 'CLICKHOUSE_DATABASE', 'webperf'),
      user: str(env, 'CLICKHOUSE_USER', 'default'),
      password: env.CLICKHOUSE_PASSWORD ?? '',
      tcpPort: port(env, 'CLICKHOUSE_TCP_PORT', 9000),
      replicaUrls: clickhouseReplicaUrls(env),
      layout: clickhouseLayout(env),
    },
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
    trustedProxies: trustedProxies(env.TRUSTED_PROXIES),
    prometheus: { port: port(env, 'PROMETHEUS_PORT', 9090) },
    oauth: {
      registrationsPerHour: wholeNumber(env, 'OAUTH_REGISTRATIONS_PER_HOUR', 20, 1_000_000),
      metadataCaFile: env.OAUTH_METADATA_CA_FILE?.trim() || null,
    },
    mail: {
      smtpUrl: env.SMTP_URL?.trim()
        ? url(env, 'SMTP_URL', undefined, ['smtp:', 'smtps:'])
        : production
          ? null
          : 'smtp://127.0.0.1:2525',
      from: mailFrom(env, baseUrl),
      operatorEmail: operatorEmail(env, baseUrl, production),
    },
  };
  return options.keys === false ? config : { ...config, keys: keyring(env, appEnv, stateDir) };
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
