/**
 * OAuth benchmark, through the real app on a real port (Postgres, the real oidc-provider):
 *   1. full authorization-code flows per second: register (RFC 7591), authorize with a signed-in web session,
 *      consent (page + approval), follow the resume redirect, exchange the code (PKCE S256); with p95;
 *   2. refreshes per second (each rotates the refresh token); with p95;
 *   3. an MCP tool call (`get_scan`, through the MCP SDK's client over Streamable HTTP) against the same
 *      `GET /api/v1/scans/{id}` through the REST API (plain fetch), as a ratio of throughputs (MCP / REST).
 * `--concurrency` flows/refreshes run at once; each phase runs `--seconds`.
 *
 *   ./svc stack up && npm run bench:oauth -- --seconds 10 --concurrency 8
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';
import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { loadConfig } from '../infra/config.ts';
import { createStorage } from '../db/store/index.ts';
import { createApp } from '../server/app.ts';
import { createUser } from '../services/accounts.ts';
import { mintToken } from '../services/tokens.ts';
import { benchDatabase } from './support.ts';

const { values } = parseArgs({
  options: { seconds: { type: 'string', default: '10' }, concurrency: { type: 'string', default: '8' } },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);

const db = await benchDatabase('oauth');
const port = await new Promise<number>((done) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port: free } = probe.address() as AddressInfo;
    probe.close(() => done(free));
  });
});
const baseUrl = `http://127.0.0.1:${port}`;
const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  DATABASE_URL: db.databaseUrl,
  BASE_URL: baseUrl,
  OAUTH_REGISTRATIONS_PER_HOUR: '1000000',
  OUTBOUND_ALLOW_LOOPBACK: 'true',
});
const temporalConnection = Connection.lazy({ address: config.temporal.address });
const temporal = new Client({ connection: temporalConnection });
const app = createApp({ config, knex: db.knex, temporal, log: pino({ level: 'silent' }) });
const server = createServer(app.koa.callback());
await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));

const PASSWORD = 'bench password long enough';
const REDIRECT = 'http://127.0.0.1:9/callback';

/** A cookie jar and same-origin form posts, as a browser on our pages would send them. */
class Browser {
  private readonly cookies = new Map<string, string>();
  csrf = '';
  async request(path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') };
    let body: string | undefined;
    if (init.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      headers.origin = baseUrl;
      body = new URLSearchParams({ _csrf: this.csrf, ...init.form }).toString();
    }
    const res = await fetch(`${baseUrl}${path}`, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    return res;
  }
  async page(path: string): Promise<string> {
    const text = await (await this.request(path)).text();
    this.csrf = /name="_csrf" value="([^"]+)"/.exec(text)?.[1] ?? this.csrf;
    return text;
  }
}

const local = (location: string | null): string => {
  const url = new URL(location ?? '', baseUrl);
  return `${url.pathname}${url.search}`;
};

async function signedInBrowser(): Promise<Browser> {
  const { users } = createStorage(db.knex);
  const user = await createUser(users, {
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: PASSWORD,
    plan: 'agency',
  });
  const browser = new Browser();
  await browser.page('/login');
  const res = await browser.request('/login', { form: { email: user.email, password: PASSWORD } });
  if (res.status !== 303) throw new Error(`sign-in answered ${res.status}`);
  return browser;
}

