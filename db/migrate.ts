import type { Knex } from 'knex';
import { migrationSource } from './migrations/index.ts';

const options: Knex.MigratorConfig = { migrationSource, tableName: 'knex_migrations' };

export async function migrateLatest(knex: Knex): Promise<string[]> {
  const [, applied] = (await knex.migrate.latest(options)) as [number, string[]];
  return applied;
}

/** Reverts the last batch of migrations (what the last `latest` applied). */
export async function migrateRollbackLast(knex: Knex): Promise<string[]> {
  const [, reverted] = (await knex.migrate.rollback(options, false)) as [number, string[]];
  return reverted;
}

export async function migrateRollbackAll(knex: Knex): Promise<string[]> {
  const [, reverted] = (await knex.migrate.rollback(options, true)) as [number, string[]];
  return reverted;
}

export async function migrationStatus(knex: Knex): Promise<{ applied: string[]; pending: string[] }> {
  const [applied, pending] = (await knex.migrate.list(options)) as [Array<{ name: string }>, string[]];
  return { applied: applied.map((m) => m.name), pending };
}
