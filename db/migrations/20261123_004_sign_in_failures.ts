import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // One row per failed sign-in, kept only as long as the throttle looks back (services/sign-in-throttle.ts).
  await knex.schema.createTable('sign_in_failures', (t) => {
    t.bigIncrements('id');
    // SHA-256 of the lower-cased e-mail: the table tells nobody which addresses were tried.
    t.text('email_hash').notNullable();
    t.text('ip').notNullable();
    t.timestamp('failed_at', { useTz: true }).notNullable();
    t.index(['email_hash', 'failed_at']);
    t.index(['ip', 'failed_at']);
    t.index(['failed_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_in_failures');
}
