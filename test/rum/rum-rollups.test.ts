import { RUM_METRICS, type Device, type RumMetric } from '../../core/rum/metrics.ts';
import { periodWindow } from '../../core/rum/periods.ts';
import { rollupTolerance } from '../../core/rum/rollups.ts';
import { dropOldRumPartitions } from '../../db/clickhouse/partitions.ts';
import { countRumRows, eraseRumRows } from '../../db/clickhouse/rum-erase.ts';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import {
  dropOldRollupDays,
  rolledUpDays,
  rollUpRumDays,
  rollUpToday,
  todayCutoffs,
} from '../../db/clickhouse/rum-rollups.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { insertMetrics, seeded, type MetricRow } from './rum-data.ts';

/**
 * Daily rollups on the real ClickHouse: long windows through rollups agree with the exact query within the
 * stated tolerance, a value sent again, replayed or resent across midnight counts once, and retention drops raw
 * months while rollups keep answering for them. Today's snapshots (up to an hour's start) too: agreement, a
 * value resent after the cutoff counted once, rebuilding idempotent, a reader with an older cutoff still right.
 */
const DAY = 86_400_000;
const MINUTE = 60_000;
const NOW = new Date('2026-06-15T10:00:00Z');
const BIG = 7;
const SMALL = 8;
const INTRA = 9;
/** Today's snapshot cutoff in these tests: an hour before NOW. */
const CUTOFF = new Date(NOW.getTime() - 3_600_000);
const DEVICES: Device[] = ['desktop', 'mobile', 'tablet'];

let ch: IsolatedClickHouse;
beforeAll(async () => {
  ch = await isolatedClickHouse();
  await insertMetrics(ch.client, ch.database, [...generated(), ...handmade(), ...intraday()]);
});
afterAll(async () => {
  await ch?.drop();
});

const dayStart = (at: Date) => new Date(Math.floor(at.getTime() / DAY) * DAY);

/**
 * 40 days up to NOW, 300 page views a day with LCP, CLS and INP (over 5,670 values in 30 days, so quantileTiming
 * leaves its exact mode); 10 % of values sent again 20–180 minutes later with another value (across midnight
 * too), 5 % of rows replayed as identical copies.
 */
function generated(): MetricRow[] {
  const random = seeded(11);
  const rows: MetricRow[] = [];
  // Not across today's cutoff either: a value resent after it keeps its earlier value in the snapshot (own test).
  const windowStarts = [...(['7d', '30d'] as const).map((p) => periodWindow(p, NOW).from.getTime()), CUTOFF.getTime()];
  for (let pv = 0; pv < 40 * 300; pv++) {
    const at = new Date(NOW.getTime() - 40 * DAY + Math.floor(random() * 40 * DAY));
    const device = DEVICES[pv % 3]!;
    for (const metric of ['LCP', 'CLS', 'INP'] as const) {
      const value = valueOf(metric, random);
      const row: MetricRow = { site: BIG, at, metric, value, pageView: `pv${pv}`, metricId: `${metric}-${pv}`, device };
      rows.push(row);
      if (random() < 0.05) rows.push({ ...row });
      if (random() < 0.1) {
        let later = at.getTime() + (20 + Math.floor(random() * 160)) * MINUTE;
        // Not across a window's first midnight: the exact query would count such a value (filtering before
        // the dedupe) where rollups date it by its first row, the day before the window.
        for (const start of windowStarts) if (at.getTime() < start && later >= start) later = start - 1000;
        if (later < NOW.getTime()) rows.push({ ...row, at: new Date(later), seq: 2, value: valueOf(metric, random) });
      }
    }
  }
  return rows;
}

function valueOf(metric: RumMetric, random: () => number): number {
  if (metric === 'CLS') return Math.floor(random() * 4000) / 10_000;
  if (metric === 'INP') return 16 + Math.floor(random() * 900);
  return 300 + Math.floor(random() * 9000) + Math.floor(random() * 10) / 10;
}

/** Site SMALL: a value sent three times and replayed, one resent across last midnight, one of today. */
function handmade(): MetricRow[] {
  const today = dayStart(NOW).getTime();
  const a: MetricRow = {
    site: SMALL,
    at: new Date(today - 3 * DAY + 3_600_000),
    metric: 'LCP',
    value: 1000,
    pageView: 'pv-a',
    metricId: 'a',
  };
  const b: MetricRow = {
    site: SMALL,
    at: new Date(today - 10_000),
    metric: 'LCP',
    value: 2000,
    pageView: 'pv-b',
    metricId: 'b',
  };
  return [
    a,
    { ...a },
    { ...a, seq: 2, value: 1200, at: new Date(a.at.getTime() + MINUTE) },
    { ...a, seq: 2, value: 1200, at: new Date(a.at.getTime() + MINUTE) },
    b,
    { ...b, seq: 2, value: 2100, at: new Date(today + 10_000) },
    { site: SMALL, at: new Date(today + 3_600_000), metric: 'LCP', value: 3000, pageView: 'pv-c', metricId: 'c' },
  ];
}

