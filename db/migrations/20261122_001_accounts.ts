import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('users', (t) => {
    t.bigIncrements('id');
    t.text('name').notNullable();
    t.text('email').notNullable();
    t.text('password_hash');
    t.text('plan').notNullable().defaultTo('free');
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.timestamp('updated_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
  });
  await knex.raw(
    `alter table users add constraint users_plan_check check (plan in ('free', 'starter', 'pro', 'agency'))`,
  );
  await knex.raw('create unique index users_email_unique on users (lower(email))');

  await knex.schema.createTable('api_tokens', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('prefix').notNullable();
    t.text('token_hash').notNullable().unique();
    t.timestamp('expires_at', { useTz: true });
    t.timestamp('last_used_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable().defaultTo(knex.fn.now());
    t.index(['user_id']);
  });

  await knex.schema.createTable('api_usage_daily', (t) => {
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.date('day').notNullable();
    t.integer('used').notNullable().defaultTo(0);
    t.primary(['user_id', 'day']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('api_usage_daily');
  await knex.schema.dropTable('api_tokens');
  await knex.schema.dropTable('users');
}
