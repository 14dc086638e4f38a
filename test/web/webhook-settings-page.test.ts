import type { Browser, Page } from 'puppeteer-core';
import { Webhook } from 'standardwebhooks';
import { createStorage } from '../../db/store/index.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage as signInWithForm, submit } from '../harness/browser.ts';
import { freePort } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * The notification settings page in Chromium (no JavaScript), against the real API, Postgres, Temporal and a
 * worker: save rules on the form, the secret and its rotation, a test event through the delivery workflow
 * with its result on the page, the history with attempts, resend, re-enable and replay.
 */
let api: TestApi;
let worker: InProcessWorker;
let smtp: TestSmtpServer;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let receiver: WebhookReceiver;
const PASSWORD = 'a-long-password-1';

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  api = await startTestApi({ env: { CALLBACKS_ALLOW_LOOPBACK: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
  worker = await startInProcessWorker(api, { webhooks: { schedule: [20, 20, 20, 20, 20, 20, 20] } });
  receiver = await webhookReceiver();
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await receiver?.close();
  await worker?.close();
  await api?.close();
  await smtp?.stop();
});

const signedInPage = (email: string): Promise<Page> => signInWithForm(browser, api.url, email, PASSWORD);

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
const setValue = (page: Page, selector: string, value: string) =>
  page.$eval(selector, (el, v) => ((el as unknown as { value: string }).value = v), value);

it('below Pro the page says which plan has webhooks and offers no form', async () => {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const page = await signedInPage(user.email);
  await page.goto(`${api.url}/account/notifications`);
  expect(await text(page, '#plan-required')).toContain('Pro');
  expect(await page.$('#webhook-settings')).toBeNull();
  await page.browserContext().close();
});

it("in German the page and its actions' notices speak German", async () => {
  const { user } = await createTestUser(api, 'pro', PASSWORD);
  const page = await signedInPage(user.email);
  await page.setExtraHTTPHeaders({ 'accept-language': 'de-DE,de;q=0.9' });
  await page.goto(`${api.url}/account/notifications`);
  expect(await page.$eval('html', (el) => el.getAttribute('lang'))).toBe('de');
  expect(await text(page, 'h1')).toBe('Benachrichtigungen');
  expect(await text(page, 'label[for="url"]')).toBe('Webhook-URL');
  expect(await submit(page, '#send-test')).toBe(200);
  expect(await text(page, '#notice')).toContain('Legen Sie zuerst eine Webhook-URL fest');
  await page.type('#url', receiver.url);
  expect(await submit(page, '#save-settings')).toBe(200);
  expect(await text(page, '#notice')).toBe('Einstellungen gespeichert.');
  expect(await submit(page, '#send-test')).toBe(200);
  expect(await text(page, '#notice')).toBe('Testereignis zugestellt: HTTP 200.');
  expect(await text(page, '#delivery-table tbody tr .status')).toBe('zugestellt');
  await page.browserContext().close();
});

it('settings, secret rotation, test event, history, resend, re-enable and replay', async () => {
  const { user } = await createTestUser(api, 'pro', PASSWORD);
  const page = await signedInPage(user.email);
  await page.goto(`${api.url}/settings`);
  await Promise.all([page.waitForNavigation(), page.click('#notifications-link')]);
  expect(new URL(page.url()).pathname).toBe('/account/notifications');

  // A private address is refused next to the field.
  await page.type('#url', 'http://10.0.0.1/hook');
  expect(await submit(page, '#save-settings')).toBe(422);
  expect(await text(page, '#url-error')).toContain('private');

  await setValue(page, '#url', receiver.url);
  await page.type('#header_name', 'X-Secret');
  await page.type('#header_value', 'header-value-123');
  await page.click('#event-alert\\.triggered');
  expect(await submit(page, '#save-settings')).toBe(200);
  expect(await text(page, '#notice')).toBe('Settings saved.');
  expect(await text(page, '#header-value-state')).toContain('A value is set');
  expect(await page.content()).not.toContain('header-value-123');
  expect(await page.$eval('#event-alert\\.triggered', (el) => (el as unknown as { checked: boolean }).checked)).toBe(
    true,
  );

  // Saving with an empty value keeps it.
  expect(await submit(page, '#save-settings')).toBe(200);
  expect(await text(page, '#header-value-state')).toContain('A value is set');

  const firstSecret = await text(page, '#signing-secret');
  expect(firstSecret).toMatch(/^whsec_/);
  expect(await submit(page, '#rotate-secret')).toBe(200);
  const secret = await text(page, '#signing-secret');
  expect(secret).not.toBe(firstSecret);
  expect(await text(page, '#previous-secret')).toContain(firstSecret);

  // Test event: delivered, signed with both secrets, with the header.
  expect(await submit(page, '#send-test')).toBe(200);
  expect(await text(page, '#notice')).toBe('Test event delivered: HTTP 200.');
  const ping = receiver.received.at(-1)!;
  expect(ping.headers['x-secret']).toBe('header-value-123');
  for (const key of [secret, firstSecret])
    expect(new Webhook(key).verify(ping.body, ping.headers as Record<string, string>)).toMatchObject({ event: 'ping' });

  // A failing receiver: the result and the history say so; the attempts page shows the answer.
  receiver.answer([{ status: 500, body: 'receiver broke' }]);
  expect(await submit(page, '#send-test')).toBe(200);
  expect(await text(page, '#notice')).toBe('Test event failed: HTTP 500.');
  const failedRow = await page.$eval('#delivery-table tbody tr', (el) => el.getAttribute('data-delivery-id'));
  const row = `tr[data-delivery-id="${failedRow}"]`;
  expect(await text(page, `${row} .status`)).toBe('failed');
  expect(await text(page, `${row} .code`)).toBe('500');
  await Promise.all([page.waitForNavigation(), page.click(`${row} a`)]);
  expect(await text(page, '#attempts')).toContain('receiver broke');
  await page.goBack();

  // Resend: one more attempt with the same webhook-id.
  receiver.answer([{ status: 200 }]);
  const before = receiver.received.length;
  expect(await submit(page, `${row} button.resend`)).toBe(200);
  await receiver.waitFor(before + 1);
  const storage = createStorage(api.db.knex);
  const deadline = Date.now() + 30_000;
  while ((await storage.webhooks.findDelivery(Number(failedRow)))!.status !== 'succeeded' && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 50));
  await page.reload();
  expect(await text(page, `${row} .status`)).toBe('succeeded');
  expect(await text(page, `${row} .attempts`)).toBe('2');
  expect(receiver.received.at(-1)!.headers['webhook-id']).toBe(
    (await storage.webhooks.findDelivery(Number(failedRow)))!.messageId,
  );

  // 410 disables the endpoint; one button enables it again.
  receiver.answer([{ status: 410 }]);
  expect(await submit(page, '#send-test')).toBe(200);
  expect(await text(page, '#endpoint-disabled')).toContain('410 Gone');
  expect(await submit(page, '#enable-endpoint')).toBe(200);
  expect(await page.$('#endpoint-disabled')).toBeNull();

  // Replay every failed delivery since an hour ago: the 410 one goes out again.
  receiver.answer([{ status: 200 }]);
  const beforeReplay = receiver.received.length;
  await setValue(page, '#since', new Date(Date.now() - 3600_000).toISOString().slice(0, 16));
  expect(await submit(page, '#replay-button')).toBe(200);
  expect(await text(page, '#notice')).toBe('Replaying 1 failed delivery.');
  await receiver.waitFor(beforeReplay + 1);
  await page.browserContext().close();
});

