import { CORE_WEB_VITALS, METRIC_RULES, type RumMetric } from './metrics.ts';

/**
 * The live-data alert rules: what one check of a configuration concludes from the p75 values of its window,
 * and how that moves the alert's status. Pure; services/rum-alert-check.ts feeds it ClickHouse's numbers and
 * stores the outcome.
 *
 * - **auto** watches the three Core Web Vitals (LCP, INP, CLS) and breaches when a metric's p75 is rated
 *   `poor`, i.e. above Google's poor threshold (METRIC_RULES: LCP 4000 ms, INP 500 ms, CLS 0.25). Only
 *   `poor` counts, not `needs-improvement`: an alert should wake someone for a real problem, and the
 *   dashboard already shows the amber band. The breaching metric (the worst one, by p75 over its threshold,
 *   when several are poor) and its poor threshold are what the payload names.
 * - **manual** watches one metric and breaches when its p75 is above `threshold` (equal is fine).
 * - A metric counts only with at least `min_samples` samples from at least RUM_ALERT_MIN_SOURCES distinct
 *   sender networks in the window; a check where nothing watched has enough is `insufficient` and changes
 *   nothing (streaks are kept, not reset).
 * - **Forged beacons**: anyone can send beacons that look like a site's, so one sender must not be able to
 *   fire an alert. Each sender network (IPv4 /24, IPv6 /48; ingest/source.ts) adds at most
 *   RUM_ALERT_VALUES_PER_SOURCE values per metric to a window's p75 and sample count (which ones: a fixed
 *   pseudo-random choice, by the value's dedupe key), and RUM_ALERT_MIN_SOURCES networks are needed. A
 *   flood from one network is thus at most 5 values however many it sends (and the ingest's per-address
 *   rate limit bounds what it sends at all); moving a p75 takes a quarter of the counted values, i.e. many
 *   distinct networks.
 * - **Streaks**: `consecutive_threshold` breaching checks in a row trigger the alert; while triggered,
 *   `consecutive_threshold` recovered checks in a row resolve it (the same count both ways, so an alert
 *   hovering at its threshold does not flap). A check that goes the other way resets the streak.
 * - A triggered auto alert resolves on the metric it fired on: that metric must have enough samples and be
 *   no longer poor, and no other watched metric may be poor.
 */

export const RUM_ALERT_MODES = ['auto', 'manual'] as const;
export type RumAlertMode = (typeof RUM_ALERT_MODES)[number];

export const RUM_ALERT_STATUSES = ['active', 'triggered', 'resolved'] as const;
export type RumAlertStatus = (typeof RUM_ALERT_STATUSES)[number];

/** The metrics auto mode watches. */
export const AUTO_METRICS: readonly RumMetric[] = CORE_WEB_VITALS;

/** Limits of a configuration's numbers (the API validates them; the table has no checks of its own). */
export const RUM_ALERT_LIMITS = {
  windowMinutes: { min: 5, max: 1440 },
  minSamples: { min: 1, max: 100_000 },
  consecutiveThreshold: { min: 1, max: 12 },
  titleLength: 200,
  perSite: 20,
} as const;

export interface RumAlertRule {
  mode: RumAlertMode;
  /** Manual mode only. */
  metric: RumMetric | null;
  threshold: number | null;
  minSamples: number;
}

/** Distinct sender networks a metric needs in a window before it is judged. */
export const RUM_ALERT_MIN_SOURCES = 5;
/** Values one sender network adds at most to a metric's window. */
export const RUM_ALERT_VALUES_PER_SOURCE = 5;

export interface MetricWindow {
  p75: number;
  /** Values counted (at most RUM_ALERT_VALUES_PER_SOURCE per network). */
  samples: number;
  /** Distinct sender networks among them. */
  sources: number;
}

/** What ClickHouse found for one site in one window: metrics without samples are absent. */
export type SiteWindow = Partial<Record<RumMetric, MetricWindow>>;

export interface Reading {
  metric: RumMetric;
  p75: number;
  samples: number;
  threshold: number;
}

export type Verdict = { kind: 'insufficient' } | ({ kind: 'breach' | 'ok' } & Reading);

/** The threshold a metric is judged against under `rule`. */
export function thresholdOf(rule: Pick<RumAlertRule, 'mode' | 'threshold'>, metric: RumMetric): number {
  return rule.mode === 'manual' ? rule.threshold! : METRIC_RULES[metric].poor;
}

/**
 * One check of one configuration. `focus`: the metric a triggered alert fired on (its recovery is judged on
 * it); null when the alert is not triggered.
 */
