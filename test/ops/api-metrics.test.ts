import { createLogger } from '../../infra/logger.ts';
import { createKnex } from '../../db/knex.ts';
import { createApp } from '../../server/app.ts';
import { parseDatabaseUrl } from '../../stack/postgres.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';

/** The API's operator metrics move with real traffic, and their labels stay within fixed sets whatever clients send. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const scrape = async () => (await api.metrics()).split('\n');
const sample = (lines: string[], name: string, labels: Record<string, string>): number => {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = lines.find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line ? Number(line.split(' ').at(-1)) : 0;
};

it('counts requests by route template, method and status, with a latency histogram', async () => {
  const { token } = await createTestUser(api, 'starter');
  const before = await scrape();
  await call(api, '/me', { token });
  await call(api, '/scans/01aaaaaaaaaaaaaaaaaaaaaaaa', { token });
  await call(api, '/me');
  const after = await scrape();
  const delta = (labels: Record<string, string>) =>
    sample(after, 'webperf_http_requests_total', labels) - sample(before, 'webperf_http_requests_total', labels);
  expect(delta({ route: '/api/v1/me', method: 'GET', status: '200' })).toBe(1);
  expect(delta({ route: '/api/v1/me', method: 'GET', status: '401' })).toBe(1);
  expect(delta({ route: '/api/v1/scans/:id', method: 'GET', status: '404' })).toBe(1);
  expect(
    sample(after, 'webperf_http_request_duration_seconds_count', { route: '/api/v1/me', method: 'GET' }),
  ).toBeGreaterThanOrEqual(2);
  expect(after.some((l) => l.startsWith('nodejs_eventloop_lag_seconds'))).toBe(true);
});

it('counts daily-limit refusals by plan', async () => {
  const { user, token } = await createTestUser(api, 'starter');
  await api.db
    .knex('api_usage_daily')
    .insert({ user_id: user.id, day: api.clock.read().toISOString().slice(0, 10), used: 500 })
    .onConflict(['user_id', 'day'])
    .merge();
  const before = sample(await scrape(), 'webperf_api_daily_limit_refusals_total', { plan: 'starter' });
  expect((await call(api, '/me', { token })).status).toBe(429);
  expect(sample(await scrape(), 'webperf_api_daily_limit_refusals_total', { plan: 'starter' }) - before).toBe(1);
});

it('keeps label sets bounded under fuzzed paths and methods', async () => {
  for (let i = 0; i < 50; i += 1) {
    await fetch(`${api.url}/random-${i}/${Math.random().toString(36).slice(2)}?x=${i}`, {
      method: i % 2 ? 'GET' : 'PROPFIND',
    }).catch(() => undefined);
  }
  const lines = (await scrape()).filter((l) => l.startsWith('webperf_http_requests_total{'));
  expect(lines.some((l) => l.includes('random-'))).toBe(false);
  expect(lines.some((l) => l.includes('PROPFIND'))).toBe(false);
  expect(lines.some((l) => l.includes('route="unmatched"'))).toBe(true);
});

it('reports webperf_ready 1 while /readyz passes, 0 while Postgres is away, and 1 again when it is back', async () => {
  // A second app on the same database, reaching Postgres through a forwarder the test cuts and restores.
  const pg = parseDatabaseUrl(api.db.databaseUrl);
  const proxy = new TcpProxy(pg.host, pg.port);
  await proxy.start();
  const knex = createKnex(`postgres://${pg.user}@127.0.0.1:${proxy.port}/${pg.database}`, { min: 0, max: 2 });
  const app = createApp({
    config: api.config,
    knex,
    temporal: api.temporal,
    log: createLogger({ logLevel: 'silent' }, 'api'),
  });
  const ready = async () => {
    const lines = (await app.metrics.registry.metrics()).split('\n').filter((l) => l.startsWith('webperf_ready'));
    // One series, its labels from a fixed set: the service, nothing a client sends.
    expect(lines).toEqual([expect.stringMatching(/^webperf_ready\{service="api"\} [01]$/)]);
    return Number(lines[0]!.split(' ').at(-1));
  };
  try {
    expect(await ready()).toBe(1);
    await proxy.cut();
    expect(await ready()).toBe(0);
    expect((await app.health.readiness()).checks.postgres).toBe('failing');
    await proxy.restore();
    await waitUntil('webperf_ready back to 1 after Postgres returns', async () => (await ready()) === 1, 30_000, 250);
  } finally {
    await proxy.cut();
    await knex.destroy();
    await app.close();
  }
});
