/** Time is injected wherever a rule depends on it (daily limits, expiry), so tests move it instead of sleeping. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/**
 * Daily API counters reset at midnight UTC. The UTC calendar day of `now` and the moment of the next reset.
 */
export function utcDay(now: Date): { day: string; resetAt: Date } {
  const start = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return { day: new Date(start).toISOString().slice(0, 10), resetAt: new Date(start + 86_400_000) };
}

/** ISO 8601 with an explicit UTC offset, the spec's timestamp format. */
export function isoTimestamp(value: Date): string {
  return value.toISOString().replace(/\.\d{3}Z$/, '+00:00');
}