export function judge(rule: RumAlertRule, window: SiteWindow, focus: RumMetric | null): Verdict {
  const watched = rule.mode === 'manual' ? [rule.metric!] : AUTO_METRICS;
  const readings: Reading[] = watched.flatMap((metric) => {
    const seen = window[metric];
    return seen && seen.samples >= rule.minSamples && seen.sources >= RUM_ALERT_MIN_SOURCES
      ? [{ metric, p75: seen.p75, samples: seen.samples, threshold: thresholdOf(rule, metric) }]
      : [];
  });
  if (readings.length === 0) return { kind: 'insufficient' };
  const breaching = readings.filter((r) => r.p75 > r.threshold);
  if (breaching.length > 0) {
    const worst = breaching.reduce((a, b) => (ratio(b) > ratio(a) ? b : a));
    return { kind: 'breach', ...worst };
  }
  const reported = focus === null ? readings[0]! : readings.find((r) => r.metric === focus);
  if (!reported) return { kind: 'insufficient' };
  return { kind: 'ok', ...reported };
}

// Thresholds are positive for every metric's poor value; a manual threshold of 0 breaches on any p75 above it.
const ratio = (r: Reading) => (r.threshold > 0 ? r.p75 / r.threshold : Number.POSITIVE_INFINITY);

export interface AlertState {
  status: RumAlertStatus;
  streak: number;
}

export type Transition = 'triggered' | 'resolved';

export interface Step extends AlertState {
  transition: Transition | null;
}

/** The status and streak after a check's verdict; `transition` when the status changed. */
export function step(state: AlertState, verdict: Verdict, consecutiveThreshold: number): Step {
  if (verdict.kind === 'insufficient') return { ...state, transition: null };
  if (state.status !== 'triggered') {
    if (verdict.kind === 'ok') return { status: state.status, streak: 0, transition: null };
    const streak = state.streak + 1;
    return streak >= consecutiveThreshold
      ? { status: 'triggered', streak: 0, transition: 'triggered' }
      : { status: state.status, streak, transition: null };
  }
  if (verdict.kind === 'breach') return { status: 'triggered', streak: 0, transition: null };
  const streak = state.streak + 1;
  return streak >= consecutiveThreshold
    ? { status: 'resolved', streak: 0, transition: 'resolved' }
    : { status: 'triggered', streak, transition: null };
}

/**
 * A check runs every 5 minutes. A configuration checked less than half that ago was checked by an earlier
 * attempt of this run (an activity retried after its commit) or by a run started by hand: it is skipped, so
 * one real check never counts twice towards a streak.
 */
export const RUM_ALERT_CHECK_EVERY_MINUTES = 5;
export const MIN_CHECK_GAP_MS = (RUM_ALERT_CHECK_EVERY_MINUTES * 60_000) / 2;

/** A live-data alert configuration with its state, as db/store/rum-alerts.ts returns it. */
export interface RumAlert extends RumAlertRule {
  id: number;
  siteId: number;
  title: string;
  windowMinutes: number;
  consecutiveThreshold: number;
  status: RumAlertStatus;
  /** Breaching checks in a row (not triggered) or recovered checks in a row (triggered). */
  streak: number;
  /** What the last check with enough samples saw. */
  lastMetric: RumMetric | null;
  lastP75: number | null;
  lastSamples: number | null;
  lastCheckedAt: Date | null;
  /** The metric it last triggered on, and when. */
  triggeredMetric: RumMetric | null;
  triggeredAt: Date | null;
  /** When the SMTP server accepted the e-mail about the current triggering (null after a new triggering). */
  emailedAt: Date | null;
  resolvedAt: Date | null;
  resolvedEmailedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** p75 and samples per site over a window ending at `now` (db/clickhouse/rum-alert-queries.ts, injected by the worker). */
export type SiteWindowsQuery = (
  siteIds: readonly number[],
  windowMinutes: number,
  now: Date,
) => Promise<Map<number, SiteWindow>>;

/**
 * Whether the e-mail about `change` (the triggering or resolution at `occurrence`) is still to be sent. Like
 * score alerts: a trigger e-mail is dropped once the alert has moved on (resolved, or triggered again), and a
 * resolution is e-mailed only to an owner who was told about the trigger.
 */
export function rumEmailDue(alert: RumAlert, change: Transition, occurrence: Date): 'send' | 'sent' | 'not_due' {
  if (change === 'triggered') {
    if (alert.triggeredAt?.getTime() !== occurrence.getTime()) return 'not_due';
    if (alert.emailedAt) return 'sent';
    return alert.status === 'triggered' ? 'send' : 'not_due';
  }
  if (alert.resolvedAt?.getTime() !== occurrence.getTime()) return 'not_due';
  if (alert.resolvedEmailedAt) return 'sent';
  return alert.status === 'resolved' && alert.emailedAt ? 'send' : 'not_due';
}
