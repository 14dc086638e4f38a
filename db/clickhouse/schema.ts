import type { ClickHouseClient } from '@clickhouse/client';
import { ROLLUP_TABLE, rollupTableSql, TODAY_TABLE } from './rum-rollups.ts';
import type { ClickHouseLayout } from '../../infra/config.ts';
import { ident, int, sql, str } from './sql.ts';
import { distributedTable, SINGLE_LAYOUT, storageDatabase, tableEngine, type ShardColumn } from './table-engine.ts';

/**
 * ClickHouse schema versions. Each statement must run on ClickHouse 18.16 (local stack) and current
 * ClickHouse (production): no TTL, CODEC, LowCardinality or DateTime64. Old data is dropped by monthly partition.
 * Every CREATE TABLE takes its engine from tableEngine (table-engine.ts), so the layout decides replication.
 */
const VERSIONS: ReadonlyArray<{ version: number; statements: (db: string, layout: ClickHouseLayout) => string[] }> = [
  {
    version: 1,
    statements: (db, layout) => [
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
      ) ENGINE = ${tableEngine(layout, 'MergeTree', db, 'rum_events')} PARTITION BY toYYYYMM(ts) ORDER BY (site_id, metric, ts)`,
    ],
  },
  {
    // Version 1's rum_events was never written to. rum_metrics holds one row per metric value a beacon
    // carried (core/rum/beacon.ts); a value sent again (a later send of the page view, a retried request, a
    // replayed spool file) is a second row with the same (page_view_id, metric_id), and every query keeps only
    // the row with the highest seq of each pair (queries in db/clickhouse/rum-queries.ts), so nothing counts twice.
    // The dedupe rule, for every query: GROUP BY site_id, page_view_id, metric_id and take argMax(<column>, seq)
    // (the value, path, device, navigation, attributions of the latest send), min(ts) as the time. Rows the
    // ingest spool replays (after a ClickHouse outage, an insert that timed out but had succeeded, or a crash)
    // are byte-identical copies (same seq, same ts, written once into the spool), so argMax picks the same
    // values whichever copy it meets. Page views of a month (the monthly limit and `pageviews_this_month`):
    // distinct page_view_id in the month, each weighted 100 / its sample_rate (rum-ingest.ts countMonthPageviews).
    // 18.16 has no insert deduplication for plain MergeTree, hence dedupe at query time. `dedupe_key` is the
    // pair's 64-bit hash, computed once at insert (MATERIALIZED: inserts never send it, SELECT * leaves it out),
    // so queries group by one integer column instead of hashing two strings per row at read time.
    version: 2,
    statements: (db, layout) => [
      sql`DROP TABLE IF EXISTS ${ident(db)}.rum_events`,
      sql`CREATE TABLE IF NOT EXISTS ${ident(db)}.rum_metrics (
        site_id UInt32,
        ts DateTime('UTC'),
        page_view_id String,
        seq UInt16,
        metric_id String,
        metric Enum8('LCP' = 1, 'CLS' = 2, 'INP' = 3, 'FCP' = 4, 'TTFB' = 5),
        value Float64,
        device Enum8('desktop' = 1, 'mobile' = 2, 'tablet' = 3),
        navigation Enum8('navigate' = 1, 'reload' = 2, 'back-forward' = 3, 'back-forward-cache' = 4, 'prerender' = 5, 'restore' = 6, 'soft-navigation' = 7),
        path String,
        sample_rate UInt8,
        attr_target String,
        attr_url String,
        attr_type String,
        dedupe_key UInt64 MATERIALIZED cityHash64(page_view_id, metric_id)
      ) ENGINE = ${tableEngine(layout, 'MergeTree', db, 'rum_metrics')} PARTITION BY toYYYYMM(ts) ORDER BY (site_id, metric, ts)`,
      // Beacons the ingest service refused for a known site, per day and reason (the owner sees the
      // monthly-limit refusals in the dashboard). Summed on merge; queries sum anyway.
      sql`CREATE TABLE IF NOT EXISTS ${ident(db)}.rum_rejections (
        site_id UInt32,
        day Date,
        reason String,
        beacons UInt64
      ) ENGINE = ${tableEngine(layout, 'SummingMergeTree', db, 'rum_rejections', ['beacons'])} PARTITION BY toYYYYMM(day) ORDER BY (site_id, day, reason)`,
    ],
  },
  {
    // `source`: the sender's network (IPv4 /24, IPv6 /48), hashed to 32 bits by the ingest (ingest/source.ts):
    // the alert check counts distinct sources and caps what one source contributes. Rows from before this
    // version read as one source per page view (the old behaviour). `keep_one_in`: past the site's monthly
    // limit the ingest keeps 1 page view in N and writes N here, so counts weigh each kept one N times.
    // A JSONEachRow row without these keys (a spool written before this version) gets 0 on 18.16 and the
    // default on current ClickHouse; queries read keep_one_in as greatest(keep_one_in, 1).
    version: 3,
    statements: (db) => [
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN source UInt32 DEFAULT toUInt32(bitAnd(cityHash64(page_view_id), 4294967295))`,
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN keep_one_in UInt16 DEFAULT 1`,
    ],
  },
  {
    // Daily rollups of rum_metrics for long windows (db/clickhouse/rum-rollups.ts holds the CREATE).
    version: 4,
    statements: (db, layout) => [
      rollupTableSql(db, ROLLUP_TABLE, tableEngine(layout, 'AggregatingMergeTree', db, ROLLUP_TABLE)),
    ],
  },
  {
    // Today's rollup snapshots, a partition per cutoff (db/clickhouse/rum-rollups.ts holds the CREATE).
    version: 5,
    statements: (db, layout) => [
      rollupTableSql(db, TODAY_TABLE, tableEngine(layout, 'AggregatingMergeTree', db, TODAY_TABLE), 'today'),
    ],
  },
  {
    // Diagnostics (core/rum/diagnostics.ts): `phases`, an LCP's or INP's phases in that module's order (empty
    // for other metrics and for collectors that send none); the INP interaction's long-animation-frame scripts
    // as parallel arrays, longest first (ARRAY JOIN reads them as rows). Rows from before read as empty arrays.
    version: 6,
    statements: (db) => [
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN phases Array(Float64)`,
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN script_urls Array(String)`,
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN script_functions Array(String)`,
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN script_invokers Array(String)`,
      sql`ALTER TABLE ${ident(db)}.rum_metrics ADD COLUMN script_durations Array(Float64)`,
    ],
  },
];

export const LATEST_CLICKHOUSE_VERSION = Math.max(...VERSIONS.map((v) => v.version));

/** The highest schema version applied to `database` (0 when none is recorded). */
export async function appliedClickHouseVersion(client: ClickHouseClient, database: string): Promise<number> {
  const result = await client.query({
    query: sql`SELECT max(version) AS version FROM ${ident(database)}.schema_versions`,
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ version: number }>();
  return Number(row?.version ?? 0);
}

/**
 * Creates the database and applies missing versions; safe to run from several processes and any number of times.
 * With several nodes (every node of a replicated or sharded layout), each version is applied on all of them
 * before the next one, so a replica is created with the structure its peers have in ZooKeeper at that moment.
 */
export async function ensureClickHouseSchema(
  nodes: ClickHouseClient | ClickHouseClient[],
  database: string,
  layout: ClickHouseLayout = SINGLE_LAYOUT,
): Promise<number[]> {
  const clients = Array.isArray(nodes) ? nodes : [nodes];
  const db = ident(database);
  const storage = storageDatabase(layout, database);
  const applied: Set<number>[] = [];
  for (const client of clients) {
    for (const name of new Set([database, storage]))
      await client.command({ query: sql`CREATE DATABASE IF NOT EXISTS ${ident(name)}` });
    await client.command({
      query: sql`CREATE TABLE IF NOT EXISTS ${db}.schema_versions (version UInt32, applied_at DateTime('UTC')) ENGINE = TinyLog`,
    });
    const rows = await (
      await client.query({ query: sql`SELECT version FROM ${db}.schema_versions`, format: 'JSONEachRow' })
    ).json<{ version: number }>();
    applied.push(new Set(rows.map((r) => Number(r.version))));
  }
  const newlyApplied: number[] = [];
  for (const { version, statements } of VERSIONS) {
    const pending = clients.filter((_, i) => !applied[i]!.has(version));
    if (pending.length === 0) continue;
    for (const statement of statements(storage, layout)) {
      for (const client of pending) {
        try {
          await client.command({ query: statement });
        } catch (error) {
          // 18.16 has no ADD COLUMN IF NOT EXISTS: a process that lost the race to apply a version meets the
          // column, and so does every replica after the first (a replicated ALTER reaches all replicas).
          if (!/column with this name already exists/.test((error as Error).message)) throw error;
        }
      }
    }
    for (const client of pending)
      await client.command({
        query: sql`INSERT INTO ${db}.schema_versions (version, applied_at) VALUES (${int(version, 1, 1_000_000)}, now())`,
      });
    newlyApplied.push(version);
  }
  if (layout.kind === 'sharded') for (const client of clients) await ensureDistributedTables(client, layout, database);
  return newlyApplied;
}

/**
 * A Distributed table in `database` for every table of the shard database, with the same columns: created when
 * missing, recreated when a version changed the shard table (it holds no rows itself: inserts through it are
 * synchronous, see client.ts).
 */
async function ensureDistributedTables(
  client: ClickHouseClient,
  layout: Extract<ClickHouseLayout, { kind: 'sharded' }>,
  database: string,
): Promise<void> {
  const storage = storageDatabase(layout, database);
  const columnsOf = async (db: string) => {
    const rows = await (
      await client.query({
        query: sql`SELECT table, name, type, default_kind, default_expression FROM system.columns
          WHERE database = ${str(db)}`, // in definition order (18.16 has no position column)
        format: 'JSONEachRow',
      })
    ).json<ShardColumn & { table: string }>();
    const byTable = new Map<string, ShardColumn[]>();
    for (const { table, ...column } of rows) byTable.set(table, [...(byTable.get(table) ?? []), column]);
    return byTable;
  };
  const tables = await (
    await client.query({
      // A materialized view's own storage (`.inner.<view>`) is read through the view, not a Distributed table.
      query: sql`SELECT name FROM system.tables
        WHERE database = ${str(storage)} AND engine LIKE 'Replicated%' AND NOT startsWith(name, '.inner')`,
      format: 'JSONEachRow',
    })
  ).json<{ name: string }>();
  const [shardColumns, distributedColumns] = [await columnsOf(storage), await columnsOf(database)];
  const names = (columns: ShardColumn[] | undefined) => columns?.map((c) => `${c.name} ${c.type}`).join(', ');
  for (const { name } of tables) {
    const columns = shardColumns.get(name) ?? [];
    const existing = distributedColumns.get(name);
    if (existing && names(existing) === names(columns)) continue;
    if (existing) await client.command({ query: sql`DROP TABLE IF EXISTS ${ident(database)}.${ident(name)}` });
    await client.command({ query: distributedTable(layout, database, name, columns) });
  }
}

export async function dropClickHouseDatabase(
  client: ClickHouseClient,
  database: string,
  layout: ClickHouseLayout = SINGLE_LAYOUT,
): Promise<void> {
  for (const name of new Set([database, storageDatabase(layout, database)]))
    await client.command({ query: sql`DROP DATABASE IF EXISTS ${ident(name)}` });
}
