import type { ScoreKey } from '../scoring/categories.ts';
import type { AlertDetails, AlertSeverity } from './alert.ts';
import type { AlertTransition, UnresolvedAlert } from './alert-rules.ts';
import {
  budgetEntries,
  budgetUnit,
  isBudgetMetric,
  measuredValue,
  type BudgetBreach,
  type BudgetMeasurement,
  type Budgets,
} from './budgets.ts';

/**
 * metric_over_budget: a pure function of the target's budgets, what its scheduled scan measured and the
 * target's unresolved metric_over_budget alert. The state table is in docs/monitoring-and-alerts.md
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

const SEVERITY_RANK: Record<AlertSeverity, number> = { warning: 1, critical: 2 };

/** How far past its budget a value is, as a share of the budget (> 0: broken). */
function overShare(metric: BudgetBreach['metric'], value: number, budget: number): number {
  if (isBudgetMetric(metric)) {
    if (value <= budget) return 0;
    return budget > 0 ? (value - budget) / budget : Number.POSITIVE_INFINITY;
  }
  if (value >= budget) return 0;
  return budget > 0 ? (budget - value) / budget : 0;
}

/** Every broken budget, worst first: critical before warning, then the larger share over budget, then budget order. */
export function budgetBreaches(check: BudgetCheck): BudgetBreach[] {
  const breaches: Array<BudgetBreach & { share: number; order: number }> = [];
  budgetEntries(check.budgets).forEach(({ metric, formFactor, budget }, order) => {
    const value = measuredValue(check.measured, metric, formFactor);
    if (value === undefined) return;
    const share = overShare(metric, value, budget);
    if (share <= 0) return;
    const severity: AlertSeverity = share >= BUDGET_CRITICAL_OVER ? 'critical' : 'warning';
    breaches.push({ metric, formFactor, value, budget, unit: budgetUnit(metric), severity, share, order });
  });
  return breaches
    .sort((a, b) => SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.share - a.share || a.order - b.order)
    .map(({ share: _share, order: _order, ...breach }) => breach);
}

/** Whether every budget holds with the recovery margin (what resolves an open alert). */
export function budgetsRecovered(check: BudgetCheck): boolean {
  return budgetEntries(check.budgets).every(({ metric, formFactor, budget }) => {
    const value = measuredValue(check.measured, metric, formFactor);
    if (value === undefined) return true;
    return isBudgetMetric(metric)
      ? value <= budget * (1 - BUDGET_RECOVERY_MARGIN)
      : value >= Math.min(100, budget + BUDGET_RECOVERY_POINTS);
  });
}

/**
 * The details of a budget alert. `score`, `value` and `reference` (which every alert has) describe the worst
 * breach: its score for a score budget, `speed` for a page metric (the score the metrics feed); its value; its budget.
 */
export function budgetDetails(breaches: BudgetBreach[]): AlertDetails {
  const worst = breaches[0]!;
  const score: ScoreKey = isBudgetMetric(worst.metric) ? 'speed' : worst.metric;
  return { score, value: worst.value, reference: worst.budget, budget: worst, overBudget: breaches };
}

/** The transitions of the target's metric_over_budget alert; none without a check (no measurement). */
export function budgetTransition(check: BudgetCheck | undefined, open: UnresolvedAlert | undefined): AlertTransition[] {
  if (!check) return [];
  const type = 'metric_over_budget';
  const breaches = budgetBreaches(check);
  const worst = breaches[0];
  if (!open)
    return worst ? [{ change: 'raised', type, severity: worst.severity, details: budgetDetails(breaches) }] : [];
  if (budgetsRecovered(check)) {
    const named = open.details.budget;
    const value = named ? measuredValue(check.measured, named.metric, named.formFactor) : undefined;
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
