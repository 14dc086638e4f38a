/**
 * Authenticated API benchmark. `GET /api/v1/me` through the real app (token check, plan, daily counter)
 * against a bare Koa handler on the same Postgres pool that runs one indexed SELECT per request: same
 * number of keep-alive connections, same duration, measured in the same run. Two cases:
 *   (a) one token on every connection;
 *   (b) tokens of 8 users spread over the connections.
 * Prints requests/s for both sides and the ratio app / bare (higher is better; target for (b): >= 0.5).
 * The load generator runs in a worker thread, so client and servers each have an event loop of their own.
 *
 *   ./svc stack up && npm run bench:api -- --seconds 10 --connections 32
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { Client, Connection } from '@temporalio/client';
import Koa from 'koa';
import { pino } from 'pino';
import { createApp } from '../server/app.ts';
import { loadConfig } from '../infra/config.ts';
import { createCounterKnex } from '../db/knex.ts';
import type { LoadResult } from './load.ts';
import { benchDatabase, benchUser } from './support.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '32' } },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const db = await benchDatabase('api');
const knex = db.knex;
const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: db.databaseUrl });

const users = await Promise.all(Array.from({ length: 8 }, () => benchUser(knex, 'agency')));
const tokens = users.map((u) => u.token);
const userIdByToken = new Map(users.map((u) => [u.token, u.userId]));

const temporalConnection = Connection.lazy({ address: config.temporal.address });
const counterKnex = createCounterKnex(db.databaseUrl);
const app = createApp({
  config,
  knex,
  counterKnex,
  temporal: new Client({ connection: temporalConnection }),
  log: pino({ level: 'silent' }),
});

const bare = new Koa();
bare.use(async (ctx) => {
  const token = /^Bearer (.+)$/.exec(ctx.get('authorization'))?.[1] ?? '';
  const row = await knex('users')
    .where({ id: userIdByToken.get(token) ?? 0 })
    .first('id', 'name', 'email', 'plan');
  ctx.body = { data: row };
});

async function listen(handler: Koa): Promise<{ server: Server; url: string }> {
  const server = createServer(handler.callback());
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

function load(url: string, tokensForRun: string[]): Promise<LoadResult> {
  return new Promise((resolveLoad, reject) => {
    const worker = new Worker(new URL('./load.ts', import.meta.url), {
      workerData: { url, tokens: tokensForRun, connections, seconds },
    });
    worker.once('message', (result: LoadResult) => resolveLoad(result));
    worker.once('error', reject);
  });
}

const servers = { app: await listen(app.koa), bare: await listen(bare) };
const format = (r: LoadResult) =>
  `${Math.round(r.perSecond)} req/s (p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, non-200: ${r.failures})`;
try {
  // A short warm-up of both paths (JIT, pool connections).
  await load(`${servers.app.url}/api/v1/me`, tokens.slice(0, 1));
  await load(`${servers.bare.url}/me`, tokens.slice(0, 1));
  for (const [label, set] of [
    ['(a) one token', tokens.slice(0, 1)],
    ['(b) 8 users', tokens],
  ] as const) {
    const appResult = await load(`${servers.app.url}/api/v1/me`, [...set]);
    const bareResult = await load(`${servers.bare.url}/me`, [...set]);
    console.log(`${label}: GET /api/v1/me ${format(appResult)}`);
    console.log(`${label}: bare SELECT  ${format(bareResult)}`);
    console.log(`${label}: ratio app / bare = ${(appResult.perSecond / bareResult.perSecond).toFixed(2)}`);
  }
} finally {
  for (const { server } of Object.values(servers)) {
    server.closeAllConnections();
    server.close();
  }
  await temporalConnection.close();
  await counterKnex.destroy();
  await db.drop();
}
