import type { DeliveryRef, PriorAttempts } from '../core/webhooks/delivery.ts';
import { ATTEMPT_SLOT_POOLS, DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT, DIRECT_WAIT_MS } from '../core/webhooks/limits.ts';
import type { WebhookDeliveryDeps } from './webhook-attempt.ts';
import { attemptDelivery } from './webhook-delivery.ts';
import { CLAIM_MS, type WebhookDispatch } from './webhook-dispatch.ts';
import { inAttemptSlot } from './webhook-slots.ts';

export interface DirectAttemptDeps extends WebhookDeliveryDeps {
  /** First attempts under way or waiting for their account at once; beyond, deliveries go straight to workflows. */
  maxInFlight: number;
  /** How long a delivery waits here behind its account's attempts under way (DIRECT_WAIT_MS). */
  accountWaitMs?: number;
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
 *
 * Per account, at most DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT attempts are under way here, taken in order; the
 * others wait here (holding nothing but memory) up to accountWaitMs, then go to their workflows, whose
 * attempts are under the webhook workers' cap (ATTEMPTS_IN_FLIGHT_PER_ACCOUNT). Each attempt also holds one of
 * the account's direct slots in Postgres, shared with every raising process; when they are all held
 * elsewhere the delivery goes to its workflow.
 * One account's burst or slow receiver so never holds up another account's first attempts.
 */
export function directFirstAttempt(
  workflows: WebhookDispatch,
  deps: DirectAttemptDeps,
): WebhookDispatch & { idle(): Promise<void> } {
  const running = new Set<Promise<void>>();
  const starting = new Set<Promise<void>>();
  const queued: Array<{ delivery: DeliveryRef; after: PriorAttempts; queuedAt: number }> = [];
  const claimMs = deps.claimMs ?? CLAIM_MS;
  const startConcurrency = deps.startConcurrency ?? 2;
  const maxQueuedStarts = deps.maxQueuedStarts ?? 10_000;
  const startDeferMs = deps.startDeferMs ?? 10_000;
  const accountWaitMs = deps.accountWaitMs ?? DIRECT_WAIT_MS;
  let deferred: NodeJS.Timeout | null = null;
  /** Per account: its attempts under way here, and its deliveries waiting for one of them to end (oldest first). */
  const accounts = new Map<
    number,
    { inFlight: number; waiting: Array<{ delivery: DeliveryRef; queuedAt: number }>; timer?: NodeJS.Timeout }
  >();
  let waitingCount = 0;

  /** Sends the account's waiting deliveries while it has room, and gives those that waited too long to their workflows. */
  function pumpAccount(userId: number): void {
    const account = accounts.get(userId);
    if (!account) return;
    const stale: DeliveryRef[] = [];
    while (account.waiting.length && Date.now() - account.waiting[0]!.queuedAt >= accountWaitMs)
      stale.push(account.waiting.shift()!.delivery);
    while (account.inFlight < DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT && account.waiting.length)
      launch(account.waiting.shift()!.delivery, account);
    waitingCount -= stale.length;
    if (stale.length)
      handOver(stale, "webhook first attempts waited too long behind their account's; their workflows send them");
    if (account.timer) clearTimeout(account.timer);
    account.timer = account.waiting.length
      ? setTimeout(() => pumpAccount(userId), accountWaitMs - (Date.now() - account.waiting[0]!.queuedAt)).unref()
      : undefined;
    if (!account.inFlight && !account.waiting.length) accounts.delete(userId);
  }

  function launch(delivery: DeliveryRef, account: { inFlight: number }): void {
    waitingCount -= 1;
    account.inFlight += 1;
    const attempt = attemptThenHandOver(delivery).finally(() => {
      running.delete(attempt);
      account.inFlight -= 1;
      pumpAccount(delivery.userId);
      pumpStarts();
    });
    running.add(attempt);
  }

  /** Plain workflow starts (they make the first attempt), tracked like the starts after attempts. */
  function handOver(deliveries: DeliveryRef[], why: string): void {
    deps.log.info({ deliveryIds: deliveries.map((d) => d.id), userId: deliveries[0]!.userId }, why);
    const start = workflows
      .start(deliveries)
      .catch((error: unknown) =>
        deps.log.warn({ err: error }, 'webhook workflows not started; the sweeper starts them'),
      )
      .finally(() => starting.delete(start));
    starting.add(start);
  }

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
        .catch((error: unknown) =>
          deps.log.warn(
            { deliveryId: delivery.id, err: error },
            'webhook workflow not started after the direct attempt; the sweeper starts it',
          ),
        )
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
      const slot = await inAttemptSlot(deps.webhooks, ATTEMPT_SLOT_POOLS.direct, claimed, () =>
        attemptDelivery(deps, delivery.id, false, { claimed }),
      );
      // Every direct slot of the account is held by other processes: its workflow makes the first attempt.
      if (slot.busy)
        return handOver([delivery], 'webhook account at its attempt cap; its workflow sends the first attempt');
      const result = slot.result;
      const after = { attempts: 1, outcome: result.outcome, retryAfterMs: result.retryAfterMs };
      if (queued.length >= maxQueuedStarts) {
        deps.log.warn(
          { deliveryId: delivery.id, queued: queued.length },
          'webhook workflow starts queued too long; the sweeper starts this one after its claim',
        );
        return;
      }
      queued.push({ delivery, after, queuedAt: Date.now() });
    } catch (error) {
      deps.log.warn(
        { deliveryId: delivery.id, err: error },
        'direct webhook attempt failed; the outbox sweeper starts its workflow after its claim',
      );
    }
  }

  return {
    async start(deliveries, options = {}) {
      if (options.single || options.after) return workflows.start(deliveries, options);
      const overflow = [];
      for (const delivery of deliveries) {
        if (running.size + waitingCount >= deps.maxInFlight) {
          overflow.push(delivery);
          continue;
        }
        const account = accounts.get(delivery.userId) ?? { inFlight: 0, waiting: [] };
        accounts.set(delivery.userId, account);
        account.waiting.push({ delivery, queuedAt: Date.now() });
        waitingCount += 1;
        pumpAccount(delivery.userId);
      }
      if (overflow.length) await workflows.start(overflow);
    },
    result: (deliveryId) => workflows.result(deliveryId),
    resend: (delivery) => workflows.resend(delivery),
    /** Resolves once every attempt under way has ended and every workflow start it queued has been made (tests, a graceful shutdown). */
    async idle() {
      for (;;) {
        if (!running.size) pumpStarts();
        if (!running.size && !starting.size && !queued.length && !waitingCount) return;
        await Promise.allSettled([...running, ...starting]);
      }
    },
  };
}
