import { randomBytes } from 'node:crypto';
import { createUser } from '../../services/accounts.ts';
import { scryptDerivations } from '../../services/passwords.ts';
import { SIGN_IN_THROTTLE } from '../../services/sign-in-throttle.ts';
import { SIGN_UP_THROTTLE } from '../../services/sign-up-throttle.ts';
import { startTestApi, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { WebClient } from '../harness/web.ts';
import { createStorage } from '../../db/store/index.ts';

const PASSWORD = 'correct horse battery';

/** The app behind one trusted proxy (the test itself, on 127.0.0.1): X-Forwarded-For plays each client's address. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { TRUSTED_PROXIES: '127.0.0.1' } });
}, 60_000);
afterAll(async () => {
  await api.close();
});

let addressCounter = 0;
/** A browser on an address of its own (documentation ranges, one per call). */
function browser(target: TestApi = api): WebClient {
  addressCounter += 1;
  return new WebClient(target.url, target.config.baseUrl, { 'x-forwarded-for': `198.51.100.${addressCounter}` });
}

async function newUser(target: TestApi = api): Promise<string> {
  const email = `${uniqueName('owner')}@example.com`;
  await createUser(createStorage(target.db.knex).users, { name: 'Owner', email, password: PASSWORD, plan: 'pro' });
  return email;
}

describe('forwarded headers (TRUSTED_PROXIES)', () => {
  it('by default (even in production) trusts no X-Forwarded-For: forging one per attempt does not reset the per-address throttle', async () => {
    const production = await startTestApi({
      env: {
        APP_ENV: 'production',
        SECRET_KEY: randomBytes(32).toString('base64'),
        INGEST_URL: api.config.ingest.publicUrl,
        CLICKHOUSE_URL: api.config.clickhouse.url,
        TEMPORAL_ADDRESS: api.config.temporal.address,
      },
    });
    try {
      expect(production.config.trustedProxies).toEqual([]);
      const forged = (i: number) =>
        new WebClient(production.url, production.config.baseUrl, {
          'x-forwarded-for': `203.0.113.${i % 250}, 192.0.2.${i % 250}`,
        });
      // Unknown e-mails, so only the per-address count can refuse; in parallel batches, each attempt its own forged address.
      for (let batch = 0; batch < SIGN_IN_THROTTLE.perAddress / 10; batch++) {
        const statuses = await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            forged(batch * 10 + i).signIn(`${uniqueName('nobody')}@example.com`, 'guess'),
          ),
        );
        expect(statuses.map((r) => r.status)).toEqual(Array(10).fill(422));
      }
      const refused = await forged(999).signIn(`${uniqueName('nobody')}@example.com`, 'guess');
      expect(refused.status).toBe(429);
      expect(await production.db.knex('sign_in_failures').distinct('ip').pluck('ip')).toEqual(['127.0.0.1']);
    } finally {
      await production.close();
    }
  }, 180_000);

  it('with TRUSTED_PROXIES set, the address the first untrusted hop was seen with is the client (throttle and access log)', async () => {
    const chained = await startTestApi({ env: { TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8' } });
    try {
      // Client-written junk on the left, then the client as our outer proxy (10.1.2.3) saw it.
      const client = new WebClient(chained.url, chained.config.baseUrl, {
        'x-forwarded-for': '6.6.6.6, 203.0.113.77, 10.1.2.3',
      });
      expect((await client.signIn(`${uniqueName('nobody')}@example.com`, 'guess')).status).toBe(422);
      expect(await chained.db.knex('sign_in_failures').pluck('ip')).toEqual(['203.0.113.77']);
      const lines = chained
        .logs()
        .split('\n')
        .filter((line) => line.includes('"path":"/login"'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ ip: '203.0.113.77' });
    } finally {
      await chained.close();
    }
  });
});

describe('sign-in lock-out (device cookies)', () => {
  it('an attacker who knows only the e-mail is throttled and cannot guess on, while the owner keeps signing in from their device', async () => {
    const email = await newUser();
    const owner = browser();
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303);
    owner.cookies.delete('wps_session');
    await owner.get('/login');

    const attacker = browser();
    for (let i = 0; i < SIGN_IN_THROTTLE.perEmail; i++)
      expect((await attacker.signIn(email, `guess-${i}`)).status).toBe(422);
    // Locked for the attacker: further guesses, even the right password, are refused unchecked, from any address.
    expect((await attacker.signIn(email, 'guess-more')).status).toBe(429);
    expect((await attacker.signIn(email, PASSWORD)).status).toBe(429);
    expect((await browser().signIn(email, PASSWORD)).status).toBe(429);

    // The owner signs in while a burst of the attacker's attempts is in flight.
    const before = scryptDerivations();
    const burst = Promise.all(Array.from({ length: 20 }, (_, i) => browser().signIn(email, `burst-${i}`)));
    const own = await owner.signIn(email, PASSWORD);
    const attack = await burst;
    expect(own.status).toBe(303);
    expect(attack.map((r) => r.status)).toEqual(Array(20).fill(429));
    expect(scryptDerivations() - before).toBe(1); // only the owner's password was checked
    expect(owner.cookies.get('wps_device')).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/);
  }, 60_000);

  it("a device's own wrong passwords still lock that device, and a device cookie of another account does not help", async () => {
    const email = await newUser();
    const owner = browser();
    expect((await owner.signIn(email, PASSWORD)).status).toBe(303);
    owner.cookies.delete('wps_session');
    await owner.get('/login');
    for (let i = 0; i < SIGN_IN_THROTTLE.perDevice; i++)
      expect((await owner.signIn(email, `typo-${i}`)).status).toBe(422);
    const refused = await owner.signIn(email, PASSWORD);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(SIGN_IN_THROTTLE.windowMs / 1000);

    // The attacker's own account gives their browser a device cookie: it is bound to that e-mail only.
    const victim = await newUser();
    const attacker = browser();
    expect((await attacker.signIn(await newUser(), PASSWORD)).status).toBe(303);
    attacker.cookies.delete('wps_session');
    await attacker.get('/login');
    for (let i = 0; i < SIGN_IN_THROTTLE.perEmail; i++)
      expect((await attacker.signIn(victim, `guess-${i}`)).status).toBe(422);
    expect((await attacker.signIn(victim, PASSWORD)).status).toBe(429);
  }, 60_000);
});

