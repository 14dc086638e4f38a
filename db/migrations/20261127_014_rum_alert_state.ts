import type { Knex } from 'knex';

/**
 * What the live-data alert check (services/rum-alert-check.ts) keeps besides rum_alerts' own columns: the
 * metric a triggered alert fired on (auto mode watches three; its resolution is judged and reported on that
 * one) and when the resolution e-mail was accepted (`emailed_at` is the trigger's).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rum_alerts', (t) => {
    t.text('triggered_metric');
    t.timestamp('resolved_emailed_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('rum_alerts', (t) => {
    t.dropColumn('triggered_metric');
    t.dropColumn('resolved_emailed_at');
  });
}
