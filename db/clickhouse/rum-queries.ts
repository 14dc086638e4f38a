import {
  DEVICES,
  METRIC_RULES,
  NAVIGATION_TYPES,
  RUM_METRICS,
  isRumMetric,
  roundMetric,
  type NavigationType,
  type RumMetric,
} from '../../core/rum/metrics.ts';
import { monthWindow, type TimeWindow } from '../../core/rum/periods.ts';
import type { DeviceFilter, MetricStats, RumQueries } from '../../core/rum/queries.ts';
import { planRollupWindow, readsRollups, rollupScale, type RollupPlan } from '../../core/rum/rollups.ts';
import { perMetric, rolledUpDays, rollupStates, ROLLUP_TABLE, TODAY_TABLE, todayCutoffs } from './rum-rollups.ts';
import { rumDiagnosticsQueries } from './rum-diagnostics.ts';
import { reach, rows, rowsOf, SITE_ID_MAX, type RumDataSource } from './rum-rows.ts';
import { ident, int, ints, join, oneOf, part, sql, timestamp } from './sql.ts';

/**
 * Every read of live data (rum_metrics, rum_rejections) for the API, the dashboard and the alert check.
 *
 * Dedupe: a metric value can arrive more than once (the collector sends a page view's batch again when a
 * value changes, a client retries, the ingest spool is replayed). Each row carries its page view id, the
 * metric's id and the send's `seq`; every query first reduces the rows to one per (page_view_id, metric_id),
 * the one with the highest seq (`argMax(value, seq)`), so a resend or replay never counts twice. The pair is
 * grouped by its 64-bit cityHash64, the column `dedupe_key` computed at insert (schema.ts; a collision among a
 * million values in one window has a chance of about 3 in 100 million, and would merge two values). Exact replays
 * (same seq) carry the same value, so which copy wins does not matter. The time filter (and the page filter,
 * `path`, of `summary` and `navigationSplit`) applies before the reduction; a value is dated by the first row
 * seen of it (`min(ts)`).
 *
 * Summaries of 7 days or more (without a path) read daily rollups for whole days and today's snapshot up to its
 * cutoff instead (rum-rollups.ts, core/rum/rollups.ts): exact counts, p75 from quantileTiming states within
 * rollupTolerance.
 *
 * Percentiles otherwise: `quantileExact` / `quantilesExact` on the deduplicated values: sort the n values and
 * take the one at 0-based rank floor(q × n) (p75 of 4 values is the 4th smallest, p50 of 4 the 3rd): exact,
 * deterministic, an actual measured value (core/rum/metrics.ts exactQuantile is the same rule; a test checks
 * ClickHouse 18.16 against it for n = 1..10). Values come back in the API's units and rounding (roundMetric:
 * whole ms, CLS to four decimals); ratings are of the rounded value, so a number and its rating never disagree.
 *
 * The diagnostics (INP culprits, LCP phases) follow the same rules in rum-diagnostics.ts.
 *
 * SQL stays in the subset ClickHouse 18.16 and current versions share (DESIGN.md). Note that on 18.16 a
 * quantile over no rows at all is null, and that no query here aggregates without a GROUP BY that drops
 * empty sets.
 */

export type { RumDataSource } from './rum-rows.ts';
export type {
  DeviceFilter,
  HistoryDay,
  InpCulprits,
  LcpPhases,
  MetricStats,
  NavigationShare,
  PageAttribution,
  RumQueries,
  SlowPage,
} from '../../core/rum/queries.ts';

const emptyStats = (): MetricStats => ({ p75: null, samples: 0, good: 0, needsImprovement: 0, poor: 0 });

type SummaryRow = { metric: string; p75: number | null; samples: string; good: string; poor: string };

/** The exact summary: every deduplicated value of the window, quantileExact. */
function exactSummarySql(
  source: RumDataSource,
  siteId: number,
  window: TimeWindow,
  device: DeviceFilter,
  path?: string,
) {
  return sql`SELECT metric, quantileExact(0.75)(v) AS p75, count() AS samples,
      countIf(v <= ${perMetric((m) => METRIC_RULES[m].good)}) AS good,
      countIf(v > ${perMetric((m) => METRIC_RULES[m].poor)}) AS poor
    FROM (SELECT metric, argMax(value, seq) AS v FROM ${rowsOf(source, siteId, window, device, undefined, path)} GROUP BY metric, dedupe_key)
    GROUP BY metric`;
}

/**
 * The summary through rollups (core/rum/rollups.ts): rolled-up days' states merged with the same states over
 * the raw segments' deduplicated values; a raw segment right after rolled-up days leaves out the values those
 * days already hold.
 */
