import type { Config } from '../infra/config.ts';
import { clickhouseNodeUrls, createClickHouse } from './clickhouse/client.ts';
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
  // Each node on its own (no failover): every replica needs its own tables.
  const nodes = clickhouseNodeUrls(config).map((url) =>
    createClickHouse({ clickhouse: { ...config.clickhouse, url, replicaUrls: [] } }, 'default'),
  );
  try {
    const versions = await ensureClickHouseSchema(nodes, config.clickhouse.database, config.clickhouse.layout);
    log(versions.length ? `applied ClickHouse schema versions ${versions.join(', ')}` : 'ClickHouse schema up to date');
  } finally {
    await Promise.all(nodes.map((node) => node.close()));
  }
}
