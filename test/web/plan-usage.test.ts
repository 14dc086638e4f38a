import type { Browser, Page } from 'puppeteer-core';
import { createStorage } from '../../db/store/index.ts';
import { insertRumRows, siteTraffic } from '../../fixtures/rum-dashboard.ts';
import { runOperatorCommand } from '../../ops/cli.ts';
import { planChangeCommand } from '../../services/plan-requests.ts';
import { utcDay } from '../../core/clock.ts';
import { loadConfig } from '../../infra/config.ts';
import { baseTestEnv } from '../harness/shared.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage as signInWithForm, submit } from '../harness/browser.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';
import { WebClient } from '../harness/web.ts';

/**
 * The plan and usage page in Chromium against the real API, Postgres, ClickHouse (behind a forwarder that can
 * be cut), Temporal and an SMTP sink: each row shows what was used (scans and a target made through the forms,
 * with addresses typed without a scheme), the upgrade request arrives naming the operator command (which
 * then works), the throttle, an over-plan message's link, and ClickHouse away.
 */
let api: TestApi;
let clickhouse: IsolatedClickHouse;
let proxy: TcpProxy;
let smtp: TestSmtpServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const PASSWORD = 'a-long-password-1';
const OPERATORS = 'plans@operators.example';

beforeAll(async () => {
  clickhouse = await isolatedClickHouse();
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  const upstream = new URL(loadConfig(baseTestEnv()).clickhouse.url);
  proxy = new TcpProxy(upstream.hostname, Number(upstream.port));
  await proxy.start();
  api = await startTestApi({
    env: {
      CLICKHOUSE_DATABASE: clickhouse.database,
      CLICKHOUSE_URL: `http://127.0.0.1:${proxy.port}`,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      OPERATOR_EMAIL: OPERATORS,
    },
  });
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await api?.close();
  await proxy?.cut();
  await smtp?.stop();
  await clickhouse?.drop();
});

const storage = () => createStorage(api.db.knex);
const text = (page: Page, selector: string) => page.$eval(selector, (el) => (el.textContent ?? '').trim());
const row = async (page: Page, key: string) => ({
  used: await text(page, `#usage-${key} .used`),
  allowed: await text(page, `#usage-${key} .allowed`),
});

