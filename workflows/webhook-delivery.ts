import { patched, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type { WebhookActivities } from '../activities/webhooks.ts';
import { nextDelayMs, RETRY_DELAYS_MS, type AttemptOutcomeKind, type WebhookDeliveryInput } from '../core/webhooks/delivery.ts';

// A local activity: run by the worker that runs the workflow task, without a round trip through the server's
// activity queue, which halves the server's work per delivery (the benchmark's latency). A crash mid-attempt
// repeats the attempt like an ordinary activity's retry would.
const { attemptWebhookDelivery } = proxyLocalActivities<WebhookActivities>({
  // The request's own timeout is 15 s; the rest is Postgres.
  startToCloseTimeout: '1 minute',
  // Only for the worker's own troubles (Postgres away, a crash mid-attempt): receiver failures are not thrown.
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
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
  // patched: histories written by workers from before this return went on to the timer (a rolling deploy).
  const ended = input.after?.outcome !== undefined && input.after.outcome !== 'retry';
  if (ended && patched('webhook-after-outcome')) return input.after!.outcome!;
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