function rollupSummarySql(source: RumDataSource, siteId: number, plan: RollupPlan, device: DeviceFilter) {
  const db = ident(source.database);
  const site = int(siteId, 0, SITE_ID_MAX);
  const days = join(
    plan.rollupDays.map(
      (range) => part`(day >= toDate(${timestamp(range.from)}) AND day < toDate(${timestamp(range.to)}))`,
    ),
    ' OR ',
  );
  const deviceFilter = device === 'all' ? part`1` : part`device = ${oneOf(device, DEVICES)}`;
  const parts = [
    ...(plan.rollupDays.length > 0
      ? [
          part`SELECT metric, quantiles, samples, good, poor FROM ${db}.${ident(ROLLUP_TABLE)} WHERE site_id = ${site} AND (${days}) AND ${deviceFilter}`,
        ]
      : []),
    // Exactly the chosen snapshot's rows: its raw segment starts at its cutoff.
    ...(plan.todayUntil
      ? [
          part`SELECT metric, quantiles, samples, good, poor FROM ${db}.${ident(TODAY_TABLE)} WHERE site_id = ${site} AND until = ${timestamp(plan.todayUntil)} AND ${deviceFilter}`,
        ]
      : []),
    ...plan.raw.map((segment) => {
      // Only the segment's own keys are looked up before it: a set of those is far smaller than a day's keys.
      const seen = segment.excludeSeenFrom
        ? part` AND dedupe_key NOT IN (SELECT dedupe_key FROM ${db}.rum_metrics WHERE site_id = ${site} AND ts >= ${timestamp(segment.excludeSeenFrom)} AND ts < ${timestamp(segment.from)}
            AND dedupe_key IN (SELECT dedupe_key FROM ${rowsOf(source, siteId, segment, device)}))`
        : part``;
      return part`SELECT metric, ${rollupStates}
        FROM (SELECT metric, argMax(value, seq) AS v FROM ${rowsOf(source, siteId, segment, device)}${seen} GROUP BY metric, dedupe_key)
        GROUP BY metric`;
    }),
  ];
  return sql`SELECT metric, quantilesTimingMerge(0.5, 0.75)(quantiles)[2] / ${perMetric(rollupScale)} AS p75,
      sumMerge(samples) AS samples, sumMerge(good) AS good, sumMerge(poor) AS poor
    FROM (${join(parts, ' UNION ALL ')})
    GROUP BY metric`;
}

/**
 * How long the list of rolled-up days and today's cutoffs is reused: a day missed meanwhile is read from raw
 * rows, and an older cutoff's snapshot is kept far longer (rum-rollups.ts), so both stay right.
 */
const ROLLED_UP_DAYS_TTL_MS = 60_000;

interface Rolled {
  days: Set<string>;
  todayCutoffs: Date[];
}

