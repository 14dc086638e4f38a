import {
  STEP_BUDGET_METRICS,
  STEP_BUDGET_SCORES,
  type FlowBudgets,
  type StepBudgets,
} from '../../core/flows/flow-budgets.ts';
import { FLOW_SCORE_KEYS, type FlowScoreKey } from '../../core/flows/flow.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { StepBudgetMetric } from '../../core/monitoring/budgets.ts';
import { budgetFieldNumber, budgetFieldText } from '../budget-fields.ts';
import type { FlowFormErrors, MeasuredStep } from './model.ts';

/**
 * The flow budgets form (web/flows/budgets-page.ts) as data: one field per measured step and each metric and
 * score its mode allows (core/flows/flow-budgets.ts), named as the API names them in its errors
 * (`budgets.0.lcp_ms`, `budgets.0.scores.performance`), so that the service's errors land beside their field.
 * The form reads numbers only; whether a budget fits its step and its limits is the service's to say
 * (services/flows.ts updateFlow, as for the API).
 */

export const metricField = (index: number, metric: StepBudgetMetric) => `budgets.${index}.${metric}`;
export const scoreField = (index: number, score: FlowScoreKey) => `budgets.${index}.scores.${score}`;
/** Where an error about a step's budgets as a whole goes (the API's `budgets.2`). */
export const stepField = (index: number) => `budgets.${index}`;

/** Every field of the form: per step its metrics, then its scores. */
export function budgetFields(steps: readonly MeasuredStep[]): string[] {
  return steps.flatMap((step) => [
    ...STEP_BUDGET_METRICS[step.mode].map((metric) => metricField(step.index, metric)),
    ...STEP_BUDGET_SCORES[step.mode].map((score) => scoreField(step.index, score)),
  ]);
}

/** The stored budgets as the fields show them. */
export function budgetFormValues(
  steps: readonly MeasuredStep[],
  budgets: FlowBudgets,
  locale: Locale,
): Record<string, string> {
  const values: Record<string, string> = {};
  for (const step of steps) {
    const set = budgets[String(step.index)] ?? {};
    for (const metric of STEP_BUDGET_METRICS[step.mode])
      values[metricField(step.index, metric)] = budgetFieldText(set[metric], locale);
    for (const score of STEP_BUDGET_SCORES[step.mode])
      values[scoreField(step.index, score)] = budgetFieldText(set.scores?.[score], locale);
  }
  return values;
}

const METRIC_NAMES = new Set<string>(Object.values(STEP_BUDGET_METRICS).flat());
const SCORE_NAMES = new Set<string>(FLOW_SCORE_KEYS);
const FIELD = /^budgets\.(0|[1-9][0-9]*)\.(?:(scores)\.)?([a-z_]+)$/;

/**
 * The posted fields as budgets (an empty field: no budget; nothing filled in: none at all), or the fields that
 * are not numbers. Every posted budget field is read, not only those of the steps as they are now: a form older
 * than the flow's steps may name a budget the step's mode no longer has, which the service refuses.
 */
export function readBudgetForm(form: URLSearchParams): {
  values: Record<string, string>;
  budgets?: FlowBudgets;
  errors: FlowFormErrors;
} {
  const values: Record<string, string> = {};
  const errors: FlowFormErrors = {};
  const budgets: FlowBudgets = {};
  for (const [name, raw] of form) {
    const [, index, scores, key] = FIELD.exec(name) ?? [];
    if (index === undefined || key === undefined || !(scores ? SCORE_NAMES : METRIC_NAMES).has(key)) continue;
    values[name] = raw.trim();
    const value = budgetFieldNumber(raw);
    if (value === undefined) continue;
    if (Number.isNaN(value)) errors[name] = { code: 'budget_number' };
    const set: StepBudgets = (budgets[index] ??= {});
    if (scores) (set.scores ??= {})[key as FlowScoreKey] = value;
    else set[key as StepBudgetMetric] = value;
  }
  return Object.keys(errors).length ? { values, errors } : { values, budgets, errors };
}

/**
 * The service's errors (by the API's field names) placed on the form: beside their field when the form has it,
 * else beside the step's budgets (a budget the step's mode does not have, sent by a form older than the
 * flow's steps), else above the form.
 */
export function budgetFormErrors(errors: Record<string, string[]>, steps: readonly MeasuredStep[]): FlowFormErrors {
  const fields = new Set(budgetFields(steps));
  const indices = new Set(steps.map((step) => step.index));
  const out: FlowFormErrors = {};
  for (const [field, messages] of Object.entries(errors)) {
    const index = /^budgets\.(\d+)(\.|$)/.exec(field)?.[1];
    const at = fields.has(field)
      ? field
      : index !== undefined && indices.has(Number(index))
        ? stepField(Number(index))
        : 'form';
    out[at] ??= { message: messages[0] ?? '' };
  }
  return out;
}
