import type { AlertDetails } from '../../core/monitoring/alert.ts';
import { BUDGET_LIMITS, type BudgetMetric } from '../../core/monitoring/budgets.ts';
import { BUDGET_BREACH_SCHEMA, budgetBreachPayload } from '../../core/webhooks/budget-payload.ts';
import { SCORE_KEYS } from '../../core/scoring/categories.ts';
import type { JsonSchema } from '../validation.ts';
import { STEP_BUDGET_METRICS } from '../../core/flows/flow-budgets.ts';
import { FLOW_SCORE_KEYS } from '../../core/flows/flow.ts';
import { LIGHTHOUSE_CATEGORY_KEYS } from '../../core/scan/lighthouse-categories.ts';

/**
 * Performance budgets in the API (extensions of the domain endpoints and of alert details): the JSON Schemas
 * requests are validated with and responses are described by, and the alert details' view.
 */

const limited = (key: BudgetMetric | 'score', description?: string): JsonSchema => ({
  type: BUDGET_LIMITS[key].integer ? 'integer' : 'number',
  minimum: 0,
  maximum: BUDGET_LIMITS[key].max,
  ...(description ? { description } : {}),
});

const METRIC_BUDGET_SCHEMAS: Record<BudgetMetric, JsonSchema> = {
  lcp_ms: limited('lcp_ms', 'Largest contentful paint, ms.'),
  fcp_ms: limited('fcp_ms', 'First contentful paint, ms.'),
  tbt_ms: limited('tbt_ms', 'Total blocking time, ms.'),
  cls: limited('cls', 'Cumulative layout shift (unitless).'),
  ttfb_ms: limited('ttfb_ms', 'Time to first byte, ms.'),
};

const metricBudgets = (formFactor: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties: METRIC_BUDGET_SCHEMAS,
  description: `The most each ${formFactor} metric of the median run may be; any subset.`,
});

/** `budgets` on targets: in requests it replaces the target's budgets as a whole (`{}` removes them all). */
export const budgetsSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    mobile: metricBudgets('mobile'),
    desktop: metricBudgets('desktop'),
    scores: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(SCORE_KEYS.map((key) => [key, limited('score')])),
      description: 'The least each score may be (0–100); any subset.',
    },
    lighthouse: {
      type: 'object',
      additionalProperties: false,
      properties: Object.fromEntries(
        ['mobile', 'desktop'].map((formFactor) => [
          formFactor,
          {
            type: 'object',
            additionalProperties: false,
            properties: Object.fromEntries(LIGHTHOUSE_CATEGORY_KEYS.map((key) => [key, limited('score')])),
          },
        ]),
      ),
      description:
        "The least each of Lighthouse's own category scores (result.lighthouse.categories, 0–100) may be, per form factor; any subset. A breach names the category as `metric` with its `form_factor`.",
    },
  },
  description:
    'Extension: performance budgets. A metric above its budget or a score below its minimum raises a `metric_over_budget` alert (warning; critical at 50 % or more past the budget); it resolves when every budget holds again with a margin (metrics at most 90 % of their budget, scores at least 3 points above their minimum). Default `{}`: no budgets.',
};

/**
 * `budgets` on flows: step index → that step's budgets. The schema bounds the values; which metrics and scores a
 * step may have depends on its mode and is checked against the steps (core/flows/flow-budgets.ts, 422 naming the field).
 */
export const flowBudgetsSchema: JsonSchema = {
  type: 'object',
  propertyNames: { pattern: '^(0|[1-9][0-9]{0,3})$' },
  additionalProperties: {
    type: 'object',
    additionalProperties: false,
    properties: {
      ...METRIC_BUDGET_SCHEMAS,
      inp_ms: { ...limited('lcp_ms'), description: 'Interaction to next paint, ms (timespan steps).' },
      scores: {
        type: 'object',
        additionalProperties: false,
        properties: Object.fromEntries(FLOW_SCORE_KEYS.map((key) => [key, limited('score')])),
        description:
          'The least each Lighthouse category score (0–100) may be; navigation steps have all four, snapshots all but performance, timespans none.',
      },
    },
    description: `The most each metric of the step may be (navigation: ${STEP_BUDGET_METRICS.navigation.join(', ')}; timespan: ${STEP_BUDGET_METRICS.timespan.join(', ')}; snapshot: none) and the least each score may be.`,
  },
  description:
    "Extension: step budgets, keyed by a measured step's index in `steps`. After each finished run of a monitored flow a broken budget raises one `metric_over_budget` alert for the flow (warning; critical at 50 % or more past the budget); it resolves when every budget holds with a margin (metrics at most 90 %, scores at least 3 points above). A change of `steps` that leaves a budgeted index without a measured step of that kind is refused (422). Default `{}`.",
};

const breachSchema: JsonSchema = BUDGET_BREACH_SCHEMA;

/** The alert details' extension properties (every alert type has them; empty except for metric_over_budget). */
export const budgetDetailsSchema: Record<string, JsonSchema> = {
  budget: {
    oneOf: [breachSchema, { type: 'null' }],
    description:
      'metric_over_budget: the worst broken budget, which `score` (the score for a score budget, `speed` for a page metric), `value` and `reference` (the budget) also describe; null for other types.',
  },
  over_budget: {
    type: 'array',
    items: breachSchema,
    description: 'metric_over_budget: every broken budget, worst first; empty for other types.',
  },
};

export function budgetDetailsView(details: AlertDetails) {
  return {
    budget: details.budget ? budgetBreachPayload(details.budget) : null,
    over_budget: (details.overBudget ?? []).map(budgetBreachPayload),
  };
}
