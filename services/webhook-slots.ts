import { ATTEMPT_SLOT_LEASE_MS, type AttemptSlotPool } from '../core/webhooks/limits.ts';
import type { WebhookLimitQueries } from '../db/store/webhook-limits.ts';

/**
 * Runs `attempt` in one of the account's attempt slots of `pool` (ATTEMPT_SLOT_POOLS, over every process),
 * given back however it ends; `busy` without running it when every slot is held.
 */
export async function inAttemptSlot<T>(
  slots: Pick<WebhookLimitQueries, 'takeAttemptSlot' | 'releaseAttemptSlot'>,
  pool: AttemptSlotPool,
  delivery: { id: number; userId: number },
  attempt: () => Promise<T>,
): Promise<{ busy: true } | { busy: false; result: T }> {
  const slot = await slots.takeAttemptSlot(delivery.userId, delivery.id, pool, ATTEMPT_SLOT_LEASE_MS);
  if (!slot) return { busy: true };
  try {
    return { busy: false, result: await attempt() };
  } finally {
    // A failed release leaves the lease to run out (the account is then slower for a minute, never over its cap).
    await slots.releaseAttemptSlot(slot).catch(() => undefined);
  }
}
