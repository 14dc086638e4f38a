import type { Knex } from 'knex';

/**
 * Monitored scan targets (the spec's "domains"), each with its own Temporal Schedule (workflows/target-scan.ts),
 * and the link from a scan to the target that dispatched it. `thresholds`: core/monitoring/thresholds.ts.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_targets', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('host').notNullable();
    t.text('region').notNullable();
    t.text('schedule').notNullable().defaultTo('daily');
    t.boolean('is_active').notNullable().defaultTo(true);
    t.jsonb('thresholds').notNullable();
    t.timestamp('last_dispatched_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.unique(['user_id', 'url', 'region']);
    t.index(['user_id', 'id']);
  });
  await knex.raw(`alter table scan_targets add constraint scan_targets_schedule_check check (schedule in ('daily'))`);
  await knex.schema.alterTable('scans', (t) => {
    // Kept when the target goes: the scan stays in the owner's list, only the link is cleared.
    t.bigInteger('target_id').references('scan_targets.id').onDelete('SET NULL');
    // Page loads of the scan (median of runs); 1 for a single run.
    t.smallint('runs').notNullable().defaultTo(1);
    t.index(['target_id', 'status', 'finished_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('runs');
    t.dropColumn('target_id');
  });
  await knex.schema.dropTable('scan_targets');
}
