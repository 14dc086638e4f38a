import type { Knex } from 'knex';

/**
 * What started each scan (core/scan/scan.ts ScanTrigger): `request` (POST /scans, from the API or the web
 * form), `schedule` (a target's daily schedule) or `run_now` (a target's "Run now"). The lists tell scheduled
 * scans from on-demand ones by it, and the hourly scan limit counts every scan but the scheduled ones. Scans of
 * targets stored before it were all scheduled.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.text('trigger').notNullable().defaultTo('request');
  });
  await knex.raw(
    `alter table scans add constraint scans_trigger_check check (trigger in ('request', 'schedule', 'run_now'))`,
  );
  await knex('scans').whereNotNull('target_id').update({ trigger: 'schedule' });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('trigger');
  });
}
