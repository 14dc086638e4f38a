import { DEFAULT_POOL } from '../../db/knex.ts';
import { hashPassword } from '../../services/passwords.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { rawRequest, WebClient } from '../harness/web.ts';

let api: TestApi;
beforeAll(async () => {
  // The pool a production api process has (db/knex.ts), not the tests' smaller one. Behind a trusted proxy, so
  // that each simulated browser has its own address and the per-address throttles leave the load whole.
  api = await startTestApi({ pool: DEFAULT_POOL, env: { TRUSTED_PROXIES: '127.0.0.1' } });
}, 60_000);
afterAll(async () => {
  await api.close();
});

const PASSWORD = 'correct horse battery';
const ROUNDS = 2;

describe('sign-in and sign-up under load', () => {
  it('API calls keep answering (no 5xx) while 50 sign-in and sign-up attempts run in parallel', async () => {
    const { token } = await createTestUser(api, 'pro');
    const hash = await hashPassword(PASSWORD);
    const emails = Array.from({ length: 25 }, () => `${uniqueName('load')}@example.com`);
    await api.db
      .knex('users')
      .insert(emails.map((email, i) => ({ name: `Load ${i}`, email, plan: 'pro', password_hash: hash })));
    expect((await rawRequest(`${api.url}/readyz`)).status).toBe(200);

    // 50 attempts in flight at any time (25 sign-in, 25 sign-up), each a fresh browser, two rounds each.
    let running = true;
    const attempt = async (i: number, round: number) => {
      const client = new WebClient(api.url, api.config.baseUrl, { 'x-forwarded-for': `203.0.113.${i + 1}` });
      if (i < 25) {
        await client.get('/login');
        return client.post('/login', { email: emails[i]!, password: (i + round) % 2 ? PASSWORD : 'a wrong password' });
      }
      await client.get('/signup');
      return client.post('/signup', { name: 'New', email: `${uniqueName('new')}@example.com`, password: PASSWORD });
    };
    const attempts = Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const results = [];
        for (let round = 0; round < ROUNDS; round++) results.push(await attempt(i, round));
        return results;
      }),
    ).finally(() => (running = false));

    const apiStatuses: number[] = [];
    // The cause, seen from Postgres: a connection left idle inside a transaction is one the app holds while it
    // does something else (hashing). None of these paths needs a transaction, so there should never be one.
    const database = new URL(api.db.databaseUrl).pathname.slice(1);
    let heldInTransaction = 0;
    while (running) {
      const [me, ready, held] = await Promise.all([
        call(api, '/me', { token }),
        rawRequest(`${api.url}/readyz`),
        api.db
          .knex('pg_stat_activity')
          .where({ datname: database, state: 'idle in transaction' })
          .count({ n: '*' })
          .first<{ n: number }>(),
      ]);
      apiStatuses.push(me.status, ready.status);
      heldInTransaction = Math.max(heldInTransaction, Number(held.n));
    }
    const byClient = (await attempts).map((results) => results.map((r) => r.status));
    const attemptStatuses = byClient.flat();

    expect(apiStatuses.length).toBeGreaterThan(0);
    expect({
      heldInTransaction,
      apiFailures: apiStatuses.filter((s) => s !== 200),
      attemptFailures: attemptStatuses.filter((s) => ![303, 422, 429].includes(s)),
    }).toEqual({
      heldInTransaction: 0,
      apiFailures: [],
      attemptFailures: [],
    });
    // Some of each kind got through: the load was real, not refused up front.
    expect(byClient.slice(0, 25).flat()).toContain(303);
    expect(byClient.slice(25).flat()).toContain(303);
  }, 180_000);
});
