import { ALERT_CHANGES, type Alert, type AlertChange, type AlertType } from '../core/monitoring/alert.ts';
import { emailDue } from '../core/monitoring/alert-email.ts';
import { decideAlertTransitions, type AlertTransition } from '../core/monitoring/alert-rules.ts';
import type { RegressionKey } from '../core/monitoring/regression-rules.ts';
import { DEFAULT_THRESHOLDS } from '../core/monitoring/thresholds.ts';
import { alertPayload } from '../core/webhooks/payloads.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { AlertStore, AlertTarget, EvaluatedScan } from '../db/store/alerts.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { regressionStep, PREVIOUS_FOR_RULES } from './regression-evaluation.ts';
import { enqueueWebhook } from './webhook-delivery.ts';
import { scoreAlertNotice } from '../core/alert-destinations/notice.ts';
import { enqueueChatAlerts } from './alert-destinations.ts';

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

/** alert.triggered for each raised alert, alert.resolved for each resolved one (an escalation is no new alert: no event). */
export async function enqueueAlertWebhooks(
  locked: AlertStore,
  outbox: WebhookStore,
  changes: AlertEvaluation['changes'],
  now: Date,
): Promise<WebhookDelivery[]> {
  const deliveries: WebhookDelivery[] = [];
  for (const { alertId, change } of changes) {
    if (change === 'escalated') continue;
    const [alert, recipient] = await Promise.all([locked.find(alertId), locked.recipient(alertId)]);
    if (!alert) continue;
    const event = change === 'raised' ? 'alert.triggered' : 'alert.resolved';
    const payload = alertPayload(alert, event, recipient?.locale ?? 'en');
    const delivery = await enqueueWebhook(outbox, alert.userId, event, payload, now);
    if (delivery) deliveries.push(delivery);
    // Slack and Teams destinations (services/alert-destinations.ts): any alert type, from its title, message and details.
    const state = change === 'raised' ? 'triggered' : 'resolved';
    deliveries.push(
      ...(await enqueueChatAlerts(
        outbox,
        { userId: alert.userId, targetId: alert.targetId, event, payload },
        (locale) => scoreAlertNotice(alert, state, locale),
        now,
      )),
    );
  }
  return deliveries;
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
    const alertId = await apply(locked, transition, { target, scanPublicId: scan.publicId, now, unresolved });
    changes.push({ alertId, type: transition.type, change: transition.change });
  }
  return { changes, candidates: regressions.candidates };
}

export async function apply(
  locked: AlertStore,
  transition: AlertTransition,
  context: { target: AlertTarget; scanPublicId: string; now: Date; unresolved: Alert[] },
): Promise<number> {
  const { target, scanPublicId, now } = context;
  switch (transition.change) {
    case 'raised': {
      const { type, severity, details } = transition;
      const alert = await locked.insert({
        userId: target.userId,
        targetId: target.id,
        type,
        severity,
        details,
        url: target.url,
        host: target.host,
        region: target.region,
        scanPublicId,
        createdAt: now,
      });
      return alert.id;
    }
    case 'escalated':
      await locked.escalate(
        transition.alertId,
        { severity: transition.severity, details: transition.details, scanPublicId },
        now,
      );
      return transition.alertId;
    case 'resolved': {
      const alert = context.unresolved.find((a) => a.id === transition.alertId)!;
      await locked.resolve(
        transition.alertId,
        { details: { ...alert.details, resolution: transition.resolution }, scanPublicId },
        now,
      );
      return transition.alertId;
    }
  }
}
