import { attemptDelivery, type AttemptResult, type WebhookDeliveryDeps } from '../services/webhook-delivery.ts';

/** The delivery workflow's activity (workflows/webhook-delivery.ts); wired in worker/main.ts. */
export function createWebhookActivities(deps: WebhookDeliveryDeps) {
  return {
    /** One attempt at a delivery; receiver failures are returned, not thrown (the workflow keeps the schedule). */
    async attemptWebhookDelivery(deliveryId: number, final: boolean): Promise<AttemptResult> {
      return attemptDelivery(deps, deliveryId, final);
    },
  };
}

export type WebhookActivities = ReturnType<typeof createWebhookActivities>;
