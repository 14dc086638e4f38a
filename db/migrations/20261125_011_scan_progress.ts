import type { Knex } from 'knex';

/** What a running scan is doing (`desktop`, `mobile`, `desktop 2/3`), for the progress page; cleared when it ends. */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.text('progress');
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('progress');
  });
}
