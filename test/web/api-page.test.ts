import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { createUser } from '../../services/accounts.ts';
import { emailHash, SIGN_IN_THROTTLE } from '../../services/sign-in-throttle.ts';
import { mintToken } from '../../services/tokens.ts';
import { call, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser } from '../harness/browser.ts';
import { uniqueName } from '../harness/isolated.ts';
import { HARNESS_DIR } from '../harness/shared.ts';
import { WebClient } from '../harness/web.ts';
import { createStorage } from '../../db/store/index.ts';

let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const screenshots = resolve(HARNESS_DIR, 'screenshots');

beforeAll(async () => {
  api = await startTestApi();
  ({ browser, close: closeBrowser } = await launchBrowser());
  mkdirSync(screenshots, { recursive: true });
}, 60_000);
afterAll(async () => {
  await closeBrowser();
  await api.close();
});

async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${api.url}/login`);
  await page.type('#email', email);
  await page.type('#password', password);
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
}

describe('the API tokens in the settings, in a real browser (through the older /account/api addresses)', () => {
  it('signs in, creates a token shown once, uses it, deletes it, and the token stops working', async () => {
    const email = `${uniqueName('web')}@example.com`;
    await createUser(createStorage(api.db.knex).users, {
      name: 'Web User',
      email,
      password: 'correct horse battery',
      plan: 'starter',
    });
    const page = await browser.newPage();

    await signIn(page, email, 'correct horse battery');
    expect(new URL(page.url()).pathname).toBe('/');
    await page.goto(`${api.url}/account/api`);
    expect(await page.$eval('#no-tokens', (el) => el.textContent)).toBe('No tokens yet.');

    await page.type('#token-name', 'ci pipeline');
    await Promise.all([page.waitForNavigation(), page.click('#create-token-button')]);
    expect(new URL(page.url()).pathname).toBe('/settings');
    const token = (
      await page.$eval('#new-token-value', (el) => (el as unknown as { value: string; checked: boolean }).value)
    ).trim();
    expect(token).toMatch(/^wpt_[A-Za-z0-9_-]{40}$/);
    await page.screenshot({ path: resolve(screenshots, 'api-page-new-token.png'), fullPage: true });

    // Shown once: the page reached again no longer carries the value, only its prefix.
    await page.goto(`${api.url}/account/api`);
    const html = await page.content();
    expect(html).not.toContain(token);
    expect(html).toContain(token.slice(0, 12));
    expect(await page.$eval('#tokens .token-name', (el) => el.textContent)).toBe('ci pipeline');
    expect(await page.$eval('#tokens .last-used', (el) => el.textContent)).toBe('never');

    const me = await call(api, '/me', { token });
    expect(me.status).toBe(200);
    expect((me.body.data as { email: string }).email).toBe(email);

    await page.reload();
    expect(await page.$eval('#tokens .last-used time', (el) => el.getAttribute('datetime'))).toMatch(
      /^\d{4}-\d\d-\d\dT/,
    );
    expect(await page.$eval('#tokens .last-used', (el) => el.textContent)).toMatch(
      /^\d{1,2} \w{3} \d{4}, \d\d:\d\d UTC$/,
    );
    await page.screenshot({ path: resolve(screenshots, 'api-page-list.png'), fullPage: true });

    await Promise.all([page.waitForNavigation(), page.click('.delete-token')]);
    expect(await page.$('#tokens')).toBeNull();
    expect(await call(api, '/me', { token })).toMatchObject({ status: 401, body: { message: 'Unauthenticated.' } });

    await Promise.all([page.waitForNavigation(), page.click('header button')]);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.goto(`${api.url}/account/api`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await page.close();
  }, 60_000);

  it('rejects wrong credentials with the same message for unknown e-mail and wrong password', async () => {
    const email = `${uniqueName('web')}@example.com`;
    await createUser(createStorage(api.db.knex).users, {
      name: 'W',
      email,
      password: 'correct horse battery',
      plan: 'pro',
    });
    const page = await browser.newPage();
    for (const [e, p] of [
      [email, 'wrong password!'],
      [`nobody-${email}`, 'correct horse battery'],
    ] as const) {
      await signIn(page, e, p);
      expect(new URL(page.url()).pathname).toBe('/login');
      expect(await page.$eval('#form-error', (el) => el.textContent)).toBe(
        'These credentials do not match our records.',
      );
    }
    await page.close();
  }, 60_000);

  it('signs up a new account on the Free plan, which is told it has no API access', async () => {
    const page = await browser.newPage();
    await page.goto(`${api.url}/signup`);
    const newEmail = `${uniqueName('new')}@example.com`;
    await page.type('#name', 'New Person');
    await page.type('#email', newEmail);
    await page.type('#password', 'short');
    await Promise.all([page.waitForNavigation(), page.click('#sign-up')]);
    expect(await page.$eval('#password-error', (el) => el.textContent)).toBe(
      'The password must be at least 12 characters.',
    );
    await page.type('#password', 'long enough password');
    await Promise.all([page.waitForNavigation(), page.click('#sign-up')]);
    // No session from the sign-up itself: the password (or the e-mailed link) signs in.
    expect(new URL(page.url()).pathname).toBe('/signup/check-inbox');
    await Promise.all([page.waitForNavigation(), page.click('#to-sign-in')]);
    await page.type('#email', newEmail);
    await page.type('#password', 'long enough password');
    await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.$eval('#api-usage', (el) => el.textContent)).toContain('Your plan has no API access.');
    await page.close();
  }, 60_000);
});

describe('web area protections', () => {
  async function sessionFor(email: string): Promise<WebClient> {
    const client = new WebClient(api.url, api.config.baseUrl);
    const res = await client.signIn(email, 'correct horse battery');
    expect(res.status).toBe(303);
    const session = res.setCookies.find((c) => c.startsWith('wps_session='))!;
    expect(session).toMatch(/HttpOnly/i);
    expect(session).toMatch(/SameSite=Lax/i);
    await client.get('/settings');
    return client;
  }

  it('refuses a form without the CSRF token, or from another origin, and changes nothing', async () => {
    const email = `${uniqueName('csrf')}@example.com`;
    const user = await createUser(createStorage(api.db.knex).users, {
      name: 'C',
      email,
      password: 'correct horse battery',
      plan: 'pro',
    });
    const client = await sessionFor(email);
    expect((await client.post('/account/api/tokens', { name: 'x', _csrf: '' })).status).toBe(403);
    expect((await client.post('/account/api/tokens', { name: 'x', _csrf: 'A'.repeat(43) })).status).toBe(403);
    expect((await client.post('/account/api/tokens', { name: 'x' }, { origin: 'https://evil.example' })).status).toBe(
      403,
    );
    expect(await api.db.knex('api_tokens').where({ user_id: user.id })).toHaveLength(0);
    expect((await client.post('/account/api/tokens', { name: 'x' })).status).toBe(303);
    expect(await api.db.knex('api_tokens').where({ user_id: user.id })).toHaveLength(1);
  });

  it("gives 404 for deleting another user's token, which keeps working", async () => {
    const a = await createUser(createStorage(api.db.knex).users, {
      name: 'A',
      email: `${uniqueName('a')}@example.com`,
      password: 'correct horse battery',
      plan: 'pro',
    });
    const b = await createUser(createStorage(api.db.knex).users, {
      name: 'B',
      email: `${uniqueName('b')}@example.com`,
      password: 'correct horse battery',
      plan: 'pro',
    });
    const { token, record } = await mintToken(createStorage(api.db.knex).tokens, a.id, 'a-token', null);
    const client = await sessionFor(b.email);
    expect((await client.post(`/account/api/tokens/${record.id}/delete`, {})).status).toBe(404);
    expect((await call(api, '/me', { token })).status).toBe(200);
  });

  it('marks cookies Secure when the public URL is not plain-http loopback, even behind a TLS-terminating proxy', async () => {
    const tls = await startTestApi({ env: { BASE_URL: 'https://perf.example.com' } });
    try {
      const email = `${uniqueName('tls')}@example.com`;
      await createUser(createStorage(tls.db.knex).users, {
        name: 'T',
        email,
        password: 'correct horse battery',
        plan: 'pro',
      });
      const client = new WebClient(tls.url, tls.config.baseUrl);
      const login = await client.get('/login');
      expect(login.status).toBe(200);
      expect(login.setCookies.find((c) => c.startsWith('__Host-wps_presession='))).toMatch(/;\s*secure/i);
      const res = await client.signIn(email, 'correct horse battery');
      expect(res.status).toBe(303);
      expect(res.setCookies.find((c) => c.startsWith('__Host-wps_session='))).toMatch(/;\s*secure/i);
    } finally {
      await tls.close();
    }
  });

  describe('sign-in throttle', () => {
    async function loginForm(): Promise<
      (email: string, password: string) => Promise<{ status: number; retryAfter: string | null; text: string }>
    > {
      const client = new WebClient(api.url, api.config.baseUrl);
      await client.get('/login');
      const csrf = client.csrf;
      return async (email, password) => {
        // The same browser, never signed in: its form token stays the pre-session one.
        const res = await client.post('/login', { email, password, _csrf: csrf });
        client.cookies.delete('wps_session');
        return {
          status: res.status,
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          text: res.text,
        };
      };
    }

    it(`refuses an e-mail address after ${SIGN_IN_THROTTLE.perEmail} failures, even with the right password, until the window has passed`, async () => {
      const email = `${uniqueName('guess')}@example.com`;
      await createUser(createStorage(api.db.knex).users, {
        name: 'G',
        email,
        password: 'correct horse battery',
        plan: 'pro',
      });
      const submit = await loginForm();
      for (let i = 0; i < SIGN_IN_THROTTLE.perEmail; i++) expect((await submit(email, `wrong-${i}`)).status).toBe(422);
      const refused = await submit(email.toUpperCase(), 'correct horse battery');
      expect(refused.status).toBe(429);
      expect(Number(refused.retryAfter)).toBe(SIGN_IN_THROTTLE.windowMs / 1000);
      expect(refused.text).toContain('Too many failed sign-in attempts');
      // Another account from the same address is not affected.
      const other = `${uniqueName('other')}@example.com`;
      await createUser(createStorage(api.db.knex).users, {
        name: 'O',
        email: other,
        password: 'correct horse battery',
        plan: 'pro',
      });
      expect((await submit(other, 'correct horse battery')).status).toBe(303);

      api.clock.set(new Date(api.clock.now.getTime() + SIGN_IN_THROTTLE.windowMs + 1000));
      expect((await submit(email, 'correct horse battery')).status).toBe(303);
      // Success clears the count: one more failure is an ordinary one.
      expect((await submit(email, 'wrong-again')).status).toBe(422);
    });

    it('checks no more passwords than the limit, however many attempts run in parallel', async () => {
      const email = `${uniqueName('burst')}@example.com`;
      await createUser(createStorage(api.db.knex).users, {
        name: 'B',
        email,
        password: 'correct horse battery',
        plan: 'pro',
      });
      const submit = await loginForm();
      let wrong = 0;
      for (let round = 0; round < 3; round++) {
        const statuses = (
          await Promise.all(Array.from({ length: 25 }, (_, i) => submit(email, `burst-${round}-${i}`)))
        ).map((r) => r.status);
        expect(statuses.filter((s) => s !== 422 && s !== 429)).toEqual([]);
        wrong += statuses.filter((s) => s === 422).length;
      }
      expect(wrong).toBeLessThanOrEqual(SIGN_IN_THROTTLE.perEmail);
      // One at a time, the remaining allowance is used up exactly.
      while (wrong < SIGN_IN_THROTTLE.perEmail) {
        expect((await submit(email, `one-by-one-${wrong}`)).status).toBe(422);
        wrong += 1;
      }
      const stored = (await api.db
        .knex('sign_in_failures')
        .where({ email_hash: emailHash(email) })
        .count({ n: '*' })
        .first()) as { n: number | string };
      expect(Number(stored.n)).toBe(SIGN_IN_THROTTLE.perEmail);
      expect((await submit(email, 'one more guess')).status).toBe(429);
      expect((await submit(email, 'correct horse battery')).status).toBe(429);
    });
  });
});
