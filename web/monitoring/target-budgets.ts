import { BUDGET_METRIC_NAMES } from '../../core/i18n/budget-alerts.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import {
  BUDGET_CRITICAL_OVER,
  BUDGET_RECOVERY_MARGIN,
  BUDGET_RECOVERY_POINTS,
} from '../../core/monitoring/budget-rules.ts';
import { BUDGET_LIMITS, BUDGET_METRICS, type BudgetMetric, type Budgets } from '../../core/monitoring/budgets.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import {
  LIGHTHOUSE_CATEGORY_KEYS,
  lighthouseCategoryLabel,
  type LighthouseCategoryKey,
} from '../../core/scan/lighthouse-categories.ts';
import { SCORE_KEYS, scoreLabel, type ScoreKey } from '../../core/scoring/categories.ts';
import { budgetFieldNumber, budgetFieldText } from '../budget-fields.ts';
import { html, type SafeHtml } from '../html.ts';
import type { FieldErrors } from './model.ts';
import { formError, formFields } from './parts.ts';

/**
 * A target's performance budgets on its page (core/monitoring/budgets.ts): one form with a field per form
 * factor and page metric and one per score, empty meaning no budget. Saved through the same service as the
 * API's `budgets` (services/targets.ts), and checked against the same limits; the form's POST route is in
 * target-budget-routes.ts.
 */

/** The form's field names: `mobile.lcp_ms`, `desktop.cls`, `scores.overall`, `lighthouse.mobile.seo`. */
const MOBILE_FIRST: FormFactor[] = ['mobile', 'desktop'];
const metricField = (formFactor: FormFactor, metric: BudgetMetric) => `${formFactor}.${metric}`;
const scoreField = (score: ScoreKey) => `scores.${score}`;
const lighthouseField = (formFactor: FormFactor, category: LighthouseCategoryKey) =>
  `lighthouse.${formFactor}.${category}`;

const LABELS = {
  en: {
    title: 'Budgets',
    intro: (critical: number, margin: number, points: number) =>
      `An alert when the median run of a scheduled scan (or Run now) breaks a budget: a metric above its maximum or a score below its minimum. Critical at ${critical} % or more past the budget; resolved once every budget holds again with a margin (metrics at ${100 - margin} % of their budget or less, scores ${points} points above their minimum). Leave a field empty for no budget.`,
    metric: 'Metric',
    mobile: 'Mobile',
    desktop: 'Desktop',
    unit: (metric: BudgetMetric) => (metric === 'cls' ? 'unitless' : 'ms'),
    scores: 'Minimum scores',
    lighthouse: 'Minimum Lighthouse scores',
    lighthouseHint: 'Lighthouse’s own category scores of each form factor, as its report shows them.',
    edit: 'Edit budgets',
    save: 'Save budgets',
    none: 'No budgets set.',
    summary: (count: number) => (count === 1 ? '1 budget set.' : `${count} budgets set.`),
    invalid: (max: number, integer: boolean) =>
      integer ? `A whole number from 0 to ${max}, or empty.` : `A number from 0 to ${max}, or empty.`,
    formInvalid: 'Some budgets are not valid; see the fields marked below.',
  },
  de: {
    title: 'Budgets',
    intro: (critical: number, margin: number, points: number) =>
      `Ein Alarm, wenn der Median-Lauf eines geplanten Scans (oder von „Jetzt scannen“) ein Budget überschreitet: eine Metrik über ihrem Höchstwert oder ein Score unter seinem Mindestwert. Kritisch ab ${critical} % über dem Budget; behoben, sobald alle Budgets wieder mit Abstand eingehalten werden (Metriken höchstens ${100 - margin} % ihres Budgets, Scores ${points} Punkte über ihrem Mindestwert). Ein leeres Feld heißt: kein Budget.`,
    metric: 'Metrik',
    mobile: 'Mobil',
    desktop: 'Desktop',
    unit: (metric: BudgetMetric) => (metric === 'cls' ? 'ohne Einheit' : 'ms'),
    scores: 'Mindest-Scores',
    lighthouse: 'Mindestwerte der Lighthouse-Scores',
    lighthouseHint: 'Die eigenen Kategorie-Scores von Lighthouse je Gerätetyp, wie sein Bericht sie zeigt.',
    edit: 'Budgets bearbeiten',
    save: 'Budgets speichern',
    none: 'Keine Budgets gesetzt.',
    summary: (count: number) => (count === 1 ? '1 Budget gesetzt.' : `${count} Budgets gesetzt.`),
    invalid: (max: number, integer: boolean) =>
      integer ? `Eine ganze Zahl von 0 bis ${max} oder leer.` : `Eine Zahl von 0 bis ${max} oder leer.`,
    formInvalid: 'Einige Budgets sind ungültig; siehe die markierten Felder.',
  },
} as const satisfies Record<Locale, unknown>;

