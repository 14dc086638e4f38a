import type { Knex } from 'knex';
import { postgresReady } from '../knex.ts';
import { createScanStore, type ScanStore } from './scans.ts';
import { createSessionStore, type SessionStore } from './sessions.ts';
import { createUserStore, type UserStore } from './users.ts';

/** Every Postgres query of the service, one store per aggregate, each returning plain objects. */
export interface Storage {
  scans: ScanStore;
  users: UserStore;
  sessions: SessionStore;
  /** Throws unless Postgres answers a query (readiness checks). */
  ping(): Promise<void>;
}

export function createStorage(knex: Knex): Storage {
  return { scans: createScanStore(knex), users: createUserStore(knex), sessions: createSessionStore(knex), ping: () => postgresReady(knex) };
}
