import type { Knex } from 'knex';
import { change as changeAllowedValue } from './20261204_032_confirmed_regressions.ts';

/**
 * The `flow_failed` alert type (core/monitoring/flow-failure-rules.ts): a run of a monitored flow failed. It uses
 * the flow columns and the "one unresolved alert per flow and type" index of the flow budgets' migration.
 */
export async function up(knex: Knex): Promise<void> {
  await changeAllowedValue(knex, 'alerts', 'type', 'flow_failed', true);
}

export async function down(knex: Knex): Promise<void> {
  await knex('alerts').where({ type: 'flow_failed' }).delete();
  await changeAllowedValue(knex, 'alerts', 'type', 'flow_failed', false);
}
