/**
 * Live-data summary latency: a big site with `--big-pageviews` page views (default 1 million, five metric rows
 * each) and `--rows` metric rows (default 5 million) spread over 99 more sites, all over 30 days, made by
 * ClickHouse itself (INSERT ... SELECT from numbers()) into a database of the benchmark's own, then rolled up
 * (db/clickhouse/rum-rollups.ts: finished days, then today up to its last full hour, twice: build and rebuild
 * times). Then:
 *  1. the summary query (db/clickhouse/rum-queries.ts: raw rows for 24h, rollups plus raw rows for 7d and 30d)
 *     for one site, sequentially, p50 and p95, against a baseline measured in the same run: a plain count()
 *     over the same site's rows in the same window (the least any query over those rows costs). Two sites: a
 *     typical one and the big one. Target: summary p95 under 50 ms.
 *  2. the big site's 7d and 30d summary exact (raw rows only, quantileExact) against through rollups: both
 *     p95s, and the largest difference between their numbers (p75 per metric, and the counts), against the
 *     tolerance core/rum/rollups.ts states. Target: rollup p95 under 50 ms for 30 days.
 *
 *   ./svc stack up && npm run bench:rum-queries [-- --rows 5000000 --big-pageviews 1000000 --iterations 50 --keep]
 * `--keep` leaves the database in place; `--reuse` measures on a kept one without generating it again (its data
 * then ends when it was made, so today's part of the window is smaller than in a fresh run).
 */
import { parseArgs } from 'node:util';
import { createClient } from '@clickhouse/client';
import { loadConfig } from '../infra/config.ts';
import { RUM_METRICS } from '../core/rum/metrics.ts';
import { periodWindow, RUM_PERIODS, type TimeWindow } from '../core/rum/periods.ts';
import { rollupTolerance } from '../core/rum/rollups.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { rumQueries } from '../db/clickhouse/rum-queries.ts';
import { rollUpRumDays, rollUpToday } from '../db/clickhouse/rum-rollups.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { ident, int, part, sql, timestamp } from '../db/clickhouse/sql.ts';

const { values } = parseArgs({
  options: {
    rows: { type: 'string', default: '5000000' },
    'big-pageviews': { type: 'string', default: '1000000' },
    iterations: { type: 'string', default: '50' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'boolean', default: false },
  },
});
const rows = Number(values.rows);
const bigPageviews = Number(values['big-pageviews']);
const iterations = Number(values.iterations);
if (!Number.isSafeInteger(rows) || rows < 1000) throw new Error('--rows must be a whole number of at least 1000'); // numbers(0) never ends on 18.16
if (!Number.isSafeInteger(bigPageviews) || bigPageviews < 1000)
  throw new Error('--big-pageviews must be a whole number of at least 1000');

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
const now = values.reuse ? await generatedUntil() : new Date();
const MONTH_S = 30 * 86_400;
const BIG_SITE = 1;
const TYPICAL_SITE = 2;

async function generate(): Promise<void> {
  await dropClickHouseDatabase(admin, database);
  await ensureClickHouseSchema(admin, database);
  const started = performance.now();
  await insertRows(bigPageviews * 5, 0, () => int(BIG_SITE));
  await insertRows(rows, bigPageviews * 5, () => part`${int(TYPICAL_SITE)} + (intDiv(n, 5) % 99)`);
  await admin.command({ query: sql`OPTIMIZE TABLE ${db}.rum_metrics FINAL` });
  console.log(
    `generated ${(bigPageviews * 5 + rows).toLocaleString('en')} rows in ${((performance.now() - started) / 1000).toFixed(1)} s (merged to final parts)`,
  );
  const rollupStarted = performance.now();
  const days = await rollUpRumDays(admin, database, 13, now);
  console.log(`rolled up ${days.length} days in ${((performance.now() - rollupStarted) / 1000).toFixed(1)} s`);
}