/** What the form shows after a rejected save: the values typed and the errors by field name. */
export interface BudgetEdit {
  values: Record<string, string>;
  errors: FieldErrors;
}

function formValues(budgets: Budgets, locale: Locale): Record<string, string> {
  const values: Record<string, string> = {};
  for (const formFactor of MOBILE_FIRST)
    for (const metric of BUDGET_METRICS)
      values[metricField(formFactor, metric)] = budgetFieldText(budgets[formFactor]?.[metric], locale);
  for (const score of SCORE_KEYS) values[scoreField(score)] = budgetFieldText(budgets.scores?.[score], locale);
  for (const formFactor of MOBILE_FIRST)
    for (const category of LIGHTHOUSE_CATEGORY_KEYS)
      values[lighthouseField(formFactor, category)] = budgetFieldText(
        budgets.lighthouse?.[formFactor]?.[category],
        locale,
      );
  return values;
}

const countBudgets = (budgets: Budgets) =>
  MOBILE_FIRST.reduce(
    (n, f) => n + Object.keys(budgets[f] ?? {}).length + Object.keys(budgets.lighthouse?.[f] ?? {}).length,
    0,
  ) + Object.keys(budgets.scores ?? {}).length;

/** The budgets part of the target page: what is set, and the form (open after a rejected save). */
export function budgetsSection(model: {
  target: { id: number; budgets?: Budgets };
  locale: Locale;
  csrf: string;
  edit?: BudgetEdit;
}): SafeHtml {
  const { target, locale } = model;
  const t = LABELS[locale];
  const budgets = target.budgets ?? {};
  const values = model.edit?.values ?? formValues(budgets, locale);
  const errors = model.edit?.errors ?? {};
  const next = `/targets/${target.id}`;
  const input = (name: string, label: string, limit: { max: number; integer: boolean }) => {
    const id = `budget-${name.replace(/\./g, '-')}`;
    const error = errors[name];
    return html`<input id="${id}" name="${name}" type="text" inputmode="${limit.integer ? 'numeric' : 'decimal'}" size="7" aria-label="${label}" value="${values[name] ?? ''}" pattern="[0-9]*[.,]?[0-9]*"${error ? html` aria-invalid="true" aria-describedby="${id}-error"` : html``}>${error ? html`<p class="error field-error" id="${id}-error">${error}</p>` : html``}`;
  };
  const metricRows = BUDGET_METRICS.map(
    (metric) =>
      html`<tr><th scope="row">${BUDGET_METRIC_NAMES[metric]} <span class="hint">(${t.unit(metric)})</span></th>${MOBILE_FIRST.map(
        (formFactor) =>
          html`<td>${input(metricField(formFactor, metric), `${BUDGET_METRIC_NAMES[metric]} ${t[formFactor]}`, BUDGET_LIMITS[metric])}</td>`,
      )}</tr>`,
  );
  const scoreRows = SCORE_KEYS.map(
    (score) =>
      html`<tr><th scope="row">${scoreLabel(score, locale)}</th><td>${input(scoreField(score), `${t.scores}: ${scoreLabel(score, locale)}`, BUDGET_LIMITS.score)}</td></tr>`,
  );
  const lighthouseRows = LIGHTHOUSE_CATEGORY_KEYS.map((category) => {
    const label = lighthouseCategoryLabel(category, locale);
    return html`<tr><th scope="row">${label}</th>${MOBILE_FIRST.map(
      (formFactor) =>
        html`<td>${input(lighthouseField(formFactor, category), `${t.lighthouse}: ${label} ${t[formFactor]}`, BUDGET_LIMITS.score)}</td>`,
    )}</tr>`;
  });
  const count = countBudgets(budgets);
  return html`<section aria-labelledby="budgets-heading" id="budgets"><h2 id="budgets-heading">${t.title}</h2>
    <p class="hint">${t.intro(BUDGET_CRITICAL_OVER * 100, BUDGET_RECOVERY_MARGIN * 100, BUDGET_RECOVERY_POINTS)}</p>
    <p id="budgets-summary">${count ? t.summary(count) : t.none}</p>
    <details class="edit-budgets"${model.edit ? html` open` : html``}><summary>${t.edit}</summary>
      <form method="post" action="/targets/${target.id}/budgets" id="budgets-form">${formFields(model.csrf, next)}${formError(errors)}
        <table class="budgets-table"><thead><tr><th scope="col">${t.metric}</th><th scope="col">${t.mobile}</th><th scope="col">${t.desktop}</th></tr></thead>
          <tbody>${metricRows}</tbody></table>
        <table class="budgets-table"><thead><tr><th scope="col">${t.scores}</th><th scope="col"><span class="visually-hidden">${t.scores}</span></th></tr></thead>
          <tbody>${scoreRows}</tbody></table>
        <table class="budgets-table" id="budgets-lighthouse"><caption class="hint">${t.lighthouseHint}</caption><thead><tr><th scope="col">${t.lighthouse}</th><th scope="col">${t.mobile}</th><th scope="col">${t.desktop}</th></tr></thead>
          <tbody>${lighthouseRows}</tbody></table>
        <button type="submit" class="primary">${t.save}</button></form></details></section>`;
}

