import type { Knex } from 'knex';

const PURPOSES = ['password_reset', 'email_verify', 'email_change'];

const purposeCheck = (purposes: string[]) =>
  `alter table account_links add constraint account_links_purpose_check check (purpose in (${purposes.map((p) => `'${p}'`).join(', ')}))`;

/**
 * When each account's password was last set (an e-mail change link made before it no longer works), and the
 * "cancel this change" link the old address gets with the notice of an e-mail change (services/account-mail.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('users', (t) => {
    t.timestamp('password_changed_at', { useTz: true }).nullable();
  });
  await knex.raw('alter table account_links drop constraint account_links_purpose_check');
  await knex.raw(purposeCheck([...PURPOSES, 'email_change_cancel']));
  await knex.schema.alterTable('account_links', (t) => {
    t.index(['user_id', 'purpose']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('account_links', (t) => {
    t.dropIndex(['user_id', 'purpose']);
  });
  await knex('account_links').where({ purpose: 'email_change_cancel' }).delete();
  await knex.raw('alter table account_links drop constraint account_links_purpose_check');
  await knex.raw(purposeCheck(PURPOSES));
  await knex.schema.alterTable('users', (t) => {
    t.dropColumn('password_changed_at');
  });
}
