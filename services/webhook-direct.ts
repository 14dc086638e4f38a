import type { Logger } from '../core/logger.ts';
import { attemptDelivery, type WebhookDeliveryDeps } from './webhook-delivery.ts';
import type { WebhookDispatch } from './webhook-dispatch.ts';

/**
 * The first attempt of each delivery, sent straight from the process that committed its outbox row, in the
 * background (never holding up the activity that raised the event); a delivery workflow starts only when that
 * attempt asks for a retry, and goes on with the schedule's next wait. A burst is then delivered at the speed of
 * the receivers, not of Temporal handing out one workflow per event (README, Webhooks: benchmark).
 *
 * Nothing is lost on a crash: the row is claimed (workflow_started_at) only once its attempt has ended or its
 * retry workflow has started, so a row whose attempt died with the process is found by the outbox sweeper,
 * which starts an ordinary workflow for it (a receiver may then see the event twice; receivers drop duplicates
 * by webhook-id). Past `maxInFlight` attempts at once, deliveries go straight to workflows.
 */
export function directFirstAttempt(workflows: WebhookDispatch, deps: WebhookDeliveryDeps & { log: Pick<Logger, 'warn'>; maxInFlight: number }): WebhookDispatch & { idle(): Promise<void> } {
  const running = new Set<Promise<void>>();

  async function attemptThenHandOver(delivery: Parameters<WebhookDispatch['start']>[0][number]): Promise<void> {
    try {
      const result = await attemptDelivery(deps, delivery.id, false, { claim: false });
      if (result.outcome === 'retry') await workflows.start([delivery], { after: { attempts: 1, retryAfterMs: result.retryAfterMs } });
      else await deps.webhooks.markWorkflowStarted([delivery.id], deps.clock());
    } catch (error) {
      deps.log.warn({ deliveryId: delivery.id, err: error }, 'direct webhook attempt failed; the outbox sweeper starts its workflow');
    }
  }

  return {
    async start(deliveries, options = {}) {
      if (options.single || options.after) return workflows.start(deliveries, options);
      const overflow = [];
      for (const delivery of deliveries) {
        if (running.size >= deps.maxInFlight) {
          overflow.push(delivery);
          continue;
        }
        const attempt = attemptThenHandOver(delivery).finally(() => running.delete(attempt));
        running.add(attempt);
      }
      if (overflow.length) await workflows.start(overflow);
    },
    result: (deliveryId) => workflows.result(deliveryId),
    resend: (delivery) => workflows.resend(delivery),
    /** Resolves once every attempt under way has ended (tests, and a graceful shutdown). */
    async idle() {
      while (running.size) await Promise.allSettled([...running]);
    },
  };
}
