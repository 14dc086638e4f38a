import type { Knex } from 'knex';

/**
 * Verified e-mail addresses and the one-use links of account mail (services/account-mail.ts): password reset,
 * e-mail verification, e-mail change. Accounts that existed before verification was required predate the rule
 * and are marked verified as of their creation.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('email_verified_at', { useTz: true }).nullable();
  });
  await knex('users').update({ email_verified_at: knex.ref('created_at') });

  // Only the SHA-256 of each link's token is kept, as for sessions; a used link keeps its row until it expires.
  await knex.schema.createTable('account_links', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('id').inTable('users').onDelete('CASCADE');
    t.text('purpose').notNullable();
    t.text('token_hash').notNullable().unique();
    // The address an e-mail change moves to (null for the other purposes).
    t.text('new_email').nullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('expires_at', { useTz: true }).notNullable();
    t.timestamp('used_at', { useTz: true }).nullable();
    t.index(['expires_at']);
  });
  await knex.raw(
    `alter table account_links add constraint account_links_purpose_check check (purpose in ('password_reset', 'email_verify', 'email_change'))`,
  );

  // The account-mail throttle's uses (services/account-mail-throttle.ts): a key is a hashed address or a client's IP.
  await knex.schema.createTable('account_mail_requests', (t) => {
    t.bigIncrements('id');
    t.text('key').notNullable();
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.index(['key', 'requested_at']);
    t.index(['requested_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('account_mail_requests');
  await knex.schema.dropTable('account_links');
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('email_verified_at');
  });
}
