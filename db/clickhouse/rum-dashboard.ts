import type { ClickHouseClient } from '@clickhouse/client';
import { PERIOD_HOURS, type RumDashboardSource, type RumDeviceFilter, type RumHistoryDay, type RumPeriod, type RumSlowPage } from '../../core/rum/dashboard.ts';
import { DEVICES, METRIC_RULES, NAVIGATION_TYPES, roundMetric, RUM_METRICS, type NavigationType, type Rating, type RumMetric } from '../../core/rum/metrics.ts';
import { int, oneOf, sql, timestamp } from './sql.ts';

/**
 * The live-data dashboard's numbers from ClickHouse (rum_metrics, rum_rejections), for the web area. Every
 * query first keeps the latest send of each value (argMax by seq per page view and metric id, so resends and
 * replayed spool files count once), then aggregates; p75 is quantileExact (core/rum/metrics.ts).
 * SQL is the subset ClickHouse 18.16 and current versions share (DESIGN.md).
 */
const HISTORY_DAYS = 30;
const SLOWEST_LIMIT = 10;
const HOUR_MS = 3_600_000;
/** Thresholds go into SQL as integer fractions: n / 10000 is the same double as the literal (0.1, 2500). */
const SCALE = 10_000;

const threshold = (which: 'good' | 'poor') =>
  `multiIf(${RUM_METRICS.map((metric) => sql`metric = ${oneOf(metric, RUM_METRICS)}, ${int(Math.round(METRIC_RULES[metric][which] * SCALE))} / ${int(SCALE)}`).join(', ')}, 0)`;

/** The site's measurements since `from`, one row per value (its latest send), optionally one device only. */
function latestValues(siteId: number, from: Date, to: Date, device: RumDeviceFilter, metrics: readonly RumMetric[] = RUM_METRICS): string {
  const deviceFilter = device === 'all' ? '' : sql` AND device = ${oneOf(device, DEVICES)}`;
  const metricFilter = metrics.length === RUM_METRICS.length ? '' : ` AND metric IN (${metrics.map((m) => sql`${oneOf(m, RUM_METRICS)}`).join(', ')})`;
  return (
    sql`SELECT metric, page_view_id, argMax(value, seq) AS v, argMax(path, seq) AS page, argMax(navigation, seq) AS nav,
      argMax(attr_target, seq) AS target, argMax(attr_url, seq) AS url, toDate(min(ts)) AS day
    FROM rum_metrics WHERE site_id = ${int(siteId, 0, 4_294_967_295)} AND ts >= ${timestamp(from)} AND ts <= ${timestamp(to)}` +
    deviceFilter +
    metricFilter +
    ' GROUP BY page_view_id, metric_id, metric'
  );
}

async function rows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

function perMetric<T>(value: (metric: RumMetric) => T): Record<RumMetric, T> {
  return Object.fromEntries(RUM_METRICS.map((metric) => [metric, value(metric)])) as Record<RumMetric, T>;
}

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));

