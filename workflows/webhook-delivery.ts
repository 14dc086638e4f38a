import { proxyActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import {
  nextDelayMs,
  RETRY_DELAYS_MS,
  type AttemptOutcomeKind,
  type WebhookDeliveryInput,
} from '../core/webhooks/delivery.ts';

/**
 * An ordinary activity on the workflow's own queue (the webhook queue, served by the webhook worker with slots
 * of its own): the request never runs inside a workflow task, so a slow receiver holds one activity slot,
 * never a workflow task of the worker.
 */
const { attemptWebhookDelivery } = proxyActivities<WebhookActivities>({
  // Only for the worker's own troubles (Postgres away, a crash mid-attempt) and for an account at its attempt
  // cap (which sets its own wait): receiver failures are not thrown.
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  // The request's own timeout is 15 s, recording after it up to about 30 s (services/webhook-recording.ts);
  // shorter, Temporal could retry the activity, and so send again, while the record is still being tried.
  startToCloseTimeout: '1 minute',
  scheduleToCloseTimeout: '6 hours',
});

/**
 * Delivers one outbox row: an attempt now, then one after each wait of the schedule (immediately, 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 10 h) until one succeeds, the receiver answers 410, or the schedule is over. Waits
 * are durable timers, so a delivery survives worker restarts and outages of any length.
 *
 * With `after` (the direct first attempt was made before the start): an ending outcome is returned at once,
 * with no activity (the workflow is there so every delivery is found in the Temporal UI); `retry` goes on
 * with the schedule's next wait.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<AttemptOutcomeKind> {
  const schedule = input.schedule ?? [...RETRY_DELAYS_MS];
  let attempt = 1;
  if (input.after && input.after.outcome !== 'retry') return input.after.outcome;
  if (input.after) {
    const delay = nextDelayMs(input.after.attempts, input.after.retryAfterMs, schedule);
    if (delay === null) return 'failed';
    await sleep(delay);
    attempt = input.after.attempts + 1;
  }
  for (; ; attempt++) {
    const final = input.single === true || attempt > schedule.length;
    const result = await attemptWebhookDelivery(input.deliveryId, final);
    if (result.outcome !== 'retry') return result.outcome;
    const delay = nextDelayMs(attempt, result.retryAfterMs, schedule);
    if (delay === null) return 'failed';
    await sleep(delay);
  }
}
