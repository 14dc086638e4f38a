import type { Knex } from 'knex';

/**
 * The settings area: web sessions get a row id (to sign one out without its cookie), when they were last used
 * (written at most every few minutes) and the browser's user agent (truncated); API tokens get a purpose, so
 * the API reference's one-hour tokens stay out of the user's token list; and per-user e-mail preferences per
 * kind of alert (a missing row means the e-mail is wanted).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('web_sessions', (t) => {
    t.bigIncrements('id', { primaryKey: false }).unique();
    t.timestamp('last_seen_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.string('user_agent', 200);
  });
  await knex.raw('update web_sessions set last_seen_at = created_at');
  await knex.schema.alterTable('api_tokens', (t) => {
    t.text('purpose').notNullable().defaultTo('personal');
  });
  await knex.raw(
    `alter table api_tokens add constraint api_tokens_purpose_check check (purpose in ('personal', 'docs'))`,
  );
  await knex.schema.createTable('email_preferences', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('kind').notNullable();
    t.boolean('enabled').notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.primary(['user_id', 'kind']);
  });
  await knex.raw(
    `alter table email_preferences add constraint email_preferences_kind_check check (kind in ('target_alerts', 'live_alerts'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('email_preferences');
  await knex.schema.alterTable('api_tokens', (t) => {
    t.dropColumn('purpose');
  });
  await knex.schema.alterTable('web_sessions', (t) => {
    t.dropColumn('user_agent');
    t.dropColumn('last_seen_at');
    t.dropColumn('id');
  });
}
