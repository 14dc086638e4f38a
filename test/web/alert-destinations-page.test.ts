import type { SlackMessage } from '../../core/alert-destinations/slack.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { WebClient } from '../harness/web.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * The alert destinations page over HTTP against the real API, Postgres, Temporal and a worker, with a real
 * receiver standing in for Slack: the plan gate, the URL rule's refusals beside the field (the URL never
 * echoed), the URL shown only as its hint, a test message through the delivery workflow with its result read
 * from the delivery record, the delivery in the webhook page's history, German words, other users' ids.
 */
let api: TestApi;
let worker: InProcessWorker;
let smtp: TestSmtpServer;
let slack: WebhookReceiver;
const PASSWORD = 'alert destinations page password';
const SECRET_PATH = '/services/T0001/B0001/pagesecretQrSt';
const PAGE = '/account/alert-destinations';

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  api = await startTestApi({ env: { CALLBACKS_ALLOW_LOOPBACK: 'true', SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
  worker = await startInProcessWorker(api, { webhooks: { schedule: [20, 20, 20, 20, 20, 20, 20] } });
  slack = await webhookReceiver(SECRET_PATH);
  // The suite-wide log check fails this file if the URL's secret part reaches any log line.
  registerSecret(SECRET_PATH);
}, 60_000);
afterAll(async () => {
  await slack?.close();
  await worker?.close();
  await api?.close();
  await smtp?.stop();
});

async function signedIn(plan: 'starter' | 'pro', headers: Record<string, string> = {}) {
  const { user } = await createTestUser(api, plan, PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl, headers);
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  return { user, client };
}

const location = (res: { headers: Record<string, string | string[] | undefined> }) => String(res.headers.location);

it('below Pro the page explains and offers no form; adding answers 403', async () => {
  const { client } = await signedIn('starter');
  const page = await client.get(PAGE);
  expect(page.status).toBe(200);
  expect(page.text).toContain('id="plan-required"');
  expect(page.text).toContain('Alert destinations are available from the Pro plan.');
  expect(page.text).not.toContain('id="add-destination"');
  expect((await client.post(PAGE, { kind: 'slack', url: slack.url, target: '' })).status).toBe(403);
});

it('adds a Slack destination shown only by its hint, sends a test message, lists the delivery; refusals beside the field', async () => {
  const { user, client } = await signedIn('pro');
  expect((await client.get(PAGE)).text).toContain('id="no-destinations"');

  const refused = await client.post(PAGE, {
    kind: 'slack',
    url: 'http://hooks.slack.com/services/T/B/refusedsecret',
    target: '',
  });
  expect(refused.status).toBe(422);
  expect(refused.text).toContain('<p class="error" id="url-error">The URL must start with https://.</p>');
  expect(refused.text).toContain('aria-describedby="url-hint url-error"');
  expect(refused.text).not.toContain('refusedsecret');
  expect((await client.post(PAGE, { kind: 'slack', url: slack.url, target: '999999' })).text).toContain(
    'Choose one of your monitored targets.',
  );

  const added = await client.post(PAGE, { kind: 'slack', url: slack.url, target: '' });
  expect(added.status).toBe(303);
  expect(location(added)).toBe(`${PAGE}?notice=added`);
  const page = await client.get(`${PAGE}?notice=added`);
  expect(page.text).toContain('Destination added.');
  expect(page.text).toContain(`<code>127.0.0.1:${new URL(slack.url).port}/…QrSt</code>`);
  expect(page.text).not.toContain('pagesecret');
  const id = /data-destination-id="(\d+)"/.exec(page.text)![1]!;

  const tested = await client.post(`${PAGE}/${id}/test`, {});
  expect(tested.status).toBe(303);
  expect(location(tested)).toMatch(new RegExp(`^${PAGE}\\?notice=test_result&delivery=\\d+$`));
  expect((await client.get(location(tested))).text).toContain('Test message delivered (HTTP 200).');
  const [request] = await slack.waitFor(1);
  const body = JSON.parse(request!.body) as SlackMessage;
  expect(body.text).toBe('Test: Test message from WebPerf');
  expect(body.blocks.map((b) => b.type)).toEqual(['header', 'section', 'context']);

  // The delivery is in the webhook page's history, marked as going to a destination.
  const history = await client.get('/account/notifications');
  expect(history.text).toContain('to a Slack or Teams destination');
  expect(history.text).toContain('id="alert-destinations-link"');

  // Another user can neither test nor remove it.
  const other = await signedIn('pro');
  await other.client.get(PAGE); // the signed-in session's form token
  expect((await other.client.post(`${PAGE}/${id}/test`, {})).status).toBe(404);
  expect((await other.client.post(`${PAGE}/${id}/remove`, {})).status).toBe(404);
  expect(slack.received).toHaveLength(1);

  const removed = await client.post(`${PAGE}/${id}/remove`, {});
  expect(location(removed)).toBe(`${PAGE}?notice=removed`);
  expect(await api.db.knex('alert_destinations').where({ user_id: user.id })).toEqual([]);
});

it('in German the page speaks German', async () => {
  const { client } = await signedIn('pro', { 'accept-language': 'de-DE,de;q=0.9' });
  const page = await client.get(PAGE);
  expect(page.text).toContain('<h1>Alarmziele</h1>');
  expect(page.text).toContain('URL des eingehenden Webhooks');
  const refused = await client.post(PAGE, { kind: 'teams', url: 'nonsense', target: '' });
  expect(refused.status).toBe(422);
  expect(refused.text).toContain('Das ist keine gültige URL.');
});
