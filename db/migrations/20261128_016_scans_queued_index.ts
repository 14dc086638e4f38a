import type { Knex } from 'knex';

/** The worker's metrics ask for each region's oldest queued scan on every scrape: a small partial index answers it. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index scans_queued_by_region on scans (region, requested_at) where status = 'queued'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index scans_queued_by_region');
}
