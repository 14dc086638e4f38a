import type { Alert } from '../monitoring/alert.ts';
import type { BudgetBreach, BudgetMetric, BudgetStep, StepBudgetMetric } from '../monitoring/budgets.ts';
import { FLOW_SCORE_KEYS, type FlowScoreKey } from '../flows/flow.ts';
import { isBudgetMetric } from '../monitoring/budgets.ts';
import type { FormFactor } from '../scan/observation.ts';
import { categoryOf, scoreLabel, type ScoreKey } from '../scoring/categories.ts';
import { pageName } from '../url.ts';
import { formatNumber, type Locale } from './locale.ts';

/**
 * A metric_over_budget alert's title and message (core/i18n/alerts.ts renders the other types): the worst
 * broken budget by form factor, metric, value and budget on the page (host and path), the other broken budgets,
 * and, once resolved, that every budget holds again.
 */

type BudgetAlertFacts = Pick<Alert, 'details' | 'host' | 'url' | 'resolvedAt'>;

export const BUDGET_METRIC_NAMES: Record<BudgetMetric, string> = {
  lcp_ms: 'LCP',
  fcp_ms: 'FCP',
  tbt_ms: 'TBT',
  cls: 'CLS',
  ttfb_ms: 'TTFB',
};
const STEP_METRIC_NAMES: Record<StepBudgetMetric, string> = { ...BUDGET_METRIC_NAMES, inp_ms: 'INP' };
const FLOW_SCORE_NAMES: Record<Locale, Record<FlowScoreKey, string>> = {
  en: { performance: 'performance', accessibility: 'accessibility', best_practices: 'best practices', seo: 'SEO' },
  de: { performance: 'Performance', accessibility: 'Barrierefreiheit', best_practices: 'Best Practices', seo: 'SEO' },
};

export const FORM_FACTOR_NAMES: Record<Locale, Record<FormFactor, string>> = {
  en: { mobile: 'mobile', desktop: 'desktop' },
  de: { mobile: 'Mobil', desktop: 'Desktop' },
};

/** A budget's or a measured value in its unit: "3,210 ms", "0.25", "72". */
export function budgetValue(metric: BudgetBreach['metric'], value: number, locale: Locale): string {
  if (metric === 'cls') return formatNumber(value, locale, 3);
  if (isBudgetMetric(metric)) return `${formatNumber(value, locale)} ms`;
  return formatNumber(value, locale, 1);
}

/**
 * "mobile LCP" / "LCP (Mobil)"; a score: "overall score" / "Score „Gesamt“"; one of Lighthouse's category scores:
 * "mobile Lighthouse SEO score" / "Lighthouse-Score „SEO“ (Mobil)"; a flow step's: "LCP of step 0 “Home”" /
 * "LCP von Schritt 0 „Home“".
 */
export function budgetName(
  metric: BudgetBreach['metric'],
  formFactor: FormFactor | null,
  locale: Locale,
  step?: BudgetStep,
): string {
  if (step) {
    const name = isBudgetMetric(metric)
      ? STEP_METRIC_NAMES[metric]
      : (FLOW_SCORE_KEYS as readonly string[]).includes(metric)
        ? locale === 'de'
          ? `Score „${FLOW_SCORE_NAMES.de[metric as FlowScoreKey]}“`
          : `${FLOW_SCORE_NAMES.en[metric as FlowScoreKey]} score`
        : metric;
    return locale === 'de'
      ? `${name} von Schritt ${step.index} „${step.name}“`
      : `${name} of step ${step.index} “${step.name}”`;
  }
  if ((FLOW_SCORE_KEYS as readonly string[]).includes(metric)) {
    // A target's minimum for one of Lighthouse's own category scores, on one form factor.
    const category = FLOW_SCORE_NAMES[locale][metric as FlowScoreKey];
    const factor = formFactor ? FORM_FACTOR_NAMES[locale][formFactor] : '';
    if (locale === 'de') return `Lighthouse-Score „${category}“${factor ? ` (${factor})` : ''}`;
    return `${factor ? `${factor} ` : ''}Lighthouse ${category} score`;
  }
  if (isBudgetMetric(metric)) {
    const name = STEP_METRIC_NAMES[metric];
    const factor = formFactor ? FORM_FACTOR_NAMES[locale][formFactor] : '';
    if (!factor) return name;
    return locale === 'de' ? `${name} (${factor})` : `${factor} ${name}`;
  }
  const score = metric as ScoreKey;
  if (locale === 'de') return `Score „${scoreLabel(score, 'de')}“`;
  return `${score === 'overall' ? 'overall' : categoryOf(score).inSentence.en} score`;
}

const TEXTS = {
  en: {
    overTitle: (name: string) => `${name} over budget`,
    underTitle: (name: string) => `${name} below budget`,
    overMessage: (name: string, page: string, value: string, budget: string) =>
      `The ${name} of ${page} is ${value}, over its budget of ${budget}.`,
    underMessage: (name: string, page: string, value: string, budget: string) =>
      `The ${name} of ${page} is ${value}, below its minimum of ${budget}.`,
    also: (list: string) => ` Also over budget: ${list}.`,
    item: (name: string, value: string, budget: string) => `${name} ${value} (budget ${budget})`,
    recovered: (name: string, value: string) => ` Resolved: every budget holds again (${name} ${value}).`,
  },
  de: {
    overTitle: (name: string) => `${name} über dem Budget`,
    underTitle: (name: string) => `${name} unter dem Budget`,
    overMessage: (name: string, page: string, value: string, budget: string) =>
      `Der Wert ${name} von ${page} liegt bei ${value} und damit über dem Budget von ${budget}.`,
    underMessage: (name: string, page: string, value: string, budget: string) =>
      `Der ${name} von ${page} liegt bei ${value} und damit unter dem Mindestwert von ${budget}.`,
    also: (list: string) => ` Ebenfalls außerhalb des Budgets: ${list}.`,
    item: (name: string, value: string, budget: string) => `${name} ${value} (Budget ${budget})`,
    recovered: (name: string, value: string) => ` Behoben: Alle Budgets werden wieder eingehalten (${name} ${value}).`,
  },
} as const;

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function budgetAlertText(alert: BudgetAlertFacts, locale: Locale): { title: string; message: string } {
  const t = TEXTS[locale];
  const { details } = alert;
  const worst: Pick<BudgetBreach, 'metric' | 'formFactor' | 'step'> = details.budget ?? {
    metric: details.score,
    formFactor: null,
  };
  const name = budgetName(worst.metric, worst.formFactor, locale, worst.step);
  const page = pageName(alert.url, alert.host);
  const value = budgetValue(worst.metric, details.value, locale);
  const budget = budgetValue(worst.metric, details.reference, locale);
  const over = isBudgetMetric(worst.metric);
  const others = (details.overBudget ?? [])
    .slice(1)
    .map((b) =>
      t.item(
        budgetName(b.metric, b.formFactor, locale, b.step),
        budgetValue(b.metric, b.value, locale),
        budgetValue(b.metric, b.budget, locale),
      ),
    );
  const resolution = alert.resolvedAt ? details.resolution : undefined;
  return {
    title: capitalised(over ? t.overTitle(name) : t.underTitle(name)),
    message:
      (over ? t.overMessage(name, page, value, budget) : t.underMessage(name, page, value, budget)) +
      (others.length ? t.also(others.join(', ')) : '') +
      (resolution ? t.recovered(name, budgetValue(worst.metric, resolution.value, locale)) : ''),
  };
}
