import type { Knex } from 'knex';

/**
 * Each attempt's own key, unique: recording an attempt is retried after its request was sent (a lost answer
 * to a COMMIT, a try given up while its query still runs), and the key makes a repeated record a no-op, so
 * the attempt that reached the receiver is counted once. Rows from before have none (NULLs never collide).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.text('attempt_key').unique();
  });
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('webhook_attempts', (t) => {
    t.dropColumn('attempt_key');
  });
}
