import { Readable } from 'node:stream';
import type { ClickHouseClient } from '@clickhouse/client';
import { ident, identList, int, sql, timestamp } from './sql.ts';

/** The ingest service's statements on rum_metrics and rum_rejections. */

/** The columns of rum_metrics, in table order; every insert names all of them. */
export const RUM_METRIC_COLUMNS = [
  'site_id',
  'ts',
  'page_view_id',
  'seq',
  'metric_id',
  'metric',
  'value',
  'device',
  'navigation',
  'path',
  'sample_rate',
  'attr_target',
  'attr_url',
  'attr_type',
  'source',
  'keep_one_in',
  'phases',
  'script_urls',
  'script_functions',
  'script_invokers',
  'script_durations',
] as const;
export type RumMetricColumn = (typeof RUM_METRIC_COLUMNS)[number];

/**
 * Inserts rum_metrics rows given as JSONEachRow text, naming every column (on 18.16 an omitted column gets
 * its type's zero, not a default). The text comes from the ingest spool as written, so it is not parsed again.
 */
export async function insertRumMetricRows(
  client: ClickHouseClient,
  database: string,
  columns: readonly string[],
  jsonEachRow: Buffer,
): Promise<void> {
  const result = await client.exec({
    query: sql`INSERT INTO ${ident(database)}.rum_metrics (${identList(columns)}) FORMAT JSONEachRow`,
    values: Readable.from([jsonEachRow]),
  });
  await new Promise<void>((done, fail) => {
    result.stream.once('error', fail).once('end', done).resume();
  });
}

export interface RumRejectionRow {
  site_id: number;
  /** UTC day, YYYY-MM-DD. */
  day: string;
  reason: string;
  beacons: number;
}

export async function insertRumRejections(
  client: ClickHouseClient,
  database: string,
  rows: RumRejectionRow[],
): Promise<void> {
  if (rows.length === 0) return;
  await client.insert({
    table: `${ident(database).text}.rum_rejections`,
    values: rows,
    format: 'JSONEachRow',
    columns: ['site_id', 'day', 'reason', 'beacons'],
    // Counts, not identities: two flushes with the same counts are two sets of refusals, which a replicated
    // table would otherwise drop as a repeated block. (No effect on a plain MergeTree.)
    clickhouse_settings: { insert_deduplicate: 0 },
  });
}

/**
 * Page views of a site in a UTC month (`YYYY-MM`), as the monthly limit counts them: each page view once
 * (rows of every send and replay collapse to one page_view_id), weighted by 100 / its sample rate and, past
 * the limit, by the reduced sample's keep_one_in (core/rum/over-limit.ts).
 */
export async function countMonthPageviews(
  client: ClickHouseClient,
  database: string,
  siteId: number,
  month: string,
): Promise<number> {
  const start = new Date(`${month}-01T00:00:00Z`);
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  const result = await client.query({
    query: sql`SELECT sum(w) AS pageviews FROM (
      SELECT page_view_id, 100 / min(sample_rate) * max(greatest(keep_one_in, 1)) AS w FROM ${ident(database)}.rum_metrics
      WHERE site_id = ${int(siteId, 0, 4_294_967_295)} AND ts >= ${timestamp(start)} AND ts < ${timestamp(end)}
      GROUP BY page_view_id)`,
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ pageviews: number | string | null }>();
  return Math.round(Number(row?.pageviews ?? 0));
}
