import { utcDay } from '../../core/clock.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';

let api: TestApi;
const clock = new TestClock(new Date('2026-11-22T15:00:00Z'));
beforeAll(async () => {
  api = await startTestApi({ clock });
});
afterAll(async () => {
  await api.close();
});

const storedCount = async (userId: number, day: string) =>
  (await api.db.knex('api_usage_daily').where({ user_id: userId, day }).first<{ used: number } | undefined>('used'))
    ?.used ?? 0;

describe('daily API limit', () => {
  it('counts exactly under concurrency: 200 parallel calls with 150 left give 150 successes and 50 429s', async () => {
    const { user, token } = await createTestUser(api, 'starter');
    const { day } = utcDay(clock.now);
    await api.db.knex('api_usage_daily').insert({ user_id: user.id, day, used: 350 });

    const results = await Promise.all(Array.from({ length: 200 }, () => call(api, '/me', { token })));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(150);
    expect(statuses.filter((s) => s === 429)).toHaveLength(50);
    expect(await storedCount(user.id, day)).toBe(500);
    const usedValues = results
      .filter((r) => r.status === 200)
      .map((r) => (r.body.data as { api_usage: { used_today: number } }).api_usage.used_today);
    expect(new Set(usedValues).size).toBe(150);
    expect(Math.max(...usedValues)).toBe(500);
  });

  it('answers 429 with the spec body and rate-limit headers once the limit is used up', async () => {
    const { user, token } = await createTestUser(api, 'starter');
    const { day, resetAt } = utcDay(clock.now);
    await api.db.knex('api_usage_daily').insert({ user_id: user.id, day, used: 499 });

    const last = await call(api, '/me', { token });
    expect(last.status).toBe(200);
    expect(last.headers.get('x-ratelimit-limit')).toBe('500');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last.headers.get('x-ratelimit-used')).toBe('500');
    expect(last.headers.get('x-ratelimit-reset')).toBe(String(resetAt.getTime() / 1000));

    const over = await call(api, '/me', { token });
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: 'Daily API request limit exceeded.',
      limit: 500,
      reset_at: '2026-11-23T00:00:00+00:00',
    });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(over.headers.get('retry-after')).toBe(String(9 * 3600));
    expect(await storedCount(user.id, day)).toBe(500);
  });

  it('resets at midnight UTC', async () => {
    const { user, token } = await createTestUser(api, 'starter');
    clock.set('2026-11-22T23:59:59Z');
    await api.db.knex('api_usage_daily').insert({ user_id: user.id, day: '2026-11-22', used: 500 });
    const before = await call(api, '/me', { token });
    expect(before.status).toBe(429);
    expect(before.body.reset_at).toBe('2026-11-23T00:00:00+00:00');
    expect(before.headers.get('retry-after')).toBe('1');

    clock.set('2026-11-23T00:00:00Z');
    const after = await call(api, '/me', { token });
    expect(after.status).toBe(200);
    expect((after.body.data as { api_usage: unknown }).api_usage).toEqual({
      used_today: 1,
      limit_today: 500,
      reset_at: '2026-11-24T00:00:00+00:00',
    });
    expect(await storedCount(user.id, '2026-11-22')).toBe(500);
    expect(await storedCount(user.id, '2026-11-23')).toBe(1);
    clock.set('2026-11-22T15:00:00Z');
  });

  it('keeps counting without a limit for an unlimited plan', async () => {
    const { user, token } = await createTestUser(api, 'agency');
    const { day } = utcDay(clock.now);
    await api.db.knex('api_usage_daily').insert({ user_id: user.id, day, used: 1_000_000 });
    const res = await call(api, '/me', { token });
    expect(res.status).toBe(200);
    expect((res.body.data as { api_usage: unknown }).api_usage).toMatchObject({
      used_today: 1_000_001,
      limit_today: -1,
    });
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('counts neither rejected tokens nor plans without API access', async () => {
    const { user, token } = await createTestUser(api, 'free');
    expect((await call(api, '/me', { token })).status).toBe(403);
    expect(await storedCount(user.id, utcDay(clock.now).day)).toBe(0);
  });

  it('keeps users apart', async () => {
    const a = await createTestUser(api, 'starter');
    const b = await createTestUser(api, 'starter');
    await api.db.knex('api_usage_daily').insert({ user_id: a.user.id, day: utcDay(clock.now).day, used: 500 });
    expect((await call(api, '/me', { token: a.token })).status).toBe(429);
    expect((await call(api, '/me', { token: b.token })).status).toBe(200);
  });
});