it('shows each limit beside what was used; the upgrade request mails the operators the command, once a day', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const page = await signInWithForm(browser, api.url, user.email, PASSWORD);

  // Two scans from the URL box and one target from its form, each address typed without a scheme.
  for (const address of ['plan-usage.example', 'plan-usage.example/pricing']) {
    await page.goto(api.url);
    await page.type('#scan-url', address);
    expect(await submit(page, '#scan-submit')).toBe(200);
    expect(new URL(page.url()).pathname).toMatch(/^\/scans\/[0-9a-z]+$/);
  }
  expect(
    (await storage().scans.listOwned(user.id, {}, { limit: 5, page: 1 })).items.map((scan) => scan.url).sort(),
  ).toEqual(['https://plan-usage.example/', 'https://plan-usage.example/pricing']);
  await page.goto(`${api.url}/targets`);
  await page.type('#target-url', 'watched.example/shop');
  expect(await submit(page, '#add-target-form button[type="submit"]')).toBe(200);
  expect((await storage().targets.listOwned(user.id, { limit: 5, page: 1 })).items[0]?.url).toBe(
    'https://watched.example/shop',
  );

  // Three API calls today and a live-data site with 7 page views this month, seeded through the stores.
  for (let i = 0; i < 3; i++) await storage().usage.countCall(user.id, utcDay(new Date()).day, 500, false);
  const site = await storage().rumSites.insert({
    userId: user.id,
    publicId: `planusage${String(user.id).padStart(11, '0')}`,
    domain: 'measured.example',
    sampleRate: 100,
    createdAt: new Date(),
  });
  await insertRumRows(clickhouse.client, siteTraffic({ siteId: site.id, now: new Date(), pageViews: 7, days: 0 }));

  const response = await page.goto(`${api.url}/settings/plan`);
  expect(response?.status()).toBe(200);
  expect(await text(page, 'h1')).toBe('Plan and usage');
  expect(await text(page, '#current-plan p')).toBe('Your plan is Starter.');
  expect(await row(page, 'apiDailyLimit')).toEqual({ used: '3', allowed: '500' });
  expect(await row(page, 'hourlyScanLimit')).toEqual({ used: '2', allowed: '30' });
  expect(await row(page, 'maxTargets')).toEqual({ used: '1', allowed: '5' });
  expect(await row(page, 'maxRumSites')).toEqual({ used: '1', allowed: '2' });
  expect(await row(page, 'rumMonthlyPageviews')).toEqual({ used: 'measured.example: 7', allowed: '100,000' });
  expect(await text(page, '#next-plan h2')).toBe('What Pro adds');
  expect(await text(page, '#next-plan [data-limit="maxTargets"]')).toBe('Monitored targets: 5 → 25');
  expect(await text(page, '#next-plan [data-feature="webhooks"]')).toBe('Webhooks');

  // The request: a confirmation on the page, the mail at the sink with the exact operator command.
  await page.select('#plan', 'pro');
  await page.type('#message', 'We need more targets.');
  expect(await submit(page, '#send-request')).toBe(200);
  expect(await text(page, '#notice')).toBe('Your request for Pro was sent. We will answer by e-mail.');
  const [mail] = await smtp.waitForMessages(1);
  expect(mail!.to).toEqual([OPERATORS]);
  expect(mail!.subject).toContain(user.email);
  expect(mail!.text).toContain('We need more targets.');
  const command = planChangeCommand(user.email, 'pro');
  expect(mail!.text).toContain(command);

  // A second request the same day: refused in words, nothing sent.
  await page.select('#plan', 'agency');
  expect(await submit(page, '#send-request')).toBe(429);
  expect(await text(page, '#notice')).toMatch(
    /^You asked for a plan change less than a day ago; .* after \d+ \w+ \d{4}, \d\d:\d\d UTC\.$/,
  );
  expect(smtp.messages).toHaveLength(1);

  // The command from the mail, run as an operator would, changes the plan.
  const lines: string[] = [];
  const argv = command.replace(/^npm run ops -- /, '').split(' ');
  expect(await runOperatorCommand(api.db.knex, argv, (line) => lines.push(line))).toBe(0);
  await page.goto(`${api.url}/settings/plan`);
  expect(await text(page, '#current-plan p')).toBe('Your plan is Pro.');
  await page.browserContext().close();
});

it('a form asking for an unknown plan or the current one is refused beside the field', async () => {
  const { user } = await createTestUser(api, 'pro', PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  await client.get('/settings/plan');
  for (const plan of ['bogus', 'pro']) {
    const refused = await client.post('/settings/plan/request', { plan, message: '' });
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('<p class="error" id="plan-error">Choose one of the plans listed.</p>');
  }
  expect(smtp.messages.filter((m) => m.text.includes(user.email))).toHaveLength(0);
});

it("an over-plan message links to the page; Free's rows say what is not included", async () => {
  const { user } = await createTestUser(api, 'free', PASSWORD);
  const page = await signInWithForm(browser, api.url, user.email, PASSWORD);
  await page.setExtraHTTPHeaders({ 'accept-language': 'de' });
  await page.goto(`${api.url}/live`);
  expect(await submit(page, '#upgrade a.plan-link')).toBe(200);
  expect(new URL(page.url()).pathname).toBe('/settings/plan');
  expect(await text(page, 'h1')).toBe('Tarif und Nutzung');
  expect(await row(page, 'apiDailyLimit')).toEqual({ used: '0', allowed: 'nicht enthalten' });
  expect(await row(page, 'rumMonthlyPageviews')).toEqual({ used: 'keine Sites', allowed: 'nicht enthalten' });
  expect(await text(page, '#next-plan h2')).toBe('Was Starter hinzufügt');
  await page.browserContext().close();
});

it('with ClickHouse away the page still answers, and the page-views row says why it has no number', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  await storage().rumSites.insert({
    userId: user.id,
    publicId: `planaway${String(user.id).padStart(12, '0')}`,
    domain: 'away.example',
    sampleRate: 100,
    createdAt: new Date(),
  });
  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  await proxy.cut();
  try {
    const page = await client.get('/settings/plan');
    expect(page.status).toBe(200);
    expect(page.text).toContain(
      '<span id="pageviews-away">Page views cannot be read just now (the live-data store is not answering).</span>',
    );
    expect(page.text).toMatch(/<tr id="usage-maxRumSites">.*<td class="used"[^>]*>1<\/td>/);
  } finally {
    await proxy.restore();
  }
});