describe('unknown e-mails cost the same work', () => {
  it('runs one scrypt derivation for an unknown e-mail, an account without a password, and a wrong password alike', async () => {
    const known = await newUser();
    const passwordless = `${uniqueName('nopass')}@example.com`;
    await createUser(createStorage(api.db.knex).users, {
      name: 'No password',
      email: passwordless,
      password: null,
      plan: 'pro',
    });
    for (const email of [`${uniqueName('unknown')}@example.com`, passwordless, known]) {
      const client = browser();
      await client.get('/login');
      const before = scryptDerivations();
      const res = await client.signIn(email, 'not the password');
      expect({ email, status: res.status, derivations: scryptDerivations() - before }).toEqual({
        email,
        status: 422,
        derivations: 1,
      });
    }
  });
});

describe('sign-up throttle', () => {
  it(`allows ${SIGN_UP_THROTTLE.perAddress} sign-ups per address per hour; refused validation does not count`, async () => {
    const client = browser();
    await client.get('/signup');
    const signUp = (email: string, password = PASSWORD) => client.post('/signup', { name: 'New', email, password });
    expect((await signUp(`${uniqueName('short')}@example.com`, 'short')).status).toBe(422);
    for (let i = 0; i < SIGN_UP_THROTTLE.perAddress; i++) {
      const res = await signUp(`${uniqueName('new')}@example.com`);
      expect(res.status).toBe(303);
      client.cookies.delete('wps_session');
      await client.get('/signup');
    }
    const refused = await signUp(`${uniqueName('new')}@example.com`);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(SIGN_UP_THROTTLE.windowMs / 1000);
    expect(refused.text).toContain('Too many sign-ups');
    // Another address is not affected; the window passing opens it again.
    const other = browser();
    await other.get('/signup');
    expect(
      (await other.post('/signup', { name: 'Other', email: `${uniqueName('new')}@example.com`, password: PASSWORD }))
        .status,
    ).toBe(303);
    api.clock.set(new Date(api.clock.now.getTime() + SIGN_UP_THROTTLE.windowMs + 1000));
    expect((await signUp(`${uniqueName('new')}@example.com`)).status).toBe(303);
  }, 60_000);
});

