/**
 * Per-account limits on webhooks: the one place their numbers live (documented in the Webhooks section).
 * They keep one account's slow or failing receiver, or its clicks on the settings page, from taking the
 * webhook worker's slots and Temporal's time from every other account.
 */

/**
 * Attempts of one account's deliveries the webhook workers send at once, over every process: a slow receiver
 * holds at most this many of their activity slots. Every attempt made through a workflow counts (test events,
 * resends, replays, retries, and first attempts that did not go direct).
 */
export const ATTEMPTS_IN_FLIGHT_PER_ACCOUNT = 4;
/**
 * First attempts of one account sent straight from the raising processes at once (services/webhook-direct.ts),
 * over every process: a pool of its own, larger because it holds no worker slot (only sockets of a process
 * whose activity has returned; 256 at most per process, waiting deliveries included, so while one account
 * fills a process other accounts' first attempts go to their workflows, never wait behind it) and
 * because a burst of one account's events must go out at the receiver's speed: at 32 a 500-event burst of one
 * account had a p95 of 2.5 to 3.2 s on the shared 2-core machine, at 128 under 0.5 s (bench/webhooks.ts).
 * Beyond it, the account's deliveries wait or go to their workflows and the cap above.
 */
export const DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT = 128;

/** The slot numbers of each pool (one row per account and slot number in `webhook_attempt_slots`). */
export const ATTEMPT_SLOT_POOLS = {
  worker: { first: 0, count: ATTEMPTS_IN_FLIGHT_PER_ACCOUNT },
  direct: { first: ATTEMPTS_IN_FLIGHT_PER_ACCOUNT, count: DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT },
} as const;
export type AttemptSlotPool = (typeof ATTEMPT_SLOT_POOLS)[keyof typeof ATTEMPT_SLOT_POOLS];

/**
 * How long an attempt's slot is held at most: above the 15 s request timeout plus database time, so a slot is
 * never taken from an attempt still under way; a process that dies mid-attempt leaves one that runs out.
 */
export const ATTEMPT_SLOT_LEASE_MS = 60_000;

export const BUSY_RETRY_FIRST_MS = 1_000;
export const BUSY_RETRY_MAX_MS = 30_000;

/**
 * An attempt whose account has every slot taken is not sent and holds no worker slot: the activity fails at
 * once and Temporal runs it again after this wait (growing with the tries, jittered so a backlog spreads out).
 */
export function busyRetryDelayMs(tries: number, random: () => number = Math.random): number {
  const base = Math.min(BUSY_RETRY_MAX_MS, BUSY_RETRY_FIRST_MS * 1.5 ** Math.max(0, tries - 1));
  return Math.round(base * (0.75 + random() / 2));
}

/**
 * A direct first attempt (services/webhook-direct.ts) whose account is at the cap in this process waits here
 * for one of them to end, up to this long; then its delivery goes to its workflow.
 */
export const DIRECT_WAIT_MS = 5_000;

/** The settings page's actions per account and sliding window; over it, the page says so and nothing is queued. */
export const WEBHOOK_ACTION_LIMITS = {
  test: { max: 10, windowMs: 10 * 60_000 },
  resend: { max: 30, windowMs: 10 * 60_000 },
  replay: { max: 5, windowMs: 60 * 60_000 },
} as const;
export type WebhookAction = keyof typeof WEBHOOK_ACTION_LIMITS;

/** Deliveries one replay re-sends at most: the oldest failed ones since the chosen time. */
export const REPLAY_MAX_DELIVERIES = 100;

/** Activity slots of one webhook worker (WEBHOOK_WORKER_SLOTS): requests it has open at once. */
export const WEBHOOK_WORKER_SLOTS_DEFAULT = 32;
