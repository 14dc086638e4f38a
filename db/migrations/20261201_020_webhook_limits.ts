import type { Knex } from 'knex';

/**
 * Per-account webhook limits (core/webhooks/limits.ts). `webhook_attempt_slots`: one row per account and slot
 * number of its pools (made when first needed), held by an attempt until `expires_at` and given back after
 * it (-infinity); a holder that dies leaves a lease that runs out. `webhook_actions`: the settings page's test
 * events, resends and replays, counted in a sliding window.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_attempt_slots', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.smallint('slot').notNullable();
    t.text('holder').notNullable();
    t.bigInteger('delivery_id').notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.primary(['user_id', 'slot']);
  });
  await knex.schema.createTable('webhook_actions', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('action').notNullable();
    t.timestamp('at', { useTz: true }).notNullable();
    t.index(['user_id', 'action', 'at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_actions');
  await knex.schema.dropTable('webhook_attempt_slots');
}