/**
 * `count` rows numbered from `offset` (so page view and metric ids never repeat between calls). Five metrics per
 * page view, values spread over each metric's range, ~2 % of values sent again with seq 2 (the dedupe has work to do).
 */
async function insertRows(count: number, offset: number, site: () => ReturnType<typeof part>): Promise<void> {
  await admin.command({
    query: sql`INSERT INTO ${db}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type)
      SELECT
        ${site()} AS site_id,
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
      FROM (SELECT number + ${int(offset, 0)} AS n FROM numbers(${int(count, 1000, 1_000_000_000)}))`,
  });
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

/** The big site's long periods: raw rows only (exact) against rollups, time and numbers. */
async function exactAgainstRollups(): Promise<void> {
  const exact = rumQueries({ client: admin, database, rollups: false }); // minutes under load: no 10 s timeout;
  const rolled = rumQueries({ client, database });
  console.log(
    `\nbig site (${bigPageviews.toLocaleString('en')} page views in 30 days): exact (raw rows) vs rollups; ms`,
  );
  console.log(
    'period  exact p50  p95    rollups p50  p95    speed-up p95  largest p75 difference (tolerance)  count differences',
  );
  let rollupP95 = 0;
  for (const period of ['7d', '30d'] as const) {
    const window = periodWindow(period, now);
    const exactTime = await timed(() => exact.summary(BIG_SITE, window, 'all'));
    const rolledTime = await timed(() => rolled.summary(BIG_SITE, window, 'all'));
    if (period === '30d') rollupP95 = rolledTime.p95;
    const [a, b] = await Promise.all([exact.summary(BIG_SITE, window, 'all'), rolled.summary(BIG_SITE, window, 'all')]);
    const p75s = RUM_METRICS.map(
      (m) =>
        `${m} ${Math.abs((a[m].p75 ?? 0) - (b[m].p75 ?? 0)).toFixed(m === 'CLS' ? 4 : 0)} (${rollupTolerance(m).toFixed(m === 'CLS' ? 4 : 0)})`,
    );
    const counts = Math.max(
      ...RUM_METRICS.flatMap((m) => [
        Math.abs(a[m].samples - b[m].samples),
        Math.abs(a[m].good - b[m].good),
        Math.abs(a[m].poor - b[m].poor),
      ]),
    );
    console.log(
      [
        period.padEnd(7),
        exactTime.p50.toFixed(1).padStart(9),
        exactTime.p95.toFixed(1).padStart(6),
        rolledTime.p50.toFixed(1).padStart(11),
        rolledTime.p95.toFixed(1).padStart(6),
        `${(exactTime.p95 / rolledTime.p95).toFixed(1)}x`.padStart(13),
        ` ${p75s.join(', ')}`,
        ` ${counts}`,
      ].join(' '),
    );
  }
  console.log(
    `big site, 30d summary p95 through rollups: ${rollupP95.toFixed(1)} ms (target < 50 ms): ${rollupP95 < 50 ? 'met' : 'NOT met'}`,
  );
}

/** The moment a kept database's data was generated up to (its newest row). */
async function generatedUntil(): Promise<Date> {
  const result = await admin.query({
    query: sql`SELECT toUnixTimestamp(max(ts)) AS at FROM ${db}.rum_metrics`,
    format: 'JSONEachRow',
  });
  return new Date(Number((await result.json<{ at: string | number }>())[0]!.at) * 1000);
}

try {
  if (!values.reuse) await generate();
  else await ensureClickHouseSchema(admin, database); // a kept database from before today's snapshots
  for (const run of ['built', 'rebuilt'] as const) {
    const todayStarted = performance.now();
    const until = await rollUpToday(admin, database, now);
    const seconds = ((performance.now() - todayStarted) / 1000).toFixed(2);
    console.log(`today ${run} up to ${until?.toISOString() ?? '(nothing before the first full hour)'} in ${seconds} s`);
  }
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
  await exactAgainstRollups();
} finally {
  if (!values.keep) await dropClickHouseDatabase(admin, database);
  await client.close();
  await admin.close();
}
