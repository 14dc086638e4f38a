import { attemptDelivery, type AttemptResult, type WebhookDeliveryDeps } from '../services/webhook-delivery.ts';

/** The delivery workflow's activity (workflows/webhook-delivery.ts); wired in worker/main.ts. */
export function createWebhookActivities(deps: WebhookDeliveryDeps) {
  return {
    /** One attempt at a delivery; receiver failures are returned, not thrown (the workflow keeps the schedule). */
    async attemptWebhookDelivery(deliveryId: number, final: boolean): Promise<AttemptResult> {
      // The row is not marked as having its workflow here: whoever started the delivery's own workflow marks it
      // (the sweeper too, when a start already happened), and a resend's workflow is not the delivery's own.
      return attemptDelivery(deps, deliveryId, final);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