/** One complete flow; returns the tokens. */
async function flow(browser: Browser): Promise<{ access_token: string; refresh_token: string }> {
  const registered = await fetch(`${baseUrl}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ redirect_uris: [REDIRECT], client_name: 'Bench' }),
  });
  const { client_id: clientId } = (await registered.json()) as { client_id: string };
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const query = new URLSearchParams({
    client_id: clientId,
    redirect_uri: REDIRECT,
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'x',
  });
  const consentPath = local((await browser.request(`/oauth/authorize?${query}`)).headers.get('location'));
  await browser.page(consentPath);
  const resume = local((await browser.request(consentPath, { form: { decision: 'approve' } })).headers.get('location'));
  const landed = new URL((await browser.request(resume)).headers.get('location') ?? '');
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`no code: ${landed}`);
  const token = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
      client_id: clientId,
    }),
  });
  if (token.status !== 200) throw new Error(`token endpoint answered ${token.status}: ${await token.text()}`);
  return { ...((await token.json()) as { access_token: string; refresh_token: string }), client_id: clientId } as never;
}

async function refresh(state: { refresh_token: string; client_id: string }): Promise<void> {
  const res = await fetch(`${baseUrl}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: state.refresh_token,
      client_id: state.client_id,
    }),
  });
  if (res.status !== 200) throw new Error(`refresh answered ${res.status}: ${await res.text()}`);
  state.refresh_token = ((await res.json()) as { refresh_token: string }).refresh_token;
}

/** Runs `concurrency` loops of `step` for `seconds`; per-second rate and latency percentiles. */
async function measure<T>(
  states: T[],
  step: (state: T) => Promise<void>,
): Promise<{ perSecond: number; p50: number; p95: number; count: number }> {
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    states.map(async (state) => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await step(state);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { perSecond: latencies.length / elapsed, p50: at(0.5), p95: at(0.95), count: latencies.length };
}

const show = (label: string, r: { perSecond: number; p50: number; p95: number; count: number }) =>
  console.log(
    `${label}: ${r.perSecond.toFixed(1)}/s over ${r.count} (p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms)`,
  );

try {
  const browsers = await Promise.all(Array.from({ length: concurrency }, () => signedInBrowser()));
  await flow(browsers[0]!); // warm-up
  show(
    `authorization-code flows (register → authorize → consent → exchange), ${concurrency} at once`,
    await measure(browsers, async (b) => void (await flow(b))),
  );
  const grants = await Promise.all(
    browsers.map((b) => flow(b) as Promise<{ access_token: string; refresh_token: string; client_id: string }>),
  );
  show(`refreshes (rotating), ${concurrency} grants at once`, await measure(grants, refresh));

  // 3. One scan, read through both doors by an agency user (no daily limit in the way).
  const { users, tokens } = createStorage(db.knex);
  const reader = await createUser(users, {
    name: 'Reader',
    email: `reader-${randomBytes(4).toString('hex')}@example.com`,
    password: null,
    plan: 'agency',
  });
  const { token } = await mintToken(tokens, reader.id, 'bench', null);
  const started = await fetch(`${baseUrl}/api/v1/scans`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ url: 'http://127.0.0.1:9/bench' }),
  });
  const scanId = ((await started.json()) as { data: { id: string } }).data.id;
  const rest = await measure(
    Array.from({ length: concurrency }, () => null),
    async () => {
      const res = await fetch(`${baseUrl}/api/v1/scans/${scanId}`, { headers: { authorization: `Bearer ${token}` } });
      if (res.status !== 200) throw new Error(`GET /scans answered ${res.status}`);
      await res.arrayBuffer();
    },
  );
  const clients = await Promise.all(
    Array.from({ length: concurrency }, async () => {
      const client = new McpClient({ name: 'bench', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(`${baseUrl}/mcp`), {
          requestInit: { headers: { authorization: `Bearer ${token}` } },
        }),
      );
      return client;
    }),
  );
  const mcp = await measure(clients, async (client) => {
    const result = await client.callTool({ name: 'get_scan', arguments: { id: scanId } });
    if (result.isError) throw new Error('get_scan failed');
  });
  await Promise.all(clients.map((client) => client.close()));
  show(`REST GET /api/v1/scans/{id}, ${concurrency} at once`, rest);
  show(`MCP get_scan, ${concurrency} at once`, mcp);
  console.log(`ratio MCP / REST (throughput) = ${(mcp.perSecond / rest.perSecond).toFixed(2)}`);
  await temporal.workflow
    .getHandle(`scan-${scanId}`)
    .terminate('bench done')
    .catch(() => undefined);
} finally {
  server.closeAllConnections();
  server.close();
  await app.close();
  await temporalConnection.close();
  await db.drop();
}