/**
 * Site INTRA, today: d first before the cutoff, resent after it with another value; e replayed and resent before
 * the cutoff; f first seen yesterday morning, resent today after the cutoff; g only after the cutoff.
 */
function intraday(): MetricRow[] {
  const today = dayStart(NOW).getTime();
  const row = (metricId: string, at: number, value: number, seq = 1): MetricRow => ({
    site: INTRA,
    at: new Date(at),
    metric: 'LCP',
    value,
    pageView: `pv-${metricId}`,
    metricId,
    seq,
  });
  const cutoff = CUTOFF.getTime();
  const e = row('e', cutoff - 15 * MINUTE, 2000);
  return [
    row('d', cutoff - 30 * MINUTE, 1000),
    row('d', cutoff + 30 * MINUTE, 5000, 2),
    e,
    { ...e },
    row('e', cutoff - 10 * MINUTE, 2200, 2),
    row('f', today - 19 * 60 * MINUTE, 3000),
    row('f', cutoff + 15 * MINUTE, 3300, 2),
    row('g', cutoff + 20 * MINUTE, 4000),
  ];
}

/**
 * The big site's 7d and 30d summaries for each device, through rollups and exactly (raw rows only): counts equal,
 * p75 within the tolerance. Returns each exact summary with its period and device.
 */
async function agreeWithExact(devices: Array<'all' | Device>) {
  const exact = rumQueries({ client: ch.client, database: ch.database, rollups: false });
  const rolled = rumQueries({ client: ch.client, database: ch.database });
  const compared = [];
  for (const period of ['7d', '30d'] as const) {
    for (const device of devices) {
      const window = periodWindow(period, NOW);
      const [want, got] = await Promise.all([exact.summary(BIG, window, device), rolled.summary(BIG, window, device)]);
      for (const metric of RUM_METRICS) {
        const { p75, ...counts } = got[metric];
        const { p75: exactP75, ...exactCounts } = want[metric];
        expect({ period, device, metric, ...counts }).toEqual({ period, device, metric, ...exactCounts });
        if (exactP75 === null) expect(p75).toBeNull();
        else expect(Math.abs(p75! - exactP75)).toBeLessThanOrEqual(rollupTolerance(metric));
      }
      compared.push([period, device, want] as const);
    }
  }
  return compared;
}

it('long windows through rollups agree with the exact query: p75 within the tolerance, counts equal', async () => {
  const built = await rollUpRumDays(ch.client, ch.database, 13, NOW);
  expect(built).toHaveLength(40);
  for (const [period, device, want] of await agreeWithExact(['all', 'mobile']))
    if (device === 'all') expect(want.LCP.samples).toBeGreaterThan(period === '30d' ? 5670 : 1000);
});

it('counts a replayed, resent and across-midnight resent value once, also after rebuilding', async () => {
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  const rolled = rumQueries({ client: ch.client, database: ch.database });
  const window = periodWindow('7d', NOW);
  const expectOnce = async () => {
    const summary = await rolled.summary(SMALL, window, 'all');
    // 1200 (a's last send), 2100 (b's, dated yesterday), 3000 (c): p75 is rank floor(0.75 × 3) = 2.
    expect(summary.LCP).toEqual({ p75: 3000, samples: 3, good: 2, needsImprovement: 1, poor: 0 });
  };
  await expectOnce();
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  await expectOnce();
  expect(
    await rumQueries({ client: ch.client, database: ch.database, rollups: false }).summary(SMALL, window, 'all'),
  ).toEqual(await rolled.summary(SMALL, window, 'all'));
});

it("with today's snapshot, long windows agree with the exact query: p75 within the tolerance, counts equal", async () => {
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  expect(await rollUpToday(ch.client, ch.database, new Date(CUTOFF.getTime() + 25 * MINUTE))).toEqual(CUTOFF);
  expect(await todayCutoffs(ch.client, ch.database)).toEqual([CUTOFF]);
  expect((await countRumRows(ch.client, ch.database, [BIG])).rum_today).toBeGreaterThan(0);
  await agreeWithExact(['all', 'tablet']);
});

