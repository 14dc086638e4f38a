import type { Knex } from 'knex';

/**
 * A live-data site reached its monthly page-view limit: when (the site page shows it) and whether the owner's
 * e-mail went out. One row per site and UTC month, so the e-mail is sent once per month however many ingest
 * instances see the limit; `email_claimed_until` is the lease of the instance sending it (a dead sender's
 * lease runs out and another takes over).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rum_limit_notices', (t) => {
    t.bigInteger('site_id').notNullable().references('id').inTable('rum_sites').onDelete('CASCADE');
    t.string('month', 7).notNullable();
    t.timestamp('reached_at', { useTz: true }).notNullable();
    t.timestamp('email_claimed_until', { useTz: true });
    t.timestamp('emailed_at', { useTz: true });
    t.primary(['site_id', 'month']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rum_limit_notices');
}