export function rumQueries(source: RumDataSource): RumQueries {
  const db = ident(source.database);
  let known: { at: number; rolled: Promise<Rolled> } | null = null;
  const rolledUp = () => {
    if (!known || Date.now() - known.at > ROLLED_UP_DAYS_TTL_MS) {
      const rolled = Promise.all([
        rolledUpDays(source.client, source.database),
        todayCutoffs(source.client, source.database),
      ]).then(([days, cutoffs]) => ({ days, todayCutoffs: cutoffs }));
      known = { at: Date.now(), rolled };
      rolled.catch(() => {
        known = null;
      });
    }
    return known.rolled;
  };
  return {
    ...rumDiagnosticsQueries(source),
    async summary(siteId, window, device, path) {
      const rolled =
        source.rollups !== false && path === undefined && readsRollups(window) ? await reach(rolledUp) : null;
      const plan = rolled ? planRollupWindow(window, rolled.days, rolled.todayCutoffs) : null;
      const result = await rows<SummaryRow>(
        source,
        plan && (plan.rollupDays.length > 0 || plan.todayUntil)
          ? rollupSummarySql(source, siteId, plan, device)
          : exactSummarySql(source, siteId, window, device, path),
      );
      const summary = Object.fromEntries(RUM_METRICS.map((m) => [m, emptyStats()])) as Record<RumMetric, MetricStats>;
      for (const row of result) {
        if (!isRumMetric(row.metric)) continue;
        const samples = Number(row.samples);
        const good = Number(row.good);
        const poor = Number(row.poor);
        summary[row.metric] = {
          p75: row.p75 === null ? null : roundMetric(row.metric, row.p75),
          samples,
          good,
          needsImprovement: samples - good - poor,
          poor,
        };
      }
      return summary;
    },

    async history(siteId, metric, window, device) {
      const result = await rows<{ date: string; q: [number, number]; samples: string }>(
        source,
        sql`SELECT toString(toDate(first_ts)) AS date, quantilesExact(0.5, 0.75)(v) AS q, count() AS samples
            FROM (SELECT argMax(value, seq) AS v, min(ts) AS first_ts FROM ${rowsOf(source, siteId, window, device, metric)} GROUP BY dedupe_key)
            GROUP BY date ORDER BY date DESC`,
      );
      return result.map((row) => ({
        date: row.date,
        p50: roundMetric(metric, row.q[0]),
        p75: roundMetric(metric, row.q[1]),
        samples: Number(row.samples),
      }));
    },

    async pages(siteId, metric, window, limit, device = 'all') {
      // One pass: group by path and attribution first (values kept as arrays), then by path, taking the
      // attribution group with a value and the most samples (ties broken by the text, so the answer is stable).
      const result = await rows<{
        path: string;
        p75: number;
        samples: string;
        target: string;
        url: string;
        type: string;
      }>(
        source,
        sql`SELECT p AS path, quantileExactArray(0.75)(vs) AS p75, sum(n) AS samples,
              argMax(t, k) AS target, argMax(u, k) AS url, argMax(ty, k) AS type
            FROM (
              SELECT p, t, u, ty, groupArray(v) AS vs, count() AS n, tuple(t != '' OR u != '' OR ty != '', count(), t, u, ty) AS k
              FROM (
                SELECT argMax(value, seq) AS v, argMax(path, seq) AS p, argMax(attr_target, seq) AS t,
                  argMax(attr_url, seq) AS u, argMax(attr_type, seq) AS ty
                FROM ${rowsOf(source, siteId, window, device, metric)} GROUP BY dedupe_key
              )
              GROUP BY p, t, u, ty
            )
            GROUP BY p ORDER BY p75 DESC, samples DESC, path ASC LIMIT ${int(limit, 1, 10_000)}`,
      );
      return result.map((row) => ({
        path: row.path,
        p75: roundMetric(metric, row.p75),
        samples: Number(row.samples),
        attribution: row.target || row.url || row.type ? { target: row.target, url: row.url, type: row.type } : null,
      }));
    },

    async navigationSplit(siteId, window, device, path) {
      const result = await rows<{ navigation: string; page_views: string }>(
        source,
        sql`SELECT toString(nav) AS navigation, count() AS page_views
            FROM (SELECT argMax(navigation, seq) AS nav FROM ${rowsOf(source, siteId, window, device, undefined, path)} GROUP BY cityHash64(page_view_id))
            GROUP BY nav ORDER BY page_views DESC, nav ASC`,
      );
      return result
        .filter((row): row is { navigation: NavigationType; page_views: string } =>
          (NAVIGATION_TYPES as readonly string[]).includes(row.navigation),
        )
        .map((row) => ({ navigation: row.navigation, pageViews: Number(row.page_views) }));
    },

    async pageviewsThisMonth(siteIds, now) {
      const counts = new Map<number, number>(siteIds.map((id) => [id, 0]));
      if (siteIds.length === 0) return counts;
      const month = monthWindow(now);
      const result = await rows<{ site_id: number; pageviews: string }>(
        source,
        sql`SELECT site_id, toUInt64(round(sum(100 / greatest(rate, 1) * greatest(keep, 1)))) AS pageviews
            FROM (
              SELECT site_id, argMax(sample_rate, seq) AS rate, argMax(keep_one_in, seq) AS keep FROM ${db}.rum_metrics
              WHERE site_id IN ${ints(siteIds, 0, SITE_ID_MAX)} AND ts >= ${timestamp(month.from)} AND ts < ${timestamp(month.to)}
              GROUP BY site_id, cityHash64(page_view_id)
            )
            GROUP BY site_id`,
      );
      for (const row of result) counts.set(Number(row.site_id), Number(row.pageviews));
      return counts;
    },

    async rejectionsThisMonth(siteIds, now) {
      const byReason = new Map<number, Record<string, number>>(siteIds.map((id) => [id, {}]));
      if (siteIds.length === 0) return byReason;
      const month = monthWindow(now);
      const result = await rows<{ site_id: number; reason: string; beacons: string }>(
        source,
        sql`SELECT site_id, reason, sum(beacons) AS beacons FROM ${db}.rum_rejections
            WHERE site_id IN ${ints(siteIds, 0, SITE_ID_MAX)} AND day >= toDate(${timestamp(month.from)}) AND day < toDate(${timestamp(month.to)})
            GROUP BY site_id, reason ORDER BY site_id, reason`,
      );
      for (const row of result) {
        const reasons = byReason.get(Number(row.site_id));
        if (reasons) reasons[row.reason] = Number(row.beacons);
      }
      return byReason;
    },
  };
}
export { RumDataUnavailable } from '../../core/rum/queries.ts';
