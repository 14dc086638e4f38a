import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { createApp } from '../../server/app.ts';
import { loadConfig, type Config } from '../../infra/config.ts';
import { KEEP_ALIVE_TIMEOUT_MS } from '../../infra/keep-alive.ts';
import { createLogger } from '../../infra/logger.ts';
import type { PlanKey } from '../../core/plans.ts';
import { TEMPORAL_CHANNEL_ARGS } from '../../core/temporal.ts';
import type { User } from '../../core/user.ts';
import { createCounterKnex, createKnex } from '../../db/knex.ts';
import { createUser } from '../../services/accounts.ts';
import { mintToken } from '../../services/tokens.ts';
import { freePort, isolatedPostgres, uniqueName, type IsolatedPostgres } from './isolated.ts';
import { baseTestEnv } from './shared.ts';
import { endTemporalLeftovers } from './temporal-leftovers.ts';
import { createStorage } from '../../db/store/index.ts';
import { registerSecret, registerSecretsIn, watchLogs } from './log-sink.ts';

/** A clock the test moves by hand. */
export class TestClock {
  now: Date;
  constructor(start = new Date()) {
    this.now = start;
  }
  readonly read = (): Date => new Date(this.now.getTime());
  set(value: string | Date): void {
    this.now = new Date(value);
  }
}

export interface TestApi {
  url: string;
  config: Config;
  db: IsolatedPostgres;
  clock: TestClock;
  /** The app's own Temporal client. */
  temporal: Client;
  /** Everything the app logged, as JSON lines. */
  logs(): string;
  /** The app's operator metrics, as the metrics port serves them. */
  metrics(): Promise<string>;
  close(): Promise<void>;
}

/** The real Koa app on a real port (0), against an isolated copy of the migrated database. */
/** pool: give the app its own pool of this size instead of the test's small shared one (pool-exhaustion tests). */
export async function startTestApi(
  options: { clock?: TestClock; env?: Record<string, string>; pool?: { min: number; max: number } } = {},
): Promise<TestApi> {
  const db = await isolatedPostgres();
  const port = await freePort();
  const config = loadConfig({
    ...baseTestEnv(),
    DATABASE_URL: db.databaseUrl,
    BASE_URL: `http://127.0.0.1:${port}`,
    TEMPORAL_TASK_QUEUE_PREFIX: uniqueName('api'),
    ...options.env,
  });
  let logs = '';
  const log = createLogger({ logLevel: 'info' }, 'api', { write: (line: string) => void (logs += line) });
  const logSink = watchLogs('in-process api', () => logs);
  // As the API process connects (infra/temporal-client.ts): back within seconds after a Temporal outage.
  const connection = Connection.lazy({ address: config.temporal.address, channelArgs: TEMPORAL_CHANNEL_ARGS });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const clock = options.clock ?? new TestClock();
  const appKnex = options.pool ? createKnex(db.databaseUrl, options.pool) : db.knex;
  // The daily counter's own pool, as in production (server/main.ts).
  const counterKnex = createCounterKnex(db.databaseUrl);
  const app = createApp({ config, knex: appKnex, counterKnex, temporal, log, clock: clock.read });
  const server: Server = createServer(app.koa.callback());
  // As server/main.ts: with Node's 5 s default, a loaded test reused a connection the server was closing (ECONNRESET).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    config,
    db,
    clock,
    temporal,
    logs: () => logs,
    metrics: () => app.metrics.registry.metrics(),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      const owned = {
        targetIds: await ids(db.knex, 'scan_targets'),
        flowIds: await ids(db.knex, 'flows'),
      };
      // Every call under one deadline, waited for to its end (a call left running would outlive the connection):
      // a test may have stopped its Temporal server.
      await connection
        .withDeadline(Date.now() + 10_000, () => endTemporalLeftovers(temporal, config.temporal.taskQueuePrefix, owned))
        .catch(() => undefined);
      await connection.close();
      await app.close();
      if (appKnex !== db.knex) await appKnex.destroy();
      await counterKnex.destroy();
      await db.drop();
      logSink.check();
    },
  };
}

/** Every id of a table of the test's database (none when the table or the database is gone). */
async function ids(knex: IsolatedPostgres['knex'], table: string): Promise<number[]> {
  const rows = (await knex(table)
    .select('id')
    .catch(() => [])) as Array<{ id: number | string }>;
  return rows.map((row) => Number(row.id));
}

let userCounter = 0;
export async function createTestUser(
  api: TestApi,
  plan: PlanKey,
  password: string | null = null,
): Promise<{ user: User; token: string }> {
  userCounter += 1;
  const user = await createUser(createStorage(api.db.knex).users, {
    name: `User ${userCounter}`,
    email: `${uniqueName('u')}@example.com`,
    password,
    plan,
  });
  const { token } = await mintToken(createStorage(api.db.knex).tokens, user.id, 'test', null);
  registerSecret(token);
  registerSecret(password);
  return { user, token };
}

export async function call(
  api: TestApi,
  path: string,
  options: { token?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const headers: Record<string, string> = { ...options.headers };
  registerSecret(options.token);
  registerSecretsIn(options.body);
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${api.url}/api/v1${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw new Error(`non-JSON response ${response.status} for ${path}: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed, headers: response.headers };
}
