import { formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { METRIC_THRESHOLDS, type MetricThreshold, rateValue } from '../../core/metric-thresholds.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { FormFactorMetrics } from '../../core/scan/result.ts';
import { html, type SafeHtml } from '../html.ts';
import { glanceText } from './labels.ts';

/**
 * The report's metric values rated good / needs improvement / poor by their thresholds
 * (core/metric-thresholds.ts). The rating is written out beside the coloured value, with a shape of its own,
 * and the thresholds stand under the metric's name: the colour is never the only signal.
 */
export const RATED_METRICS = [
  { key: 'fcp_ms', label: 'First Contentful Paint', threshold: METRIC_THRESHOLDS.FCP },
  { key: 'lcp_ms', label: 'Largest Contentful Paint', threshold: METRIC_THRESHOLDS.LCP },
  { key: 'cls', label: 'Cumulative Layout Shift', threshold: METRIC_THRESHOLDS.CLS },
  { key: 'tbt_ms', label: 'Total Blocking Time', threshold: METRIC_THRESHOLDS.TBT },
] as const satisfies ReadonlyArray<{ key: keyof FormFactorMetrics; label: string; threshold: MetricThreshold }>;

/** A value in its metric's unit: "2.4 s", "180 ms", CLS unitless to three decimals. */
export function formatMetricValue(threshold: MetricThreshold, value: number, locale: Locale): string {
  return threshold.unit === 'ms' ? formatMs(value, locale) : formatNumber(value, locale, 3);
}

/** The thresholds in words: "good ≤ 2.5 s, poor > 4 s". */
export function thresholdText(threshold: MetricThreshold, locale: Locale): string {
  const t = glanceText(locale);
  return t.thresholds(
    formatMetricValue(threshold, threshold.good, locale),
    formatMetricValue(threshold, threshold.poor, locale),
  );
}

/** A value coloured by its rating, with the rating in words. */
export function ratedValue(threshold: MetricThreshold, value: number, locale: Locale): SafeHtml {
  const rating = rateValue(threshold, value);
  return html`<span class="rated rating-${rating}" data-rating="${rating}"><span class="rating-icon" aria-hidden="true"></span><span class="rated-value">${formatMetricValue(threshold, value, locale)}</span> <span class="rating-word">${glanceText(locale).ratings[rating]}</span></span>`;
}

/** The metrics table's rated rows: the metric and its thresholds, then its rated value on each form factor. */
export function ratedMetricRows(metrics: Record<FormFactor, FormFactorMetrics>, locale: Locale): SafeHtml[] {
  return RATED_METRICS.map(
    ({ key, label, threshold }) =>
      html`<tr data-metric="${key}"><td>${label}<br><span class="threshold">${thresholdText(threshold, locale)}</span></td>${FORM_FACTORS.map(
        (f) => html`<td>${ratedValue(threshold, metrics[f][key], locale)}</td>`,
      )}</tr>`,
  );
}
