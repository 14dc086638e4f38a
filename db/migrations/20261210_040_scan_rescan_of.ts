import type { Knex } from 'knex';

/**
 * The scan a report's "Scan again" was pressed on: the new scan's report and the API's `previous` compare it
 * with that scan rather than with whichever scan of the address finished last (services/scan-comparison.ts).
 * Null for every other scan, and once that scan is deleted. The partial index keeps deleting a scan (an account's
 * deletion removes thousands) from scanning the table for rows that point at it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.bigInteger('rescan_of').references('id').inTable('scans').onDelete('SET NULL');
  });
  await knex.raw('create index scans_rescan_of on scans (rescan_of) where rescan_of is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('rescan_of');
  });
}
