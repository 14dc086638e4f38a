import type { Knex } from 'knex';

/**
 * When the owner deleted the account (web/account/data-routes.ts). The row stays, signed out of everything and
 * without a password, until the account-deletion workflow (workflows/account-deletion.ts) has removed the rest
 * and finally the row itself.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('deleted_at', { useTz: true });
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('deleted_at');
  });
}
