import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Page } from 'puppeteer-core';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage } from '../harness/browser.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { HARNESS_DIR } from '../harness/shared.ts';

/**
 * The API reference at /docs in Debian's Chromium: Swagger UI from our own origin (no CDN) renders every
 * operation and webhook of the served document under the page's CSP, and a signed-in user tries a call with a
 * one-hour token the page makes for them.
 */
let api: TestApi;
let browser: Awaited<ReturnType<typeof launchBrowser>>;
const screenshots = resolve(HARNESS_DIR, 'screenshots');
type Doc = { paths: Record<string, Record<string, unknown>>; webhooks: Record<string, Record<string, unknown>> };

beforeAll(async () => {
  api = await startTestApi();
  browser = await launchBrowser();
  mkdirSync(screenshots, { recursive: true });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await api?.close();
});

/** Loads /docs with JavaScript and collects console errors and CSP violations until the reference is ready. */
async function openReference(page: Page): Promise<string[]> {
  const problems: string[] = [];
  page.on(
    'console',
    (message) => message.type() === 'error' && problems.push(`${message.text()} ${message.location().url ?? ''}`),
  );
  page.on('pageerror', (error) => problems.push(String(error)));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on(
    'response',
    (response) => response.status() >= 400 && problems.push(`${response.status()}: ${response.url()}`),
  );
  await page.setJavaScriptEnabled(true);
  await page.goto(`${api.url}/docs`);
  await page.waitForSelector('html[data-reference="ready"]', { timeout: 60_000 });
  await page.waitForSelector('.opblock');
  return problems;
}

