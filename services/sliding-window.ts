/** The rows of one sliding-window counter (one key: an address, an account's action), kept by a store. */
export interface WindowCounter {
  /** Records one use at `at`; its id. */
  record(at: Date): Promise<number>;
  remove(id: number): Promise<void>;
  /** The times of the newest uses after `since`, newest first, at most `limit`. */
  timesSince(since: Date, limit: number): Promise<Date[]>;
  /** Drops uses older than `before` (they can no longer count). */
  trimBefore(before: Date): Promise<void>;
}

export type WindowSlot = { kind: 'counted'; id: number } | { kind: 'throttled'; until: Date };

/**
 * Counts one use against at most `max` per `windowMs`. The use is recorded before counting, so parallel
 * requests see each other and never more than `max` pass; a refused one is taken back, so refusals do not
 * extend the wait. `until`: when the oldest counted use leaves the window.
 */
export async function countInWindow(
  counter: WindowCounter,
  limit: { max: number; windowMs: number },
  now: Date,
  trimBefore: Date = new Date(now.getTime() - limit.windowMs),
): Promise<WindowSlot> {
  const id = await counter.record(now);
  const times = await counter.timesSince(new Date(now.getTime() - limit.windowMs), limit.max + 1);
  if (times.length <= limit.max) {
    await counter.trimBefore(trimBefore);
    return { kind: 'counted', id };
  }
  await counter.remove(id);
  return { kind: 'throttled', until: new Date(times.at(-1)!.getTime() + limit.windowMs) };
}
