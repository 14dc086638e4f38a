import type { Knex } from 'knex';

/** The compare page learns a URL's noise band from the account's latest finished scans of that URL. */
export async function up(knex: Knex): Promise<void> {
  await knex.raw(`create index scans_finished_by_url on scans (user_id, url, id) where status = 'finished'`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index scans_finished_by_url');
}
