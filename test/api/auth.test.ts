import { mintToken } from '../../services/tokens.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { createStorage } from '../../db/store/index.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const UNAUTHENTICATED = { message: 'Unauthenticated.' };

describe('bearer authentication on /api/v1', () => {
  it('401 without an Authorization header, with a Bearer challenge', async () => {
    const res = await call(api, '/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHENTICATED);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
  });

  it.each([
    ['another scheme', (t: string) => `Basic ${t}`],
    ['no token after the scheme', () => 'Bearer'],
    ['Bearer without a space', (t: string) => `Bearer${t}`],
    ['two tokens', (t: string) => `Bearer ${t} ${t}`],
    ['a token with a control character', (t: string) => `Bearer ${t}\u0001`],
  ])('401 for %s', async (_label, header) => {
    const { token } = await createTestUser(api, 'pro');
    const headers: Record<string, string> = {};
    try {
      headers.authorization = header(token);
    } catch {
      return;
    }
    const res = await fetch(`${api.url}/api/v1/me`, { headers }).catch(() => null);
    if (res === null) return; // fetch itself refuses control characters in headers: nothing reached the server
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual(UNAUTHENTICATED);
  });

  it('accepts the scheme name in any case', async () => {
    const { token } = await createTestUser(api, 'pro');
    const res = await fetch(`${api.url}/api/v1/me`, { headers: { authorization: `bearer ${token}` } });
    expect(res.status).toBe(200);
  });

  it('401 for an unknown token of the right shape, and for garbage', async () => {
    for (const token of [`wpt_${'A'.repeat(40)}`, 'not-a-token', 'x'.repeat(5000)]) {
      const res = await call(api, '/me', { token });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHENTICATED);
    }
  });

  it('401 once a token has expired', async () => {
    const { user } = await createTestUser(api, 'pro');
    const expiresAt = new Date(api.clock.now.getTime() + 60_000);
    const { token } = await mintToken(createStorage(api.db.knex).tokens, user.id, 'short-lived', expiresAt);
    expect((await call(api, '/me', { token })).status).toBe(200);
    const saved = api.clock.now;
    api.clock.set(expiresAt);
    try {
      expect(await call(api, '/me', { token })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
    } finally {
      api.clock.set(saved);
    }
  });

  it('401 at once after the token is deleted (revoked)', async () => {
    const { user, token } = await createTestUser(api, 'pro');
    expect((await call(api, '/me', { token })).status).toBe(200);
    await api.db.knex('api_tokens').where({ user_id: user.id }).delete();
    expect(await call(api, '/me', { token })).toMatchObject({ status: 401, body: UNAUTHENTICATED });
  });

  it('403 for a Free plan, naming the plan that is needed', async () => {
    const { token } = await createTestUser(api, 'free');
    const res = await call(api, '/me', { token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      message: 'Your plan (Free) does not include API access. Upgrade to Starter or higher.',
      required_plan: 'starter',
    });
  });

  it.each([
    ['starter', 'Starter', 500],
    ['pro', 'Pro', 5000],
    ['agency', 'Agency', -1],
  ] as const)('200 for %s with the plan and usage of GET /me', async (plan, label, limit) => {
    const { user, token } = await createTestUser(api, plan);
    const res = await call(api, '/me', { token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        id: user.id,
        name: user.name,
        email: user.email,
        plan: { key: plan, label, api_enabled: true, api_daily_limit: limit },
        api_usage: {
          used_today: 1,
          limit_today: limit,
          reset_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT00:00:00\+00:00$/),
        },
      },
    });
    if (limit === -1) expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    else expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
  });

  it('records last use at most once a minute per token', async () => {
    const { user, token } = await createTestUser(api, 'pro');
    const lastUsed = async () =>
      (await api.db
        .knex('api_tokens')
        .where({ user_id: user.id })
        .first<{ last_used_at: Date | null }>('last_used_at'))!.last_used_at;
    expect(await lastUsed()).toBeNull();
    await call(api, '/me', { token });
    const first = await lastUsed();
    expect(first).toEqual(api.clock.now);
    const saved = api.clock.now;
    api.clock.set(new Date(saved.getTime() + 30_000));
    await call(api, '/me', { token });
    expect(await lastUsed()).toEqual(first);
    api.clock.set(new Date(saved.getTime() + 61_000));
    await call(api, '/me', { token });
    expect(await lastUsed()).toEqual(api.clock.now);
    api.clock.set(saved);
  });

  it('stores only a hash of the token', async () => {
    const { user, token } = await createTestUser(api, 'pro');
    const rows = await api.db.knex('api_tokens').where({ user_id: user.id });
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows[0].prefix).toBe(token.slice(0, 12));
  });
});
