import { randomBytes } from 'node:crypto';
import type { ClickHouseClient } from '@clickhouse/client';
import { METRIC_RULES, RUM_METRICS, type RumMetric } from '../../core/rum/metrics.ts';
import {
  RESEND_GRACE_DAYS,
  ROLLUP_REBUILD_DAYS,
  rollupScale,
  startOfUtcDay,
  startOfUtcHour,
  utcDay,
} from '../../core/rum/rollups.ts';
import { oldestKeptMonth } from './partitions.ts';
import { ident, int, join, num, oneOf, part, sql, str, timestamp } from './sql.ts';

/**
 * Daily rollups of rum_metrics (rules: core/rum/rollups.ts). `rum_daily` holds one row per site, UTC day,
 * metric and device: the deduplicated values' quantileTiming state and exact counts. A job (rollUpRumDays, run
 * by the ingest) builds whole finished days from the raw rows into a table of its own and swaps each day in
 * with `REPLACE PARTITION` (a partition per day): atomic, and running it again or from several processes at
 * once gives the same rows, never a second copy. A day is rolled up when its partition exists.
 *
 * Today's snapshots (rollUpToday, run by the ingest every few minutes) go to `rum_today`: the same columns plus
 * the snapshot's cutoff `until`, a partition per cutoff. A snapshot is swapped in the same way; older cutoffs
 * stay for TODAY_KEEP_MS after a newer one, so a reader that chose a cutoff a little earlier still finds
 * exactly the rows of that cutoff.
 */

export const ROLLUP_TABLE = 'rum_daily';
export const TODAY_TABLE = 'rum_today';

/** How long a snapshot of today stays after the one with the next cutoff: far longer than a reader's cache. */
const TODAY_KEEP_MS = 3_600_000;

/** The job's build tables are always local (REPLACE PARTITION takes parts from a non-replicated table too). */
const BUILD_ENGINE = part`AggregatingMergeTree`;

/**
 * CREATE for rum_daily (engine from the layout: schema.ts, table-engine.ts) and for the job's build tables (same
 * columns and keys, so partitions can be swapped).
 */
export function rollupTableSql(
  database: string,
  table: string,
  engine: ReturnType<typeof part>,
  kind: 'days' | 'today' = 'days',
): string {
  return sql`CREATE TABLE IF NOT EXISTS ${ident(database)}.${ident(table)} (
    site_id UInt32,
    day Date,${
      kind === 'today'
        ? part`
    until DateTime('UTC'),`
        : part``
    }
    metric Enum8('LCP' = 1, 'CLS' = 2, 'INP' = 3, 'FCP' = 4, 'TTFB' = 5),
    device Enum8('desktop' = 1, 'mobile' = 2, 'tablet' = 3),
    quantiles AggregateFunction(quantilesTiming(0.5, 0.75), UInt32),
    samples AggregateFunction(sum, UInt64),
    good AggregateFunction(sum, UInt64),
    poor AggregateFunction(sum, UInt64)
  ) ENGINE = ${engine} PARTITION BY ${kind === 'today' ? part`until` : part`toYYYYMMDD(day)`} ORDER BY (site_id, day, metric, device)
  SETTINGS index_granularity = 256`; // a site's day is 15 rows of states up to 22 KB: read only its own granules
}

/** A per-metric number as one SQL expression over the `metric` column. */
export function perMetric(value: (metric: RumMetric) => number) {
  return part`multiIf(${join(RUM_METRICS.map((m) => part`metric = ${oneOf(m, RUM_METRICS)}, ${num(value(m))}`))}, 0)`;
}

/**
 * The rollup's aggregate states over deduplicated values `v` of column `metric`: the same expression for
 * building rollups and for the raw part of a query that merges with them, so both give identical states.
 */
