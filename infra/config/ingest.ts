import { atLeastOne, bool, ConfigError, port, str, url, type Env } from './parsers.ts';
import type { Config, IngestConnectionLimits } from './types.ts';
import { resolve } from 'node:path';

/** Rollups outlive the raw rows they are made of, never the other way round. */
function rollupKeepMonths(env: Env): number {
  const raw = atLeastOne(env, 'RUM_KEEP_MONTHS', 13, 120);
  const months = atLeastOne(env, 'RUM_ROLLUP_KEEP_MONTHS', Math.max(25, raw), 240);
  if (months < raw)
    throw new ConfigError('RUM_ROLLUP_KEEP_MONTHS', `must be at least RUM_KEEP_MONTHS (${raw}), got "${months}"`);
  return months;
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

/** The RUM ingest service's section (INGEST_PORT read first, by loadConfig); `required` gives the development default, or none in production. */
export function loadIngest(
  env: Env,
  ingestPort: number,
  stateDir: string,
  required: (fallback: string) => string | undefined,
): Config['ingest'] {
  return {
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
  };
}
