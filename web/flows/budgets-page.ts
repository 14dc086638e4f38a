import { STEP_BUDGET_METRICS, STEP_BUDGET_SCORES, type FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { FlowScoreKey } from '../../core/flows/flow.ts';
import { budgetValue } from '../../core/i18n/budget-alerts.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import {
  BUDGET_CRITICAL_OVER,
  BUDGET_RECOVERY_MARGIN,
  BUDGET_RECOVERY_POINTS,
} from '../../core/monitoring/budget-rules.ts';
import { budgetUnit, type StepBudgetMetric } from '../../core/monitoring/budgets.ts';
import { LAB_METRIC_NAMES } from '../charts/lab-metric-history.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { budgetFormValues, metricField, scoreField, stepField } from './budget-form.ts';
import { flowBudgetLabels } from './budget-labels.ts';
import { FLOW_LABELS } from './labels.ts';
import { FLOW_PATHS as P, type FlowFormErrors, type FlowPageBase, type MeasuredStep } from './model.ts';
import { csrfField, fieldError, fieldId, formError, modeBadge } from './parts.ts';

/**
 * A flow's step budgets (core/flows/flow-budgets.ts) in the browser: the page with one form, a table per measured
 * step with a field for each metric and score its mode allows, saved through the API's service; and the part of
 * the flow's page that says what is set and links to it.
 */
export interface FlowBudgetsPageModel extends FlowPageBase {
  flowId: string;
  flowName: string;
  /** The flow's measured steps as it stands (core/flows/flow.ts measuredSteps). */
  steps: readonly MeasuredStep[];
  budgets: FlowBudgets;
  monitored: boolean;
  /** After a rejected save: the fields as typed and the errors by field (budget-form.ts names). */
  edit?: { values: Record<string, string>; errors: FlowFormErrors };
}

const budgetCount = (budgets: FlowBudgets) =>
  Object.values(budgets).reduce(
    (n, set) => n + Object.keys(set).filter((k) => k !== 'scores').length + Object.keys(set.scores ?? {}).length,
    0,
  );

const stepTitle = (step: MeasuredStep, locale: Locale) => flowBudgetLabels(locale).step(step.index + 1, step.name);

export function flowBudgetsPage(model: FlowBudgetsPageModel): string {
  const { locale } = model.chrome;
  const t = flowBudgetLabels(locale);
  const errors = model.edit?.errors ?? {};
  const values = model.edit?.values ?? budgetFormValues(model.steps, model.budgets, locale);
  const count = budgetCount(model.budgets);
  const body = html`<a class="back" href="${P.flow(model.flowId)}">← ${t.backToFlow(model.flowName)}</a>
    <h1>${t.pageTitle(model.flowName)}</h1>
    <p class="hint" id="budgets-intro">${t.intro(BUDGET_CRITICAL_OVER * 100, BUDGET_RECOVERY_MARGIN * 100, BUDGET_RECOVERY_POINTS)}</p>
    ${model.monitored ? html`` : html`<p class="muted" id="budgets-not-monitored">${t.notMonitored}</p>`}
    <p id="budgets-summary">${count ? t.summary(count) : t.none}</p>
    <form method="post" action="${P.budgets(model.flowId)}" id="budgets-form" novalidate>${csrfField(model.csrf)}${formError(errors, locale)}
      ${model.steps.map((step) => stepFieldset(step, values, errors, locale))}
      <button type="submit" class="primary" id="save-budgets">${t.save}</button></form>`;
  return layout(t.pageTitle(model.flowName), body, { ...model.chrome, sheets: ['monitoring', 'flows'] });
}

function stepFieldset(
  step: MeasuredStep,
  values: Record<string, string>,
  errors: FlowFormErrors,
  locale: Locale,
): SafeHtml {
  const t = flowBudgetLabels(locale);
  const scoreNames = FLOW_LABELS[locale].scoreNames;
  const row = (name: string, label: string, hint: string, integer: boolean) => {
    const id = fieldId(name);
    const error = fieldError(name, errors, locale);
    return html`<tr><th scope="row"><label for="${id}">${label}</label> <span class="hint">(${hint})</span></th>
      <td><input id="${id}" name="${name}" type="text" inputmode="${integer ? 'numeric' : 'decimal'}" size="7" value="${values[name] ?? ''}"${error.attributes}>${error.message}</td></tr>`;
  };
  const metricRow = (metric: StepBudgetMetric) =>
    row(
      metricField(step.index, metric),
      LAB_METRIC_NAMES[metric],
      t.atMost(t.units[budgetUnit(metric)]),
      metric !== 'cls',
    );
  const scoreRow = (score: FlowScoreKey) => row(scoreField(step.index, score), scoreNames[score], t.atLeast, true);
  const stepError = fieldError(stepField(step.index), errors, locale);
  return html`<fieldset class="step-budgets" id="step-budgets-${step.index}" data-index="${step.index}" data-mode="${step.mode}"><legend>${stepTitle(step, locale)} ${modeBadge(step.mode, locale)}</legend>${stepError.message}
    <table class="budgets-table"><thead><tr><th scope="col">${t.budgetFor}</th><th scope="col">${t.budget}</th></tr></thead>
      <tbody>${STEP_BUDGET_METRICS[step.mode].map(metricRow)}${STEP_BUDGET_SCORES[step.mode].map(scoreRow)}</tbody></table></fieldset>`;
}

/** The flow page's part: each step's budgets in words, and the link to the form. */
export function flowBudgetsSection(
  flowId: string,
  steps: readonly MeasuredStep[],
  budgets: FlowBudgets,
  locale: Locale,
): SafeHtml {
  const t = flowBudgetLabels(locale);
  const scoreNames = FLOW_LABELS[locale].scoreNames;
  const count = budgetCount(budgets);
  const items = steps.flatMap((step) => {
    const set = budgets[String(step.index)];
    if (!set) return [];
    const words = [
      ...STEP_BUDGET_METRICS[step.mode].flatMap((metric) =>
        set[metric] === undefined ? [] : [`${LAB_METRIC_NAMES[metric]} ≤ ${budgetValue(metric, set[metric], locale)}`],
      ),
      ...STEP_BUDGET_SCORES[step.mode].flatMap((score) => {
        const minimum = set.scores?.[score];
        return minimum === undefined ? [] : [`${scoreNames[score]} ≥ ${budgetValue(score, minimum, locale)}`];
      }),
    ];
    return [html`<li data-index="${step.index}">${stepTitle(step, locale)}: ${words.join(', ')}</li>`];
  });
  return html`<section aria-labelledby="budgets-heading" id="budgets"><h2 id="budgets-heading">${t.title}</h2>
    <p id="budgets-summary">${count ? t.summary(count) : t.none}</p>${items.length ? html`<ul id="budgets-list">${items}</ul>` : html``}
    <p><a href="${P.budgets(flowId)}" id="edit-budgets">${t.edit}</a></p></section>`;
}
