import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';

export type { Knex };

/** One pool per process; Objection models are bound to it. */
export function createKnex(databaseUrl: string, pool: { min: number; max: number } = { min: 0, max: 10 }): Knex {
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, connectionTimeoutMillis: 5000 },
    pool: { ...pool, acquireTimeoutMillis: 5000 },
  });
  Model.knex(knex);
  return knex;
}

export async function postgresReady(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}
