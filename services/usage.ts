import type { Knex } from 'knex';
import { utcDay } from '../core/clock.ts';
import { isUnlimited, type Plan } from '../core/plans.ts';
import { preparedQuery } from '../db/prepared.ts';

export interface DailyUsage {
  allowed: boolean;
  used: number;
  /** -1 when unlimited. */
  limit: number;
  resetAt: Date;
}

const COUNT_API_CALL = `insert into api_usage_daily (user_id, day, used) values ($1, $2, 1)
  on conflict (user_id, day) do update set used = api_usage_daily.used + 1
  where $3 or api_usage_daily.used < $4
  returning used`;

/**
 * Counts one API call against the user's daily limit, atomically: the row lock taken by the upsert makes
 * concurrent calls queue, and the WHERE clause refuses the increment once the limit is reached, so the
 * counter never passes the limit and exactly `limit` calls succeed. Refused calls are not counted.
 */
export async function countApiCall(knex: Knex, userId: number, plan: Plan, now: Date): Promise<DailyUsage> {
  const { day, resetAt } = utcDay(now);
  const limit = plan.apiDailyLimit;
  const unlimited = isUnlimited(limit);
  if (limit === 0) return { allowed: false, used: await usedToday(knex, userId, now), limit, resetAt };
  const [row] = await preparedQuery<{ used: number }>(knex, 'count-api-call', COUNT_API_CALL, [userId, day, unlimited, limit]);
  if (row) return { allowed: true, used: row.used, limit, resetAt };
  return { allowed: false, used: await usedToday(knex, userId, now), limit, resetAt };
}

export async function usedToday(knex: Knex, userId: number, now: Date): Promise<number> {
  const row = await knex('api_usage_daily').where({ user_id: userId, day: utcDay(now).day }).first<{ used: number } | undefined>('used');
  return row?.used ?? 0;
}
