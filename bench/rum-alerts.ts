/**
 * Live-data alert check benchmark. 100 sites with 10 alert configurations each (1,000; auto and manual, windows
 * of 5, 15, 60 and 1440 minutes) in a database of its own, a private ClickHouse database filled with generated
 * measurements (INSERT ... SELECT FROM numbers(): `--rows` over the last 24 hours, 5 % of them sent twice),
 * then the whole check (services/rum-alert-check.ts: every configuration read, one ClickHouse query per window
 * length, every outcome recorded in one transaction) timed `--runs` times, each 5 minutes after the one
 * before. Baseline in the same run: the same query for one site and one window (what a single configuration
 * would cost on its own). Prints the check's p50 as a ratio to the baseline's, and, for scale, what one query
 * per configuration would cost (100 of them timed, times 10).
 *
 *   ./svc stack up && npm run bench:rum-alerts -- --rows 2000000 --runs 7
 */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { loadConfig } from '../infra/config.ts';
import { RUM_METRICS, type RumMetric } from '../core/rum/metrics.ts';
import { newRumSitePublicId } from '../core/rum/site.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { siteWindows } from '../db/clickhouse/rum-alert-queries.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { ident, int, sql, timestamp } from '../db/clickhouse/sql.ts';
import { createRumAlertStore } from '../db/store/rum-alerts.ts';
import { createRumSiteStore } from '../db/store/rum-sites.ts';
import { checkRumAlerts } from '../services/rum-alert-check.ts';
import { benchDatabase, benchUser } from './support.ts';

const { values } = parseArgs({
  options: { rows: { type: 'string', default: '2000000' }, runs: { type: 'string', default: '7' } },
});
const rowCount = Number(values.rows);
const runs = Number(values.runs);
const SITES = 100;
const PER_SITE = 10;
const WINDOWS = [5, 15, 60, 1440];

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const stats = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return { n: times.length, p50: percentile(sorted, 50), p95: percentile(sorted, 95), max: sorted.at(-1)! };
};
const format = (s: ReturnType<typeof stats>) =>
  `n=${s.n} p50 ${s.p50.toFixed(1)} ms, p95 ${s.p95.toFixed(1)} ms, max ${s.max.toFixed(1)} ms`;
const timed = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const started = performance.now();
  const result = await work();
  return [performance.now() - started, result];
};

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const db = await benchDatabase('rum_alerts');
const database = `bench_rum_alerts_${randomBytes(3).toString('hex')}`;
const admin = createClickHouse(config, 'default');
await ensureClickHouseSchema(admin, database);
const clickhouse = createClickHouse(config, database);

