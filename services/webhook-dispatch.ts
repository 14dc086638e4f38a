import type { Client } from '@temporalio/client';
import type { Logger } from '../infra/logger.ts';
import {
  startWebhookDeliveryWorkflow,
  startWebhookResendWorkflow,
  webhookDeliveryResult,
} from '../infra/temporal-client.ts';
import type { AttemptOutcomeKind, PriorAttempts, WebhookDelivery } from '../core/webhooks/delivery.ts';
import type { WebhookStore } from '../db/store/webhooks.ts';

/** Starts delivery workflows (workflows/webhook-delivery.ts) for outbox rows, after the transaction that wrote them. */
export interface WebhookDispatch {
  /**
   * Starts each delivery's workflow unless it was started before; failures are logged (the sweeper retries).
   * `single`: one attempt, no retries (the settings page's test event, whose result the page waits for).
   * `after`: the attempts already made outside a workflow (services/webhook-direct.ts); the workflow returns an
   * ending outcome at once, or goes on with the schedule's next wait.
   */
  start(
    deliveries: Array<Pick<WebhookDelivery, 'id' | 'userId' | 'event'>>,
    options?: { single?: boolean; after?: PriorAttempts },
  ): Promise<void>;
  /** The outcome of a delivery's workflow (webhookDeliveryWorkflowId), once it has ended. */
  result(deliveryId: number): Promise<AttemptOutcomeKind>;
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

/** The outbox rules around the starts in infra/temporal-client.ts: a row is marked once its workflow exists. */
export function temporalWebhookDispatch(deps: WebhookDispatchDeps): WebhookDispatch {
  const prefix = deps.taskQueuePrefix;
  return {
    async start(deliveries, options = {}) {
      const started: number[] = [];
      await Promise.all(
        deliveries.map(async (delivery) => {
          try {
            await startWebhookDeliveryWorkflow(deps.temporal(), prefix, delivery, {
              schedule: deps.schedule,
              single: options.single,
              after: options.after,
            });
            started.push(delivery.id);
          } catch (error) {
            deps.log.warn(
              { deliveryId: delivery.id, err: error },
              'webhook delivery not started; the sweeper will start it',
            );
          }
        }),
      );
      await deps.webhooks.markWorkflowStarted(started, new Date());
    },

    result: (deliveryId) => webhookDeliveryResult(deps.temporal(), prefix, deliveryId),

    resend: (delivery) => startWebhookResendWorkflow(deps.temporal(), prefix, delivery),
  };
}

/** How long an outbox row may wait for its workflow before the sweeper starts one (the normal path takes milliseconds). */
export const SWEEP_AFTER_MS = 30_000;

/**
 * How long a claim on an outbox row lives (services/webhook-direct.ts; the sweeper's own): above the 15 s
 * request timeout of a direct attempt plus its database work, so the sweeper never takes a row whose attempt
 * is still going; a holder that dies is replaced after it.
 */
export const CLAIM_MS = 60_000;

/**
 * Starts workflows for outbox rows left without one and without a live claim (a crash between commit and
 * start, or during a direct attempt); how many it found. The rows are claimed first, so a direct attempt
 * cannot begin on them meanwhile and two sweepers never take the same row.
 */
export async function sweepWebhookOutbox(
  webhooks: WebhookStore,
  dispatch: WebhookDispatch,
  now: Date,
  claimMs = CLAIM_MS,
): Promise<number> {
  const waiting = await webhooks.claimUnstarted(
    new Date(now.getTime() - SWEEP_AFTER_MS),
    now,
    new Date(now.getTime() + claimMs),
    500,
  );
  const untried = waiting.filter((delivery) => delivery.webhookAttempts === 0);
  if (untried.length) await dispatch.start(untried);
  // A direct attempt was made (its process died, or its start waited past the claim): the workflow goes on from
  // it, so the schedule keeps its count and an ended delivery is only recorded (the Retry-After is not stored).
  for (const tried of waiting.filter((delivery) => delivery.webhookAttempts > 0)) {
    await dispatch.start([tried], {
      after: {
        attempts: tried.webhookAttempts,
        outcome: tried.status === 'pending' ? 'retry' : tried.status,
        retryAfterMs: null,
      },
    });
  }
  return waiting.length;
}
