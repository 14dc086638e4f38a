import knexFactory, { type Knex } from 'knex';
import { Model } from 'objection';
import pg from 'pg';

// bigint ids and count(*) arrive as strings by default; every value we store in int8 is far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => {
  const parsed = Number(value);
  if (!Number.isSafeInteger(parsed)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return parsed;
});

export type { Knex };

/** The pool of each service process. */
export const DEFAULT_POOL = { min: 0, max: 10 } as const;

/** One pool per process; Objection models are bound to it. */
export function createKnex(databaseUrl: string, pool: { min: number; max: number } = DEFAULT_POOL): Knex {
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
