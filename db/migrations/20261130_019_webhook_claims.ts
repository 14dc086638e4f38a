import type { Knex } from 'knex';

/**
 * Who holds an outbox row without a workflow, and until when: the process sending its first attempt directly
 * (services/webhook-direct.ts), or a sweeper starting its workflow. Taken atomically before either acts, so the
 * sweeper never starts a workflow for a row whose direct attempt is still in flight (a duplicate send); a
 * holder that dies leaves a lease that runs out, and the next sweep takes the row.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.timestamp('claimed_until', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_deliveries', (t) => {
    t.dropColumn('claimed_until');
  });
}
