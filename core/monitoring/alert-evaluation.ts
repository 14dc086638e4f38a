import type { AlertChange, AlertType } from './alert.ts';
import type { RegressionKey } from './regression-rules.ts';

/**
 * What a target's alert evaluation (services/alert-evaluation.ts, services/regression-evaluation.ts) hands to the
 * target workflows (workflows/target-alerts.ts, target-confirm.ts) through their activities.
 */

export interface AlertEmailJob {
  alertId: number;
  change: AlertChange;
}

export interface AlertEvaluation {
  /**
   * `evaluated`; or why nothing was decided: the scan is unknown, not finished, not a target's scan, its
   * target is gone, or a later scan of the target has finished (`superseded`: a late verdict would undo a newer one).
   */
  outcome: 'evaluated' | 'scan_not_found' | 'not_finished' | 'not_scheduled' | 'target_gone' | 'superseded';
  changes: Array<{ alertId: number; type: AlertType; change: AlertChange }>;
  /**
   * The e-mails still due for alerts this scan raised, escalated or resolved: computed from the rows, not from
   * this run's changes, so a retry after the transaction committed still sends them.
   */
  emails: AlertEmailJob[];
  /**
   * Regression candidates of this scan (core/monitoring/regression-rules.ts): the caller runs one
   * confirmation scan of the target at once and raises their alerts only when it agrees. Absent: none.
   */
  confirmation?: { targetId: number; host: string; keys: RegressionKey[] };
}

export interface ConfirmationInput {
  /** The scheduled scan whose values made the candidates. */
  candidateScanId: string;
  confirmationScanId: string;
  keys: RegressionKey[];
}

export interface ConfirmationEvaluation extends AlertEvaluation {
  /** The candidates the confirmation scan confirmed (each raised, unless its type had an unresolved alert). */
  confirmed: RegressionKey[];
}
