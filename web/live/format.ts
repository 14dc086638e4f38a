import { formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { METRIC_RULES, type Rating, type RumMetric } from '../../core/rum/metrics.ts';

/** A metric value with its unit: "2.4 s", "180 ms", CLS unitless to at most three decimals ("0.08"). */
export function formatMetric(metric: RumMetric, value: number, locale: Locale): string {
  return METRIC_RULES[metric].unit === 'ms' ? formatMs(value, locale) : formatNumber(value, locale, 3);
}

/** Colours of the three ratings: text colours at least 4.5:1 on white, fills at least 3:1 (web/assets/site/ uses the same). */
export const RATING_COLOURS: Readonly<Record<Rating, { text: string; fill: string; band: string }>> = {
  good: { text: '#0a6b2d', fill: '#1a7f37', band: '#e6f4ea' },
  'needs-improvement': { text: '#8a4600', fill: '#a35a00', band: '#fff4dc' },
  poor: { text: '#b3261e', fill: '#cf222e', band: '#fdecea' },
};

export const percent = (part: number, whole: number, locale: Locale): string =>
  whole === 0
    ? '–'
    : `${formatNumber((part / whole) * 100, locale, part / whole < 0.1 && part > 0 ? 1 : 0)}${locale === 'de' ? '\u00a0%' : '%'}`;
