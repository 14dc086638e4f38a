/**
 * Live-data summary latency: `--rows` metric rows (default 10 million) for 100 sites over 30 days, made by
 * ClickHouse itself (INSERT ... SELECT from numbers()) into a database of the benchmark's own, then the
 * summary query (db/clickhouse/rum-queries.ts, with its dedupe and exact quantiles) for one site, sequentially,
 * p50 and p95, against a baseline measured in the same run: a plain count() over the same site's rows in the
 * same window (the least any query over those rows costs). Two sites: a typical one (1/110 of the rows) and a
 * big one (1/10 of the rows). Target: summary p95 under 50 ms.
 *
 *   ./svc stack up && npm run bench:rum-queries [-- --rows 10000000 --iterations 50 --keep]
 */
import { parseArgs } from 'node:util';
import { createClient } from '@clickhouse/client';
import { loadConfig } from '../infra/config.ts';
import { periodWindow, RUM_PERIODS, type TimeWindow } from '../core/rum/periods.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { rumQueries } from '../db/clickhouse/rum-queries.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { ident, int, sql, timestamp } from '../db/clickhouse/sql.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '10000000' },
    iterations: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const iterations = Number(values.iterations);
if (!Number.isSafeInteger(rows) || rows < 1000) throw new Error('--rows must be a whole number of at least 1000'); // numbers(0) never ends on 18.16

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const database = `${config.clickhouse.database}_bench_rum_queries`;
// Generating and merging 10 million rows takes longer than the services' 10 s request timeout.
const admin = createClient({
  url: config.clickhouse.url,
  username: config.clickhouse.user,
  password: config.clickhouse.password,
  request_timeout: 900_000,
});
const client = createClickHouse(config, database);
const db = ident(database);
const now = new Date();
const MONTH_S = 30 * 86_400;
const BIG_SITE = 1;
const TYPICAL_SITE = 2;

async function generate(): Promise<void> {
  await dropClickHouseDatabase(admin, database);
  await ensureClickHouseSchema(admin, database);
  const started = performance.now();
  // Every tenth page view is the big site's, the rest spread over 99 sites. Five metrics per page view, values
  // spread over each metric's range, ~2 % of values sent again with seq 2 (the dedupe has work to do).
  await admin.command({
    query: sql`INSERT INTO ${db}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type)
      SELECT
        if(intDiv(n, 5) % 10 = 0, ${int(BIG_SITE)}, ${int(TYPICAL_SITE)} + (intDiv(n, 50) % 99)) AS site_id,
        toDateTime(toUInt32(${timestamp(now)}) - (cityHash64(intDiv(n, 5), 1) % ${int(MONTH_S)}), 'UTC') AS ts,
        concat('pv', toString(intDiv(n, 5))) AS page_view_id,
        if(cityHash64(n, 2) % 50 = 0, 2, 1) AS seq,
        concat('m', toString(n)) AS metric_id,
        ['LCP', 'CLS', 'INP', 'FCP', 'TTFB'][(n % 5) + 1] AS metric,
        multiIf(n % 5 = 0, 400 + cityHash64(n, 3) % 6000, n % 5 = 1, (cityHash64(n, 3) % 4000) / 10000, n % 5 = 2, 16 + cityHash64(n, 3) % 800, n % 5 = 3, 300 + cityHash64(n, 3) % 4000, 40 + cityHash64(n, 3) % 2500) AS value,
        ['desktop', 'mobile', 'tablet'][(cityHash64(intDiv(n, 5), 4) % 3) + 1] AS device,
        'navigate' AS navigation,
        concat('/page/', toString(cityHash64(intDiv(n, 5), 5) % 300)) AS path,
        100 AS sample_rate,
        if(n % 5 = 0, 'img.hero', '') AS attr_target,
        '' AS attr_url,
        '' AS attr_type
      FROM (SELECT number AS n FROM numbers(${int(rows, 1000, 1_000_000_000)}))`,
  });
  await admin.command({ query: sql`OPTIMIZE TABLE ${db}.rum_metrics FINAL` });
  console.log(
    `generated ${rows.toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s (merged to final parts)`,
  );
}

function percentile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timed(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i++) await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

async function siteRows(site: number, window: TimeWindow): Promise<number> {
  const result = await client.query({
    query: sql`SELECT count() AS c FROM ${db}.rum_metrics WHERE site_id = ${int(site)} AND ts >= ${timestamp(window.from)} AND ts < ${timestamp(window.to)}`,
    format: 'JSONEachRow',
  });
  return Number((await result.json<{ c: string }>())[0]!.c);
}

try {
  await generate();
  const queries = rumQueries({ client, database });
  console.log(
    `summary (all devices) vs count() over the same rows; ${iterations} sequential runs each after 3 warm-ups; ms`,
  );
  console.log('site      period  rows        summary p50  p95    count() p50  p95    ratio p50  p95');
  let worstP95 = 0;
  for (const [label, site] of [
    ['typical', TYPICAL_SITE],
    ['big', BIG_SITE],
  ] as const) {
    for (const period of RUM_PERIODS) {
      const window = periodWindow(period, now);
      const count = await siteRows(site, window);
      const summary = await timed(() => queries.summary(site, window, 'all'));
      const baseline = await timed(() => siteRows(site, window));
      worstP95 = Math.max(worstP95, label === 'typical' ? summary.p95 : 0);
      console.log(
        [
          label.padEnd(9),
          period.padEnd(7),
          count.toLocaleString('en').padEnd(11),
          summary.p50.toFixed(1).padStart(11),
          summary.p95.toFixed(1).padStart(6),
          baseline.p50.toFixed(1).padStart(11),
          baseline.p95.toFixed(1).padStart(6),
          (summary.p50 / baseline.p50).toFixed(1).padStart(9),
          (summary.p95 / baseline.p95).toFixed(1).padStart(6),
        ].join(' '),
      );
    }
  }
  console.log(
    `typical site, worst summary p95: ${worstP95.toFixed(1)} ms (target < 50 ms): ${worstP95 < 50 ? 'met' : 'NOT met'}`,
  );
} finally {
  if (!values.keep) await dropClickHouseDatabase(admin, database);
  await client.close();
  await admin.close();
}
