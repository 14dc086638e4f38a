import type { Knex } from 'knex';

/**
 * Score alerts of monitored targets. Title and message are rendered in the reader's language from `type`,
 * `severity` and `details` (core/i18n/alerts.ts), so one row serves English and German readers.
 * At most one unresolved alert per target and type (dismissed or not): a worse score escalates that one.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('alerts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // Alerts outlive their target (history); url, host and region are copied from it.
    t.bigInteger('target_id').references('scan_targets.id').onDelete('SET NULL');
    t.text('type').notNullable();
    t.text('severity').notNullable();
    t.jsonb('details').notNullable();
    t.text('url').notNullable();
    t.text('host').notNullable();
    t.text('region').notNullable();
    // The scan the title and message describe: the one that raised the alert, then the one that escalated it
    // (the resolving scan has its own column since 20261125_010).
    t.text('scan_public_id').notNullable();
    t.boolean('is_read').notNullable().defaultTo(false);
    t.boolean('is_dismissed').notNullable().defaultTo(false);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('dismissed_at', { useTz: true });
    // When the e-mail about raising (then resolving) it was accepted by the SMTP server.
    t.timestamp('raised_emailed_at', { useTz: true });
    t.timestamp('resolved_emailed_at', { useTz: true });
    t.index(['user_id', 'id']);
  });
  await knex.raw(`alter table alerts add constraint alerts_severity_check check (severity in ('warning', 'critical'))`);
  await knex.raw(
    `alter table alerts add constraint alerts_type_check check (type in ('score_below_threshold', 'score_regression'))`,
  );
  await knex.raw(
    `create unique index alerts_one_unresolved_per_target_type on alerts (target_id, type) where resolved_at is null and target_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('alerts');
}