it('a value resent after the cutoff counts once, with its earlier value until the next cutoff; rebuilding is idempotent', async () => {
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  const window = periodWindow('7d', NOW);
  const exact = await rumQueries({ client: ch.client, database: ch.database, rollups: false }).summary(
    INTRA,
    window,
    'all',
  );
  // d 5000 (its last send), e 2200, f 3300 (dated yesterday), g 4000: p75 is rank floor(0.75 × 4) = 3.
  expect(exact.LCP).toEqual({ p75: 5000, samples: 4, good: 1, needsImprovement: 2, poor: 1 });

  const early = new Date(CUTOFF.getTime() + 25 * MINUTE);
  await rollUpToday(ch.client, ch.database, early);
  const rowsOnce = await countRumRows(ch.client, ch.database, [INTRA, BIG]);
  await rollUpToday(ch.client, ch.database, early);
  expect(await countRumRows(ch.client, ch.database, [INTRA, BIG])).toEqual(rowsOnce);
  const stale = rumQueries({ client: ch.client, database: ch.database });
  // d keeps 1000, its value before the cutoff: 1000, 2200, 3300, 4000.
  const beforeNext = { p75: 4000, samples: 4, good: 2, needsImprovement: 2, poor: 0 };
  expect((await stale.summary(INTRA, window, 'all')).LCP).toEqual(beforeNext);

  expect(await rollUpToday(ch.client, ch.database, NOW)).toEqual(NOW);
  expect((await todayCutoffs(ch.client, ch.database)).map((c) => c.toISOString()).sort()).toEqual(
    [CUTOFF, NOW].map((c) => c.toISOString()),
  );
  // A reader still holding the earlier cutoff (its list is cached) reads that snapshot, still there: the same.
  expect((await stale.summary(INTRA, window, 'all')).LCP).toEqual(beforeNext);
  // A fresh reader takes the latest cutoff: d's resend is in, and the answer is the exact one.
  expect(await rumQueries({ client: ch.client, database: ch.database }).summary(INTRA, window, 'all')).toEqual(exact);
});

it('erasing a site removes its rollups too', async () => {
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  await rollUpToday(ch.client, ch.database, NOW);
  expect((await countRumRows(ch.client, ch.database, [SMALL])).rum_daily).toBeGreaterThan(0);
  expect((await countRumRows(ch.client, ch.database, [SMALL])).rum_today).toBeGreaterThan(0);
  expect(await eraseRumRows(ch.client, ch.database, [SMALL])).toEqual({
    rum_metrics: 0,
    rum_rejections: 0,
    rum_daily: 0,
    rum_today: 0,
  });
  const summary = await rumQueries({ client: ch.client, database: ch.database }).summary(
    SMALL,
    periodWindow('7d', NOW),
    'all',
  );
  expect(summary.LCP.samples).toBe(0);
  expect((await countRumRows(ch.client, ch.database, [BIG])).rum_daily).toBeGreaterThan(0);
});

it('retention drops raw months but keeps rollups, and old periods still answer from them', async () => {
  await rollUpRumDays(ch.client, ch.database, 13, NOW);
  const rolled = rumQueries({ client: ch.client, database: ch.database });
  const exact = rumQueries({ client: ch.client, database: ch.database, rollups: false });
  const may = { from: new Date('2026-05-10T00:00:00Z'), to: new Date('2026-05-20T00:00:00Z') };
  const before = await rolled.summary(BIG, may, 'all');
  expect(before.LCP.samples).toBeGreaterThan(0);

  expect(await dropOldRumPartitions(ch.client, ch.database, 1, NOW)).toContain('rum_metrics:202605');
  expect(await dropOldRollupDays(ch.client, ch.database, 25, NOW)).toEqual([]);
  expect((await exact.summary(BIG, may, 'all')).LCP.samples).toBe(0);
  // The job does not rebuild days whose raw rows are gone.
  await rollUpRumDays(ch.client, ch.database, 1, NOW);
  expect(await rolled.summary(BIG, may, 'all')).toEqual(before);

  const dropped = await dropOldRollupDays(ch.client, ch.database, 1, NOW);
  expect(dropped).toContain('2026-05-10');
  expect([...(await rolledUpDays(ch.client, ch.database))].every((day) => day >= '2026-06-01')).toBe(true);
  expect((await rolled.summary(BIG, may, 'all')).LCP.samples).toBe(0);
});
