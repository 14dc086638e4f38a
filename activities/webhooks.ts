import { attemptDelivery, type AttemptResult, type WebhookDeliveryDeps } from '../services/webhook-delivery.ts';

/** The delivery workflow's activity (workflows/webhook-delivery.ts); wired in worker/main.ts. */
export function createWebhookActivities(deps: WebhookDeliveryDeps) {
  return {
    /** One attempt at a delivery; receiver failures are returned, not thrown (the workflow keeps the schedule). */
    async attemptWebhookDelivery(deliveryId: number, final: boolean): Promise<AttemptResult> {
      // The row is not marked here: the delivery's own workflow is marked by whoever started it (and by the
      // sweeper when a start already happened), and a resend's workflow must not mark it as having its own.
      return attemptDelivery(deps, deliveryId, final, { claim: false });
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
