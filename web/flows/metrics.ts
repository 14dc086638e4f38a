import type { FlowStepResult, LighthouseStepMode } from '../../core/flows/flow.ts';
import { formatMs, type Locale } from '../../core/i18n/locale.ts';
import { METRIC_THRESHOLDS, type MetricThreshold } from '../../core/metric-thresholds.ts';
import type { VerdictMetric } from '../../core/verdicts/verdict.ts';
import { formatMetricValue } from '../scans/report-ratings.ts';

/**
 * The metrics a flow step shows, by Lighthouse mode: a navigation has the page-load metrics, a timespan the
 * interaction ones, a snapshot none. Each is rated by its threshold where core/metric-thresholds.ts has one
 * (Speed Index has none) and compared by its verdict rule where core/verdicts has one (INP has none).
 */
export interface FlowMetric {
  key: keyof FlowStepResult['metrics'];
  /** Lighthouse's English name, in every language, as on the report. */
  label: string;
  threshold: MetricThreshold | null;
  verdict: VerdictMetric | null;
  modes: readonly LighthouseStepMode[];
}

export const FLOW_METRICS: readonly FlowMetric[] = [
  {
    key: 'lcp_ms',
    label: 'Largest Contentful Paint (LCP)',
    threshold: METRIC_THRESHOLDS.LCP,
    verdict: 'lcp',
    modes: ['navigation'],
  },
  {
    key: 'fcp_ms',
    label: 'First Contentful Paint (FCP)',
    threshold: METRIC_THRESHOLDS.FCP,
    verdict: 'fcp',
    modes: ['navigation'],
  },
  {
    key: 'inp_ms',
    label: 'Interaction to Next Paint (INP)',
    threshold: METRIC_THRESHOLDS.INP,
    verdict: null,
    modes: ['timespan'],
  },
  {
    key: 'tbt_ms',
    label: 'Total Blocking Time (TBT)',
    threshold: METRIC_THRESHOLDS.TBT,
    verdict: 'tbt',
    modes: ['navigation', 'timespan'],
  },
  {
    key: 'cls',
    label: 'Cumulative Layout Shift (CLS)',
    threshold: METRIC_THRESHOLDS.CLS,
    verdict: 'cls',
    modes: ['navigation', 'timespan'],
  },
  { key: 'speed_index_ms', label: 'Speed Index', threshold: null, verdict: 'si', modes: ['navigation'] },
  {
    key: 'ttfb_ms',
    label: 'Time to First Byte (TTFB)',
    threshold: METRIC_THRESHOLDS.TTFB,
    verdict: 'ttfb',
    modes: ['navigation'],
  },
];

export const metricsOf = (mode: LighthouseStepMode): readonly FlowMetric[] =>
  FLOW_METRICS.filter((metric) => metric.modes.includes(mode));

/** A value in the metric's unit (ms as "2.4 s" / "180 ms", CLS to three decimals). */
export const formatFlowMetric = (metric: FlowMetric, value: number, locale: Locale): string =>
  metric.threshold ? formatMetricValue(metric.threshold, value, locale) : formatMs(value, locale);

export const SCORE_KEYS = ['performance', 'accessibility', 'best_practices', 'seo'] as const;