export function clickhouseRumDashboard(client: ClickHouseClient): RumDashboardSource {
  return {
    async pageviewsThisMonth(siteIds, now) {
      const found = new Map<number, number>();
      if (siteIds.length === 0) return found;
      const ids = siteIds.map((id) => sql`${int(id, 0, 4_294_967_295)}`).join(', ');
      const query =
        `SELECT site_id, sum(100 / rate) AS views FROM (SELECT site_id, page_view_id, any(sample_rate) AS rate FROM rum_metrics WHERE site_id IN (${ids})` +
        sql` AND ts >= ${timestamp(monthStart(now))} AND sample_rate > 0 GROUP BY site_id, page_view_id) GROUP BY site_id`;
      for (const row of await rows<{ site_id: number | string; views: number | string }>(client, query)) found.set(Number(row.site_id), Math.round(Number(row.views)));
      return found;
    },

    async dashboard(siteId, period: RumPeriod, device, now) {
      const from = new Date(now.getTime() - PERIOD_HOURS[period] * HOUR_MS);
      const historyFrom = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - (HISTORY_DAYS - 1)));
      const values = latestValues(siteId, from, now, device);
      const [summary, history, slowLcp, slowInp, navigation, rejections] = await Promise.all([
        rows<{ metric: RumMetric; p75: number; samples: string; good: string; poor: string }>(
          client,
          `SELECT toString(metric) AS metric, quantileExact(0.75)(v) AS p75, count() AS samples, countIf(v <= ${threshold('good')}) AS good, countIf(v > ${threshold('poor')}) AS poor FROM (${values}) GROUP BY metric`,
        ),
        rows<{ metric: RumMetric; date: string; p75: number; samples: string }>(
          client,
          `SELECT toString(metric) AS metric, toString(day) AS date, quantileExact(0.75)(v) AS p75, count() AS samples FROM (${latestValues(siteId, historyFrom, now, device)}) GROUP BY metric, day ORDER BY metric, day`,
        ),
        slowest(client, latestValues(siteId, from, now, device, ['LCP'])),
        slowest(client, latestValues(siteId, from, now, device, ['INP'])),
        rows<{ type: NavigationType; pageviews: string }>(client, `SELECT toString(nav) AS type, uniqExact(page_view_id) AS pageviews FROM (${values}) GROUP BY nav ORDER BY pageviews DESC`),
        rows<{ reason: string; beacons: string }>(
          client,
          sql`SELECT reason, sum(beacons) AS beacons FROM rum_rejections WHERE site_id = ${int(siteId, 0, 4_294_967_295)} AND day >= toDate(${timestamp(monthStart(now))}) GROUP BY reason ORDER BY beacons DESC, reason`,
        ),
      ]);
      const metrics = perMetric((metric) => {
          const row = summary.find((r) => r.metric === metric);
          const samples = Number(row?.samples ?? 0);
          const good = Number(row?.good ?? 0);
          const poor = Number(row?.poor ?? 0);
          const shares: Record<Rating, number> = { good, 'needs-improvement': samples - good - poor, poor };
          return { p75: row && samples > 0 ? roundMetric(metric, Number(row.p75)) : null, samples, shares };
        });
      const byMetric = perMetric((metric) =>
        history.filter((r) => r.metric === metric).map((r): RumHistoryDay => ({ date: r.date, p75: roundMetric(metric, Number(r.p75)), samples: Number(r.samples) })),
      );
      return {
        metrics,
        history: byMetric,
        slowest: { LCP: slowLcp.map((p) => ({ ...p, p75: roundMetric('LCP', p.p75) })), INP: slowInp.map((p) => ({ ...p, p75: roundMetric('INP', p.p75) })) },
        navigation: navigation.filter((r) => (NAVIGATION_TYPES as readonly string[]).includes(r.type)).map((r) => ({ type: r.type, pageviews: Number(r.pageviews) })),
        rejections: rejections.map((r) => ({ reason: r.reason, beacons: Number(r.beacons) })),
      };
    },
  };
}

/** Paths by p75 (slowest first) with their most frequent non-empty attribution. */
async function slowest(client: ClickHouseClient, values: string): Promise<RumSlowPage[]> {
  const found = await rows<{ path: string; p75: number; samples: string; target: string; url: string }>(
    client,
    `SELECT page AS path, quantileExact(0.75)(v) AS p75, count() AS samples, arrayElement(topKIf(1)(target, target != ''), 1) AS target, arrayElement(topKIf(1)(url, url != ''), 1) AS url
     FROM (${values}) GROUP BY page ORDER BY p75 DESC, path LIMIT ${sql`${int(SLOWEST_LIMIT)}`}`,
  );
  return found.map((r) => ({ path: r.path, p75: Number(r.p75), samples: Number(r.samples), target: r.target || null, url: r.url || null }));
}
