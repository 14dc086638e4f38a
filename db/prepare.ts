import type { Config } from '../infra/config.ts';
import { createClickHouse } from './clickhouse/client.ts';
import { ensureClickHouseSchema } from './clickhouse/schema.ts';
import { createKnex } from './knex.ts';
import { migrateLatest } from './migrate.ts';

/** Postgres migrations and the ClickHouse schema, both idempotent; run by the start command and in deployments. */
export async function prepareSchemas(
  config: Pick<Config, 'databaseUrl' | 'clickhouse'>,
  log: (msg: string) => void,
): Promise<void> {
  const knex = createKnex(config.databaseUrl, { min: 0, max: 1 });
  try {
    const applied = await migrateLatest(knex);
    log(applied.length ? `applied migrations: ${applied.join(', ')}` : 'Postgres schema up to date');
  } finally {
    await knex.destroy();
  }
  const clickhouse = createClickHouse(config, 'default');
  try {
    const versions = await ensureClickHouseSchema(clickhouse, config.clickhouse.database);
    log(versions.length ? `applied ClickHouse schema versions ${versions.join(', ')}` : 'ClickHouse schema up to date');
  } finally {
    await clickhouse.close();
  }
}
