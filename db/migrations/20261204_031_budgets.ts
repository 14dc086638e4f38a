import type { Knex } from 'knex';

/**
 * Performance budgets per target (core/monitoring/budgets.ts: per form factor the most a page metric may be,
 * per score the least), and their alert type metric_over_budget. Targets start without budgets (`{}`).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scan_targets', (t) => {
    t.jsonb('budgets').notNullable().defaultTo('{}');
  });
  await knex.raw('alter table alerts drop constraint alerts_type_check');
  await knex.raw(
    `alter table alerts add constraint alerts_type_check check (type in ('score_below_threshold', 'score_regression', 'metric_over_budget'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw(`delete from alerts where type = 'metric_over_budget'`);
  await knex.raw('alter table alerts drop constraint alerts_type_check');
  await knex.raw(
    `alter table alerts add constraint alerts_type_check check (type in ('score_below_threshold', 'score_regression'))`,
  );
  await knex.schema.alterTable('scan_targets', (t) => {
    t.dropColumn('budgets');
  });
}
