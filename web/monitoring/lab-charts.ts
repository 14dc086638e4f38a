import type { Locale } from '../../core/i18n/locale.ts';
import type { Budgets } from '../../core/monitoring/budgets.ts';
import { LAB_METRICS, type LabHistoryItem, type LabMetric } from '../../core/monitoring/lab-history.ts';
import type { FORM_FACTORS } from '../../core/scan/observation.ts';
import { labMetricChart, labSeries } from '../charts/lab-metric-history.ts';
import { html, type SafeHtml } from '../html.ts';
import { MONITORING_PATHS } from './model.ts';

/**
 * The target page's lab-metric charts (web/charts/lab-metric-history.ts): LCP, CLS, TBT, FCP per form factor
 * (mobile first, as the scores weigh it) and TTFB once, over the target's finished scans (the target store's
 * `labHistory`), each scan's median run as the line and its runs' spread as a whisker. The target's budgets, when
 * set, are drawn as dashed lines.
 */
const LABELS = {
  en: {
    heading: 'Lab metrics',
    intro:
      'Lighthouse’s simulated values of each scan: the line is the median run (the report’s value), the bar the lowest to highest of its runs, so a change beyond the bar is more than noise. TTFB is measured once per scan.',
    names: {
      lcp_ms: 'Largest Contentful Paint (LCP)',
      cls: 'Cumulative Layout Shift (CLS)',
      tbt_ms: 'Total Blocking Time (TBT)',
      fcp_ms: 'First Contentful Paint (FCP)',
      ttfb_ms: 'Time to First Byte (TTFB)',
    } as Record<LabMetric, string>,
    factors: { mobile: 'Mobile', desktop: 'Desktop' },
  },
  de: {
    heading: 'Labormesswerte',
    intro:
      'Die simulierten Werte von Lighthouse je Scan: die Linie ist der mittlere Lauf (der Wert des Berichts), der Balken reicht vom niedrigsten bis zum höchsten seiner Läufe, so ist eine Änderung über den Balken hinaus mehr als Messrauschen. TTFB wird je Scan einmal gemessen.',
    names: {
      lcp_ms: 'Largest Contentful Paint (LCP)',
      cls: 'Cumulative Layout Shift (CLS)',
      tbt_ms: 'Total Blocking Time (TBT)',
      fcp_ms: 'First Contentful Paint (FCP)',
      ttfb_ms: 'Time to First Byte (TTFB)',
    } as Record<LabMetric, string>,
    factors: { mobile: 'Mobil', desktop: 'Desktop' },
  },
} as const;

/**
 * The target's budgets (core/monitoring/budgets.ts), per form factor, each drawn on its form factor's chart.
 * TTFB is one value per scan judged against both form factors' TTFB budgets, so its chart draws the lower one.
 */
export type LabBudgets = Pick<Budgets, 'mobile' | 'desktop'>;

const ttfbBudget = (budgets: LabBudgets): number | undefined => {
  const set = [budgets.mobile?.ttfb_ms, budgets.desktop?.ttfb_ms].filter((v): v is number => typeof v === 'number');
  return set.length ? Math.min(...set) : undefined;
};

const ORDER = ['mobile', 'desktop'] as const satisfies ReadonlyArray<(typeof FORM_FACTORS)[number]>;

export function labChartsSection(items: readonly LabHistoryItem[], locale: Locale, budgets: LabBudgets = {}): SafeHtml {
  const t = LABELS[locale];
  if (items.length === 0) return html``;
  const href = (scanId: string) => MONITORING_PATHS.report(scanId);
  return html`<section aria-labelledby="lab-metrics-heading" id="lab-metrics" class="lab-metrics"><h2 id="lab-metrics-heading">${t.heading}</h2><p class="hint">${t.intro}</p>
    ${LAB_METRICS.map(
      (metric) =>
        html`<h3>${t.names[metric]}</h3><div class="lab-charts">${
          metric === 'ttfb_ms'
            ? labMetricChart(metric, labSeries(items, metric, 'desktop'), {
                locale,
                id: `lab-${metric}`,
                budget: ttfbBudget(budgets),
                href,
              })
            : ORDER.map(
                (factor) =>
                  html`<div><h4>${t.factors[factor]}</h4>${labMetricChart(metric, labSeries(items, metric, factor), {
                    locale,
                    id: `lab-${metric}-${factor}`,
                    factor,
                    budget: budgets[factor]?.[metric],
                    href,
                  })}</div>`,
              )
        }</div>`,
    )}</section>`;
}
