import type { Browser, Page } from 'puppeteer-core';
import { alertEmailWorkflowId, mainTaskQueue } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import { ACCOUNT_MAIL_THROTTLE } from '../../services/account-mail-throttle.ts';
import { mintToken } from '../../services/tokens.ts';
import { waitUntil } from '../../stack/proc.ts';
import type { AlertEvaluation } from '../../core/monitoring/alert-evaluation.ts';
import { insertFinishedScan, insertTarget, scoresOf } from '../harness/alerts.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage, submit } from '../harness/browser.ts';
import { freePort, uniqueName } from '../harness/isolated.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type ReceivedMail, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Account mail end to end (services/account-mail.ts) in Chromium and over HTTP, against the real API, Postgres,
 * Temporal (for one alert) and a real SMTP server: password reset, sign-up with its verification link, what an
 * unverified account may not do, the password rule on the form, and the e-mail change.
 */
const OLD_PASSWORD = 'a-long-password-1';
const NEW_PASSWORD = 'quiet lantern over seven hills';
const HOUR = 3_600_000;

let smtp: TestSmtpServer;
let api: TestApi;
let worker: InProcessWorker;
let browser: Browser;
let closeBrowser: () => Promise<void>;
let owner: { user: { id: number; email: string }; token: string };
const unknownEmail = `${uniqueName('nobody')}@example.com`;

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  api = await startTestApi({
    clock: new TestClock(),
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'WebPerf <account@perf.example.test>' },
  });
  worker = await startInProcessWorker(api);
  ({ browser, close: closeBrowser } = await launchBrowser());
  owner = await createTestUser(api, 'pro', OLD_PASSWORD);
}, 60_000);

afterAll(async () => {
  await closeBrowser?.();
  await worker?.close();
  await api?.close();
  await smtp?.stop();
});

const later = (ms: number) => api.clock.set(new Date(api.clock.now.getTime() + ms));
const mailsTo = (email: string) =>
  smtp.messages.filter((m) => m.to.some((to) => to.toLowerCase() === email.toLowerCase()));

/** The `n`th mail (1-based) to `email` with this subject, once it has arrived. */
async function mail(email: string, subject: string, n = 1): Promise<ReceivedMail> {
  const matching = () => mailsTo(email).filter((m) => m.subject === subject);
  await waitUntil(`mail ${n} "${subject}" to ${email}`, async () => matching().length >= n, 30_000, 100);
  return matching()[n - 1]!;
}

/** The one-use link a mail carries (registered as a secret: no log may show it). */
function linkIn(message: ReceivedMail, path: string): string {
  const found = new RegExp(`${api.url.replace(/[.]/g, '\\.')}${path}\\?token=([A-Za-z0-9_-]{43})`).exec(message.text);
  if (!found) throw new Error(`no ${path} link in: ${message.text}`);
  registerSecret(found[1]);
  return found[0];
}

const text = (page: Page, selector: string) => page.$eval(selector, (el) => el.textContent ?? '');
const freshPage = async (): Promise<Page> => {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setJavaScriptEnabled(false);
  return page;
};

async function askForReset(page: Page, email: string): Promise<{ path: string; message: string }> {
  await page.goto(`${api.url}/login`);
  await Promise.all([page.waitForNavigation(), page.click('#forgot-password')]);
  await page.type('#email', email);
  expect(await submit(page, '#send-reset')).toBe(200);
  return { path: new URL(page.url()).pathname, message: await text(page, '#message') };
}

