/**
 * A flow's performance budgets: per measured step (keyed by its index in the definition's steps), the most each
 * metric of that step's mode may be and, where the mode has scores, the least each score may be. A navigation
 * step has LCP, FCP, TBT, CLS and TTFB and four scores; a timespan INP, TBT and CLS and no scores (Lighthouse
 * gives a timespan no category score); a snapshot only the scores other than performance. The rule that judges
 * them is the targets' one (core/monitoring/budget-rules.ts), fed by flowBudgetsJudged.
 */
import { BUDGET_LIMITS, budgetUnit, type BudgetStep, type StepBudgetMetric } from '../monitoring/budgets.ts';
import type { JudgedBudget } from '../monitoring/budget-rules.ts';
import {
  FLOW_SCORE_KEYS,
  measuredSteps,
  type FlowDefinition,
  type FlowScoreKey,
  type FlowStepResult,
  type LighthouseStepMode,
} from './flow.ts';

/** Per mode, the metrics a step's budget may name. */
export const STEP_BUDGET_METRICS: Record<LighthouseStepMode, readonly StepBudgetMetric[]> = {
  navigation: ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'ttfb_ms'],
  timespan: ['inp_ms', 'tbt_ms', 'cls'],
  snapshot: [],
};

/** Per mode, the scores a step's budget may set a minimum for. */
export const STEP_BUDGET_SCORES: Record<LighthouseStepMode, readonly FlowScoreKey[]> = {
  navigation: FLOW_SCORE_KEYS,
  timespan: [],
  snapshot: ['accessibility', 'best_practices', 'seo'],
};

/** The INP limit is the other timings'. */
export const INP_LIMIT = BUDGET_LIMITS.lcp_ms;

export type StepBudgets = Partial<Record<StepBudgetMetric, number>> & {
  scores?: Partial<Record<FlowScoreKey, number>>;
};

/** Step index (as a string: JSON's object keys) → that step's budgets. */
export type FlowBudgets = Record<string, StepBudgets>;

/** One refused budget: the field it is in (`budgets.8.inp_ms`) and why. */
export interface FlowBudgetProblem {
  field: string;
  message: string;
}

type ValueLimit = { max: number; integer: boolean };

/**
 * A value outside the limits of the API's schema (BUDGET_LIMITS, which the schema is built from), worded as the
 * API words that schema error: callers that do not come through the schema (the web area's form) are refused
 * alike. Null for a value within them.
 */
function valueProblem(field: string, value: unknown, limit: ValueLimit): string | null {
  const kind = limit.integer ? 'an integer' : 'a number';
  if (typeof value !== 'number' || !Number.isFinite(value) || (limit.integer && !Number.isInteger(value)))
    return `The ${field} must be ${kind}.`;
  if (value < 0) return `The ${field} must be at least 0.`;
  if (value > limit.max) return `The ${field} may not be greater than ${limit.max}.`;
  return null;
}

const metricLimit = (metric: StepBudgetMetric): ValueLimit => (metric === 'inp_ms' ? INP_LIMIT : BUDGET_LIMITS[metric]);

/**
 * Every budget that does not fit the steps or the limits: an index that is not a measured step (its budgets are
 * not looked into), a metric or score its mode does not have, a value out of range; in budget order. Called on
 * create, on every change of the budgets and on every change of the steps (an edit that leaves a budget on a step
 * of another kind is refused).
 */
export function flowBudgetProblems(
  definition: Pick<FlowDefinition, 'steps'>,
  budgets: FlowBudgets,
): FlowBudgetProblem[] {
  const measured = new Map(measuredSteps({ name: '', form_factor: 'mobile', ...definition }).map((s) => [s.index, s]));
  const problems: FlowBudgetProblem[] = [];
  for (const [key, set] of Object.entries(budgets)) {
    const step = /^(0|[1-9][0-9]*)$/.test(key) ? measured.get(Number(key)) : undefined;
    if (!step) {
      problems.push({
        field: `budgets.${key}`,
        message: `Step ${key} is not a measured step (navigate, start_timespan or snapshot) of this flow.`,
      });
      continue;
    }
    for (const [metric, value] of Object.entries(set).filter(([k]) => k !== 'scores')) {
      const field = `budgets.${key}.${metric}`;
      const allowed = STEP_BUDGET_METRICS[step.mode] as readonly string[];
      const message = allowed.includes(metric)
        ? valueProblem(field, value, metricLimit(metric as StepBudgetMetric))
        : `Step ${key} is a ${step.mode} step, which has no ${metric}; its metrics: ${allowed.join(', ') || 'none'}.`;
      if (message) problems.push({ field, message });
    }
    for (const [score, value] of Object.entries(set.scores ?? {})) {
      const field = `budgets.${key}.scores.${score}`;
      const allowed = STEP_BUDGET_SCORES[step.mode] as readonly string[];
      const message = allowed.includes(score)
        ? valueProblem(field, value, BUDGET_LIMITS.score)
        : `Step ${key} is a ${step.mode} step, which has no ${score} score; its scores: ${allowed.join(', ') || 'none'}.`;
      if (message) problems.push({ field, message });
    }
  }
  return problems;
}

/** The first of flowBudgetProblems, or null when the budgets fit. */
export const flowBudgetProblem = (
  definition: Pick<FlowDefinition, 'steps'>,
  budgets: FlowBudgets,
): FlowBudgetProblem | null => flowBudgetProblems(definition, budgets)[0] ?? null;

const finite = (value: number | null | undefined): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * Every budget of the flow with what the run measured for it, in step order (metrics, then scores). A budget whose
 * step the run did not measure in that mode (the definition changed since, or the run stopped before it) has no
 * value and is neither broken nor in the way of recovery.
 */
export function flowBudgetsJudged(budgets: FlowBudgets, steps: FlowStepResult[]): JudgedBudget[] {
  const byIndex = new Map(steps.map((s) => [s.index, s]));
  const judged: JudgedBudget[] = [];
  for (const key of Object.keys(budgets).sort((a, b) => Number(a) - Number(b))) {
    const set = budgets[key]!;
    const result = byIndex.get(Number(key));
    const mode = result?.mode;
    const step: BudgetStep = { index: Number(key), name: result?.name ?? '', mode: mode ?? 'navigation' };
    const same = (allowed: readonly string[], name: string) => mode !== undefined && allowed.includes(name);
    for (const metric of [...new Set(Object.values(STEP_BUDGET_METRICS).flat())]) {
      const budget = set[metric];
      if (budget === undefined) continue;
      const value = same(STEP_BUDGET_METRICS[mode!] ?? [], metric) ? finite(result!.metrics[metric]) : undefined;
      judged.push({ metric, formFactor: null, budget, value, step, kind: 'maximum', unit: budgetUnit(metric) });
    }
    for (const score of FLOW_SCORE_KEYS) {
      const budget = set.scores?.[score];
      if (budget === undefined) continue;
      const value = same(STEP_BUDGET_SCORES[mode!] ?? [], score) ? finite(result!.scores[score]) : undefined;
      judged.push({ metric: score, formFactor: null, budget, value, step, kind: 'minimum', unit: 'points' });
    }
  }
  return judged;
}
