import { ALERT_CHANGES, type Alert } from '../core/monitoring/alert.ts';
import type {
  AlertEvaluation,
  ConfirmationEvaluation,
  ConfirmationInput,
} from '../core/monitoring/alert-evaluation.ts';
import { emailDue } from '../core/monitoring/alert-email.ts';
import type { AlertTransition } from '../core/monitoring/alert-transition.ts';
import {
  alertTypeOf,
  TAIL_WINDOW,
  confirmRegressions,
  openRegressionTransition,
  raisedRegressionAlerts,
  regressionCandidates,
  type RegressionAlertType,
  type RegressionKey,
} from '../core/monitoring/regression-rules.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { AlertStore, AlertTarget, EvaluatedScan } from '../db/store/alerts.ts';
import { applyTransition, enqueueAlertWebhooks } from './alert-changes.ts';

/**
 * The regression half of alert evaluation (core/monitoring/regression-rules.ts), in two steps: after a target's
 * scheduled scan, what happens to its open regression alerts and which metrics are candidates
 * (regressionStep, called inside services/alert-evaluation.ts's transaction); after the confirmation scan the
 * candidates started, which of them are confirmed and raised (confirmRegressionAlerts).
 */

/** How many previous scans the threshold rules are given (they use none today; the regression rules read their own). */
export const PREVIOUS_FOR_RULES = TAIL_WINDOW;

const REGRESSION_TYPES: ReadonlySet<string> = new Set<RegressionAlertType>(['score_regression', 'metric_regression']);

export async function regressionStep(
  locked: AlertStore,
  target: AlertTarget,
  scan: EvaluatedScan,
  unresolved: Alert[],
): Promise<{ transitions: AlertTransition[]; candidates: RegressionKey[] }> {
  if (!scan.values) return { transitions: [], candidates: [] };
  const previous = await locked.scheduledScanValues(target.id, scan, TAIL_WINDOW);
  const open = unresolved.filter((alert) => REGRESSION_TYPES.has(alert.type));
  const transitions: AlertTransition[] = [];
  for (const alert of open) {
    const transition = openRegressionTransition(
      { ...alert, type: alert.type as RegressionAlertType },
      previous,
      scan.values,
    );
    if (transition) transitions.push(transition);
  }
  const openTypes = new Set(open.map((alert) => alert.type as RegressionAlertType));
  return { transitions, candidates: regressionCandidates(previous, scan.values, openTypes).map((c) => c.key) };
}

/** The page's path and query, as alerts name it beside the host. */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return '/';
  }
}

/**
 * Judges the candidate scan and its confirmation scan together against the candidate's baseline window and
 * raises the alerts of the confirmed regressions, with their webhook deliveries, in one transaction under the
 * target's lock (as services/alert-evaluation.ts). Nothing is raised when a later scheduled scan has finished
 * meanwhile (`superseded`) or either scan did not finish. Running it again raises nothing more.
 */
export async function confirmRegressionAlerts(
  alerts: AlertStore,
  input: ConfirmationInput,
  now: Date,
): Promise<{ evaluation: ConfirmationEvaluation; webhooks: WebhookDelivery[] }> {
  const none = (outcome: AlertEvaluation['outcome']) => ({
    evaluation: { outcome, changes: [], emails: [], confirmed: [] },
    webhooks: [],
  });
  const [candidate, confirmation] = await Promise.all([
    alerts.scanForEvaluation(input.candidateScanId),
    alerts.scanForEvaluation(input.confirmationScanId),
  ]);
  if (!candidate || !confirmation) return none('scan_not_found');
  if (!candidate.values || !candidate.finishedAt || !confirmation.values) return none('not_finished');
  const targetId = candidate.targetId;
  if (targetId === null || confirmation.targetId !== targetId) return none('not_scheduled');
  const result = await alerts.underTargetLock(targetId, async (locked, target, outbox) => {
    if (await locked.laterScheduledScanFinished(targetId, candidate)) return none('superseded');
    const unresolved = await locked.unresolvedOfTarget(targetId);
    const openTypes = new Set(unresolved.map((alert) => alert.type));
    const previous = await locked.scheduledScanValues(targetId, candidate, TAIL_WINDOW);
    const confirmed = confirmRegressions(previous, candidate.values!, confirmation.values!, input.keys);
    const raised = raisedRegressionAlerts(confirmed, {
      path: pathOf(target.url),
      confirmationScanId: confirmation.publicId,
    }).filter((alert) => !openTypes.has(alert.type));
    const changes: AlertEvaluation['changes'] = [];
    for (const alert of raised) {
      const transition: AlertTransition = { change: 'raised', ...alert };
      const alertId = await applyTransition(locked, transition, {
        target,
        scanPublicId: candidate.publicId,
        now,
        unresolved,
      });
      changes.push({ alertId, type: alert.type, change: 'raised' });
    }
    const emails = (await locked.changedByScan(targetId, candidate.publicId))
      .filter((alert) => REGRESSION_TYPES.has(alert.type))
      .flatMap((alert) =>
        ALERT_CHANGES.filter((change) => emailDue(alert, change) === 'send').map((change) => ({
          alertId: alert.id,
          change,
        })),
      );
    const webhooks = await enqueueAlertWebhooks(locked, outbox, changes, now);
    return {
      evaluation: {
        outcome: 'evaluated' as const,
        changes,
        emails,
        confirmed: confirmed.filter((c) => !openTypes.has(alertTypeOf(c.key))).map((c) => c.key),
      },
      webhooks,
    };
  });
  return result ?? none('target_gone');
}
