import { utcDay } from '../core/clock.ts';
import { isUnlimited, type Plan } from '../core/plans.ts';
import type { UsageStore } from '../db/store/usage.ts';

export interface DailyUsage {
  allowed: boolean;
  used: number;
  /** -1 when unlimited. */
  limit: number;
  resetAt: Date;
}

/**
 * Counts one API call against the user's daily limit, atomically: the row lock taken by the upsert makes
 * concurrent calls queue, and the WHERE clause refuses the increment once the limit is reached, so the
 * counter never passes the limit and exactly `limit` calls succeed. Refused calls are not counted.
 */
export async function countApiCall(usage: UsageStore, userId: number, plan: Plan, now: Date): Promise<DailyUsage> {
  const { day, resetAt } = utcDay(now);
  const limit = plan.apiDailyLimit;
  if (limit === 0) return { allowed: false, used: await usage.usedOn(userId, day), limit, resetAt };
  const used = await usage.countCall(userId, day, limit, isUnlimited(limit));
  if (used !== null) return { allowed: true, used, limit, resetAt };
  return { allowed: false, used: await usage.usedOn(userId, day), limit, resetAt };
}

/** The day's usage without counting a call (MCP's handshake and tool listing are free). */
export async function peekApiUsage(usage: UsageStore, userId: number, plan: Plan, now: Date): Promise<DailyUsage> {
  const { day, resetAt } = utcDay(now);
  const used = await usage.usedOn(userId, day);
  return {
    allowed: isUnlimited(plan.apiDailyLimit) || used < plan.apiDailyLimit,
    used,
    limit: plan.apiDailyLimit,
    resetAt,
  };
}
