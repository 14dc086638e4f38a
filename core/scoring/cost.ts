/**
 * What a fault costs a visitor, and how a cost becomes a check's score. Every check that deducts states its
 * cost in bytes, milliseconds or layout shift (never a count of files) and turns it into a score with
 * `costScore`: 1 at no cost, 0.5 at the check's `halfAt`, falling smoothly towards 0. Small faults cost little
 * (one 1 KB file is a thousandth of a 1 MB half point), and more cost always scores lower.
 */

export const KB = 1024;
export const MB = 1024 * KB;

/** 1 at no cost, 0.5 when `cost` equals `halfAt`, 1/3 at twice `halfAt`; never below 0 or above 1. */
export function costScore(cost: number, halfAt: number): number {
  if (!(cost > 0)) return 1;
  return 1 / (1 + cost / halfAt);
}

/**
 * Lighthouse's estimate (its cache insight) of how likely a repeat visit finds a resource still in the
 * browser's cache, from its lifetime: the age of resources at cache-hit time in Chrome's usage data, at
 * each tenth percentile, interpolated. 0 for no lifetime, 0.6 for a day, 0.9 for a week, 1 for a year.
 */
const RESOURCE_AGE_IN_HOURS_DECILES = [0, 0.2, 1, 3, 8, 12, 24, 48, 72, 168, 8760, Infinity];
export function cacheHitProbability(lifetimeSeconds: number): number {
  const hours = lifetimeSeconds / 3600;
  const upper = RESOURCE_AGE_IN_HOURS_DECILES.findIndex((decile) => decile >= hours);
  if (upper === RESOURCE_AGE_IN_HOURS_DECILES.length - 1) return 1;
  if (upper <= 0) return 0;
  const [low, high] = [RESOURCE_AGE_IN_HOURS_DECILES[upper - 1]!, RESOURCE_AGE_IN_HOURS_DECILES[upper]!];
  return (upper - 1) / 10 + ((hours - low) / (high - low)) * 0.1;
}

/** The bytes a repeat visit downloads again because a resource's lifetime ran out (Lighthouse's wasted bytes). */
export const redownloadedBytes = (transferBytes: number, lifetimeSeconds: number): number =>
  transferBytes * (1 - cacheHitProbability(lifetimeSeconds));
