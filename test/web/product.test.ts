import type { Browser, Page } from 'puppeteer-core';
import { buildResultRecord } from '../../core/scan/result.ts';
import { newPublicId } from '../../core/ids.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { createStorage } from '../../db/store/index.ts';
import { markFinished } from '../../services/scans.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { createTestUser } from '../harness/api.ts';
import { launchBrowser } from '../harness/browser.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';
import { cleanObservation, formFactor, SCANNED_AT } from '../unit/observation-builder.ts';

/**
 * The web area as a new user meets it, in Chromium against the real stack: the URL box on the signed-out
 * home page survives sign-up, the scan runs through the real worker while the progress page follows it to
 * the report, and the list, the hourly limit, compare, navigation without JavaScript and the language switch
 * behave as a user would expect.
 */
let stack: ScanStack;
let sites: FixtureSites;
let browser: Browser;
let closeBrowser: () => Promise<void>;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay' });
  ({ browser, close: closeBrowser } = await launchBrowser());
});

afterAll(async () => {
  await closeBrowser?.();
  await stack?.close();
  await sites?.close();
});

const storage = () => createStorage(stack.api.db.knex);

async function freshPage(options: { javascript?: boolean; language?: string } = {}): Promise<Page> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setJavaScriptEnabled(options.javascript ?? true);
  await page.setExtraHTTPHeaders({ 'accept-language': options.language ?? 'en-GB,en;q=0.9' });
  await page.setViewport({ width: 1280, height: 900 });
  return page;
}

/** Signs up (which gives no session: the "check your inbox" page) and then signs in with the password. */
async function signUp(page: Page, email: string): Promise<void> {
  await page.type('#name', 'New User');
  await page.type('#email', email);
  await page.type('#password', 'a-long-password-1');
  await Promise.all([page.waitForNavigation(), page.click('#sign-up')]);
  expect(new URL(page.url()).pathname).toBe('/signup/check-inbox');
  await Promise.all([page.waitForNavigation(), page.click('#to-sign-in')]);
  await page.type('#email', email);
  await page.type('#password', 'a-long-password-1');
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
}

