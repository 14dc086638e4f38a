import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Logger } from '../core/logger.ts';
import { mainTaskQueue, DeliveryIdAttribute, UserIdAttribute, WebhookEventAttribute, webhookDeliveryWorkflowId, webhookResendWorkflowId } from '../core/temporal.ts';
import type { WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';

/** What happened before the workflow: how many attempts failed, and the last one's Retry-After. */
export interface PriorAttempts {
  attempts: number;
  retryAfterMs: number | null;
}

/** Starts delivery workflows (workflows/webhook-delivery.ts) for outbox rows, after the transaction that wrote them. */
export interface WebhookDispatch {
  /**
   * Starts each delivery's workflow unless it was started before; failures are logged (the sweeper retries).
   * `single`: one attempt, no retries (the settings page's test event, whose result the page waits for).
   * `after`: the attempts already made outside a workflow (services/webhook-direct.ts); the workflow goes on
   * with the schedule's next wait.
   */
  start(deliveries: Array<Pick<WebhookDelivery, 'id' | 'userId' | 'event'>>, options?: { single?: boolean; after?: PriorAttempts }): Promise<void>;
  /** The outcome of a delivery's workflow (webhookDeliveryWorkflowId), once it has ended. */
  result(deliveryId: number): Promise<string>;
  /** One more attempt at a delivery, whatever became of it (the settings page's resend and replay). */
  resend(delivery: WebhookDelivery): Promise<void>;
}

export interface WebhookDispatchDeps {
  temporal: () => Client;
  webhooks: WebhookStore;
  taskQueuePrefix: string;
  log: Pick<Logger, 'warn'>;
  /** Tests shorten the retry schedule. */
  schedule?: number[];
}

export function temporalWebhookDispatch(deps: WebhookDispatchDeps): WebhookDispatch {
  const taskQueue = mainTaskQueue(deps.taskQueuePrefix);
  const startOptions = (delivery: Pick<WebhookDelivery, 'id' | 'userId' | 'event'>) => ({
    taskQueue,
    staticSummary: `Webhook ${delivery.event}, delivery ${delivery.id}, user ${delivery.userId}`,
    typedSearchAttributes: [
      { key: UserIdAttribute, value: String(delivery.userId) },
      { key: WebhookEventAttribute, value: delivery.event },
      { key: DeliveryIdAttribute, value: String(delivery.id) },
    ],
  });
  return {
    async start(deliveries, options = {}) {
      const started: number[] = [];
      await Promise.all(
        deliveries.map(async (delivery) => {
          try {
            await deps.temporal().workflow.start('webhookDeliveryWorkflow', {
              ...startOptions(delivery),
              workflowId: webhookDeliveryWorkflowId(taskQueue, delivery.id),
              // Never a second run for one delivery, even after the first has ended.
              workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
              args: [{ deliveryId: delivery.id, schedule: deps.schedule, single: options.single, after: options.after }],
            });
            started.push(delivery.id);
          } catch (error) {
            if (error instanceof WorkflowExecutionAlreadyStartedError) started.push(delivery.id);
            else deps.log.warn({ deliveryId: delivery.id, err: error }, 'webhook delivery not started; the sweeper will start it');
          }
        }),
      );
      await deps.webhooks.markWorkflowStarted(started, new Date());
    },

    async result(deliveryId) {
      return deps.temporal().workflow.getHandle(webhookDeliveryWorkflowId(taskQueue, deliveryId)).result() as Promise<string>;
    },

    async resend(delivery) {
      await deps.temporal().workflow.start('webhookDeliveryWorkflow', {
        ...startOptions(delivery),
        workflowId: webhookResendWorkflowId(taskQueue, delivery.id, `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`),
        args: [{ deliveryId: delivery.id, single: true }],
      });
    },
  };
}

/** How long an outbox row may wait for its workflow before the sweeper starts one (the normal path takes milliseconds). */
export const SWEEP_AFTER_MS = 30_000;

/** Starts workflows for outbox rows left without one (a crash between commit and start); how many it found. */
export async function sweepWebhookOutbox(webhooks: WebhookStore, dispatch: WebhookDispatch, now: Date): Promise<number> {
  const waiting = await webhooks.unstarted(new Date(now.getTime() - SWEEP_AFTER_MS), 500);
  if (waiting.length) await dispatch.start(waiting);
  return waiting.length;
}
