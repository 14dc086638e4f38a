import type { Alert } from '../core/monitoring/alert.ts';
import type { AlertEvaluation } from '../core/monitoring/alert-evaluation.ts';
import type { AlertTransition } from '../core/monitoring/alert-transition.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { alertPayload } from '../core/webhooks/payloads.ts';
import { scoreAlertNotice } from '../core/alert-destinations/notice.ts';
import type { AlertStore, AlertTarget } from '../db/store/alerts.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { enqueueChatAlerts } from './alert-destinations.ts';
import { enqueueWebhook } from './webhook-delivery.ts';

/**
 * What a decided alert transition does, inside the target's lock: its row (raised, escalated, resolved) and
 * the webhook and chat deliveries of the changes. Shared by the evaluation after a scheduled scan
 * (services/alert-evaluation.ts), the regression confirmation (services/regression-evaluation.ts) and the
 * webhooks of flows' alerts (services/flow-alerts.ts).
 */

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

/** Writes one transition of a target's alert; returns the alert's id. */
export async function applyTransition(
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
