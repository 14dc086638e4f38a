import type { RumMetric } from './metrics.ts';
import type { TimeWindow } from './periods.ts';

/**
 * Daily rollups of live data: the rules in one place (the ClickHouse side is db/clickhouse/rum-rollups.ts).
 *
 * A rollup row holds, per site, UTC day, metric and device, the deduplicated values of that day as a
 * quantileTiming state plus exact counts (samples, good, poor). A value belongs to the UTC day of its first
 * row and its value is that of its highest seq among the rows up to RESEND_GRACE_DAYS after its day: a value
 * sent again, a retried request or a replayed spool file counts once, in one day. A value whose first row is
 * in the RESEND_GRACE_DAYS before a day belongs to that earlier day, so a day never counts it again; so does
 * the raw part of a query that follows rolled-up days (planRollupWindow). A value sent again more than
 * RESEND_GRACE_DAYS after its first row (a tab kept open that long) counts as a new value in its later day.
 *
 * Today is rolled up too, up to a cutoff (the start of an hour): a snapshot holds today's values first seen
 * before the cutoff, each with its highest seq among the rows before the cutoff. A query reads the snapshot and
 * raw rows from the cutoff on, leaving out values with a row from RESEND_GRACE_DAYS before today up to the
 * cutoff (they are in the snapshot or in an earlier day). A value sent again after the cutoff keeps its earlier
 * value until a snapshot with a later cutoff is built.
 */

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** Windows at least this long read rollups for their whole finished days (the 7d and 30d periods). */
export const ROLLUP_MIN_WINDOW_DAYS = 7;

/** How long after a value's first row a later send of it still replaces it instead of counting anew. */
export const RESEND_GRACE_DAYS = 1;

/**
 * The finished days rebuilt on every run of the rollup job (besides days not rolled up at all): a day's
 * rollup reads rows up to RESEND_GRACE_DAYS after it, and a spool replayed after an outage brings rows of
 * past days late.
 */
export const ROLLUP_REBUILD_DAYS = RESEND_GRACE_DAYS + 2;

/**
 * Rollups keep quantileTiming states, deterministic and of fixed size: exact up to 1,023 units, above that
 * within 16 units, and clamped at 30,000 units. Time metrics go in as whole milliseconds, CLS as
 * ten-thousandths (CLS × 10,000, so 0.1 and 0.25 and everything below 0.1024 stay exact).
 */
export function rollupScale(metric: RumMetric): number {
  return metric === 'CLS' ? 10_000 : 1;
}

/** The largest difference a rollup p50/p75 has from the exact one (quantileExact on the raw rows), in the metric's unit. */
export function rollupTolerance(metric: RumMetric): number {
  return (16 + 1) / rollupScale(metric); // a 16-unit bucket, plus the rounding to whole units
}

/** The largest value a rollup quantile reports exactly enough; a larger exact p75 shows as this. */
export function rollupCeiling(metric: RumMetric): number {
  return 30_000 / rollupScale(metric);
}

/** Whether a window is long enough to read rollups. */
export function readsRollups(window: TimeWindow): boolean {
  return window.to.getTime() - window.from.getTime() >= ROLLUP_MIN_WINDOW_DAYS * DAY_MS;
}

export interface RawSegment extends TimeWindow {
  /**
   * Set when rolled-up days come right before the segment: values with a row in [excludeSeenFrom, from) belong
   * to those days, so the segment leaves them out.
   */
  excludeSeenFrom: Date | null;
}

export interface RollupPlan {
  /** Whole UTC days read from rollups, as [from, to) day ranges (midnights). */
  rollupDays: TimeWindow[];
  /** The cutoff of today's snapshot read, if any: it covers [start of today, cutoff). */
  todayUntil: Date | null;
  /** The rest of the window, read from raw rows. */
  raw: RawSegment[];
}

export const startOfUtcHour = (at: Date): Date => new Date(Math.floor(at.getTime() / HOUR_MS) * HOUR_MS);

export const startOfUtcDay = (at: Date): Date => new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS);

/** YYYY-MM-DD of a UTC day. */
export const utcDay = (at: Date): string => at.toISOString().slice(0, 10);

/**
 * Splits a window into rolled-up whole days and raw segments. Whole days inside the window that are rolled
 * up (`rolledUp`, YYYY-MM-DD) come from rollups; everything else (the partial first day, today, days not rolled
 * up yet) from raw rows. Of the window's last, partial day, a snapshot (`todayCutoffs`: the cutoffs of the
 * snapshots there are) covers the part up to its cutoff: the latest cutoff within that day and the window.
 * Windows shorter than ROLLUP_MIN_WINDOW_DAYS are all raw.
 */
export function planRollupWindow(
  window: TimeWindow,
  rolledUp: ReadonlySet<string>,
  todayCutoffs: readonly Date[] = [],
): RollupPlan {
  const plan: RollupPlan = { rollupDays: [], todayUntil: null, raw: [] };
  if (!readsRollups(window)) {
    plan.raw.push({ ...window, excludeSeenFrom: null });
    return plan;
  }
  let rawFrom: Date | null = window.from;
  let afterRollup = false;
  const firstWholeDay = startOfUtcDay(new Date(window.from.getTime() + DAY_MS - 1));
  for (let day = firstWholeDay.getTime(); day + DAY_MS <= window.to.getTime(); day += DAY_MS) {
    if (!rolledUp.has(utcDay(new Date(day)))) {
      rawFrom ??= new Date(day);
      continue;
    }
    if (rawFrom && rawFrom.getTime() < day) plan.raw.push(rawSegment(rawFrom, new Date(day), afterRollup));
    rawFrom = null;
    const last = plan.rollupDays.at(-1);
    if (last && last.to.getTime() === day) last.to = new Date(day + DAY_MS);
    else plan.rollupDays.push({ from: new Date(day), to: new Date(day + DAY_MS) });
    afterRollup = true;
  }
  let tail = rawFrom ?? plan.rollupDays.at(-1)?.to ?? window.from;
  const lastDay = startOfUtcDay(window.to);
  const todayUntil = latestCutoff(todayCutoffs, lastDay, window);
  if (todayUntil) {
    if (tail.getTime() < lastDay.getTime()) plan.raw.push(rawSegment(tail, lastDay, afterRollup));
    plan.todayUntil = todayUntil;
    tail = todayUntil;
    afterRollup = true;
  }
  if (tail.getTime() < window.to.getTime()) plan.raw.push(rawSegment(tail, window.to, afterRollup));
  return plan;
}

function latestCutoff(cutoffs: readonly Date[], lastDay: Date, window: TimeWindow): Date | null {
  if (lastDay.getTime() < window.from.getTime()) return null;
  let latest: Date | null = null;
  for (const cutoff of cutoffs) {
    const at = cutoff.getTime();
    if (at <= lastDay.getTime() || at > window.to.getTime() || at >= lastDay.getTime() + DAY_MS) continue;
    if (!latest || at > latest.getTime()) latest = cutoff;
  }
  return latest;
}

/** A raw segment after rolled-up data leaves out values with a row from RESEND_GRACE_DAYS before its day on. */
function rawSegment(from: Date, to: Date, afterRollup: boolean): RawSegment {
  return {
    from,
    to,
    excludeSeenFrom: afterRollup ? new Date(startOfUtcDay(from).getTime() - RESEND_GRACE_DAYS * DAY_MS) : null,
  };
}
