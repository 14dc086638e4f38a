import { createUser } from '../../services/accounts.ts';
import { SIGN_IN_THROTTLE } from '../../services/sign-in-throttle.ts';
import { DEPENDENCY_RETRY_AFTER_S } from '../../http/errors.ts';
import { scanText } from '../../web/scans/labels.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort, uniqueName } from '../harness/isolated.ts';
import { rawRequest, WebClient, type RawResponse } from '../harness/web.ts';
import { createStorage } from '../../db/store/index.ts';

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const browser = (target: TestApi = api) => new WebClient(target.url, target.config.baseUrl);

/** An error page of the web area: HTML with the page headers, the title as heading and the message. */
function expectErrorPage(res: RawResponse, status: number, title: string, message: string | RegExp): void {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^text\/html/);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  expect(res.text).toMatch(/^<!doctype html>/);
  expect(res.text).toContain(`<h1>${title}</h1>`);
  expect(res.text).toMatch(message);
}

describe('error pages of the web area (HTML, while the API keeps answering JSON)', () => {
  it('404 for an unknown page, a report that does not exist and a share link that does not', async () => {
    const client = browser();
    for (const path of ['/no-such-page', '/account/nope', '/share/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      expectErrorPage(await client.get(path), 404, 'Page not found', 'Not found.');
    }
    const api404 = await rawRequest(`${api.url}/api/v1/no-such-endpoint`);
    expect(api404.status).toBe(404);
    expect(JSON.parse(api404.text)).toEqual({ message: 'Not found.' });
  });

  it('speaks German to a German browser: title, message, the form refusals, the sign-in throttle words', async () => {
    const german = new WebClient(api.url, api.config.baseUrl, { 'accept-language': 'de-DE,de;q=0.9' });
    const missing = await german.get('/no-such-page');
    expectErrorPage(missing, 404, 'Seite nicht gefunden', 'Diese Seite gibt es nicht');
    expect(missing.text).toContain('<html lang="de">');
    expect(missing.text).not.toContain('Not found.');
    expectErrorPage(
      await german.post('/login', { email: 'a@example.com', password: 'x', _csrf: 'forged' }),
      403,
      'Nicht erlaubt',
      'Das Formular ist abgelaufen',
    );
    await german.get('/login');
    const wrong = await german.post('/login', { email: 'nobody@example.com', password: 'wrong-password-1' });
    expect(wrong.status).toBe(422);
    expect(wrong.text).toContain('Diese Zugangsdaten passen zu keinem Konto.');
  });

  it('405 (with Allow) for a web page asked with a method it does not have; the API answers the same as JSON', async () => {
    const res = await rawRequest(`${api.url}/login`, {
      method: 'PUT',
      headers: { origin: new URL(api.config.baseUrl).origin },
    });
    expectErrorPage(res, 405, 'Method not allowed', 'Method not allowed.');
    expect(res.headers.allow).toContain('POST');
    const apiRes = await rawRequest(`${api.url}/api/v1/me`, { method: 'DELETE' });
    expect(apiRes.status).toBe(405);
    expect(JSON.parse(apiRes.text)).toEqual({ message: 'Method not allowed.' });
  });

  it('405 (with Allow) for a method no route has, asked of a page from anywhere (it cannot change anything)', async () => {
    for (const method of ['TRACE', 'PROPFIND']) {
      const res = await rawRequest(`${api.url}/login`, { method });
      expectErrorPage(res, 405, 'Method not allowed', 'Method not allowed.');
      expect(res.headers.allow).toBe('HEAD, GET, POST');
      expect((await rawRequest(`${api.url}/no-such-page`, { method })).status).toBe(404);
    }
  });

  it('403 when a form fails the CSRF check: without the token, and from another site', async () => {
    const client = browser();
    await client.get('/login');
    expectErrorPage(
      await client.post('/login', { email: 'a@example.com', password: 'x', _csrf: 'forged' }),
      403,
      'Not allowed',
      'The form has expired or did not come from this site. Reload the page and try again.',
    );
    expectErrorPage(
      await client.post('/login', { email: 'a@example.com', password: 'x' }, { origin: 'https://evil.example' }),
      403,
      'Not allowed',
      'Cross-site form submission refused.',
    );
  });

  it('429 with Retry-After once the sign-in throttle refuses an e-mail address: the sign-in page says how long', async () => {
    const email = `${uniqueName('locked')}@example.com`;
    await createUser(createStorage(api.db.knex).users, {
      name: 'Locked',
      email,
      password: 'correct horse battery',
      plan: 'free',
    });
    const client = browser();
    await client.get('/login');
    for (let i = 0; i < SIGN_IN_THROTTLE.perEmail; i++)
      expect((await client.post('/login', { email, password: `wrong-${i}` })).status).toBe(422);
    const refused = await client.post('/login', { email, password: 'correct horse battery' });
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.headers['cache-control']).toBe('no-store');
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(SIGN_IN_THROTTLE.windowMs / 1000);
    expect(refused.text).toContain(
      `Too many failed sign-in attempts. Try again in ${Math.ceil(seconds / 60)} minute(s).`,
    );
    expect(refused.text).toContain('<form method="post" action="/login">');
  }, 60_000);

  it('503 with Retry-After when the dashboard form cannot start a scan (Temporal unreachable): the page says so, the address kept', async () => {
    const closed = await freePort();
    const cut = await startTestApi({ env: { TEMPORAL_ADDRESS: `127.0.0.1:${closed}` } });
    try {
      const { user } = await createTestUser(cut, 'starter', 'correct horse battery');
      const client = browser(cut);
      expect((await client.signIn(user.email, 'correct horse battery')).status).toBe(303);
      await client.get('/');
      const refused = await client.post('/scans', {
        url: 'https://unreachable-temporal.example/',
        region: cut.config.regions.default,
      });
      expect(refused.status).toBe(503);
      expect(refused.headers['content-type']).toMatch(/^text\/html/);
      expect(refused.headers['retry-after']).toBe(String(DEPENDENCY_RETRY_AFTER_S));
      expect(refused.text).toContain(scanText('en').notStarted);
      expect(refused.text).toContain('https://unreachable-temporal.example/');
    } finally {
      await cut.close();
    }
  }, 120_000);

  it('500: a page with only the request id, which the log line of the error carries too', async () => {
    const broken = await startTestApi();
    try {
      await broken.db.knex.schema.dropTable('web_sessions');
      // A well-formed session cookie makes the web area look the session up, which now fails.
      const res = await rawRequest(`${broken.url}/login`, { headers: { cookie: `wps_session=${'A'.repeat(43)}` } });
      const id = res.headers['x-request-id'] as string;
      expectErrorPage(res, 500, 'Server error', 'Server error.');
      expect(res.text).toContain(`<code>${id}</code>`);
      expect(res.text).not.toMatch(/web_sessions|at .*\.ts/);
      const line = broken
        .logs()
        .split('\n')
        .find((l) => l.includes('unhandled error'));
      expect(JSON.parse(line!)).toMatchObject({
        requestId: id,
        path: '/login',
        err: { message: expect.stringMatching(/web_sessions/) },
      });
    } finally {
      await broken.close();
    }
  });
});