describe('password reset', () => {
  it('answers the same for a known and an unknown address; the link works once, signs out web sessions but no token', async () => {
    const other = new WebClient(api.url, api.config.baseUrl);
    expect((await other.signIn(owner.user.email, OLD_PASSWORD)).status).toBe(303);
    expect((await other.get('/settings')).status).toBe(200);

    const page = await freshPage();
    const known = await askForReset(page, owner.user.email);
    const unknown = await askForReset(page, unknownEmail);
    expect(unknown).toEqual(known);
    expect(known.message).toContain('If an account has the address you entered');

    const reset = await mail(owner.user.email, 'Reset your WebPerf password');
    expect(reset.from).toBe('account@perf.example.test');
    const link = linkIn(reset, '/password/reset');
    await page.goto(link);
    // A weak password is refused with the estimator's reason, and the link stays usable.
    await page.type('#password', 'password1234');
    expect(await submit(page, '#set-password')).toBe(422);
    expect(await text(page, '#password-error')).toBe(
      'This password is too easy to guess. This is similar to a commonly used password. Add more words that are less common.',
    );
    await page.type('#password', NEW_PASSWORD);
    expect(await submit(page, '#set-password')).toBe(200);
    expect(await text(page, 'h1')).toBe('Password set');

    // Web sessions are over; the API token still works; the old password no longer does.
    const signedOut = await other.get('/settings');
    expect([signedOut.status, signedOut.headers.location]).toEqual([302, '/login?next=%2Fsettings']);
    expect((await call(api, '/me', { token: owner.token })).status).toBe(200);
    expect((await new WebClient(api.url, api.config.baseUrl).signIn(owner.user.email, OLD_PASSWORD)).status).toBe(422);
    expect((await new WebClient(api.url, api.config.baseUrl).signIn(owner.user.email, NEW_PASSWORD)).status).toBe(303);

    // Once only.
    expect((await page.goto(link))?.status()).toBe(404);
    expect(await text(page, '#message')).toContain('This link does not work (any more)');
    await page.browserContext().close();
  });

  it('a link no longer works after one hour', async () => {
    const client = new WebClient(api.url, api.config.baseUrl);
    await client.get('/password/forgot');
    expect((await client.post('/password/forgot', { email: owner.user.email })).headers.location).toBe(
      '/password/forgot/sent',
    );
    const link = linkIn(await mail(owner.user.email, 'Reset your WebPerf password', 2), '/password/reset');
    later(HOUR - 1000);
    expect((await client.get(link.slice(api.url.length))).status).toBe(200);
    later(2000);
    expect((await client.get(link.slice(api.url.length))).status).toBe(404);
  });

  it(`answers 429 after ${ACCOUNT_MAIL_THROTTLE.perEmail} requests for one address in an hour, known or not`, async () => {
    later(HOUR);
    const client = new WebClient(api.url, api.config.baseUrl);
    await client.get('/password/forgot');
    const address = `${uniqueName('flood')}@example.com`;
    for (let i = 0; i < ACCOUNT_MAIL_THROTTLE.perEmail; i++)
      expect((await client.post('/password/forgot', { email: address })).status).toBe(303);
    const refused = await client.post('/password/forgot', { email: address });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBe(HOUR / 1000);
    expect(refused.text).toContain('Too many reset links asked for. Try again in 60 minute(s).');
    later(HOUR);
  });
});