export const rollupStates = part`quantilesTimingState(0.5, 0.75)(toUInt32(floor(v * ${perMetric(rollupScale)} + 0.5))) AS quantiles,
  sumState(toUInt64(1)) AS samples,
  sumState(toUInt64(v <= ${perMetric((m) => METRIC_RULES[m].good)})) AS good,
  sumState(toUInt64(v > ${perMetric((m) => METRIC_RULES[m].poor)})) AS poor`;

const DAY_MS = 86_400_000;
const dayPartition = (day: Date) => int(Number(utcDay(day).replace(/-/g, '')), 19700101, 99991231);

/** The UTC days (YYYY-MM-DD) that are rolled up. */
export async function rolledUpDays(client: ClickHouseClient, database: string): Promise<Set<string>> {
  const result = await client.query({
    query: sql`SELECT DISTINCT partition FROM system.parts WHERE database = ${str(database)} AND table = ${str(ROLLUP_TABLE)} AND active`,
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ partition: string }>();
  return new Set(rows.map(({ partition }) => partition.replace(/^'?(\d{4})(\d{2})(\d{2})'?$/, '$1-$2-$3')));
}

/** Finished UTC days with raw rows, from `from` on. */
async function rawDays(client: ClickHouseClient, database: string, from: Date, to: Date): Promise<string[]> {
  const result = await client.query({
    query: sql`SELECT DISTINCT toString(toDate(ts)) AS day FROM ${ident(database)}.rum_metrics
      WHERE ts >= ${timestamp(from)} AND ts < ${timestamp(to)}`,
    format: 'JSONEachRow',
  });
  return (await result.json<{ day: string }>()).map((row) => row.day);
}

/**
 * Rolls up every finished day with raw rows (within the raw rows' retention, `rawKeepMonths`) that is not
 * rolled up yet, and rebuilds the last ROLLUP_REBUILD_DAYS finished days. Returns the days built.
 */
export async function rollUpRumDays(
  client: ClickHouseClient,
  database: string,
  rawKeepMonths: number,
  now = new Date(),
): Promise<string[]> {
  const today = startOfUtcDay(now);
  const oldestMonth = oldestKeptMonth(now, rawKeepMonths);
  const rawFrom = new Date(Date.UTC(Math.floor(oldestMonth / 100), (oldestMonth % 100) - 1, 1));
  const done = await rolledUpDays(client, database);
  const days = new Set((await rawDays(client, database, rawFrom, today)).filter((day) => !done.has(day)));
  for (let i = 1; i <= ROLLUP_REBUILD_DAYS; i++) {
    const day = new Date(today.getTime() - i * DAY_MS);
    if (day >= rawFrom) days.add(utcDay(day));
  }
  const sorted = [...days].sort();
  for (const day of sorted) await rollUpDay(client, database, new Date(`${day}T00:00:00Z`));
  return sorted;
}

/** Builds one day's rollup in a table of this call's own and swaps it in; the same raw rows give the same day. */
export async function rollUpDay(client: ClickHouseClient, database: string, day: Date): Promise<void> {
  await buildAndSwap(client, database, day, null);
}

/**
 * Builds today's snapshot up to the start of the current hour and swaps it in (again, if it exists: rows that
 * came late), then drops snapshots superseded more than TODAY_KEEP_MS ago. Returns the cutoff, or null just
 * after midnight (nothing of today to roll up).
 */
export async function rollUpToday(client: ClickHouseClient, database: string, now = new Date()): Promise<Date | null> {
  const until = startOfUtcHour(now);
  const today = startOfUtcDay(now);
  if (until.getTime() <= today.getTime()) return null;
  await buildAndSwap(client, database, today, until);
  for (const cutoff of await todayCutoffs(client, database)) {
    if (cutoff.getTime() >= until.getTime() - TODAY_KEEP_MS) continue;
    await client.command({
      query: sql`ALTER TABLE ${ident(database)}.${ident(TODAY_TABLE)} DROP PARTITION ${timestamp(cutoff)}`,
    });
  }
  return until;
}

/** The cutoffs of today's snapshots there are (a partition's id is its cutoff in Unix seconds). */
export async function todayCutoffs(client: ClickHouseClient, database: string): Promise<Date[]> {
  const result = await client.query({
    query: sql`SELECT DISTINCT partition_id FROM system.parts WHERE database = ${str(database)} AND table = ${str(TODAY_TABLE)} AND active`,
    format: 'JSONEachRow',
  });
  const rows = await result.json<{ partition_id: string }>();
  return rows.map(({ partition_id }) => new Date(Number(partition_id) * 1000)).filter((at) => !isNaN(at.getTime()));
}

/**
 * Rolls up the values first seen in [day, end) — end the next midnight, or `until` for a snapshot of today —
 * each with its last value among the rows up to RESEND_GRACE_DAYS after the day (before `until` for a
 * snapshot), in a table of this call's own, and swaps the partition in.
 */
async function buildAndSwap(client: ClickHouseClient, database: string, day: Date, until: Date | null): Promise<void> {
  const db = ident(database);
  const target = ident(until ? TODAY_TABLE : ROLLUP_TABLE);
  const build = ident(`${until ? 'rum_today' : 'rum_daily'}_build_${randomBytes(6).toString('hex')}`);
  await client.command({ query: rollupTableSql(database, build.text, BUILD_ENGINE, until ? 'today' : 'days') });
  try {
    const next = new Date(day.getTime() + DAY_MS);
    const end = until ?? next;
    const rowsTo = until ?? new Date(next.getTime() + RESEND_GRACE_DAYS * DAY_MS);
    await client.command({
      query: sql`INSERT INTO ${db}.${build} (site_id, day, ${until ? part`until, ` : part``}metric, device, quantiles, samples, good, poor)
        SELECT site_id, toDate(${timestamp(day)}) AS day, ${until ? part`${timestamp(until)} AS until, ` : part``}metric, device, ${rollupStates}
        FROM (
          SELECT site_id, metric, argMax(value, seq) AS v, argMax(device, seq) AS device, min(ts) AS first_ts
          FROM ${db}.rum_metrics
          WHERE ts >= ${timestamp(new Date(day.getTime() - RESEND_GRACE_DAYS * DAY_MS))} AND ts < ${timestamp(rowsTo)}
          GROUP BY site_id, metric, dedupe_key
          HAVING first_ts >= ${timestamp(day)} AND first_ts < ${timestamp(end)}
        )
        GROUP BY site_id, metric, device`,
    });
    const partition = until ? timestamp(until) : dayPartition(day);
    await client.command({
      query: sql`ALTER TABLE ${db}.${target} REPLACE PARTITION ${partition} FROM ${db}.${build}`,
    });
  } finally {
    await client.command({ query: sql`DROP TABLE IF EXISTS ${db}.${build}` });
  }
}

/**
 * Drops rollup days before the last `keepMonths` months (the current one included), as dropOldRumPartitions
 * does for raw rows. Returns the days dropped.
 */
export async function dropOldRollupDays(
  client: ClickHouseClient,
  database: string,
  keepMonths: number,
  now = new Date(),
): Promise<string[]> {
  if (!Number.isInteger(keepMonths) || keepMonths < 1)
    throw new Error(`keepMonths must be a whole number of at least 1, got ${keepMonths}`);
  const oldest = `${String(oldestKeptMonth(now, keepMonths)).replace(/(\d{4})(\d{2})/, '$1-$2')}-01`;
  const dropped: string[] = [];
  for (const day of [...(await rolledUpDays(client, database))].sort()) {
    if (day >= oldest) break;
    try {
      await client.command({
        query: sql`ALTER TABLE ${ident(database)}.${ident(ROLLUP_TABLE)} DROP PARTITION ${dayPartition(new Date(`${day}T00:00:00Z`))}`,
      });
      dropped.push(day);
    } catch (error) {
      if (!/partition|not exist|No such/i.test((error as Error).message)) throw error;
    }
  }
  return dropped;
}
