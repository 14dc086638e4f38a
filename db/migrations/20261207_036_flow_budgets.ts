import type { Knex } from 'knex';

/**
 * Flow step budgets (core/flows/flow-budgets.ts) and their alerts: `flows.budgets` (step index → budgets, `{}`
 * by default), and `alerts.flow_id`, the monitored flow a metric_over_budget alert is about (its `target_id` is
 * null). At most one unresolved alert per flow and type, as per target; an alert outlives its flow.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('flows', (t) => {
    t.jsonb('budgets').notNullable().defaultTo('{}');
  });
  await knex.schema.alterTable('alerts', (t) => {
    t.bigInteger('flow_id').references('flows.id').onDelete('SET NULL');
  });
  await knex.raw(
    `create unique index alerts_one_unresolved_per_flow_type on alerts (flow_id, type) where resolved_at is null and flow_id is not null`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index if exists alerts_one_unresolved_per_flow_type');
  await knex.raw('delete from alerts where flow_id is not null');
  await knex.schema.alterTable('alerts', (t) => {
    t.dropColumn('flow_id');
  });
  await knex.schema.alterTable('flows', (t) => {
    t.dropColumn('budgets');
  });
}
