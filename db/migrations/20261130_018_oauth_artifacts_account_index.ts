import type { Knex } from 'knex';

/**
 * oauth_artifacts.account_id (grants, tokens) references users with ON DELETE CASCADE and is how a user's
 * grants are found: without an index, deleting a user scans every artifact. Partial: most artifacts
 * (clients, interactions, sessions) have none.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.raw('create index oauth_artifacts_account on oauth_artifacts (account_id) where account_id is not null');
}

export async function down(knex: Knex): Promise<void> {
  await knex.raw('drop index oauth_artifacts_account');
}
