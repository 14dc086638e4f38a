import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import type { AttemptSlotPool, WebhookAction } from '../../core/webhooks/limits.ts';

/** A slot of an account's webhook attempts, held until given back or until its lease runs out. */
export interface AttemptSlot {
  userId: number;
  slot: number;
  holder: string;
}

/** The queries behind core/webhooks/limits.ts (tables of migration 20261201_020_webhook_limits); part of the WebhookStore. */
export interface WebhookLimitQueries {
  /**
   * Takes one of the account's attempt slots of `pool` for `leaseMs` (on the database's clock, the same for
   * every process), or undefined when all are held. One statement per try: a slot nobody holds, or whose lease ran out.
   */
  takeAttemptSlot(userId: number, deliveryId: number, pool: AttemptSlotPool, leaseMs: number): Promise<AttemptSlot | undefined>;
  releaseAttemptSlot(slot: AttemptSlot): Promise<void>;
  /** Records one of the settings page's actions; its id (taken back by deleteAction when refused). */
  recordAction(userId: number, action: WebhookAction, at: Date): Promise<number>;
  deleteAction(id: number): Promise<void>;
  /** When the account's actions of this kind after `since` happened, newest first, at most `limit`. */
  actionTimes(userId: number, action: WebhookAction, since: Date, limit: number): Promise<Date[]>;
  /** Drops the account's records older than any window. */
  deleteActionsBefore(userId: number, before: Date): Promise<void>;
}

export function createWebhookLimitQueries(knex: Knex | Knex.Transaction): WebhookLimitQueries {
  const actions = () => knex('webhook_actions');
  return {
    async takeAttemptSlot(userId, deliveryId, { first, count: cap }, leaseMs) {
      const holder = randomBytes(9).toString('base64url');
      // Two takers can pick the same free slot: the second then waits for the first's insert and gets no row
      // (its lease is live). Another try sees that slot taken; `cap` tries always find a free one if any is left.
      for (let tries = 0; tries < cap; tries++) {
        const { rows } = (await knex.raw(
          `insert into webhook_attempt_slots (user_id, slot, holder, delivery_id, expires_at)
           select ?, s, ?, ?, now() + make_interval(secs => ?)
             from generate_series(?::int, ?::int) s
            where not exists (select 1 from webhook_attempt_slots w where w.user_id = ? and w.slot = s and w.expires_at > now())
            order by random() limit 1
           on conflict (user_id, slot) do update set holder = excluded.holder, delivery_id = excluded.delivery_id, expires_at = excluded.expires_at
            where webhook_attempt_slots.expires_at <= now()
           returning slot`,
          [userId, holder, deliveryId, leaseMs / 1000, first, first + cap - 1, userId],
        )) as { rows: Array<{ slot: number }> };
        if (rows[0]) return { userId, slot: rows[0].slot, holder };
        const { rows: counted } = (await knex.raw(`select count(*)::int as held from webhook_attempt_slots where user_id = ? and slot between ? and ? and expires_at > now()`, [userId, first, first + cap - 1])) as { rows: Array<{ held: number }> };
        if (counted[0]!.held >= cap) return undefined;
      }
      return undefined;
    },

    async releaseAttemptSlot({ userId, slot, holder }) {
      await knex('webhook_attempt_slots').where({ user_id: userId, slot, holder }).delete();
    },

    async recordAction(userId, action, at) {
      const [row] = await actions().insert({ user_id: userId, action, at }).returning<Array<{ id: number }>>('id');
      return Number(row!.id);
    },

    async deleteAction(id) {
      await actions().where({ id }).delete();
    },

    async actionTimes(userId, action, since, limit) {
      const rows = await actions()
        .where({ user_id: userId, action })
        .where('at', '>', since)
        .orderBy([{ column: 'at', order: 'desc' }, { column: 'id', order: 'desc' }])
        .limit(limit)
        .select<Array<{ at: Date }>>('at');
      return rows.map((row) => row.at);
    },

    async deleteActionsBefore(userId, before) {
      await actions().where({ user_id: userId }).where('at', '<', before).delete();
    },
  };
}
