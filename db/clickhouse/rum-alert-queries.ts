import type { ClickHouseClient } from '@clickhouse/client';
import { RUM_ALERT_VALUES_PER_SOURCE, type SiteWindow } from '../../core/rum/alert-check.ts';
import { isRumMetric } from '../../core/rum/metrics.ts';
import { ClickHouseSqlError, ident, int, intList, sql, timestamp } from './sql.ts';

/**
 * p75, sample count and distinct sender networks per site and metric over the `windowMinutes` before `now`,
 * for many sites in one query (the live-data alert check asks once per distinct window, never once per
 * configuration). Values sent again (same page view and metric id: a later send, a retried request, a replayed
 * spool file) count once, with the highest `seq` (db/clickhouse/schema.ts, version 2). Each sender network
 * (`source`, version 3) adds at most RUM_ALERT_VALUES_PER_SOURCE values (LIMIT BY, the same on 18.16 and
 * current ClickHouse), so one sender cannot move the p75 (core/rum/alert-check.ts). p75 is `quantileExact`
 * (core/rum/metrics.ts).
 */
export function siteWindowsSql(database: string, siteIds: readonly number[], windowMinutes: number, now: Date): string {
  if (!Number.isSafeInteger(windowMinutes) || windowMinutes < 1)
    throw new ClickHouseSqlError(`invalid window: ${windowMinutes}`);
  const from = new Date(now.getTime() - windowMinutes * 60_000);
  return sql`SELECT site_id, metric, quantileExact(0.75)(value) AS p75, count() AS samples, uniqExact(source) AS sources
    FROM (
      SELECT site_id, metric, value, source
      FROM (
        SELECT site_id, metric, dedupe_key, argMax(value, seq) AS value, argMax(source, seq) AS source
        FROM ${ident(database)}.rum_metrics
        WHERE site_id IN (${intList(siteIds, 0, 4_294_967_295)}) AND ts > ${timestamp(from)} AND ts <= ${timestamp(now)}
        GROUP BY site_id, metric, dedupe_key
      )
      ORDER BY site_id, metric, source, dedupe_key
      LIMIT ${int(RUM_ALERT_VALUES_PER_SOURCE, 1, 1_000_000)} BY site_id, metric, source
    )
    GROUP BY site_id, metric`;
}

/** Runs siteWindowsSql: a map from site id to what its window holds (sites without samples are absent). */
export async function siteWindows(
  client: ClickHouseClient,
  database: string,
  siteIds: readonly number[],
  windowMinutes: number,
  now: Date,
): Promise<Map<number, SiteWindow>> {
  const windows = new Map<number, SiteWindow>();
  if (siteIds.length === 0) return windows;
  const result = await client.query({
    query: siteWindowsSql(database, siteIds, windowMinutes, now),
    format: 'JSONEachRow',
  });
  for (const row of await result.json<{
    site_id: number | string;
    metric: string;
    p75: number | string;
    samples: number | string;
    sources: number | string;
  }>()) {
    if (!isRumMetric(row.metric)) continue;
    const siteId = Number(row.site_id);
    const window = windows.get(siteId) ?? {};
    window[row.metric] = { p75: Number(row.p75), samples: Number(row.samples), sources: Number(row.sources) };
    windows.set(siteId, window);
  }
  return windows;
}