const emailFor = (label: string) =>
  `${label}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;

describe('the web area as a product', () => {
  it('takes a new visitor from the home page box through sign-up and a real scan to its report and the list', async () => {
    const page = await freshPage();
    const target = `${sites.origin}/fast/`;
    await page.goto(stack.api.url);
    await page.type('#scan-url', target);
    await Promise.all([page.waitForNavigation(), page.click('#scan-submit')]);
    // Signed out: asked to sign in or up, with the address kept.
    expect(await page.$eval('#sign-in-notice', (el) => el.textContent)).toContain('Sign in or create');
    expect(await page.$eval('#scan-url', (el) => (el as unknown as { value: string }).value)).toBe(target);
    await Promise.all([page.waitForNavigation(), page.click('a[href^="/signup?next="]')]);
    await signUp(page, emailFor('free'));
    // Continued where the visitor was: the dashboard's box holds the address.
    expect(new URL(page.url()).pathname).toBe('/scans/new');
    expect(await page.$eval('#scan-url', (el) => (el as unknown as { value: string }).value)).toBe(target);
    await Promise.all([page.waitForNavigation(), page.click('#scan-submit')]);
    const scanPath = new URL(page.url()).pathname;
    expect(scanPath).toMatch(/^\/scans\/[0-9a-z]{26}$/);
    const scanId = scanPath.split('/')[2]!;
    expect(await page.$eval('#progress', (el) => el.getAttribute('data-status'))).toMatch(/queued|running/);
    // The page follows the scan by itself and opens the report when it has finished.
    await page.waitForFunction(
      (id) => (globalThis as unknown as { location: { pathname: string } }).location.pathname === `/reports/${id}`,
      { timeout: 240_000, polling: 500 },
      scanId,
    );
    await page.waitForSelector('#scores');
    expect(await page.$eval('[data-score="overall"] b', (el) => Number(el.textContent))).toBeGreaterThan(0);
    // At a glance, from the result the worker stored: the waterfall starts with the page itself, and it is not WordPress.
    expect(await page.$eval('#waterfall-desktop tbody tr .wf-url span', (el) => el.getAttribute('title'))).toBe(target);
    expect(await page.$eval('[data-score="wordpress"]', (el) => el.textContent)).toBe('–WordPress: not detected');

    await page.goto(`${stack.api.url}/scans`);
    expect(
      await page.$$eval('tr[data-scan-id]', (rows) => rows.map((row) => row.getAttribute('data-scan-id'))),
    ).toContain(scanId);
    expect(await page.$eval(`tr[data-scan-id="${scanId}"] .status`, (el) => el.textContent)).toBe('finished');
    await page.browserContext().close();
  }, 300_000);

  it('shows the hourly limit in the page, next to the box, with the address kept', async () => {
    const { user } = await createTestUser(stack.api, 'free', 'a-long-password-1');
    // The Free plan's hourly scans, already used.
    const now = stack.api.clock.read();
    for (let i = 0; i < 5; i += 1) {
      await storage().scans.insert({
        publicId: newPublicId(now),
        userId: user.id,
        url: `https://site-${i}.example/`,
        host: `site-${i}.example`,
        region: stack.api.config.regions.default,
        isPublic: false,
        authType: null,
        authSecret: null,
        requestedAt: now,
        cacheKey: null,
      });
    }
    const page = await freshPage();
    await signIn(page, user.email);
    await page.type('#scan-url', 'https://one-more.example/');
    const [response] = await Promise.all([page.waitForNavigation(), page.click('#scan-submit')]);
    expect(response?.status()).toBe(429);
    expect(await page.$eval('#form-error', (el) => el.textContent)).toMatch(
      /used your 5 scans for this hour\. Try again in \d+ minute/,
    );
    expect(await page.$eval('#scan-url', (el) => (el as unknown as { value: string }).value)).toBe(
      'https://one-more.example/',
    );
    await page.browserContext().close();
  });

  it('compares two scans of a page that got slower, with every difference pointing the right way', async () => {
    const { user } = await createTestUser(stack.api, 'starter', 'a-long-password-1');
    const fast = cleanObservation();
    const slow = cleanObservation({
      desktop: formFactor({
        performanceScore: 0.55,
        metrics: { fcpMs: 2600, lcpMs: 4800, cls: 0.01, tbtMs: 900, speedIndexMs: 3000, interactiveMs: 3500 },
      }),
    });
    const ids: string[] = [];
    for (const [i, observation] of [fast, slow].entries()) {
      const at = new Date(stack.api.clock.read().getTime() - (2 - i) * 3600_000);
      const scan = await storage().scans.insert({
        publicId: newPublicId(at),
        userId: user.id,
        url: 'https://shop.example/',
        host: 'shop.example',
        region: 'eu',
        isPublic: false,
        authType: null,
        authSecret: null,
        requestedAt: at,
        cacheKey: null,
      });
      await markFinished(
        storage().scans,
        scan.publicId,
        buildResultRecord(observation, scoreScan(observation, SCANNED_AT)),
        at,
      );
      ids.push(scan.publicId);
    }
    const page = await freshPage();
    await signIn(page, user.email);
    await page.goto(`${stack.api.url}/scans`);
    for (const id of ids) await page.click(`#pick-${id}`);
    await Promise.all([page.waitForNavigation(), page.click('#compare-submit')]);
    expect(new URL(page.url()).pathname).toBe('/compare');
    const change = (selector: string) => page.$eval(selector, (el) => el.getAttribute('data-change'));
    expect(await change('#metrics-desktop [data-metric="lcp_ms"] [data-change]')).toBe('worse');
    expect(await change('#metrics-desktop [data-metric="tbt_ms"] [data-change]')).toBe('worse');
    expect(await change('#compare-scores [data-score="speed"] [data-change]')).toBe('worse');
    expect(await page.$eval('#metrics-desktop [data-metric="lcp_ms"] td:last-child', (el) => el.textContent)).toContain(
      '+3.6 s',
    );
    // Findings the slower scan brought: a slow LCP on desktop, which the fast one did not have.
    expect(
      await page.$$eval('#findings-appeared li', (items) => items.map((li) => li.getAttribute('data-code'))),
    ).toContain('speed.lcp-slow');
    await page.browserContext().close();
  });

  it('navigates without JavaScript, marking the current page', async () => {
    const { user } = await createTestUser(stack.api, 'starter', 'a-long-password-1');
    const page = await freshPage({ javascript: false });
    await signIn(page, user.email);
    for (const [label, path] of [
      ['Scans', '/scans'],
      ['Targets', '/targets'],
      ['Alerts', '/alerts'],
      ['Live data', '/live'],
      ['Flows', '/flows'],
      ['Settings', '/settings'],
      ['Dashboard', '/'],
    ] as const) {
      const link = await page.$(`nav a[href="${path}"]`);
      expect({ label, found: Boolean(link) }).toEqual({ label, found: true });
      const [response] = await Promise.all([page.waitForNavigation(), link!.click()]);
      expect({ path, status: response?.status() }).toEqual({ path, status: 200 });
      expect(await page.$eval('nav a[aria-current="page"]', (el) => el.getAttribute('href'))).toBe(path);
    }
    await page.browserContext().close();
  });

  it("switches the language and keeps the choice on later pages, over the browser's own", async () => {
    const { user } = await createTestUser(stack.api, 'starter', 'a-long-password-1');
    const page = await freshPage({ language: 'en-US' });
    await signIn(page, user.email);
    expect(await page.$eval('html', (el) => el.lang)).toBe('en');
    await Promise.all([page.waitForNavigation(), page.click('#language-switch')]);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await page.$eval('html', (el) => el.lang)).toBe('de');
    expect(await page.$eval('h1', (el) => el.textContent)).toBe('Übersicht');
    await page.goto(`${stack.api.url}/scans?status=finished`);
    expect(await page.$eval('html', (el) => el.lang)).toBe('de');
    expect(await page.$eval('nav a[aria-current="page"]', (el) => el.textContent)).toBe('Scans');
    expect(await page.$eval('#filter-status option[selected]', (el) => el.textContent)).toBe('fertig');
    await page.browserContext().close();
  });
});

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${stack.api.url}/login`);
  await page.type('#email', email);
  await page.type('#password', 'a-long-password-1');
  await Promise.all([page.waitForNavigation(), page.click('#sign-in')]);
  expect(new URL(page.url()).pathname).toBe('/');
}
