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
  const knex = knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, connectionTimeoutMillis: 5000 },
    pool: { ...pool, acquireTimeoutMillis: 5000 },
  });
  return knex;
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
  return knexFactory({
    client: 'pg',
    connection: { connectionString: databaseUrl, connectionTimeoutMillis: 5000, options: '-c synchronous_commit=off' },
    pool: { ...pool, acquireTimeoutMillis: 5000 },
  });
}

export async function postgresReady(knex: Knex): Promise<void> {
  await knex.raw('select 1');
}

// Network failures, Postgres's connection-exception class (08xxx), shutdown or not yet accepting (57P0x), too many connections.
const UNAVAILABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', '57P01', '57P02', '57P03', '53300']);
const UNAVAILABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Timeout acquiring a connection|Client has encountered a connection error|Connection ended/i;

/** True when an error (or one it wraps, as its cause) says Postgres cannot be reached, not that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, name, nativeError, cause } = current as { code?: unknown; message?: unknown; name?: unknown; nativeError?: unknown; cause?: unknown };
    if (name === 'KnexTimeoutError') return true;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = nativeError ?? cause;
  }
  return false;
}

/**
 * Runs a database step, and again (with backoff) while Postgres cannot be reached, until `waitMs` has
 * passed; any other error is thrown at once. `onUnavailable` hears of the first failure.
 */
export async function retryWhileDatabaseUnavailable<T>(
  step: () => Promise<T>,
  options: { waitMs: number; sleep: (ms: number) => Promise<void>; onUnavailable?: (error: unknown) => void },
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (let retry = 1; ; retry++) {
    try {
      return await step();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      if (retry === 1) options.onUnavailable?.(error);
      await options.sleep(Math.min(5000, 250 * 2 ** retry));
    }
  }
}
