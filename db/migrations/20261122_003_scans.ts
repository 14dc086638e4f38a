import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scans', (t) => {
    t.bigIncrements('id');
    t.text('public_id').notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('url').notNullable();
    t.text('host').notNullable();
    t.text('region').notNullable();
    t.boolean('is_public').notNullable().defaultTo(false);
    t.text('status').notNullable().defaultTo('queued');
    t.text('auth_type');
    // Encrypted credentials of an authenticated scan; cleared when the scan ends.
    t.text('auth_secret');
    // sha256(owner, url, region); null for authenticated scans, which are never reused.
    t.text('cache_key');
    t.text('share_token').unique();
    t.boolean('share_enabled').notNullable().defaultTo(false);
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.text('failure_code');
    t.text('failure_message');
    t.jsonb('result');
    t.index(['user_id', 'id']);
    t.index(['user_id', 'requested_at']);
    t.index(['cache_key', 'status', 'finished_at']);
  });
  await knex.raw(
    `alter table scans add constraint scans_status_check check (status in ('queued', 'running', 'finished', 'failed'))`,
  );
  await knex.raw(
    `alter table scans add constraint scans_auth_type_check check (auth_type is null or auth_type in ('basic', 'header'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scans');
}
