import { ALERT_CHANGES } from '../core/monitoring/alert.ts';
import { emailDue } from '../core/monitoring/alert-email.ts';
import type { AlertEvaluation } from '../core/monitoring/alert-evaluation.ts';
import { decideAlertTransitions } from '../core/monitoring/alert-rules.ts';
import type { RegressionKey } from '../core/monitoring/regression-rules.ts';
import { DEFAULT_THRESHOLDS } from '../core/monitoring/thresholds.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { AlertStore, AlertTarget, EvaluatedScan } from '../db/store/alerts.ts';
import { applyTransition, enqueueAlertWebhooks } from './alert-changes.ts';
import { regressionStep, PREVIOUS_FOR_RULES } from './regression-evaluation.ts';

const nothing = (outcome: AlertEvaluation['outcome']): AlertEvaluation => ({ outcome, changes: [], emails: [] });

/**
 * Compares a finished scan of a target with the target's thresholds and history (core/monitoring/alert-rules.ts)
 * and applies the transitions, in one transaction under the target's row lock. Evaluating the same scan again
 * changes nothing (the rules reach a fixed point), so activity retries are harmless.
 */
export async function evaluateScanAlerts(alerts: AlertStore, publicId: string, now: Date): Promise<AlertEvaluation> {
  return (await evaluateScanAlertsWithWebhooks(alerts, publicId, now)).evaluation;
}

/**
 * As evaluateScanAlerts, plus the webhook deliveries (alert.triggered, alert.resolved) written in the same
 * transaction as the changes: the caller starts their workflows once it has committed.
 */
export async function evaluateScanAlertsWithWebhooks(
  alerts: AlertStore,
  publicId: string,
  now: Date,
): Promise<{ evaluation: AlertEvaluation; webhooks: WebhookDelivery[] }> {
  const none = (outcome: AlertEvaluation['outcome']) => ({ evaluation: nothing(outcome), webhooks: [] });
  const scan = await alerts.scanForEvaluation(publicId);
  if (!scan) return none('scan_not_found');
  if (scan.status !== 'finished' || !scan.scores || !scan.finishedAt) return none('not_finished');
  const targetId = scan.targetId;
  // A confirmation scan is judged with the scan it confirms (services/regression-evaluation.ts), not alone.
  if (targetId === null || scan.trigger === 'confirmation') return none('not_scheduled');
  const result = await alerts.underTargetLock(targetId, async (locked, target, outbox) => {
    const superseded = await locked.laterScheduledScanFinished(targetId, scan);
    const { changes, candidates } = superseded
      ? { changes: [], candidates: [] }
      : await applyRules(locked, target, scan, now);
    const emails = (await locked.changedByScan(targetId, publicId)).flatMap((alert) =>
      ALERT_CHANGES.filter((change) => emailDue(alert, change) === 'send').map((change) => ({
        alertId: alert.id,
        change,
      })),
    );
    const webhooks = await enqueueAlertWebhooks(locked, outbox, changes, now);
    return {
      evaluation: {
        outcome: superseded ? 'superseded' : 'evaluated',
        changes,
        emails,
        ...(candidates.length ? { confirmation: { targetId, host: target.host, keys: candidates } } : {}),
      } satisfies AlertEvaluation,
      webhooks,
    };
  });
  return result ?? none('target_gone');
}

async function applyRules(
  locked: AlertStore,
  target: AlertTarget,
  scan: EvaluatedScan,
  now: Date,
): Promise<{ changes: AlertEvaluation['changes']; candidates: RegressionKey[] }> {
  const unresolved = await locked.unresolvedOfTarget(target.id);
  const previous = await locked.previousScheduledScans(target.id, scan, PREVIOUS_FOR_RULES);
  const regressions = await regressionStep(locked, target, scan, unresolved);
  const transitions = [
    ...decideAlertTransitions({
      thresholds: { ...DEFAULT_THRESHOLDS, ...target.thresholds },
      scores: scan.scores!,
      previous,
      unresolved,
      budget: scan.measurement ? { budgets: target.budgets, measured: scan.measurement } : undefined,
    }),
    ...regressions.transitions,
  ];
  const changes: AlertEvaluation['changes'] = [];
  for (const transition of transitions) {
    const alertId = await applyTransition(locked, transition, { target, scanPublicId: scan.publicId, now, unresolved });
    changes.push({ alertId, type: transition.type, change: transition.change });
  }
  return { changes, candidates: regressions.candidates };
}
