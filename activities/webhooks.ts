import { ApplicationFailure, Context } from '@temporalio/activity';
import { ApplicationFailureCategory } from '@temporalio/common';
import { ATTEMPT_SLOT_POOLS, busyRetryDelayMs } from '../core/webhooks/limits.ts';
import type { AttemptResult, WebhookDeliveryDeps } from '../services/webhook-attempt.ts';
import { attemptDelivery } from '../services/webhook-delivery.ts';
import { inAttemptSlot } from '../services/webhook-slots.ts';

/** The failure type of an attempt not made because its account had every attempt slot taken. */
export const ACCOUNT_BUSY_FAILURE = 'WebhookAccountBusy';

/** The delivery workflow's activity (workflows/webhook-delivery.ts), on the webhook task queue; built with the others in worker/activities.ts. */
export function createWebhookActivities(deps: WebhookDeliveryDeps) {
  return {
    /**
     * One attempt at a delivery; receiver failures are returned, not thrown (the workflow keeps the schedule).
     * When the owner's account has every attempt slot taken, nothing is sent and the activity fails at once,
     * retryable after a growing wait: it holds no worker slot meanwhile, and other accounts' attempts in the
     * queue are taken in between.
     */
    async attemptWebhookDelivery(deliveryId: number, final: boolean): Promise<AttemptResult> {
      // The row is not marked as having its workflow here: whoever started the delivery's own workflow marks it
      // (the sweeper too, when a start already happened), and a resend's workflow is not the delivery's own.
      const delivery = await deps.webhooks.findDelivery(deliveryId);
      if (!delivery) return { outcome: 'not_sent', retryAfterMs: null };
      const slot = await inAttemptSlot(deps.webhooks, ATTEMPT_SLOT_POOLS.worker, delivery, () =>
        attemptDelivery(deps, deliveryId, final, { claimed: delivery }),
      );
      if (!slot.busy) return slot.result;
      throw ApplicationFailure.create({
        type: ACCOUNT_BUSY_FAILURE,
        message: `account ${delivery.userId} has every webhook attempt slot taken`,
        nextRetryDelay: busyRetryDelayMs(triesSoFar()),
        // Expected under load, not an error: logged at debug level, left out of the failure metrics.
        category: ApplicationFailureCategory.BENIGN,
      });
    },
  };
}

/** This activity's attempt number (1 outside a Temporal activity: tests call the function directly). */
function triesSoFar(): number {
  try {
    return Context.current().info.attempt;
  } catch {
    return 1;
  }
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
