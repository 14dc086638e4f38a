import type { Knex } from 'knex';

/**
 * Upgrade requests sent from the plan page (/settings/plan) to the operators, counted in a sliding window per
 * account (services/plan-requests.ts) so that one account cannot flood the operators' mailbox.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('plan_requests', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('plan').notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.index(['user_id', 'requested_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('plan_requests');
}
