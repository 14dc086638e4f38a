/**
 * The time windows live-data queries look at. A window is [from, to): `from` included, `to` excluded, in UTC.
 *  - periods (`24h`, `7d`, `30d`): the last 24 hours up to now; 7d and 30d: the 7 / 30 whole UTC days before
 *    today's plus today up to now (whole days, so they can be read from daily rollups: core/rum/rollups.ts);
 *  - history (`days` 7, 30, 90): calendar days (UTC), today included, so `days` 30 is today and the 29 before;
 *  - the month (page views, rejections, the monthly limit): the current UTC calendar month;
 *  - the report's field data: rolling, the last 28 × 24 hours up to now (FIELD_DAYS, as CrUX and PageSpeed
 *    Insights look at 28 days).
 */

export const RUM_PERIODS = ['24h', '7d', '30d'] as const;
export type RumPeriod = (typeof RUM_PERIODS)[number];

export const RUM_HISTORY_DAYS = [7, 30, 90] as const;
export type RumHistoryDays = (typeof RUM_HISTORY_DAYS)[number];

export interface TimeWindow {
  from: Date;
  to: Date;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const PERIOD_HOURS: Record<RumPeriod, number> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

export function isRumPeriod(value: string): value is RumPeriod {
  return (RUM_PERIODS as readonly string[]).includes(value);
}

/**
 * The window of a period ending now (the current second included): 24h rolling; 7d and 30d start at the UTC
 * midnight that begins the day 7 × 24 / 30 × 24 hours ago, so they hold whole days plus today so far.
 */
export function periodWindow(period: RumPeriod, now: Date): TimeWindow {
  const to = new Date(Math.floor(now.getTime() / 1000) * 1000 + 1000);
  const start = to.getTime() - PERIOD_HOURS[period] * HOUR_MS;
  return { from: new Date(period === '24h' ? start : Math.floor(start / DAY_MS) * DAY_MS), to };
}

/** A rolling window of the last `minutes` ending now (the alert check's window_minutes). */
export function minutesWindow(minutes: number, now: Date): TimeWindow {
  const to = new Date(Math.floor(now.getTime() / 1000) * 1000 + 1000);
  return { from: new Date(to.getTime() - minutes * 60_000), to };
}

/** Days of live data a scan report shows beside its lab values. */
export const FIELD_DAYS = 28;

/** The rolling window of the last `days` × 24 hours ending now (the current second included). */
export function rollingDaysWindow(days: number, now: Date): TimeWindow {
  return minutesWindow(days * 24 * 60, now);
}

/** `days` calendar days (UTC) ending with today. */
export function historyWindow(days: number, now: Date): TimeWindow {
  const tomorrow = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  return { from: new Date(tomorrow - days * DAY_MS), to: new Date(tomorrow) };
}

/** The UTC calendar month `now` is in. */
export function monthWindow(now: Date): TimeWindow {
  return {
    from: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
    to: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
  };
}
