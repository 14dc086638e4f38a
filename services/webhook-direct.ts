import type { DeliveryRef, PriorAttempts } from '../core/webhooks/delivery.ts';
import { attemptDelivery, type WebhookDeliveryDeps } from './webhook-delivery.ts';
import { CLAIM_MS, type WebhookDispatch } from './webhook-dispatch.ts';

export interface DirectAttemptDeps extends WebhookDeliveryDeps {
  /** First attempts under way at once; beyond, deliveries go straight to workflows. */
  maxInFlight: number;
  /** How long the row is held for the attempt (CLAIM_MS). */
  claimMs?: number;
  /** Workflow starts after attempts, at once. */
  startConcurrency?: number;
  /** While first attempts are under way, a queued start waits up to this for them to pass (well within the claim). */
  startDeferMs?: number;
  /** Starts waiting beyond this are left to the sweeper (after their claim runs out). */
  maxQueuedStarts?: number;
}

/**
 * The first attempt of each delivery, sent straight from the process that committed its outbox row, in the
 * background (never holding up the activity that raised the event), so a burst is delivered at the speed of
 * the receivers, not of Temporal handing out one workflow per event (docs/operations/benchmarks.md, Webhooks).
 *
 * Every delivery still gets its one workflow (found in the Temporal UI by DeliveryId): after the attempt, its
 * slot is released and the workflow is started from a bounded background queue, after the burst of first
 * attempts under way (or within startDeferMs), with what happened (`after`):
 * an ending outcome is the workflow's result at once, `retry` goes on with the schedule's next wait.
 *
 * No duplicate from a healthy process: the row is claimed (claimed_until) in one statement before anything is
 * sent, and the sweeper takes only rows with no workflow and no live claim; no claim, nothing sent (the holder
 * or the workflow has it). Nothing lost on a crash: the claim runs out and the sweeper starts the workflow,
 * which sends again if the attempt had not been recorded (a duplicate only then), or returns the recorded end.
 */
export function directFirstAttempt(workflows: WebhookDispatch, deps: DirectAttemptDeps): WebhookDispatch & { idle(): Promise<void> } {
  const running = new Set<Promise<void>>();
  const starting = new Set<Promise<void>>();
  const queued: Array<{ delivery: DeliveryRef; after: PriorAttempts; queuedAt: number }> = [];
  const claimMs = deps.claimMs ?? CLAIM_MS;
  const startConcurrency = deps.startConcurrency ?? 2;
  const maxQueuedStarts = deps.maxQueuedStarts ?? 10_000;
  const startDeferMs = deps.startDeferMs ?? 10_000;
  let deferred: NodeJS.Timeout | null = null;

  /**
   * Starts queued workflows, but not while first attempts are under way unless the oldest has waited
   * startDeferMs: a start costs Temporal and this process CPU that a burst's later events would wait for (on
   * a small machine the starts made beside a burst doubled its p95), and it is in no hurry (the claim holds
   * the row for 60 s; the workflow only records what happened or waits for the next retry).
   */
  function pumpStarts(): void {
    const waited = () => Date.now() - queued[0]!.queuedAt;
    if (queued.length && running.size && waited() < startDeferMs) {
      deferred ??= setTimeout(() => {
        deferred = null;
        pumpStarts();
      }, startDeferMs - waited()).unref();
      return;
    }
    while (starting.size < startConcurrency && queued.length) {
      const { delivery, after } = queued.shift()!;
      const start = workflows
        .start([delivery], { after })
        .catch((error: unknown) => deps.log.warn({ deliveryId: delivery.id, err: error }, 'webhook workflow not started after the direct attempt; the sweeper starts it'))
        .finally(() => {
          starting.delete(start);
          pumpStarts();
        });
      starting.add(start);
    }
  }

  async function attemptThenHandOver(delivery: DeliveryRef): Promise<void> {
    try {
      // The claim compares with the injected clock, like everything else on the row (created_at, the sweeper's
      // `now`): tests move time instead of waiting out a claim, and the 45 s between the claim and the request
      // timeout absorb any skew between the workers' clocks, which NTP keeps far smaller.
      const now = deps.clock();
      const claimed = await deps.webhooks.claimDirectAttempt(delivery.id, now, new Date(now.getTime() + claimMs));
      if (!claimed) return;
      const result = await attemptDelivery(deps, delivery.id, false, { claimed });
      const after = { attempts: 1, outcome: result.outcome, retryAfterMs: result.retryAfterMs };
      if (queued.length >= maxQueuedStarts) {
        deps.log.warn({ deliveryId: delivery.id, queued: queued.length }, 'webhook workflow starts queued too long; the sweeper starts this one after its claim');
        return;
      }
      queued.push({ delivery, after, queuedAt: Date.now() });
    } catch (error) {
      deps.log.warn({ deliveryId: delivery.id, err: error }, 'direct webhook attempt failed; the outbox sweeper starts its workflow after its claim');
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
        const attempt = attemptThenHandOver(delivery).finally(() => {
          running.delete(attempt);
          pumpStarts();
        });
        running.add(attempt);
      }
      if (overflow.length) await workflows.start(overflow);
    },
    result: (deliveryId) => workflows.result(deliveryId),
    resend: (delivery) => workflows.resend(delivery),
    /** Resolves once every attempt under way has ended and every workflow start it queued has been made (tests, a graceful shutdown). */
    async idle() {
      for (;;) {
        if (!running.size) pumpStarts();
        if (!running.size && !starting.size && !queued.length) return;
        await Promise.allSettled([...running, ...starting]);
      }
    },
  };
}
