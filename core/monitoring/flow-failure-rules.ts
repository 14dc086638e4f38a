import type { FailedStep } from '../flows/flow.ts';
import type { AlertDetails } from './alert.ts';
import type { AlertTransition, UnresolvedAlert } from './alert-transition.ts';

/**
 * flow_failed: a pure function of an ended run of a monitored flow and the flow's unresolved flow_failed alert
 * (services/flow-alerts.ts applies it). The state table is in docs/monitoring-and-alerts.md (flow_failed), each
 * row a test in test/unit/flow-failure-rules.test.ts.
 *
 * - A failed run raises a warning: one failure may be the site's passing trouble (a deploy, a slow backend).
 * - The next run failing too escalates it to critical (FLOW_FAILURES_CRITICAL runs in a row): the journey is
 *   broken, not flaky. Evaluating the run that raised it again changes nothing.
 * - The next run that ends without failing resolves it; there is no margin to hold, a run either got through
 *   or it did not.
 */

/** Runs in a row that failed, from which the alert is critical. */
export const FLOW_FAILURES_CRITICAL = 2;

/** What the rule needs of an ended run: its public id, and where it stopped (null: it got through). */
export interface EndedRun {
  publicId: string;
  failedStep: FailedStep | null;
}

/** The flow's unresolved flow_failed alert, with the run its details describe (the one that raised or escalated it). */
export type OpenFlowFailure = UnresolvedAlert & { scanPublicId: string };

/**
 * `score` is required of every alert and a failed run has none: `overall` stands for the flow as a whole;
 * `value` counts the failed runs in a row, `reference` is the count from which the alert is critical.
 */
const failureDetails = (failedStep: FailedStep, failures: number): AlertDetails => ({
  score: 'overall',
  value: failures,
  reference: FLOW_FAILURES_CRITICAL,
  failedStep,
});

export function flowFailureTransition(run: EndedRun, open: OpenFlowFailure | undefined): AlertTransition[] {
  const type = 'flow_failed';
  if (!run.failedStep)
    return open ? [{ change: 'resolved', alertId: open.id, type, resolution: { kind: 'recovered', value: 0 } }] : [];
  if (!open) return [{ change: 'raised', type, severity: 'warning', details: failureDetails(run.failedStep, 1) }];
  if (open.severity === 'warning' && open.scanPublicId !== run.publicId)
    return [
      {
        change: 'escalated',
        alertId: open.id,
        type,
        severity: 'critical',
        details: failureDetails(run.failedStep, open.details.value + 1),
      },
    ];
  return [];
}
