import knexFactory, { type Knex } from 'knex';
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

/** One pool per process; the stores (db/store/) query through it. */
export function createKnex(databaseUrl: string, pool: { min: number; max: number } = DEFAULT_POOL): Knex {
  return pgPool(databaseUrl, pool);
}

/** Connecting and waiting for a free connection both give up after 5 s, so requests fail fast (503) when Postgres is away. */
function pgPool(databaseUrl: string, pool: { min: number; max: number }, options?: string): Knex {
  return knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, connectionTimeoutMillis: 5000, ...(options ? { options } : {}) },
    pool: { ...pool, acquireTimeoutMillis: 5000 },
  });
}

/** The API's small second pool for the daily API counter (see services/usage.ts). */
export const COUNTER_POOL = { min: 0, max: 4 } as const;

/**
 * A pool whose commits do not wait for the disk (synchronous_commit off): for the daily API counter only,
 * where a Postgres crash may forget the last fraction of a second of increments, and every call is then
 * not held up by a disk flush. Row locks and constraints work as usual, so the limit stays exact while the
 * database runs. Only the usage store (db/store/usage.ts) uses it.
 */
export function createCounterKnex(databaseUrl: string, pool: { min: number; max: number } = COUNTER_POOL): Knex {
  return pgPool(databaseUrl, pool, '-c synchronous_commit=off');
}

export async function postgresReady(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}
