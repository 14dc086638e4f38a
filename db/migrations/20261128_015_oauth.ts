import type { Knex } from 'knex';

/**
 * OAuth 2.1 (oauth/): the authorization server's artifacts and the apps a user authorised.
 * - oauth_artifacts: everything oidc-provider stores (clients, grants, codes, access and refresh tokens,
 *   interactions, sessions), one row per artifact, keyed by a SHA-256 of its id: a token or code value is
 *   never stored. grant_id lets a grant's revocation delete all it issued in one statement; account_id
 *   (grants) lists a user's grants. consumed_at is set once, atomically (codes, refresh tokens).
 * - oauth_apps: one row per grant, with what the API and apps page shows (the app's name and host as they
 *   were at consent, whether it was identified by a metadata document, when it was last used).
 * - oauth_registration_attempts: dynamic client registrations per client address (the throttle).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('oauth_artifacts', (t) => {
    t.text('model').notNullable();
    t.text('key_hash').notNullable();
    t.text('grant_id');
    t.bigInteger('account_id').references('users.id').onDelete('CASCADE');
    t.text('uid');
    t.jsonb('payload').notNullable();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('consumed_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['model', 'key_hash']);
    t.index(['grant_id']);
    t.index(['expires_at']);
  });
  await knex.raw(`create index oauth_artifacts_uid on oauth_artifacts (model, uid) where uid is not null`);
  await knex.schema.createTable('oauth_apps', (t) => {
    t.text('grant_id').primary();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('client_id').notNullable();
    t.text('name').notNullable();
    t.text('client_host').notNullable();
    t.boolean('verified').notNullable();
    t.specificType('scopes', 'text[]').notNullable();
    t.timestamp('authorised_at', { useTz: true }).notNullable();
    t.timestamp('last_used_at', { useTz: true });
    t.index(['user_id', 'authorised_at']);
  });
  await knex.schema.createTable('oauth_registration_attempts', (t) => {
    t.bigIncrements('id');
    t.text('ip').notNullable();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.index(['ip', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('oauth_registration_attempts');
  await knex.schema.dropTable('oauth_apps');
  await knex.schema.dropTable('oauth_artifacts');
}
