/**
 * The live-data (RUM) metrics and every rule about their values: units, Google's Core Web Vitals rating
 * thresholds, the CWV pass rule and how percentiles are computed. The ingest service, the API, the alert
 * check and the dashboard all ask this module.
 */

import { METRIC_THRESHOLDS, type MetricThreshold, type Rating, rateValue } from '../metric-thresholds.ts';

export const RUM_METRICS = ['LCP', 'CLS', 'INP', 'FCP', 'TTFB'] as const;
export type RumMetric = (typeof RUM_METRICS)[number];

/** The three metrics the Core Web Vitals pass rule looks at. */
export const CORE_WEB_VITALS: readonly RumMetric[] = ['LCP', 'CLS', 'INP'];

export { RATINGS, type Rating } from '../metric-thresholds.ts';

export const DEVICES = ['desktop', 'mobile', 'tablet'] as const;
export type Device = (typeof DEVICES)[number];

/** web-vitals' navigationType values (soft-navigation only where the browser reports soft navigations). */
export const NAVIGATION_TYPES = [
  'navigate',
  'reload',
  'back-forward',
  'back-forward-cache',
  'prerender',
  'restore',
  'soft-navigation',
] as const;
export type NavigationType = (typeof NAVIGATION_TYPES)[number];

export interface MetricRule extends MetricThreshold {
  /** The largest value a beacon may carry; larger ones are rejected as implausible (reason `value_range`). */
  max: number;
}

/** Google's published thresholds (core/metric-thresholds.ts): good ≤ `good`, poor > `poor`. */
export const METRIC_RULES: Readonly<Record<RumMetric, MetricRule>> = {
  LCP: { ...METRIC_THRESHOLDS.LCP, max: 120_000 },
  INP: { ...METRIC_THRESHOLDS.INP, max: 60_000 },
  CLS: { ...METRIC_THRESHOLDS.CLS, max: 100 },
  FCP: { ...METRIC_THRESHOLDS.FCP, max: 120_000 },
  TTFB: { ...METRIC_THRESHOLDS.TTFB, max: 120_000 },
};

export function isRumMetric(value: string): value is RumMetric {
  return (RUM_METRICS as readonly string[]).includes(value);
}

export function rate(metric: RumMetric, value: number): Rating {
  return rateValue(METRIC_RULES[metric], value);
}

/** The unit as the `rum.alert.*` payloads name it: `ms`, or `score` for the unitless CLS. */
export function unitLabel(metric: RumMetric): string {
  return METRIC_RULES[metric].unit === 'ms' ? 'ms' : 'score';
}

/** Fewest samples per metric before the CWV pass rule gives an answer (spec: at least 20 measurements). */
export const CWV_MIN_SAMPLES = 20;

export interface MetricSummary {
  p75: number | null;
  samples: number;
}

/**
 * The spec's rule: pass when LCP, CLS and INP are all good with at least 20 samples each; with fewer than 20
 * samples of any of them there is no verdict (null, insufficient data); otherwise fail.
 */
export function cwvVerdict(metrics: Readonly<Record<RumMetric, MetricSummary>>): {
  cwv_pass: boolean | null;
  cwv_insufficient_data: boolean;
} {
  const vitals = CORE_WEB_VITALS.map((metric) => ({ metric, summary: metrics[metric] }));
  if (vitals.some(({ summary }) => summary.samples < CWV_MIN_SAMPLES || summary.p75 === null)) {
    return { cwv_pass: null, cwv_insufficient_data: true };
  }
  const pass = vitals.every(({ metric, summary }) => rate(metric, summary.p75!) === 'good');
  return { cwv_pass: pass, cwv_insufficient_data: false };
}

/**
 * How percentiles are computed, everywhere (API, alert check, dashboard): ClickHouse's `quantileExact`, which
 * sorts the samples and takes the value at rank floor(q × n) (0-based), so p75 of 4 samples is the 4th
 * smallest and p75 of 100 is the 76th. It is exact and deterministic; no sampling or sketches. Summaries of
 * 7 days or more come from daily rollups, deterministic and within a stated tolerance (core/rum/rollups.ts).
 * `exactQuantile` is the same definition in TypeScript (for tests and small in-memory sets).
 */
export function exactQuantile(sortedAscending: readonly number[], q: number): number | null {
  if (sortedAscending.length === 0) return null;
  const index = Math.min(sortedAscending.length - 1, Math.floor(q * sortedAscending.length));
  return sortedAscending[index]!;
}

/** Values as the API reports them: whole milliseconds for time metrics, CLS to four decimals. */
export function roundMetric(metric: RumMetric, value: number): number {
  return METRIC_RULES[metric].unit === 'ms' ? Math.round(value) : Math.round(value * 10_000) / 10_000;
}
