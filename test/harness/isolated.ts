import { randomBytes } from 'node:crypto';
export { freePort } from '../../stack/ports.ts';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Knex } from 'knex';
import { loadConfig, type Config } from '../../infra/config.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../../db/clickhouse/schema.ts';
import { createKnex } from '../../db/knex.ts';
import { dropDatabase, ensureDatabase, withDatabase } from '../../stack/postgres.ts';
import { baseTestEnv, harnessInfo } from './shared.ts';

export const uniqueName = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

/** How long ago uniqueName(prefix) made the name at the start of `text` (ms), or null if it is not one of them. */
export function uniqueNameAge(text: string, prefix: string): number | null {
  const match = new RegExp(`^${prefix}_([0-9a-z]+)_[0-9a-f]{6}`).exec(text);
  return match ? Date.now() - parseInt(match[1]!, 36) : null;
}

export interface IsolatedPostgres {
  databaseUrl: string;
  knex: Knex;
  drop(): Promise<void>;
}

/** A fresh, migrated Postgres database for one test file, copied from the template that global setup migrated. */
export async function isolatedPostgres(options: { migrated?: boolean } = {}): Promise<IsolatedPostgres> {
  const base = loadConfig(baseTestEnv());
  const name = uniqueName('t');
  const template = options.migrated === false ? undefined : harnessInfo().templateDatabase;
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureDatabase(base.databaseUrl, name, template);
      break;
    } catch (error) {
      // 55006: the template is briefly in use by a parallel copy; try again.
      if ((error as { code?: string }).code !== '55006' || attempt >= 20) throw error;
      await new Promise((r) => setTimeout(r, 100 * attempt));
    }
  }
  const databaseUrl = withDatabase(base.databaseUrl, name);
  const knex = createKnex(databaseUrl, { min: 0, max: 5 });
  return {
    databaseUrl,
    knex,
    drop: async () => {
      await knex.destroy();
      await dropDatabase(base.databaseUrl, name);
    },
  };
}

export interface IsolatedClickHouse {
  database: string;
  client: ClickHouseClient;
  drop(): Promise<void>;
}

/** A fresh ClickHouse database with the current schema, for one test file. */
export async function isolatedClickHouse(config: Config = loadConfig(baseTestEnv())): Promise<IsolatedClickHouse> {
  const database = uniqueName('t');
  const admin = createClickHouse(config, 'default');
  await ensureClickHouseSchema(admin, database);
  const client = createClickHouse(config, database);
  return {
    database,
    client,
    drop: async () => {
      await client.close();
      await dropClickHouseDatabase(admin, database);
      await admin.close();
    },
  };
}
