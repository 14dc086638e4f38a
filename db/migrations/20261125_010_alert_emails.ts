import type { Knex } from 'knex';

/**
 * Alerts: the escalation (warning → critical) gets its own time and e-mail record, and the scan that resolved
 * an alert is kept beside the one its title and message describe (`scan_public_id`: the raising scan, then the
 * escalating one). Each e-mail is sent at most once per alert and change (raised, escalated, resolved).
 * Users: the language of their e-mails (`en` or `de`; null reads as English).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('alerts', (t) => {
    t.timestamp('escalated_at', { useTz: true });
    t.timestamp('escalated_emailed_at', { useTz: true });
    t.text('resolved_scan_public_id');
    t.index(['target_id', 'id']);
  });
  await knex.schema.alterTable('users', (t) => {
    t.text('locale');
  });
  await knex.raw(
    `alter table users add constraint users_locale_check check (locale is null or locale in ('en', 'de'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropChecks(['users_locale_check']);
    t.dropColumn('locale');
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.dropIndex(['target_id', 'id']);
    t.dropColumn('resolved_scan_public_id');
    t.dropColumn('escalated_emailed_at');
    t.dropColumn('escalated_at');
  });
}
