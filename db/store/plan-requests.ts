import type { Knex } from 'knex';

/** Every query on `plan_requests`: the plan page's upgrade requests, counted per account in a sliding window. */
export interface PlanRequestStore {
  /** Records one request; its id (taken back by remove when refused or when the mail could not be sent). */
  record(userId: number, plan: string, at: Date): Promise<number>;
  remove(id: number): Promise<void>;
  /** When the account's requests after `since` were made, newest first, at most `limit`. */
  timesSince(userId: number, since: Date, limit: number): Promise<Date[]>;
  /** Drops the account's requests made before `before` (they can no longer count). */
  deleteBefore(userId: number, before: Date): Promise<void>;
}

export function createPlanRequestStore(knex: Knex): PlanRequestStore {
  const requests = () => knex('plan_requests');
  return {
    async record(userId, plan, at) {
      const [row] = await requests()
        .insert({ user_id: userId, plan, requested_at: at })
        .returning<Array<{ id: number }>>('id');
      return Number(row!.id);
    },

    async remove(id) {
      await requests().where({ id }).delete();
    },

    async timesSince(userId, since, limit) {
      const rows = await requests()
        .where({ user_id: userId })
        .where('requested_at', '>', since)
        .orderBy([
          { column: 'requested_at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select<Array<{ requested_at: Date }>>('requested_at');
      return rows.map((row) => row.requested_at);
    },

    async deleteBefore(userId, before) {
      await requests().where({ user_id: userId }).where('requested_at', '<', before).delete();
    },
  };
}
