import type { ClickHouseClient } from '@clickhouse/client';
import { ident, int, sql } from './sql.ts';

/**
 * ClickHouse schema versions. Each statement must run on ClickHouse 18.16 (local stack) and current
 * ClickHouse (production): no TTL, CODEC, LowCardinality or DateTime64. Old data is dropped by monthly partition.
 */
const VERSIONS: ReadonlyArray<{ version: number; statements: (db: string) => string[] }> = [
  {
    version: 1,
    statements: (db) => [
      sql`CREATE TABLE IF NOT EXISTS ${ident(db)}.rum_events (
        site_id UInt32,
        ts DateTime('UTC'),
        metric Enum8('LCP' = 1, 'CLS' = 2, 'INP' = 3, 'FCP' = 4, 'TTFB' = 5),
        value Float64,
        rating Enum8('good' = 1, 'needs-improvement' = 2, 'poor' = 3),
        device Enum8('desktop' = 1, 'mobile' = 2, 'tablet' = 3),
        path String,
        metric_id String,
        page_view_id String
      ) ENGINE = MergeTree PARTITION BY toYYYYMM(ts) ORDER BY (site_id, metric, ts)`,
    ],
  },
];

export const LATEST_CLICKHOUSE_VERSION = Math.max(...VERSIONS.map((v) => v.version));

/** Creates the database and applies missing versions; safe to run from several processes and any number of times. */
export async function ensureClickHouseSchema(client: ClickHouseClient, database: string): Promise<number[]> {
  const db = ident(database);
  await client.command({ query: sql`CREATE DATABASE IF NOT EXISTS ${db}` });
  await client.command({
    query: sql`CREATE TABLE IF NOT EXISTS ${db}.schema_versions (version UInt32, applied_at DateTime('UTC')) ENGINE = TinyLog`,
  });
  const rows = await (await client.query({ query: sql`SELECT version FROM ${db}.schema_versions`, format: 'JSONEachRow' })).json<{ version: number }>();
  const applied = new Set(rows.map((r) => Number(r.version)));
  const newlyApplied: number[] = [];
  for (const { version, statements } of VERSIONS) {
    if (applied.has(version)) continue;
    for (const statement of statements(database)) await client.command({ query: statement });
    await client.command({ query: sql`INSERT INTO ${db}.schema_versions (version, applied_at) VALUES (${int(version, 1, 1_000_000)}, now())` });
    newlyApplied.push(version);
  }
  return newlyApplied;
}

export async function dropClickHouseDatabase(client: ClickHouseClient, database: string): Promise<void> {
  await client.command({ query: sql`DROP DATABASE IF EXISTS ${ident(database)}` });
}
