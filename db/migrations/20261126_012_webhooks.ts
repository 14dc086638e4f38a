import type { Knex } from 'knex';

/**
 * Outgoing webhooks (spec: Events, Delivery and retry). One endpoint per user (the notification settings),
 * an outbox of deliveries written in the same transaction as what they report, and every attempt at sending.
 * Secrets (the authentication header's value, the signing secrets) are encrypted (core/secrets.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('webhook_endpoints', (t) => {
    t.bigInteger('user_id').primary().references('users.id').onDelete('CASCADE');
    t.text('url');
    t.text('header_name');
    t.text('header_value_encrypted');
    t.specificType('events', 'text[]').notNullable().defaultTo('{}');
    t.text('secret_encrypted').notNullable();
    // After a rotation the previous secret keeps signing (a second signature) until it expires.
    t.text('previous_secret_encrypted');
    t.timestamp('previous_secret_expires_at', { useTz: true });
    // Since when every attempt failed (cleared by a success): 5 days of it disables the endpoint.
    t.timestamp('failing_since', { useTz: true });
    t.timestamp('disabled_at', { useTz: true });
    t.text('disabled_reason');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
  });
  await knex.schema.createTable('webhook_deliveries', (t) => {
    t.bigIncrements('id');
    // webhook-id: stable across retries and resends.
    t.text('message_id').notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('event').notNullable();
    t.jsonb('payload').notNullable();
    t.text('status').notNullable().defaultTo('pending');
    t.integer('webhook_attempts').notNullable().defaultTo(0);
    t.integer('webhook_response_code');
    t.text('webhook_last_error');
    // Set when a workflow was started for the row; the sweeper starts one for rows left without.
    t.timestamp('workflow_started_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('completed_at', { useTz: true });
    t.index(['user_id', 'id']);
  });
  await knex.raw(
    `alter table webhook_deliveries add constraint webhook_deliveries_status_check check (status in ('pending', 'succeeded', 'failed'))`,
  );
  await knex.raw(
    `create index webhook_deliveries_unstarted on webhook_deliveries (id) where workflow_started_at is null`,
  );
  await knex.schema.createTable('webhook_attempts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('delivery_id').notNullable().references('webhook_deliveries.id').onDelete('CASCADE');
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.integer('duration_ms').notNullable();
    t.integer('response_code');
    t.text('response_body');
    t.text('error');
    t.index(['delivery_id', 'id']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('webhook_attempts');
  await knex.schema.dropTable('webhook_deliveries');
  await knex.schema.dropTable('webhook_endpoints');
}
