import type { Browser, Page } from 'puppeteer-core';
import { DEFAULT_THRESHOLDS } from '../../core/monitoring/thresholds.ts';
import { createStorage } from '../../db/store/index.ts';
import { insertFinishedScan, scoresOf } from '../harness/alerts.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage as signInWithForm, submit } from '../harness/browser.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Rough edges a new user hit, in Chromium against the real API and Postgres (data seeded through the stores):
 * the home page's sign-in note is information, form buttons sit under their fields, a refused comparison keeps
 * the list, a target's page has no self-link nor "Recent alerts: None" beside an open alert, dismissed alerts
 * have their filter and an undo, alerts name the page by host and path, and an IP address as a live-data site
 * is refused in words. (Scheme-less addresses in the scan and target forms: test/web/plan-usage.test.ts.)
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  api = await startTestApi();
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await api?.close();
});

const storage = () => createStorage(api.db.knex);
const text = (page: Page, selector: string) => page.$eval(selector, (el) => (el.textContent ?? '').trim());
const box = (page: Page, selector: string) =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom };
  });

it('signed out: the sign-in note is information, and the sign-in and sign-up buttons sit under their fields', async () => {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`${api.url}/scans/new?url=example.com`);
  const note = await page.evaluate(`(() => {
    const el = document.querySelector('#sign-in-notice');
    return { className: el.className, role: el.getAttribute('role'), background: getComputedStyle(el).backgroundColor };
  })()`);
  expect(note).toEqual({ className: 'information', role: 'note', background: 'rgb(221, 244, 255)' });
  for (const [path, field, button] of [
    ['/login', '#password', '#sign-in'],
    ['/signup', '#password', '#sign-up'],
  ] as const) {
    await page.goto(`${api.url}${path}`);
    expect((await box(page, button)).top).toBeGreaterThan((await box(page, field)).bottom);
  }
  await context.close();
});

it('a refused comparison keeps the scan list on screen with the choice ticked', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const target = await storage().targets.insert({
    userId: user.id,
    url: 'https://compare.example/',
    host: 'compare.example',
    region: 'local',
    isActive: true,
    thresholds: DEFAULT_THRESHOLDS,
    createdAt: new Date(),
  });
  const first = await insertFinishedScan(api.db.knex, user.id, target, scoresOf(90), new Date(Date.now() - 60_000));
  await insertFinishedScan(api.db.knex, user.id, target, scoresOf(80), new Date());
  const page = await signInWithForm(browser, api.url, user.email, PASSWORD);
  await page.goto(`${api.url}/scans`);
  await page.click(`#pick-${first}`);
  expect(await submit(page, '#compare-submit')).toBe(422);
  expect(await text(page, '#compare-error')).toBe('Choose exactly two scans to compare.');
  expect(await page.$$eval('#compare-form tbody tr', (rows) => rows.length)).toBe(2);
  expect(await page.$eval(`#pick-${first}`, (el) => (el as unknown as { checked: boolean }).checked)).toBe(true);
  await page.browserContext().close();
});

it('target page and alerts: no self-link, no empty recent list beside an open alert, the page by host and path, dismiss and undo', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const target = await storage().targets.insert({
    userId: user.id,
    url: 'https://shop.example/pricing',
    host: 'shop.example',
    region: 'local',
    isActive: true,
    thresholds: DEFAULT_THRESHOLDS,
    createdAt: new Date(),
  });
  const scan = await insertFinishedScan(api.db.knex, user.id, target, scoresOf(40), new Date());
  const alert = await storage().alerts.insert({
    userId: user.id,
    targetId: target.id,
    type: 'score_below_threshold',
    severity: 'critical',
    details: { score: 'overall', value: 40, reference: 50 },
    url: target.url,
    host: target.host,
    region: target.region,
    scanPublicId: scan,
    createdAt: new Date(),
  });
  const page = await signInWithForm(browser, api.url, user.email, PASSWORD);
  await page.goto(`${api.url}/targets/${target.id}`);
  expect(await page.$(`#open-alerts-list #alert-${alert.id}`)).not.toBeNull();
  expect(await page.$('#recent-alerts-list')).toBeNull();
  expect(await page.$(`#alert-${alert.id} a[href="/targets/${target.id}"]`)).toBeNull();
  expect(await text(page, `#alert-${alert.id} .alert-message`)).toBe(
    'The overall score of shop.example/pricing is 40, below the critical threshold of 50.',
  );

  await page.goto(`${api.url}/alerts`);
  expect(await submit(page, `#alert-${alert.id} button.dismiss`)).toBe(200);
  expect(await text(page, '#notice')).toBe('Alert dismissed.');
  await page.goto(`${api.url}/alerts?status=dismissed`);
  expect(await page.$eval('#filter-status', (el) => (el as unknown as { value: string }).value)).toBe('dismissed');
  expect(await page.$$eval('#alerts > li', (items) => items.map((li) => li.id))).toEqual([`alert-${alert.id}`]);
  expect(await submit(page, `#alert-${alert.id} button.undismiss`)).toBe(200);
  expect(await text(page, '#notice')).toBe('Dismissal undone.');
  expect(await text(page, '#no-alerts')).toBeTruthy();
  expect((await storage().alerts.findOwned(user.id, alert.id))?.isDismissed).toBe(false);
  await page.goto(`${api.url}/alerts?status=open`);
  expect(await page.$(`#alert-${alert.id} button.dismiss`)).not.toBeNull();
  await page.browserContext().close();

  // Another user's alert cannot be undismissed.
  const other = await createTestUser(api, 'starter', PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(other.user.email, PASSWORD)).status).toBe(303);
  await client.get('/alerts');
  await storage().alerts.dismiss(user.id, alert.id, new Date());
  expect((await client.post(`/alerts/${alert.id}/undismiss`, { next: '/alerts' })).status).toBe(404);
  expect((await storage().alerts.findOwned(user.id, alert.id))?.isDismissed).toBe(true);
});

it('an IP address as a live-data site is refused saying IP addresses are not allowed', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl, { 'accept-language': 'de' });
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  await client.get('/live');
  const refused = await client.post('/live', { domain: '192.0.2.10' });
  expect(refused.status).toBe(422);
  expect(refused.text).toContain(
    '<p class="error field-error" id="domain-error">IP-Adressen sind nicht erlaubt: Geben Sie den Domainnamen der Site ein, etwa www.example.com.</p>',
  );
});
