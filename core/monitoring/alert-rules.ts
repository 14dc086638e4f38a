import { SCORE_KEYS, type ScanScores, type ScoreKey } from '../scoring/categories.ts';
import type { AlertDetails, AlertType, ScoreCrossing } from './alert.ts';
import type { AlertTransition, UnresolvedAlert } from './alert-transition.ts';
import type { Thresholds } from './thresholds.ts';
import { budgetTransition, type BudgetCheck } from './budget-rules.ts';
import { SEVERITY_RANK } from './severity.ts';

/**
 * When a target's scan finishes, what happens to its threshold alerts: a pure function of the target's
 * thresholds, the scan's scores, the target's previous scheduled scans and its unresolved alerts (regressions,
 * score_regression and metric_regression, follow their own confirmed rule: core/monitoring/regression-rules.ts). Every transition is a row
 * of the state tables in docs/monitoring-and-alerts.md (Score alerts) and of test/unit/alert-rules.test.ts.
 *
 * At most one unresolved alert per target and type (dismissed or not; the database's unique index says the
 * same). score_below_threshold covers every watched score at once: its severity is the worst crossing's, and
 * its details name that crossing and list the others. Severity only goes up while an alert is unresolved
 * (warning → critical); a score that improves without recovering leaves it as it is, so one noisy run can
 * neither re-send nor withdraw a warning.
 */

export interface PreviousScan {
  overall: number;
  finishedAt: Date;
}

export interface AlertRuleInput {
  thresholds: Thresholds;
  scores: ScanScores;
  /** The target's finished scheduled scans before this one, newest first. */
  previous: PreviousScan[];
  unresolved: UnresolvedAlert[];
  /** The target's budgets and what the scan measured (metric_over_budget, core/monitoring/budget-rules.ts); none: no budget alerts. */
  budget?: BudgetCheck;
}

export function decideAlertTransitions(input: AlertRuleInput): AlertTransition[] {
  const unresolved = (type: AlertType) => input.unresolved.find((alert) => alert.type === type);
  return [
    ...thresholdTransition(
      scoreCrossings(input.thresholds, input.scores),
      input.scores,
      unresolved('score_below_threshold'),
    ),
    ...budgetTransition(input.budget, unresolved('metric_over_budget')),
  ];
}

/** Every watched score below its warning threshold, worst first: critical before warning, then the largest shortfall, then report order. */
export function scoreCrossings(thresholds: Thresholds, scores: ScanScores): ScoreCrossing[] {
  const crossings: ScoreCrossing[] = [];
  for (const score of SCORE_KEYS) {
    const threshold = thresholds[score];
    if (!threshold) continue;
    const value = scores[score];
    if (value < threshold.critical)
      crossings.push({ score, value, threshold: threshold.critical, severity: 'critical' });
    else if (value < threshold.warning)
      crossings.push({ score, value, threshold: threshold.warning, severity: 'warning' });
  }
  const order = (score: ScoreKey) => SCORE_KEYS.indexOf(score);
  return crossings.sort(
    (a, b) =>
      SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] ||
      b.threshold - b.value - (a.threshold - a.value) ||
      order(a.score) - order(b.score),
  );
}

function thresholdTransition(
  crossings: ScoreCrossing[],
  scores: ScanScores,
  open: UnresolvedAlert | undefined,
): AlertTransition[] {
  const type = 'score_below_threshold';
  const worst = crossings[0];
  const details = (): AlertDetails => ({
    score: worst!.score,
    value: worst!.value,
    reference: worst!.threshold,
    crossings,
  });
  if (!open) return worst ? [{ change: 'raised', type, severity: worst.severity, details: details() }] : [];
  if (!worst)
    return [
      {
        change: 'resolved',
        alertId: open.id,
        type,
        resolution: { kind: 'recovered', value: scores[open.details.score] },
      },
    ];
  if (SEVERITY_RANK[worst.severity] > SEVERITY_RANK[open.severity])
    return [{ change: 'escalated', alertId: open.id, type, severity: 'critical', details: details() }];
  return [];
}
