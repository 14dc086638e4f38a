import type { Knex } from 'knex';

/**
 * User flows (docs/flows.md): a flow's definition (its steps as the API takes them), its secrets (encrypted
 * with the `flow-secrets` key, bound to flow and name), its runs and each run's measured steps. Everything
 * cascades from the account; a run's images live in the asset store under the run's public id.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('flows', (t) => {
    t.bigIncrements('id');
    t.text('public_id').notNullable().unique();
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('form_factor').notNullable();
    t.jsonb('steps').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'id']);
  });
  await knex.raw(
    `alter table flows add constraint flows_form_factor_check check (form_factor in ('desktop', 'mobile'))`,
  );
  await knex.schema.createTable('flow_secrets', (t) => {
    t.bigInteger('flow_id').notNullable().references('flows.id').onDelete('CASCADE');
    t.text('name').notNullable();
    t.text('kind').notNullable();
    t.text('value_encrypted').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.primary(['flow_id', 'name']);
  });
  await knex.raw(
    `alter table flow_secrets add constraint flow_secrets_kind_check check (kind in ('password', 'totp'))`,
  );
  await knex.schema.createTable('flow_runs', (t) => {
    t.bigIncrements('id');
    t.text('public_id').notNullable().unique();
    t.bigInteger('flow_id').notNullable().references('flows.id').onDelete('CASCADE');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    t.text('region').notNullable();
    t.text('status').notNullable();
    t.text('trigger').notNullable();
    // The definition the run measured, so a later edit of the flow does not rename its steps.
    t.jsonb('definition').notNullable();
    t.jsonb('failure');
    t.text('lighthouse_version');
    t.text('chromium_version');
    t.timestamp('requested_at', { useTz: true }).notNullable();
    t.timestamp('started_at', { useTz: true });
    t.timestamp('finished_at', { useTz: true });
    t.index(['flow_id', 'id']);
    t.index(['user_id', 'status']);
  });
  await knex.raw(
    `alter table flow_runs add constraint flow_runs_status_check check (status in ('queued', 'running', 'finished', 'failed'))`,
  );
  await knex.schema.createTable('flow_run_steps', (t) => {
    t.bigInteger('run_id').notNullable().references('flow_runs.id').onDelete('CASCADE');
    t.integer('index').notNullable();
    t.text('mode').notNullable();
    t.text('name').notNullable();
    t.text('url').notNullable();
    t.jsonb('scores').notNullable();
    t.jsonb('metrics').notNullable();
    t.jsonb('findings').notNullable();
    t.text('screenshot');
    t.primary(['run_id', 'index']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('flow_run_steps');
  await knex.schema.dropTable('flow_runs');
  await knex.schema.dropTable('flow_secrets');
  await knex.schema.dropTable('flows');
}