describe('sign-up and the verified address', () => {
  const newEmail = `${uniqueName('new')}@example.com`;

  it('refuses a weak password with the reason beside the field', async () => {
    const page = await freshPage();
    await page.goto(`${api.url}/signup`);
    await page.type('#name', 'Weak Person');
    await page.type('#email', `${uniqueName('weak')}@example.com`);
    await page.type('#password', 'qwertyuiopasdf');
    expect(await submit(page, '#sign-up')).toBe(422);
    expect(await text(page, '#password-error')).toContain('This password is too easy to guess.');
    await page.close();
  });

  it('a new and a taken address land on the same page without a session, and get different mails', async () => {
    const client = new WebClient(api.url, api.config.baseUrl);
    await client.get('/signup');
    const fresh = await client.post('/signup', { name: 'New Person', email: newEmail, password: NEW_PASSWORD });
    const taken = await client.post('/signup', { name: 'Someone', email: owner.user.email, password: NEW_PASSWORD });
    for (const answer of [fresh, taken]) {
      expect([answer.status, answer.headers.location]).toEqual([303, '/signup/check-inbox']);
      expect(answer.setCookies.filter((c) => c.startsWith('wps_session='))).toEqual([]);
    }
    const page = await client.get('/signup/check-inbox');
    expect(page.text).toContain('We have sent a message to the address you entered.');

    const verify = await mail(newEmail, 'Confirm your e-mail address for WebPerf');
    expect(verify.text).toContain('/email/verify?token=');
    const notice = await mail(owner.user.email, 'Someone tried to sign up with your address');
    expect(notice.text).toContain(`${api.url}/password/forgot`);
    expect(notice.text).not.toContain('token=');
  });

  it('unverified: a banner with "Send the link again", no alert e-mail, no webhook settings', async () => {
    const users = createStorage(api.db.knex).users;
    const account = (await users.findByEmail(newEmail))!;
    await users.setPlan(account.id, 'pro', api.clock.read());
    const page = await signedInPage(browser, api.url, newEmail, NEW_PASSWORD);
    expect(await text(page, '#verify-banner')).toContain('Please confirm your e-mail address');
    expect(await submit(page, '#send-again')).toBe(200);
    await mail(newEmail, 'Confirm your e-mail address for WebPerf', 2);

    // Webhooks: the page says why, and saving is refused.
    await page.goto(`${api.url}/account/notifications`);
    expect(await text(page, '#notice')).toContain('Confirm your e-mail address first');
    const client = new WebClient(api.url, api.config.baseUrl);
    await client.signIn(newEmail, NEW_PASSWORD);
    await client.get('/account/notifications');
    const refused = await client.post('/account/notifications', {
      url: 'https://hooks.example.com/in',
      events: 'alert.created',
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('Confirm your e-mail address first');
    const endpoint = (await api.db.knex('webhook_endpoints').where({ user_id: account.id }).first('url')) as
      { url: string | null } | undefined;
    expect(endpoint?.url ?? null).toBeNull();
    // The API has no operation for webhook settings (spec: Events), so there is nothing there to refuse.
    const { token } = await mintToken(createStorage(api.db.knex).tokens, account.id, 'test', null);
    registerSecret(token);
    expect((await call(api, '/webhooks', { token, method: 'POST', body: { url: 'https://x.example' } })).status).toBe(
      404,
    );

    // A real alert: raised, and its e-mail workflow ends without sending.
    const target = await insertTarget(api.db.knex, account.id);
    const scanAt = (overall: number, hoursAgo: number) =>
      insertFinishedScan(
        api.db.knex,
        account.id,
        target,
        scoresOf(overall),
        new Date(api.clock.now.getTime() - hoursAgo * HOUR),
      );
    await scanAt(90, 2);
    const falling = await scanAt(60, 1);
    const queue = mainTaskQueue(api.config.temporal.taskQueuePrefix);
    const evaluation = (await api.temporal.workflow.execute('targetAlertsWorkflow', {
      taskQueue: queue,
      workflowId: uniqueName('alerts'),
      args: [{ scanPublicId: falling }],
    })) as AlertEvaluation;
    const alertId = evaluation.changes[0]!.alertId;
    expect(await api.temporal.workflow.getHandle(alertEmailWorkflowId(queue, alertId, 'raised')).result()).toBe(
      'unverified',
    );
    expect(worker.logs()).toContain('alert e-mail skipped: the owner has not verified their e-mail address');
    expect(mailsTo(newEmail).filter((m) => m.subject.startsWith('['))).toEqual([]);
    await page.browserContext().close();
  });

  it('the verification link asks for the password, verifies the address and signs in, once', async () => {
    const link = linkIn(await mail(newEmail, 'Confirm your e-mail address for WebPerf'), '/email/verify');
    const page = await freshPage();
    // Opening the link changes nothing (a mail scanner may open it first); its button does.
    await page.goto(link);
    const unverified = await api.db
      .knex('users')
      .whereRaw('lower(email) = lower(?)', [newEmail])
      .first('email_verified_at');
    expect(unverified.email_verified_at).toBeNull();
    expect(await page.$('.who')).toBeNull();
    await page.type('#password', NEW_PASSWORD);
    expect(await submit(page, '#confirm-address')).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/');
    expect(await text(page, '.who')).toBe(newEmail);
    expect(await page.$('#verify-banner')).toBeNull();
    const row = await api.db.knex('users').whereRaw('lower(email) = lower(?)', [newEmail]).first('email_verified_at');
    expect(row.email_verified_at).toBeInstanceOf(Date);
    await page.goto(link);
    await page.type('#password', NEW_PASSWORD);
    expect(await submit(page, '#confirm-address')).toBe(404);
    await page.browserContext().close();
  });
});

describe('e-mail change', () => {
  it('mails a link to the new address and a notice to the old; the link changes it once; a taken address learns nothing', async () => {
    const page = await signedInPage(browser, api.url, owner.user.email, NEW_PASSWORD);
    await page.goto(`${api.url}/account/email`);
    await page.type('#email', `${uniqueName('moved')}@example.com`);
    await page.type('#password', 'not my password');
    expect(await submit(page, '#change-email')).toBe(422);
    expect(await text(page, '#password-error')).toBe('This is not your current password.');

    // Taken: the same answer, no link anywhere.
    const takenBy = (await createTestUser(api, 'free')).user.email;
    await page.goto(`${api.url}/account/email`);
    await page.type('#email', takenBy);
    await page.type('#password', NEW_PASSWORD);
    expect(await submit(page, '#change-email')).toBe(200);
    const takenAnswer = await text(page, '#message');

    const moved = `${uniqueName('moved')}@example.com`;
    await page.goto(`${api.url}/account/email`);
    await page.type('#email', moved);
    await page.type('#password', NEW_PASSWORD);
    expect(await submit(page, '#change-email')).toBe(200);
    expect(await text(page, '#message')).toBe(takenAnswer);

    const confirm = await mail(moved, 'Confirm your new e-mail address for WebPerf');
    const notice = await mail(owner.user.email, 'Your WebPerf e-mail address is being changed', 2);
    expect(notice.text).toContain(moved);
    expect(notice.text).toContain("If this wasn't you, cancel the change with the first link below");
    expect(notice.text).toContain(`${api.url}/account/email/cancel?token=`);
    expect(notice.text).toContain(`${api.url}/password/forgot`);
    expect((await users()).email).toBe(owner.user.email);

    const link = linkIn(confirm, '/account/email/confirm');
    await page.goto(link);
    expect((await users()).email).toBe(owner.user.email);
    expect(await submit(page, '#confirm-address')).toBe(200);
    expect(await text(page, '#message')).toBe(`Your account now uses ${moved}.`);
    expect(await text(page, '.who')).toBe(moved);
    const row = await users();
    expect(row.email).toBe(moved);
    expect(row.email_verified_at).toBeInstanceOf(Date);
    await page.goto(link);
    expect(await submit(page, '#confirm-address')).toBe(404);
    expect(mailsTo(takenBy)).toEqual([]);
    expect(mailsTo(unknownEmail)).toEqual([]);
    await page.browserContext().close();
  });

  const users = async () =>
    (await api.db.knex('users').where({ id: owner.user.id }).first('email', 'email_verified_at')) as {
      email: string;
      email_verified_at: Date | null;
    };
});
