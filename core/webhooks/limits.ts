/**
 * Per-account limits on webhooks: the one place their numbers live (documented in the Webhooks section).
 * They keep one account's slow or failing receiver, or its clicks on the settings page, from taking the
 * webhook worker's slots and Temporal's time from every other account.
 */

/** Attempts of one account's deliveries sent at once, over every process (direct first attempts and the webhook worker). */
export const ATTEMPTS_IN_FLIGHT_PER_ACCOUNT = 4;

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