describe('CSRF', () => {
  async function signedIn(target: TestApi = api): Promise<{ client: WebClient; userId: number }> {
    const email = await newUser(target);
    const client = browser(target);
    expect((await client.signIn(email, PASSWORD)).status).toBe(303);
    await client.get('/settings');
    const row = (await target.db.knex('users').where({ email }).first('id')) as { id: number };
    return { client, userId: row.id };
  }

  const tokensOf = async (userId: number) => (await api.db.knex('api_tokens').where({ user_id: userId })).length;

  it('binds the token to the session: a token that only matches a planted cookie, or belongs to another session, is refused', async () => {
    const { client, userId } = await signedIn();
    const { client: other } = await signedIn();
    // Double-submit would accept any value sent both as cookie and field; a planted pair is refused.
    client.cookies.set('wps_csrf', 'A'.repeat(32));
    client.cookies.set('wps_presession', 'A'.repeat(43));
    expect((await client.post('/account/api/tokens', { name: 'x', _csrf: 'A'.repeat(32) })).status).toBe(403);
    expect((await client.post('/account/api/tokens', { name: 'x', _csrf: 'A'.repeat(43) })).status).toBe(403);
    // Another user's valid token is not valid in this session; the token from before sign-in is not either.
    expect((await client.post('/account/api/tokens', { name: 'x', _csrf: other.csrf })).status).toBe(403);
    const anonymous = browser();
    await anonymous.get('/login');
    expect(anonymous.csrf).not.toBe(client.csrf);
    expect(await tokensOf(userId)).toBe(0);
    expect((await client.post('/account/api/tokens', { name: 'x' })).status).toBe(303);
    expect(await tokensOf(userId)).toBe(1);
  });

  it('refuses unsafe requests that carry neither an Origin nor a same-origin Referer', async () => {
    const { client, userId } = await signedIn();
    const own = new URL(api.config.baseUrl).origin;
    const cases: Array<Record<string, string>> = [
      {},
      { origin: 'null' },
      { origin: 'https://evil.example' },
      { referer: 'https://evil.example/page' },
      { referer: 'not a url' },
      { origin: 'https://evil.example', referer: `${own}/account/api` },
    ];
    for (const headers of cases) {
      const res = await client.post('/account/api/tokens', { name: 'x' }, headers);
      expect({ headers, status: res.status }).toEqual({ headers, status: 403 });
    }
    const email = await newUser();
    const fresh = browser();
    await fresh.get('/login');
    expect((await fresh.post('/login', { email, password: PASSWORD }, {})).status).toBe(403);
    expect((await fresh.post('/logout', {}, {})).status).toBe(403);
    expect(await tokensOf(userId)).toBe(0);
    // A browser that sends only a same-origin Referer is fine.
    expect((await client.post('/account/api/tokens', { name: 'x' }, { referer: `${own}/account/api` })).status).toBe(
      303,
    );
    expect(await tokensOf(userId)).toBe(1);
  });

  it('under https, every cookie has the __Host- prefix with Secure, Path=/ and no Domain, and sign-in works with them', async () => {
    const tls = await startTestApi({ env: { BASE_URL: 'https://perf.example.com', TRUSTED_PROXIES: '127.0.0.1' } });
    try {
      const email = await newUser(tls);
      const client = browser(tls);
      const page = await client.get('/login');
      const res = await client.signIn(email, PASSWORD);
      expect(res.status).toBe(303);
      const cookies = [...page.setCookies, ...res.setCookies];
      expect(cookies.map((c) => c.split('=')[0]).sort()).toEqual([
        '__Host-wps_device',
        '__Host-wps_presession',
        '__Host-wps_session',
      ]);
      for (const cookie of cookies) {
        expect(cookie).toMatch(/;\s*secure/i);
        expect(cookie).toMatch(/;\s*path=\/(;|$)/i);
        expect(cookie).not.toMatch(/;\s*domain=/i);
      }
      expect((await client.get('/settings')).status).toBe(200);
      expect((await client.post('/account/api/tokens', { name: 'tls' })).status).toBe(303);
      // The unprefixed names mean nothing there.
      const plain = browser(tls);
      plain.cookies.set('wps_session', client.cookies.get('__Host-wps_session')!);
      expect((await plain.get('/settings')).status).toBe(302);
    } finally {
      await tls.close();
    }
  });

  it('over plain-http loopback, the cookies keep their plain names', async () => {
    const client = browser();
    const page = await client.get('/login');
    expect(page.setCookies.map((c) => c.split('=')[0])).toEqual(['wps_presession']);
  });
});
