import type { Browser, Page } from 'puppeteer-core';
import { createAlertActivities } from '../../activities/alerts.ts';
import { createStorage } from '../../db/store/index.ts';
import { createLogger } from '../../infra/logger.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { insertFinishedScan, insertTarget, scoresOf } from '../harness/alerts.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage, submit } from '../harness/browser.ts';
import { freePort } from '../harness/isolated.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { WebClient } from '../harness/web.ts';

/**
 * The settings at /settings in Debian's Chromium, on the real API, Postgres and SMTP server: profile, the
 * password change and the sessions it signs out, sessions, alert e-mail preferences, API tokens (shown once
 * after a redirect) and a Free plan's reason instead of tokens.
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let smtp: TestSmtpServer;
const PASSWORD = 'settings page password';

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  api = await startTestApi();
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 60_000);
afterAll(async () => {
  await closeBrowser?.();
  await api?.close();
  await smtp?.stop();
});

const userWith = (plan: 'free' | 'starter') => createTestUser(api, plan, PASSWORD).then(({ user }) => user);
const open = async (email: string, javascript = false): Promise<Page> => {
  const page = await signedInPage(browser, api.url, email, PASSWORD, { javascript });
  await page.goto(`${api.url}/settings`);
  return page;
};
const path = (page: Page) => new URL(page.url()).pathname;
const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent?.trim() ?? '');

it('saves the profile: name and the e-mail language, which the pages follow', async () => {
  const user = await userWith('starter');
  const page = await open(user.email);
  expect(await page.$$eval('h1', (all) => all.length)).toBe(1);
  expect(await page.$eval('nav a[aria-current="page"]', (el) => el.getAttribute('href'))).toBe('/settings');
  expect(await text(page, '#email-address')).toBe(user.email);
  expect(await page.$eval('#change-email', (el) => el.getAttribute('href'))).toBe('/account/email');
  await page.$eval('#profile-name', (el) => ((el as unknown as { value: string; checked: boolean }).value = ''));
  await page.type('#profile-name', 'Ada Lovelace');
  await page.select('#profile-locale', 'de');
  expect(await submit(page, '#save-profile')).toBe(200);
  expect(await text(page, '#settings-notice')).toBe('Profil gespeichert.');
  expect(await page.$eval('html', (el) => el.lang)).toBe('de');
  expect(await api.db.knex('users').where({ id: user.id }).first('name', 'locale')).toEqual({
    name: 'Ada Lovelace',
    locale: 'de',
  });
  await page.browserContext().close();
});

it('refuses a wrong current password beside the field; a change signs out the other browser, not this one', async () => {
  const user = await userWith('starter');
  const other = await open(user.email);
  const page = await open(user.email);
  await page.type('#current-password', 'not my password');
  await page.type('#new-password', 'quartz lantern 47 meadow');
  expect(await submit(page, '#change-password')).toBe(422);
  expect(
    await page.$eval('#current-password', (el) => [
      el.getAttribute('aria-describedby'),
      el.nextElementSibling?.id,
      el.nextElementSibling?.textContent,
    ]),
  ).toEqual(['current-password-error', 'current-password-error', 'The current password is not correct.']);

  registerSecret('quartz lantern 47 meadow');
  await page.type('#current-password', PASSWORD);
  await page.type('#new-password', 'quartz lantern 47 meadow');
  expect(await submit(page, '#change-password')).toBe(200);
  expect(await text(page, '#settings-notice')).toContain('Password changed.');
  await page.reload();
  expect(path(page)).toBe('/settings');
  await other.reload();
  expect(path(other)).toBe('/login');
  await Promise.all([page.browserContext().close(), other.browserContext().close()]);
});

it('lists the live sessions, signs out one and then every other, and touches no other user’s session', async () => {
  const user = await userWith('starter');
  const others = [await open(user.email), await open(user.email)];
  const page = await open(user.email);
  const rows = await page.$$eval('#sessions-table tbody tr', (trs) =>
    trs.map((tr) => ({ current: tr.getAttribute('data-current'), browser: tr.querySelector('td')?.textContent })),
  );
  expect(rows).toHaveLength(3);
  expect(rows.filter((row) => row.current === 'yes')).toHaveLength(1);
  for (const row of rows) expect(row.browser).toMatch(/^Chrome \d+ · Linux$/);
  expect(await page.$('tr[data-current="yes"] .this-session')).not.toBeNull();
  expect(await page.$('tr[data-current="yes"] form')).toBeNull();

  // Another user cannot sign a session out by its row id.
  const stranger = await userWith('starter');
  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(stranger.email, PASSWORD)).status).toBe(303);
  await client.get('/settings');
  const victimId = await page.$eval('#sessions-table tbody tr:not([data-current])', (tr) =>
    tr.getAttribute('data-session-id'),
  );
  expect((await client.post(`/settings/sessions/${victimId}/sign-out`, {})).status).toBe(404);
  expect(await page.$$('#sessions-table tbody tr')).toHaveLength(3);

  expect(await submit(page, `tr[data-session-id="${victimId}"] .sign-out-session`)).toBe(200);
  expect(await text(page, '#settings-notice')).toBe('The session was signed out.');
  expect(await page.$$('#sessions-table tbody tr')).toHaveLength(2);
  const stillIn = [];
  for (const other of others) {
    await other.reload();
    stillIn.push(path(other) === '/settings');
  }
  expect(stillIn.sort()).toEqual([false, true]);

  expect(await submit(page, '#sign-out-others button')).toBe(200);
  expect(await page.$$('#sessions-table tbody tr')).toHaveLength(1);
  expect(await page.$('#no-other-sessions')).not.toBeNull();
  for (const other of others) {
    await other.reload();
    expect(path(other)).toBe('/login');
  }
  await Promise.all([page, ...others].map((p) => p.browserContext().close()));
}, 90_000);

it('a target alert e-mail turned off is not sent; one left on is', async () => {
  const quiet = await userWith('starter');
  const page = await open(quiet.email);
  expect(
    await page.$eval('#email-target_alerts', (el) => (el as unknown as { value: string; checked: boolean }).checked),
  ).toBe(true);
  await page.click('#email-target_alerts');
  expect(await submit(page, '#save-notifications')).toBe(200);
  expect(
    await page.$eval('#email-target_alerts', (el) => (el as unknown as { value: string; checked: boolean }).checked),
  ).toBe(false);
  expect(
    await page.$eval('#email-live_alerts', (el) => (el as unknown as { value: string; checked: boolean }).checked),
  ).toBe(true);
  expect(await page.$eval('#notifications-link', (el) => el.getAttribute('href'))).toBe('/account/notifications');
  await page.browserContext().close();

  const loud = await userWith('starter');
  // The worker's alert activities, called directly: evaluation, then the e-mail through the real SMTP server.
  const activities = createAlertActivities({
    alerts: createStorage(api.db.knex).alerts,
    mailer: smtpMailer({ url: `smtp://127.0.0.1:${smtp.port}`, from: 'alerts@perf.example.test' }),
    baseUrl: api.config.baseUrl,
    clock: () => new Date(),
    log: createLogger({ logLevel: 'warn' }, 'settings-test'),
  });
  const raiseAlert = async (userId: number) => {
    const target = await insertTarget(api.db.knex, userId);
    const scanId = await insertFinishedScan(api.db.knex, userId, target, scoresOf(45), new Date(Date.now() - 60_000));
    const { changes } = await activities.evaluateTargetAlerts(scanId);
    expect(changes).toEqual([expect.objectContaining({ change: 'raised' })]);
    return activities.sendAlertEmail(changes[0]!.alertId, 'raised');
  };
  expect(await raiseAlert(quiet.id)).toBe('not_wanted');
  expect(await raiseAlert(loud.id)).toBe('sent');
  expect(smtp.messages.map((mail) => mail.to)).toEqual([[loud.email]]);
});

it('creates a token through the form, shows it once with a copy button, and a reload creates no second one', async () => {
  const user = await userWith('starter');
  const page = await open(user.email, true);
  const count = async () =>
    Number((await api.db.knex('api_tokens').where({ user_id: user.id }).count({ n: '*' }))[0]!.n);
  const before = await count();
  await page.type('#token-name', 'deploy hook');
  const status = await submit(page, '#create-token-button');
  expect(status).toBe(200);
  expect(path(page)).toBe('/settings');
  const token = await page.$eval(
    '#new-token-value',
    (el) => (el as unknown as { value: string; checked: boolean }).value,
  );
  registerSecret(token);
  expect(token).toMatch(/^wpt_[A-Za-z0-9_-]{40}$/);
  expect(page.url()).not.toContain(token);
  await page.waitForSelector('#copy-token:not([hidden])');
  expect(await count()).toBe(before + 1);

  await page.reload();
  expect(await page.$('#new-token')).toBeNull();
  expect(await page.content()).not.toContain(token);
  expect(await count()).toBe(before + 1);
  expect(await page.$$eval('#tokens .token-name', (cells) => cells.map((c) => c.textContent))).toContain('deploy hook');
  await page.browserContext().close();
});

it('tells a Free user why there are no tokens, and refuses a forced POST with 403', async () => {
  const user = await userWith('free');
  const page = await open(user.email);
  expect(await text(page, '#no-api')).toContain('Your plan (Free) has no API access');
  expect(await page.$eval('#plan-link', (el) => el.getAttribute('href'))).toBe('/settings/plan');
  expect(await page.$('#create-token')).toBeNull();
  await page.browserContext().close();

  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  await client.get('/settings');
  const before = await api.db.knex('api_tokens').where({ user_id: user.id }).count({ n: '*' });
  expect((await client.post('/settings/tokens', { name: 'forced' })).status).toBe(403);
  expect(await api.db.knex('api_tokens').where({ user_id: user.id }).count({ n: '*' })).toEqual(before);
});
