/**
 * The good / needs-improvement / poor thresholds of the page metrics, in one place: Google's Core Web Vitals
 * thresholds (web.dev/vitals: LCP, INP, CLS, and FCP and TTFB as web.dev rates them) and Lighthouse's for
 * Total Blocking Time. The scan findings (core/scoring/checks/speed.ts), the live-data rules
 * (core/rum/metrics.ts) and the report's coloured metric values all read them here.
 */

export const RATINGS = ['good', 'needs-improvement', 'poor'] as const;
export type Rating = (typeof RATINGS)[number];

export interface MetricThreshold {
  unit: 'ms' | '';
  /** Good up to and including this value. */
  good: number;
  /** Poor above this value; needs improvement in between. */
  poor: number;
}

export const METRIC_THRESHOLDS = {
  LCP: { unit: 'ms', good: 2500, poor: 4000 },
  INP: { unit: 'ms', good: 200, poor: 500 },
  CLS: { unit: '', good: 0.1, poor: 0.25 },
  FCP: { unit: 'ms', good: 1800, poor: 3000 },
  TTFB: { unit: 'ms', good: 800, poor: 1800 },
  /** Lighthouse's: its TBT audit scores 0.9 at 200 ms and 0.5 at 600 ms on a phone. */
  TBT: { unit: 'ms', good: 200, poor: 600 },
} as const satisfies Record<string, MetricThreshold>;

export type ThresholdMetric = keyof typeof METRIC_THRESHOLDS;

/** good ≤ `good` < needs improvement ≤ `poor` < poor. */
export function rateValue(threshold: MetricThreshold, value: number): Rating {
  if (value <= threshold.good) return 'good';
  if (value <= threshold.poor) return 'needs-improvement';
  return 'poor';
}

/** A threshold in words for the scoring reference (English, not localised): "good up to 2.5 s, poor above 4 s". */
export function describeThreshold(threshold: MetricThreshold): string {
  const value = (v: number) => (threshold.unit !== 'ms' ? String(v) : v >= 1000 ? `${v / 1000} s` : `${v} ms`);
  return `good up to ${value(threshold.good)}, poor above ${value(threshold.poor)}`;
}
