/**
 * "Forgot your password?" for an address with an account against one without, through the real app on a real
 * port (Postgres, a local SMTP server that accepts every mail): `--requests` of each, alternating, one at a time,
 * as someone probing for accounts would send them. Prints the two medians, their difference (target: within
 * 2 ms) and the ratio known/unknown (target: 1). The throttle's counts are cleared before each request (it would
 * refuse the rest after the first few), and each request waits until the one before has finished its work.
 *
 *   ./svc stack up && npm run bench:forgot -- --requests 200
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { SMTPServer } from 'smtp-server';
import { loadConfig } from '../infra/config.ts';
import { createStorage } from '../db/store/index.ts';
import { createApp } from '../server/app.ts';
import { createUser } from '../services/accounts.ts';
import { benchDatabase } from './support.ts';

const { values } = parseArgs({ options: { requests: { type: 'string', default: '200' } } });
const requests = Number(values.requests);

const freePort = () =>
  new Promise<number>((done) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => done(port));
    });
  });

let mails = 0;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, _session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      mails++;
      callback();
    });
  },
});
const smtpPort = await freePort();
await new Promise<void>((ready) => smtp.listen(smtpPort, '127.0.0.1', ready));

const db = await benchDatabase('forgot');
const port = await freePort();
const baseUrl = `http://127.0.0.1:${port}`;
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  DATABASE_URL: db.databaseUrl,
  BASE_URL: baseUrl,
  SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
  MAIL_FROM: 'WebPerf <bench@perf.example.test>',
});
const temporalConnection = Connection.lazy({ address: config.temporal.address });
const temporal = new Client({ connection: temporalConnection });
const app = createApp({ config, knex: db.knex, temporal, log: pino({ level: 'silent' }) });
const server = createServer(app.koa.callback());
await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));

const known = await createUser(createStorage(db.knex).users, {
  name: 'Bench',
  email: 'known@bench.example',
  password: 'bench password long enough',
  plan: 'free',
});

// One browser: its pre-session cookie and the form's CSRF token.
const page = await fetch(`${baseUrl}/password/forgot`);
const cookie = page.headers
  .getSetCookie()
  .map((line) => line.split(';')[0])
  .join('; ');
const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';

async function ask(email: string): Promise<number> {
  await db.knex('account_mail_requests').delete();
  const started = performance.now();
  const res = await fetch(`${baseUrl}/password/forgot`, {
    method: 'POST',
    headers: { cookie, origin: baseUrl, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, email }).toString(),
    redirect: 'manual',
  });
  await res.arrayBuffer();
  const took = performance.now() - started;
  if (res.status !== 303) throw new Error(`forgot answered ${res.status}`);
  return took;
}

const pause = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Waits until `expected` mails went out, then a little more: a request's work is done before the next starts. */
async function settled(expected: number): Promise<void> {
  while (mails < expected) await pause(2);
  await pause(10);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

const knownTimes: number[] = [];
const unknownTimes: number[] = [];
let sent = 0;
const askKnown = async () => {
  const took = await ask(known.email);
  await settled(++sent);
  return took;
};
const askUnknown = async (i: number) => {
  const took = await ask(`nobody-${i}@nobody.example`);
  await settled(sent);
  return took;
};
// Warm-up: the first requests pay for connections and compiled code.
for (let i = 0; i < 10; i++) {
  await askKnown();
  await askUnknown(-i - 1);
}
// Alternating, and which goes first alternates too.
for (let i = 0; i < requests; i++) {
  if (i % 2 === 0) {
    knownTimes.push(await askKnown());
    unknownTimes.push(await askUnknown(i));
  } else {
    unknownTimes.push(await askUnknown(i));
    knownTimes.push(await askKnown());
  }
}

const k = median(knownTimes);
const u = median(unknownTimes);
console.log(`forgot, ${requests} requests each: known ${k.toFixed(2)} ms, unknown ${u.toFixed(2)} ms (medians)`);
console.log(`difference ${(k - u).toFixed(2)} ms (target within 2 ms), ratio known/unknown ${(k / u).toFixed(3)}`);

server.closeAllConnections();
await new Promise<void>((done) => server.close(() => done()));
await app.close();
await temporalConnection.close();
await new Promise<void>((done) => smtp.close(() => done()));
await db.drop();
