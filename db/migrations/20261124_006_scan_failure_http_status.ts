import type { Knex } from 'knex';

/**
 * Users see a failed scan's localised message, built from its code and this status (`http_error` names the
 * status of the main document); `failure_message` keeps the operators' detail, which is never shown.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.smallint('failure_http_status');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('failure_http_status');
  });
}
