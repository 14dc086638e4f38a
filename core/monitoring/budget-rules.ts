import type { FormFactor } from '../scan/observation.ts';
import { SCORE_KEYS, type ScoreKey } from '../scoring/categories.ts';
import type { AlertDetails } from './alert.ts';
import type { AlertTransition, UnresolvedAlert } from './alert-transition.ts';
import {
  budgetEntries,
  budgetUnit,
  isBudgetMetric,
  measuredValue,
  type BudgetBreach,
  type BudgetKey,
  type BudgetMeasurement,
  type Budgets,
  type BudgetStep,
  type BudgetUnit,
} from './budgets.ts';
import { SEVERITY_RANK, type AlertSeverity } from './severity.ts';

/**
 * metric_over_budget: a pure function of the target's budgets, what its scheduled scan measured and the
 * target's unresolved metric_over_budget alert; the same rule judges a monitored flow's step budgets against a
 * finished run (core/flows/flow-budgets.ts, services/flow-alerts.ts), one alert per flow. The state table is in docs/monitoring-and-alerts.md
 * (Budget alerts), each row a test in test/unit/budget-rules.test.ts.
 *
 * - Broken: a metric above its budget, or a score below its minimum.
 * - Severity: critical when a metric is over its budget by BUDGET_CRITICAL_OVER (50 %) or more (value ≥ 1.5 ×
 *   budget), or a score is short of its minimum by that share of the minimum or more (value ≤ 0.5 × minimum);
 *   else warning. The alert's severity is its worst breach's.
 * - One unresolved alert per target covers every broken budget (like score_below_threshold's crossings): its
 *   details name the worst breach and list all of them, worst first. It escalates (warning → critical) when a
 *   breach becomes critical; otherwise it stays as raised, so a noisy run neither re-sends nor withdraws it.
 * - Resolved only when every budget holds with a margin (hysteresis): each metric at most
 *   (1 − BUDGET_RECOVERY_MARGIN) × its budget, each score at least its minimum + BUDGET_RECOVERY_POINTS
 *   (at most 100). A metric hovering just around its budget therefore raises once and does not flap.
 */

/** Critical from this share over the budget (0.5: 50 % over). */
export const BUDGET_CRITICAL_OVER = 0.5;
/** Recovered when each metric is at least this share under its budget (0.1: at most 90 % of it)... */
export const BUDGET_RECOVERY_MARGIN = 0.1;
/** ...and each score at least this many points above its minimum (capped at 100). */
export const BUDGET_RECOVERY_POINTS = 3;

/** What budget rules need: the target's budgets and what its scan measured. */
export interface BudgetCheck {
  budgets: Budgets;
  measured: BudgetMeasurement;
}

/**
 * One budget with the value measured for it (undefined: not measured, so neither broken nor in the way of
 * recovery). Targets' budgets become these through judgedTargetBudgets, flows' through
 * core/flows/flow-budgets.ts; the rules below see only these.
 */
export interface JudgedBudget {
  metric: BudgetKey;
  formFactor: FormFactor | null;
  budget: number;
  value: number | undefined;
  /** A metric's budget is a maximum, a score's a minimum. */
  kind: 'maximum' | 'minimum';
  unit: BudgetUnit;
  step?: BudgetStep;
}

/** A target's budgets in their fixed order with what its scan measured. */
export function judgedTargetBudgets(check: BudgetCheck): JudgedBudget[] {
  return budgetEntries(check.budgets).map(({ metric, formFactor, budget }) => ({
    metric,
    formFactor,
    budget,
    value: measuredValue(check.measured, metric, formFactor),
    kind: isBudgetMetric(metric) ? 'maximum' : 'minimum',
    unit: budgetUnit(metric),
  }));
}

/** How far past its budget a value is, as a share of the budget (> 0: broken). */
function overShare(kind: JudgedBudget['kind'], value: number, budget: number): number {
  if (kind === 'maximum') {
    if (value <= budget) return 0;
    return budget > 0 ? (value - budget) / budget : Number.POSITIVE_INFINITY;
  }
  if (value >= budget) return 0;
  return budget > 0 ? (budget - value) / budget : 0;
}

const judgedOf = (check: BudgetCheck | JudgedBudget[]): JudgedBudget[] =>
  Array.isArray(check) ? check : judgedTargetBudgets(check);

/** Every broken budget, worst first: critical before warning, then the larger share over budget, then budget order. */
export function budgetBreaches(check: BudgetCheck | JudgedBudget[]): BudgetBreach[] {
  const breaches: Array<BudgetBreach & { share: number; order: number }> = [];
  judgedOf(check).forEach(({ metric, formFactor, budget, value, kind, unit, step }, order) => {
    if (value === undefined) return;
    const share = overShare(kind, value, budget);
    if (share <= 0) return;
    const severity: AlertSeverity = share >= BUDGET_CRITICAL_OVER ? 'critical' : 'warning';
    breaches.push({ metric, formFactor, value, budget, unit, severity, ...(step ? { step } : {}), share, order });
  });
  return breaches
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.share - a.share || a.order - b.order)
    .map(({ share: _share, order: _order, ...breach }) => breach);
}

/** Whether every budget holds with the recovery margin (what resolves an open alert). */
export function budgetsRecovered(check: BudgetCheck | JudgedBudget[]): boolean {
  return judgedOf(check).every(({ kind, budget, value }) => {
    if (value === undefined) return true;
    return kind === 'maximum'
      ? value <= budget * (1 - BUDGET_RECOVERY_MARGIN)
      : value >= Math.min(100, budget + BUDGET_RECOVERY_POINTS);
  });
}

/**
 * The details of a budget alert. `score`, `value` and `reference` (which every alert has) describe the worst
 * breach: its score for a target's score budget, `speed` otherwise (the score page metrics feed); its value; its budget.
 */
export function budgetDetails(breaches: BudgetBreach[]): AlertDetails {
  const worst = breaches[0]!;
  const score: ScoreKey =
    isBudgetMetric(worst.metric) || worst.step || !(SCORE_KEYS as readonly string[]).includes(worst.metric)
      ? 'speed'
      : (worst.metric as ScoreKey);
  return { score, value: worst.value, reference: worst.budget, budget: worst, overBudget: breaches };
}

const sameBudget = (judged: JudgedBudget, named: BudgetBreach) =>
  judged.metric === named.metric && judged.formFactor === named.formFactor && judged.step?.index === named.step?.index;

/**
 * The transitions of a metric_over_budget alert (a target's, or a flow's with the flow's budgets judged); none
 * without a check (no measurement).
 */
export function budgetTransition(
  check: BudgetCheck | JudgedBudget[] | undefined,
  open: UnresolvedAlert | undefined,
): AlertTransition[] {
  if (!check) return [];
  const judged = judgedOf(check);
  const type = 'metric_over_budget';
  const breaches = budgetBreaches(judged);
  const worst = breaches[0];
  if (!open)
    return worst ? [{ change: 'raised', type, severity: worst.severity, details: budgetDetails(breaches) }] : [];
  if (budgetsRecovered(judged)) {
    const named = open.details.budget;
    const value = named ? judged.find((j) => sameBudget(j, named))?.value : undefined;
    return [
      {
        change: 'resolved',
        alertId: open.id,
        type,
        resolution: { kind: 'recovered', value: value ?? open.details.value },
      },
    ];
  }
  if (worst && SEVERITY_RANK[worst.severity] > SEVERITY_RANK[open.severity])
    return [{ change: 'escalated', alertId: open.id, type, severity: 'critical', details: budgetDetails(breaches) }];
  return [];
}
