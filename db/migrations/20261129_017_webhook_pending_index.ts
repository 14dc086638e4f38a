import type { Knex } from 'knex';

/** The worker's metrics count pending webhook deliveries on every scrape: a partial index keeps that cheap. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index webhook_deliveries_pending on webhook_deliveries (id) where status = 'pending'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index webhook_deliveries_pending');
}
