import type { Knex } from 'knex';

/**
 * Monitored flows (docs/flows.md#monitoring): `monitored` keeps a daily Temporal Schedule for the flow, and a run
 * says what started it (`api`, `web`, or `schedule`). Finished runs of a flow are read over time for its history.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('flows', (t) => {
    t.boolean('monitored').notNullable().defaultTo(false);
  });
  await knex.raw(`create index flows_monitored on flows (id) where monitored`);
  await knex.raw(
    `alter table flow_runs add constraint flow_runs_trigger_check check (trigger in ('api', 'web', 'schedule'))`,
  );
  await knex.raw(`create index flow_runs_history on flow_runs (flow_id, finished_at) where status = 'finished'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists flow_runs_history');
  await knex.raw('alter table flow_runs drop constraint if exists flow_runs_trigger_check');
  await knex.raw('drop index if exists flows_monitored');
  await knex.schema.alterTable('flows', (t) => {
    t.dropColumn('monitored');
  });
}