try {
  // Sites of 10 Agency accounts, 10 configurations each.
  const sites = createRumSiteStore(db.knex);
  const alerts = createRumAlertStore(db.knex);
  const siteIds: number[] = [];
  for (let owner = 0; owner < SITES / 10; owner++) {
    const { userId } = await benchUser(db.knex, 'agency');
    for (let i = 0; i < 10; i++) {
      const site = await sites.insert({
        userId,
        publicId: newRumSitePublicId(),
        domain: `site${owner}-${i}.example`,
        sampleRate: 100,
        createdAt: new Date(),
      });
      siteIds.push(site.id);
    }
  }
  const manualThresholds: Record<RumMetric, number> = { LCP: 3000, CLS: 0.15, INP: 300, FCP: 2000, TTFB: 1000 };
  for (const [s, siteId] of siteIds.entries()) {
    for (let i = 0; i < PER_SITE; i++) {
      const metric = RUM_METRICS[(s + i) % RUM_METRICS.length]!;
      const manual = i % 2 === 1;
      await alerts.insert({
        siteId,
        title: `alert ${i}`,
        mode: manual ? 'manual' : 'auto',
        metric: manual ? metric : null,
        threshold: manual ? manualThresholds[metric] : null,
        windowMinutes: WINDOWS[i % WINDOWS.length]!,
        minSamples: 20,
        consecutiveThreshold: 1 + (i % 3),
        createdAt: new Date(),
      });
    }
  }

  // Measurements: spread over the sites, the metrics and the last 24 hours; values in each metric's range.
  const now = new Date();
  const first = Math.min(...siteIds);
  const generate = (rows: number, seq: number) =>
    sql`INSERT INTO ${ident(database)}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type)
      SELECT ${int(first)} + (number % ${int(SITES)}), ${timestamp(now)} - (intHash32(number) % 86400), concat('pv', toString(intDiv(number, 5))), ${int(seq, 1, 65535)},
        concat('m', toString(number)), arrayElement(['LCP', 'CLS', 'INP', 'FCP', 'TTFB'], (intDiv(number, ${int(SITES)}) % 5) + 1),
        if((intDiv(number, ${int(SITES)}) % 5) = 1, (intHash32(number) % 400) / 1000, intHash32(number) % 6000),
        arrayElement(['desktop', 'mobile', 'tablet'], (number % 3) + 1), 'navigate', '/', 100, '', '', ''
      FROM numbers(${int(rows, 1, 1_000_000_000)})`;
  const [insertMs] = await timed(async () => {
    await clickhouse.command({ query: generate(rowCount, 1) });
    // 5 % sent again with a higher seq (resends and replays): same page view and metric id, counted once.
    await clickhouse.command({ query: generate(Math.max(1, Math.floor(rowCount / 20)), 2) });
  });
  console.log(
    `data: ${SITES} sites, ${SITES * PER_SITE} configurations, ${rowCount} rows + ${Math.floor(rowCount / 20)} resends inserted in ${(insertMs / 1000).toFixed(1)} s`,
  );

  const windows = (ids: readonly number[], minutes: number, at: Date) =>
    siteWindows(clickhouse, database, ids, minutes, at);
  // Warm-up (JIT, pools, ClickHouse's caches): not measured.
  await windows([first], 60, now);
  await checkRumAlerts({ rumAlerts: alerts, windows, baseUrl: 'http://bench.example' }, now);

  const baseline: number[] = [];
  const checks: number[] = [];
  let transitions = 0;
  for (let run = 1; run <= runs; run++) {
    // Each check 5 minutes after the one before (the check skips configurations checked less than 2.5 minutes ago).
    const at = new Date(now.getTime() + run * 5 * 60_000);
    baseline.push((await timed(() => windows([siteIds[run % SITES]!], 60, at)))[0]);
    const [ms, { result }] = await timed(() =>
      checkRumAlerts({ rumAlerts: alerts, windows, baseUrl: 'http://bench.example' }, at),
    );
    if (
      result.configurations !== SITES * PER_SITE ||
      result.recorded !== SITES * PER_SITE ||
      result.queries !== WINDOWS.length
    ) {
      throw new Error(`unexpected check: ${JSON.stringify({ ...result, emails: result.emails.length })}`);
    }
    transitions += result.transitions.length;
    checks.push(ms);
  }
  const perConfiguration: number[] = [];
  for (let i = 0; i < 100; i++)
    perConfiguration.push((await timed(() => windows([siteIds[i % SITES]!], WINDOWS[i % WINDOWS.length]!, now)))[0]);
  const query24h = (await timed(() => windows(siteIds, 1440, now)))[0];
  const [b, c] = [stats(baseline), stats(checks)];
  const naive = perConfiguration.reduce((a, x) => a + x, 0) * 10;
  console.log(`baseline, one site's 60-minute query: ${format(b)}`);
  console.log(
    `check of ${SITES * PER_SITE} configurations (${WINDOWS.length} queries, one transaction): ${format(c)}; ${transitions} transitions over the runs`,
  );
  console.log(`  of which the 1440-minute query for all ${SITES} sites: ${query24h.toFixed(1)} ms`);
  console.log(`one query per configuration instead (100 timed, x10): ${naive.toFixed(0)} ms`);
  console.log(
    `ratio check p50 / baseline p50: ${(c.p50 / b.p50).toFixed(1)} (lower is better); per-configuration queries / check: ${(naive / c.p50).toFixed(1)}`,
  );
} finally {
  await clickhouse.close();
  await dropClickHouseDatabase(admin, database);
  await admin.close();
  await db.drop();
}
