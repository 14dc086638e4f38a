import type { Knex } from 'knex';
import { preparedQuery } from '../prepared.ts';

export interface UsageStore {
  /**
   * Adds one call to the user's count for `day` unless the count has reached `limit` (ignored when
   * `unlimited`): the new count, or null when refused. One prepared upsert whose row lock queues concurrent calls.
   */
  countCall(userId: number, day: string, limit: number, unlimited: boolean): Promise<number | null>;
  usedOn(userId: number, day: string): Promise<number>;
}

const COUNT_API_CALL = `insert into api_usage_daily (user_id, day, used) values ($1, $2, 1)
  on conflict (user_id, day) do update set used = api_usage_daily.used + 1
  where $3 or api_usage_daily.used < $4
  returning used`;

/** Every query on `api_usage_daily`; built on the counter's own pool (db/knex.ts createCounterKnex). */
export function createUsageStore(knex: Knex): UsageStore {
  return {
    async countCall(userId, day, limit, unlimited) {
      const [row] = await preparedQuery<{ used: number }>(knex, 'count-api-call', COUNT_API_CALL, [
        userId,
        day,
        unlimited,
        limit,
      ]);
      return row ? row.used : null;
    },

    async usedOn(userId, day) {
      const row = await knex('api_usage_daily')
        .where({ user_id: userId, day })
        .first<{ used: number } | undefined>('used');
      return row?.used ?? 0;
    },
  };
}
