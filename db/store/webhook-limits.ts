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
   * every process), or undefined when all are held: a slot nobody holds, or whose lease ran out. One statement
   * (three when none is free, the first time an account's pool is used or when all are held).
   */
  takeAttemptSlot(
    userId: number,
    deliveryId: number,
    pool: AttemptSlotPool,
    leaseMs: number,
  ): Promise<AttemptSlot | undefined>;
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
    async takeAttemptSlot(userId, deliveryId, { first, count }, leaseMs) {
      const holder = randomBytes(9).toString('base64url');
      const last = first + count - 1;
      // The account's slot rows are made the first time (free: expired at -infinity) and kept. A free one is
      // taken with SKIP LOCKED: concurrent takers never wait on each other (nor hold a pooled connection
      // waiting), and never take the same slot.
      for (let made = false; ; made = true) {
        const { rows } = (await knex.raw(
          `update webhook_attempt_slots set holder = ?, delivery_id = ?, expires_at = now() + make_interval(secs => ?)
            where (user_id, slot) = (select user_id, slot from webhook_attempt_slots
                                      where user_id = ? and slot between ? and ? and expires_at <= now()
                                      order by slot limit 1 for update skip locked)
           returning slot`,
          [holder, deliveryId, leaseMs / 1000, userId, first, last],
        )) as { rows: Array<{ slot: number }> };
        if (rows[0]) return { userId, slot: rows[0].slot, holder };
        if (made) return undefined;
        // Made here or by a concurrent taker (this insert then waits for its commit): either way, they exist now.
        await knex.raw(
          `insert into webhook_attempt_slots (user_id, slot, holder, delivery_id, expires_at)
           select ?, s, '', 0, '-infinity' from generate_series(?::int, ?::int) s
           on conflict (user_id, slot) do nothing`,
          [userId, first, last],
        );
      }
    },

    async releaseAttemptSlot({ userId, slot, holder }) {
      await knex('webhook_attempt_slots')
        .where({ user_id: userId, slot, holder })
        .update({ expires_at: '-infinity', holder: '' });
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
        .orderBy([
          { column: 'at', order: 'desc' },
          { column: 'id', order: 'desc' },
        ])
        .limit(limit)
        .select<Array<{ at: Date }>>('at');
      return rows.map((row) => row.at);
    },

    async deleteActionsBefore(userId, before) {
      await actions().where({ user_id: userId }).where('at', '<', before).delete();
    },
  };
}