it('renders every operation and webhook of the document, from our own origin, without CSP violations', async () => {
  const doc = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as Doc;
  const page = await browser.browser.newPage();
  const outside: string[] = [];
  page.on(
    'request',
    (request) =>
      !request.url().startsWith(api.url) && !request.url().startsWith('data:') && outside.push(request.url()),
  );
  const problems = await openReference(page);
  const shown = await page.$$eval('.opblock', (blocks) =>
    blocks.map(
      (block) =>
        `${block.querySelector('.opblock-summary-method')?.textContent?.toLowerCase()} ${block.querySelector('.opblock-summary-path, .opblock-summary-path__deprecated')?.getAttribute('data-path')}`,
    ),
  );
  const expected = [
    ...Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path}`),
    ),
    ...Object.entries(doc.webhooks).flatMap(([event, operations]) =>
      Object.keys(operations).map((method) => `${method} ${event}`),
    ),
  ];
  expect(expected.length).toBeGreaterThan(30);
  for (const operation of expected) expect(shown).toContain(operation);
  expect(await page.$eval('.info .description', (el) => el.textContent)).toContain('MCP server');
  expect(problems).toEqual([]);
  expect(outside).toEqual([]);
  await page.setViewport({ width: 1280, height: 900 });
  await page.screenshot({ path: resolve(screenshots, 'docs-signed-out.png'), fullPage: true });
  expect(await page.$('#try-sign-in a[href="/login?next=%2Fdocs"]')).not.toBeNull();
  await page.close();
}, 120_000);

it('shows an example response taken from the schemas for an operation', async () => {
  const page = await browser.browser.newPage();
  await openReference(page);
  await page.click('#operations-Scans-get_scans__id_ .opblock-summary-control, .opblock-get [data-path="/scans/{id}"]');
  await page.waitForSelector('.opblock.is-open .responses-table');
  const example = await page.$eval(
    '.opblock.is-open .responses-table .response[data-code="200"] .microlight, .opblock.is-open .responses-table .response[data-code="200"] pre',
    (el) => el.textContent ?? '',
  );
  expect(JSON.parse(example)).toMatchObject({
    data: { public_id: expect.stringMatching(/^[0-9a-z]{26}$/), status: expect.any(String) },
  });
  await page.close();
}, 120_000);

it('a signed-in user makes a one-hour token on the page and tries GET /me with it', async () => {
  const password = 'docs page password';
  const { user } = await createTestUser(api, 'starter', password);
  const page = await signedInPage(browser.browser, api.url, user.email, password, { javascript: true });
  await page.goto(`${api.url}/docs`);
  await Promise.all([page.waitForNavigation(), page.click('#try-token button[type="submit"]')]);
  const token = await page.$eval('#swagger-ui', (el) => el.getAttribute('data-token') ?? '');
  registerSecret(token);
  expect(token).toMatch(/^wpt_/);
  expect(await page.$('#try-ready')).not.toBeNull();
  await page.waitForSelector('html[data-reference="ready"]', { timeout: 60_000 });
  const stored = await api.db.knex('api_tokens').where({ user_id: user.id }).whereNotNull('expires_at').first();
  expect(stored.name).toBe('API reference (one hour)');
  expect(new Date(stored.expires_at).getTime() - api.clock.read().getTime()).toBe(60 * 60 * 1000);

  await page.click('.opblock-get [data-path="/me"]');
  await page.waitForSelector('.opblock.is-open .try-out__btn');
  await page.click('.opblock.is-open .try-out__btn');
  await page.click('.opblock.is-open .execute');
  await page.waitForSelector('.opblock.is-open .live-responses-table tbody .response-col_status', { timeout: 30_000 });
  const status = await page.$eval('.opblock.is-open .live-responses-table tbody .response-col_status', (el) =>
    el.textContent?.trim(),
  );
  const body = await page.$eval(
    '.opblock.is-open .live-responses-table tbody .response-col_description pre',
    (el) => el.textContent ?? '',
  );
  expect(status).toBe('200');
  expect(JSON.parse(body)).toMatchObject({ data: { email: user.email, plan: { key: 'starter' } } });
  await page.screenshot({ path: resolve(screenshots, 'docs-tried-me.png') });
  await page.close();
}, 120_000);

it('opens with a quick start, has one h1 once the reference is drawn, and its one-hour tokens stay out of the token list', async () => {
  const password = 'docs page password';
  const { user } = await createTestUser(api, 'starter', password);
  const page = await signedInPage(browser.browser, api.url, user.email, password, { javascript: true });
  const listed = async () => {
    await page.goto(`${api.url}/settings`);
    return page.$$eval('#tokens tbody tr', (rows) => rows.map((row) => row.getAttribute('data-token-id')));
  };
  const before = await listed();
  expect(before).toHaveLength(1);
  for (let visit = 0; visit < 2; visit++) {
    await page.goto(`${api.url}/docs`);
    await Promise.all([page.waitForNavigation(), page.click('#try-token button[type="submit"]')]);
    registerSecret(await page.$eval('#swagger-ui', (el) => el.getAttribute('data-token') ?? ''));
    await page.waitForSelector('html[data-reference="ready"]', { timeout: 60_000 });
    await page.waitForSelector('.info .title');
    expect(await page.$$eval('h1', (all) => all.map((h) => h.textContent))).toEqual(['API reference']);
    expect(await page.$eval('.info .title', (el) => el.tagName)).toBe('H2');
    const intro = await page.$eval('#docs-intro', (el) => el.textContent ?? '');
    expect(intro.indexOf('Quick start')).toBeLessThan(intro.indexOf('Try calls with your account'));
    expect(await page.$eval('#quick-start-me', (el) => el.textContent)).toBe(
      `curl -H "Authorization: Bearer $TOKEN" ${api.config.baseUrl}/api/v1/me`,
    );
  }
  expect(await api.db.knex('api_tokens').where({ user_id: user.id, purpose: 'docs' })).toHaveLength(2);
  expect(await listed()).toEqual(before);
  await page.browserContext().close();
}, 120_000);

it('serves its assets with long caching only for the current version, and the page without JavaScript points at the document', async () => {
  const page = await (await fetch(`${api.url}/docs`)).text();
  const script = /src="(\/docs\/assets\/swagger-ui-bundle\.js\?v=[^"]+)"/.exec(page)?.[1];
  expect(script).toBeDefined();
  const asset = await fetch(`${api.url}${script!.replaceAll('&amp;', '&')}`);
  expect(asset.status).toBe(200);
  expect(asset.headers.get('cache-control')).toContain('immutable');
  expect((await fetch(`${api.url}/docs/assets/swagger-ui-bundle.js`)).headers.get('cache-control')).toBe(
    'public, max-age=3600',
  );
  // Compressed for clients that take gzip (fetch decompresses it again: the same script).
  expect(asset.headers.get('content-encoding')).toBe('gzip');
  expect(Number(asset.headers.get('content-length'))).toBeLessThan(600_000);
  expect((await asset.text()).length).toBeGreaterThan(1_000_000);
  expect((await fetch(`${api.url}/docs/assets/../../package.json`)).status).toBe(404);
  expect((await fetch(`${api.url}/docs/assets/index.html`)).status).toBe(404);
  expect(page).toContain('<noscript>');
  const refused = await fetch(`${api.url}/docs/try-token`, {
    method: 'POST',
    redirect: 'manual',
    headers: { origin: api.url },
  });
  expect(refused.status).toBe(302);
  expect(refused.headers.get('location')).toBe('/login?next=%2Fdocs');
});
