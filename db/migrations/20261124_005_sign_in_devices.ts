import type { Knex } from 'knex';

export async function up(knex: Knex): Promise<void> {
  // The device cookie a failed attempt came with (SHA-256 of its id), or null for a browser without one:
  // failures of trusted devices are counted per device, the others per e-mail and per address
  // (services/sign-in-throttle.ts).
  await knex.schema.alterTable('sign_in_failures', (t) => {
    t.text('device');
    t.index(['device', 'failed_at']);
  });
  // One row per sign-up that got as far as hashing its password, kept for the throttle's window
  // (services/sign-up-throttle.ts).
  await knex.schema.createTable('sign_up_attempts', (t) => {
    t.bigIncrements('id');
    t.text('ip').notNullable();
    t.timestamp('attempted_at', { useTz: true }).notNullable();
    t.index(['ip', 'attempted_at']);
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('sign_up_attempts');
  await knex.schema.alterTable('sign_in_failures', (t) => {
    t.dropIndex(['device', 'failed_at']);
    t.dropColumn('device');
  });
}
