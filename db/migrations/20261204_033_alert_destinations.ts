import type { Knex } from 'knex';

/**
 * Chat destinations for alerts (Slack and Microsoft Teams incoming webhooks), beside the signed webhook: per
 * user, optionally for one target only. The URL is a credential: stored encrypted (core/secrets.ts), with a
 * short hint that the settings page shows instead. Their deliveries are rows of the same outbox
 * (webhook_deliveries) with `destination_id` set and the chat notice they are built from (`chat_notice`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alert_destinations', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Null: every alert of the account; else only this target's score alerts.
    t.bigInteger('target_id').references('scan_targets.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.text('url_encrypted').notNullable();
    t.text('url_hint').notNullable();
    t.timestamp('disabled_at', { useTz: true });
    t.text('disabled_reason');
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'id']);
  });
  await knex.raw(
    `alter table alert_destinations add constraint alert_destinations_kind_check check (kind in ('slack', 'teams'))`,
  );
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.bigInteger('destination_id').references('alert_destinations.id').onDelete('CASCADE');
    t.jsonb('chat_notice');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('chat_notice');
    t.dropColumn('destination_id');
  });
  await knex.schema.dropTable('alert_destinations');
}
