import type { Alert } from '../monitoring/alert.ts';
import { BUDGET_METRICS, type BudgetBreach } from '../monitoring/budgets.ts';
import { FORM_FACTORS } from '../scan/observation.ts';
import { SCORE_KEYS } from '../scoring/categories.ts';
import { FLOW_SCORE_KEYS } from '../flows/flow.ts';

/**
 * The extension fields of a metric_over_budget alert's alert.triggered / alert.resolved payload, beside the
 * spec's fields (which stay as they are): `budget`, the worst broken budget (the one the title names), and
 * `over_budget`, every broken budget, worst first. Other alert types carry neither.
 */
export interface BudgetBreachPayload {
  /** A page metric (`lcp_ms`, `fcp_ms`, `tbt_ms`, `cls`, `ttfb_ms`) or a score (`overall`, a category). */
  metric: string;
  /** `mobile` or `desktop`; null for a score. */
  form_factor: string | null;
  value: number;
  budget: number;
  /** `ms`, `unitless` (CLS) or `points` (a score: the budget is a minimum). */
  unit: string;
  severity: 'warning' | 'critical';
  /** A flow's budget: the step (its index in the flow's steps, name and Lighthouse mode). Absent for a target's. */
  step?: { index: number; name: string; mode: string };
}

export interface BudgetPayloadFields {
  budget?: BudgetBreachPayload;
  over_budget?: BudgetBreachPayload[];
}

export const budgetBreachPayload = (breach: BudgetBreach): BudgetBreachPayload => ({
  metric: breach.metric,
  form_factor: breach.formFactor,
  value: breach.value,
  budget: breach.budget,
  unit: breach.unit,
  severity: breach.severity,
  ...(breach.step ? { step: { index: breach.step.index, name: breach.step.name, mode: breach.step.mode } } : {}),
});

export function budgetPayloadFields(alert: Pick<Alert, 'type' | 'details'>): BudgetPayloadFields {
  if (alert.type !== 'metric_over_budget' || !alert.details.budget) return {};
  return {
    budget: budgetBreachPayload(alert.details.budget),
    over_budget: (alert.details.overBudget ?? [alert.details.budget]).map(budgetBreachPayload),
  };
}

/** One broken budget as the webhook payloads and the API's alert details show it. */
export const BUDGET_BREACH_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['metric', 'form_factor', 'value', 'budget', 'unit', 'severity'],
  properties: {
    metric: { type: 'string', enum: [...new Set([...BUDGET_METRICS, 'inp_ms', ...SCORE_KEYS, ...FLOW_SCORE_KEYS])] },
    form_factor: { oneOf: [{ type: 'string', enum: [...FORM_FACTORS] }, { type: 'null' }] },
    value: { type: 'number' },
    budget: { type: 'number' },
    unit: { type: 'string', enum: ['ms', 'unitless', 'points'] },
    severity: { type: 'string', enum: ['critical', 'warning'] },
    step: {
      type: 'object',
      additionalProperties: false,
      required: ['index', 'name', 'mode'],
      properties: {
        index: { type: 'integer' },
        name: { type: 'string' },
        mode: { type: 'string', enum: ['navigation', 'timespan', 'snapshot'] },
      },
      description: "Extension, a flow's budget only: the step broken (its index in the flow's steps).",
    },
  },
};

/** The JSON Schema of the extension fields (core/webhooks/schemas.ts adds them to the alert payloads, optional). */
export const BUDGET_PAYLOAD_PROPERTIES = {
  budget: {
    ...BUDGET_BREACH_SCHEMA,
    description: 'Extension, metric_over_budget only: the worst broken budget (the one the title names).',
  },
  over_budget: {
    type: 'array',
    items: BUDGET_BREACH_SCHEMA,
    description: 'Extension, metric_over_budget only: every broken budget, worst first.',
  },
};
