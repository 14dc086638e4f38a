import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createWebPerfClient, paginate, unwrap, WebPerfApiError, type RetryNotice } from '../../client/index.ts';
import { schemaSource } from '../../client/schema-source.ts';
import { utcDay } from '../../core/clock.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';

/** The typed client (client/) against the real API: generated from the served document, and its calls return real data. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
}, 60_000);
afterAll(async () => {
  await api?.close();
});

it('is generated from the served document: schema.ts and the document do not drift (npm run client:generate)', async () => {
  const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as unknown;
  const committed = readFileSync(resolve(PROJECT_ROOT, 'client/schema.ts'), 'utf8');
  // Not toEqual on 5,000 lines: a drift says what to run.
  const generated = await schemaSource(document);
  if (generated !== committed)
    throw new Error(
      'client/schema.ts differs from the served OpenAPI document: run ./svc start, then npm run client:generate',
    );
  expect(generated).toBe(committed);
});

it('returns real, typed data: the account, a page of scans, every item through paginate', async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const client = createWebPerfClient({ baseUrl: api.url, token });
  const me = unwrap(await client.GET('/me')).data;
  expect(me).toMatchObject({ email: user.email, plan: { key: 'pro' } });
  for (let i = 0; i < 3; i++) {
    await api.db.knex('scans').insert({
      public_id: `01jz8q3m5kx7h2v9w4n6p0r${i}st`,
      user_id: user.id,
      url: `https://site${i}.example.com/`,
      host: `site${i}.example.com`,
      region: api.config.regions.default,
      status: 'queued',
      requested_at: new Date(),
    });
  }
  const first = unwrap(await client.GET('/scans', { params: { query: { limit: 2 } } }));
  expect(first.data).toHaveLength(2);
  expect(first.meta).toMatchObject({ current_page: 1, per_page: 2, total: 3, last_page: 2 });
  const all = [];
  for await (const scan of paginate((page) => client.GET('/scans', { params: { query: { page, limit: 2 } } })))
    all.push(scan.public_id);
  expect(all.sort()).toEqual([
    '01jz8q3m5kx7h2v9w4n6p0r0st',
    '01jz8q3m5kx7h2v9w4n6p0r1st',
    '01jz8q3m5kx7h2v9w4n6p0r2st',
  ]);
});

it('turns error answers into typed errors: 401, 404, 422 with field messages, 403 with the plan, 429 with reset_at', async () => {
  const bad = createWebPerfClient({ baseUrl: api.url, token: 'wpt_not-a-real-token-000000000000' });
  const unauthenticated = await bad.GET('/me');
  expect(unauthenticated.response.status).toBe(401);
  expect(unauthenticated.error).toEqual({ message: 'Unauthenticated.' });

  const { user, token } = await createTestUser(api, 'starter');
  const client = createWebPerfClient({ baseUrl: api.url, token });
  const caught = async (call: Promise<{ data?: unknown; error?: unknown; response: Response }>) => {
    try {
      unwrap(await call);
    } catch (error) {
      if (error instanceof WebPerfApiError) return error;
      throw error;
    }
    throw new Error('expected an error answer');
  };
  expect(
    (await caught(client.GET('/scans/{id}', { params: { path: { id: '01jz8q3m5kx7h2v9w4n6p0r1zz' } } }))).status,
  ).toBe(404);
  const invalid = await caught(client.POST('/scans', { body: { url: 'not a url' } }));
  expect(invalid.status).toBe(422);
  expect(Object.keys(invalid.fieldErrors)).toContain('url');
  const plan = await caught(
    client.POST('/scans', {
      body: { url: 'https://example.com/', auth: { type: 'basic', username: 'u', password: 'p' } },
    }),
  );
  expect(plan.status).toBe(403);
  expect(plan.requiredPlan).toBe('pro');

  const { day } = utcDay(api.clock.read());
  await api.db
    .knex('api_usage_daily')
    .insert({ user_id: user.id, day, used: 500 })
    .onConflict(['user_id', 'day'])
    .merge({ used: 500 });
  const limited = await caught(client.GET('/me'));
  expect(limited.status).toBe(429);
  expect(limited.rateLimit).toEqual({ kind: 'daily_requests', max: 500 });
  expect(plan.rateLimit).toBeNull();
  expect(limited.resetAt?.toISOString()).toBe(utcDay(api.clock.read()).resetAt.toISOString());
  // The reset is hours away: not waited for, answered at once.
  expect(limited.retryAfterSeconds).toBeGreaterThan(60);
});

describe('polite retries of 429 and 503', () => {
  let server: Server;
  let url: string;
  const answers: Array<{ status: number; retryAfter?: string }> = [];
  const received: Array<{ method: string; body: string }> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method ?? '', body });
        const answer = answers.shift() ?? { status: 200 };
        res.writeHead(answer.status, {
          'content-type': 'application/json',
          ...(answer.retryAfter ? { 'retry-after': answer.retryAfter } : {}),
        });
        res.end(
          answer.status === 200
            ? JSON.stringify({
                data: {
                  id: '01jz8q3m5kx7h2v9w4n6p0r1st',
                  status: 'queued',
                  url: 'https://example.com/',
                  cached: false,
                  auth_type: null,
                },
              })
            : JSON.stringify({ message: 'Busy.' }),
        );
      });
    });
    await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('waits as Retry-After says, sends the body again, and gives up on waits beyond the limit', async () => {
    const notices: RetryNotice[] = [];
    const client = createWebPerfClient({
      baseUrl: url,
      token: 'wpt_x',
      onRetry: (notice) => notices.push(notice),
      maxRetryWaitMs: 5000,
    });
    answers.push({ status: 503, retryAfter: '1' }, { status: 429, retryAfter: '0' });
    const created = unwrap(await client.POST('/scans', { body: { url: 'https://example.com/' } }));
    expect(created.data.status).toBe('queued');
    expect(received.map((r) => r.body)).toEqual(Array(3).fill(JSON.stringify({ url: 'https://example.com/' })));
    expect(notices.map((n) => [n.status, n.waitMs])).toEqual([
      [503, 1000],
      [429, 0],
    ]);

    answers.push({ status: 429, retryAfter: '3600' });
    const refused = await client.GET('/me');
    expect(refused.response.status).toBe(429);
    expect(notices).toHaveLength(2);
  });
});
