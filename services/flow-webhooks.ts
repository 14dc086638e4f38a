import type { FlowStepResult } from '../core/flows/flow.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import { flowRunPayload } from '../core/webhooks/flow-payloads.ts';
import type { FlowRun } from '../db/store/flows.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';
import { enqueueWebhook } from './webhook-delivery.ts';

/**
 * The ended run's flow.completed or flow.failed event for its owner's endpoint (when switched on there), written
 * to the outbox in the transaction that ends the run. The flow's name is the one the run measured.
 */
export async function flowRunWebhooks(
  outbox: WebhookStore,
  run: FlowRun,
  steps: readonly FlowStepResult[],
  baseUrl: string,
  now: Date,
): Promise<WebhookDelivery[]> {
  const payload = flowRunPayload(
    {
      flowPublicId: run.flowPublicId,
      flowName: run.definition.name,
      runPublicId: run.publicId,
      trigger: run.trigger,
      definition: run.definition,
      finishedAt: run.finishedAt ?? now,
      steps,
      failure: run.failure && {
        index: run.failure.index,
        step_type: run.failure.step_type,
        code: run.failure.code,
        message: run.failure.message,
      },
    },
    baseUrl,
  );
  const delivery = await enqueueWebhook(outbox, run.userId, payload.event, payload, now);
  return delivery ? [delivery] : [];
}