/** The form's fields as budgets, or the errors by field name (in the page's words). */
export function readBudgetForm(
  form: URLSearchParams,
  locale: Locale,
): { values: Record<string, string>; budgets?: Budgets; errors: FieldErrors } {
  const t = LABELS[locale];
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  const parse = (name: string, limit: { max: number; integer: boolean }): number | undefined => {
    const raw = (form.get(name) ?? '').trim();
    values[name] = raw;
    const value = budgetFieldNumber(raw);
    if (value === undefined) return undefined;
    const valid = !Number.isNaN(value) && value <= limit.max && (!limit.integer || Number.isInteger(value));
    if (!valid) {
      errors[name] = t.invalid(limit.max, limit.integer);
      return undefined;
    }
    return value;
  };
  const budgets: Budgets = {};
  for (const formFactor of MOBILE_FIRST)
    for (const metric of BUDGET_METRICS) {
      const value = parse(metricField(formFactor, metric), BUDGET_LIMITS[metric]);
      if (value !== undefined) (budgets[formFactor] ??= {})[metric] = value;
    }
  for (const score of SCORE_KEYS) {
    const value = parse(scoreField(score), BUDGET_LIMITS.score);
    if (value !== undefined) (budgets.scores ??= {})[score] = value;
  }
  for (const formFactor of MOBILE_FIRST)
    for (const category of LIGHTHOUSE_CATEGORY_KEYS) {
      const value = parse(lighthouseField(formFactor, category), BUDGET_LIMITS.score);
      if (value !== undefined) ((budgets.lighthouse ??= {})[formFactor] ??= {})[category] = value;
    }
  if (Object.keys(errors).length) return { values, errors: { form: t.formInvalid, ...errors } };
  return { values, budgets, errors };
}