it("a notice link cannot put words in the service's mouth: crafted error texts are not shown, a test result comes from the own delivery record", async () => {
  const { user } = await createTestUser(api, 'pro', PASSWORD);
  const page = await signedInPage(user.email);
  const crafted = 'Your account is suspended, call +1 555 0100';
  for (const query of [
    `notice=test_failed&error=${encodeURIComponent(crafted)}`,
    `notice=test_delivered&code=200&error=${encodeURIComponent(crafted)}`,
    `notice=${encodeURIComponent(crafted)}`,
    `notice=test_result&delivery=1&error=${encodeURIComponent(crafted)}`,
  ]) {
    expect((await page.goto(`${api.url}/account/notifications?${query}`))!.status()).toBe(200);
    // (The language switch link carries the query along, encoded; no text on the page says it.)
    expect(await text(page, 'body')).not.toContain('suspended');
    expect(await page.$('#notice')).toBeNull();
  }

  // Another user's failed test event is not shown on this one's page either.
  const other = await createTestUser(api, 'pro', PASSWORD);
  const otherPage = await signedInPage(other.user.email);
  await otherPage.goto(`${api.url}/account/notifications`);
  await otherPage.type('#url', receiver.url);
  expect(await submit(otherPage, '#save-settings')).toBe(200);
  receiver.answer([{ status: 503, body: 'busy' }]);
  expect(await submit(otherPage, '#send-test')).toBe(200);
  expect(await text(otherPage, '#notice')).toBe('Test event failed: HTTP 503.');
  const otherDelivery = new URL(otherPage.url()).searchParams.get('delivery');
  expect(otherDelivery).toMatch(/^\d+$/);
  await page.goto(`${api.url}/account/notifications?notice=test_result&delivery=${otherDelivery}`);
  expect(await page.$('#notice')).toBeNull();
  receiver.answer([{ status: 200 }]);
  await otherPage.browserContext().close();
  await page.browserContext().close();
});

it('a header value with a control character is refused on the page with the rule, and nothing is stored', async () => {
  const { user } = await createTestUser(api, 'pro', PASSWORD);
  const page = await signedInPage(user.email);
  await page.goto(`${api.url}/account/notifications`);
  await page.type('#url', receiver.url);
  await page.type('#header_name', 'X-Secret');
  for (const value of ['abc\x01def', 'token\x7f', ' padded ']) {
    await setValue(page, '#header_value', value);
    expect(await submit(page, '#save-settings')).toBe(422);
    expect(await text(page, '#header_value-error')).toContain('no control characters');
    expect(await page.$eval('#header_value', (el) => el.getAttribute('aria-invalid'))).toBe('true');
  }
  const stored = await api.db.knex('webhook_endpoints').where({ user_id: user.id }).first();
  expect(stored).toMatchObject({ url: null, header_name: null, header_value_encrypted: null });
  await page.browserContext().close();
});
