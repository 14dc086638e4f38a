import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as oauth from 'oauth4webapi';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage } from '../harness/browser.ts';
import { authorizationUrl, discover, insecure, registerClient } from '../harness/oauth.ts';

/**
 * The consent step in a real browser (Debian's Chromium through puppeteer-core): sign in, open the app's
 * authorization URL, approve on the consent page, and arrive at the app's loopback redirect URI with a code
 * that oauth4webapi exchanges. It also proves the page's CSP lets the approval's redirects reach the app.
 */
let api: TestApi;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
let appServer: Server;
let redirectUri: string;
const arrivals: URL[] = [];
beforeAll(async () => {
  api = await startTestApi();
  browser = await launchBrowser();
  appServer = createServer((req, res) => {
    arrivals.push(new URL(req.url ?? '/', redirectUri));
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>App</title><p>Signed in.</p>');
  });
  await new Promise<void>((ready) => appServer.listen(0, '127.0.0.1', ready));
  redirectUri = `http://127.0.0.1:${(appServer.address() as AddressInfo).port}/callback`;
});
afterAll(async () => {
  await browser.close();
  appServer.close();
  await api.close();
});

it('a person approves an app in the browser; the app gets a code and then a working token', async () => {
  const password = 'correct horse battery staple';
  const { user } = await createTestUser(api, 'starter', password);
  const as = await discover(api);
  const client = await registerClient(as, { redirect_uris: [redirectUri], client_name: 'Browser test app' });
  const attempt = await authorizationUrl(as, client, redirectUri);

  const page = await signedInPage(browser.browser, api.url, user.email, password);
  await page.goto(attempt.url.href);
  expect(new URL(page.url()).pathname).toMatch(/^\/oauth\/consent\//);
  expect(await page.$eval('h1', (h) => h.textContent)).toContain('Browser test app');
  expect(await page.$('#unverified')).not.toBeNull();
  await Promise.all([page.waitForNavigation(), page.click('button[name="decision"][value="approve"]')]);

  expect(new URL(page.url()).origin + new URL(page.url()).pathname).toBe(redirectUri);
  // The browser may also ask the app for /favicon.ico: take the callback itself.
  const landed = arrivals.filter((url) => url.pathname === '/callback').at(-1)!;
  const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      redirectUri,
      attempt.verifier,
      insecure,
    ),
  );
  const me = await call(api, '/me', { token: tokens.access_token });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ data: { email: user.email } });
});
