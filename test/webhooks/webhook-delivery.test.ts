import { Webhook } from 'standardwebhooks';
import { newPublicId } from '../../core/ids.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { mainTaskQueue, webhookDeliveryWorkflowId } from '../../core/temporal.ts';
import type { WebhookDelivery } from '../../core/webhooks/delivery.ts';
import type { DeliveryEvent } from '../../core/webhooks/events.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { type Storage } from '../../db/store/index.ts';
import { evaluateScanAlertsWithWebhooks } from '../../services/alert-evaluation.ts';
import { finishScan } from '../../services/scans.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { sweepWebhookOutbox } from '../../services/webhook-dispatch.ts';
import {
  rotateSigningSecret,
  saveWebhookSettings,
  webhookSettings,
  type WebhookSettingsDeps,
} from '../../services/webhook-settings.ts';
import { insertFinishedScan, insertTarget, scoresOf } from '../harness/alerts.ts';
import type { TestClock } from '../harness/api.ts';
import { createTestUser, type TestApi } from '../harness/api.ts';
import { type InProcessWorker } from '../harness/scan-worker.ts';
import type { TestSmtpServer } from '../../fixtures/smtp.ts';
import { startDeliveryStack, type DeliveryStack } from './delivery-stack.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { cleanObservation } from '../unit/observation-builder.ts';

/**
 * Webhook delivery end to end: the outbox row, its Temporal workflow on the real server, real HTTP receivers
 * run by the test, Postgres for the attempt log, a real SMTP server for the "endpoint disabled" e-mail.
 * Signatures are checked with the standardwebhooks package. The retry schedule is shortened (20 ms waits)
 * so the whole schedule runs in moments; the 5-day rule moves the test's clock instead. The real schedule's
 * times and the 5 days as they pass: webhook-schedule.test.ts (Temporal's time-skipping test server).
 */

/** `rebind.example.test` resolves to a public address at save and to a private one when sent (DNS rebinding). */
const workerLookup = async (host: string) => (host === 'rebind.example.test' ? ['10.1.2.3'] : ['127.0.0.1']);
const saveLookup = async (host: string) => (host === 'rebind.example.test' ? ['93.184.215.14'] : ['127.0.0.1']);

let stack: DeliveryStack;
let smtp: TestSmtpServer;
let clock: TestClock;
let api: TestApi;
let worker: InProcessWorker;
let storage: Storage;
let receiver: WebhookReceiver;

beforeAll(async () => {
  stack = await startDeliveryStack(workerLookup);
  ({ smtp, clock, api, worker, storage } = stack);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  receiver = await webhookReceiver();
});
afterEach(async () => receiver.close());

const settingsDeps = (): WebhookSettingsDeps => ({
  webhooks: storage.webhooks,
  keys: api.config.keys,
  allowLoopback: true,
  clock: clock.read,
  lookup: saveLookup,
});

async function proUserWithEndpoint(
  options: { url?: string; events?: DeliveryEvent[]; headerName?: string; headerValue?: string } = {},
) {
  const { user } = await createTestUser(api, 'pro');
  const saved = await saveWebhookSettings(settingsDeps(), user, {
    url: options.url ?? receiver.url,
    headerName: options.headerName ?? '',
    headerValue: options.headerValue ?? '',
    events: options.events ?? ['alert.triggered', 'alert.resolved', 'scan.completed'],
  });
  if (saved.status !== 'saved') throw new Error(`settings not saved: ${JSON.stringify(saved)}`);
  return { user, secret: saved.settings.secret };
}

/** A ping through the outbox and its workflow, to the workflow's end. */
async function deliverPing(userId: number): Promise<{ delivery: WebhookDelivery; outcome: string }> {
  const delivery = await enqueueWebhook(storage.webhooks, userId, 'ping', pingPayload(clock.read()), clock.read());
  if (!delivery) throw new Error('no delivery enqueued');
  return { delivery, outcome: await deliver(delivery) };
}

async function deliver(delivery: WebhookDelivery): Promise<string> {
  await worker.webhookDispatch.start([delivery]);
  return api.temporal.workflow
    .getHandle(webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), delivery.id))
    .result();
}

const verify = (secret: string, request: { headers: Record<string, unknown>; body: string }) =>
  new Webhook(secret).verify(request.body, request.headers as Record<string, string>);

test('500 three times, then 200: one successful delivery, four attempts recorded, one webhook-id, every request signed', async () => {
  const { user, secret } = await proUserWithEndpoint();
  receiver.answer([
    { status: 500, body: 'down' },
    { status: 500, body: 'down' },
    { status: 500, body: 'x'.repeat(5000) },
    { status: 200, body: 'thanks' },
  ]);
  const { delivery, outcome } = await deliverPing(user.id);
  expect(outcome).toBe('succeeded');
  expect(receiver.received).toHaveLength(4);
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.messageId]));
  for (const request of receiver.received) {
    expect(verify(secret, request)).toEqual(delivery.payload);
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['user-agent']).toMatch(/^WebPerf-Webhooks\/1\.0/);
  }
  const stored = await storage.webhooks.findDelivery(delivery.id);
  expect(stored).toMatchObject({
    status: 'succeeded',
    webhookAttempts: 4,
    webhookResponseCode: 200,
    webhookLastError: null,
  });
  const attempts = await storage.webhooks.attemptsOf(delivery.id);
  expect(attempts.map((a) => [a.responseCode, a.error])).toEqual([
    [500, 'HTTP 500'],
    [500, 'HTTP 500'],
    [500, 'HTTP 500'],
    [200, null],
  ]);
  expect(attempts[0]!.responseBody).toBe('down');
  expect(attempts[2]!.responseBody).toHaveLength(1024);
  expect(attempts[3]!.responseBody).toBe('thanks');
});

test('a receiver down through the whole schedule: 8 attempts, the delivery fails; 5 days of failures disable the endpoint and e-mail the owner', async () => {
  const { user } = await proUserWithEndpoint();
  receiver.answer([{ status: 503, body: 'maintenance' }]);
  const first = await deliverPing(user.id);
  expect(first.outcome).toBe('failed');
  expect(receiver.received).toHaveLength(8);
  expect(await storage.webhooks.findDelivery(first.delivery.id)).toMatchObject({
    status: 'failed',
    webhookAttempts: 8,
    webhookResponseCode: 503,
    webhookLastError: 'HTTP 503',
  });
  expect((await storage.webhooks.findEndpoint(user.id))!.disabledAt).toBeNull();

  const start = clock.read();
  clock.set(new Date(start.getTime() + 5 * 86_400_000 + 1000));
  const mailsBefore = smtp.messages.length;
  const later = await deliverPing(user.id);
  expect(later.outcome).toBe('failed');
  // Disabled at the first failure past 5 days: no more attempts.
  expect(await storage.webhooks.findDelivery(later.delivery.id)).toMatchObject({
    status: 'failed',
    webhookAttempts: 1,
  });
  expect(await storage.webhooks.findEndpoint(user.id)).toMatchObject({ disabledReason: 'failing' });
  const [mail] = (await smtp.waitForMessages(mailsBefore + 1)).slice(mailsBefore);
  expect(mail!.to).toEqual([user.email]);
  expect(mail!.subject).toBe('Your webhook endpoint has been disabled');
  expect(mail!.text).toContain(receiver.url);
  // A disabled endpoint gets no new deliveries.
  expect(
    await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(clock.read()), clock.read()),
  ).toBeUndefined();
  clock.set(new Date());
});

test('410 Gone stops at once and disables the endpoint', async () => {
  const { user } = await proUserWithEndpoint();
  receiver.answer([{ status: 410 }]);
  const { delivery, outcome } = await deliverPing(user.id);
  expect(outcome).toBe('gone');
  expect(receiver.received).toHaveLength(1);
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
    status: 'failed',
    webhookAttempts: 1,
    webhookResponseCode: 410,
  });
  expect(await storage.webhooks.findEndpoint(user.id)).toMatchObject({
    disabledReason: 'gone',
    disabledAt: expect.any(Date),
  });
});

test('a redirect is a failure and is not followed', async () => {
  const target = await webhookReceiver();
  try {
    const { user } = await proUserWithEndpoint();
    receiver.answer([{ status: 302, headers: { location: target.url } }]);
    const { delivery, outcome } = await deliverPing(user.id);
    expect(outcome).toBe('failed');
    expect(target.received).toHaveLength(0);
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
      status: 'failed',
      webhookAttempts: 8,
      webhookResponseCode: 302,
      webhookLastError: 'HTTP 302',
    });
  } finally {
    await target.close();
  }
});

test('a name that resolves to a private address when sent is refused on the address, without a connection', async () => {
  const { user } = await proUserWithEndpoint({ url: 'http://rebind.example.test/hook' });
  const { delivery, outcome } = await deliverPing(user.id);
  expect(outcome).toBe('failed');
  const attempts = await storage.webhooks.attemptsOf(delivery.id);
  expect(attempts).toHaveLength(8);
  // The owner reads the host they typed, never the address it resolved to.
  expect(attempts[0]).toMatchObject({
    responseCode: null,
    error: 'refused: rebind.example.test resolves to a private or special-use address',
  });
});

test('the configured header: a receiver checking it answers 401 to a wrong value and 200 to the right one', async () => {
  const checking = (request: { headers: Record<string, unknown> }) =>
    request.headers['x-webhook-secret'] === 'right-secret' ? { status: 200 } : { status: 401, body: 'bad secret' };
  receiver.answer([checking]);
  const { user } = await proUserWithEndpoint({ headerName: 'X-Webhook-Secret', headerValue: 'wrong-secret' });
  const wrong = await deliverPing(user.id);
  expect(wrong.outcome).toBe('failed');
  expect(await storage.webhooks.findDelivery(wrong.delivery.id)).toMatchObject({
    webhookResponseCode: 401,
    webhookLastError: 'HTTP 401',
  });

  await storage.webhooks.enable(user.id, clock.read());
  expect(
    (
      await saveWebhookSettings(settingsDeps(), user, {
        url: receiver.url,
        headerName: 'X-Webhook-Secret',
        headerValue: 'right-secret',
        events: [],
      })
    ).status,
  ).toBe('saved');
  const right = await deliverPing(user.id);
  expect(right.outcome).toBe('succeeded');
  expect(receiver.received.at(-1)!.headers['x-webhook-secret']).toBe('right-secret');
});

test('during a rotation both secrets sign; afterwards only the new one', async () => {
  const { user, secret: old } = await proUserWithEndpoint();
  const rotated = await rotateSigningSecret(settingsDeps(), user.id);
  await deliverPing(user.id);
  const request = receiver.received.at(-1)!;
  expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
  expect(verify(old, request)).toMatchObject({ event: 'ping' });
  expect(verify(rotated.secret, request)).toMatchObject({ event: 'ping' });

  clock.set(new Date(clock.read().getTime() + 24 * 3600_000 + 1000));
  await deliverPing(user.id);
  const after = receiver.received.at(-1)!;
  expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
  expect(() => verify(old, after)).toThrow();
  expect(verify(rotated.secret, after)).toMatchObject({ event: 'ping' });
  clock.set(new Date());
});

test('Starter users, downgraded users and switched-off events get no deliveries', async () => {
  const { user: starter } = await createTestUser(api, 'starter');
  await webhookSettings(settingsDeps(), starter.id);
  await api.db
    .knex('webhook_endpoints')
    .where({ user_id: starter.id })
    .update({ url: receiver.url, events: ['scan.completed'] });
  expect(
    await enqueueWebhook(storage.webhooks, starter.id, 'scan.completed', pingPayload(clock.read()), clock.read()),
  ).toBeUndefined();

  const { user } = await proUserWithEndpoint({ events: ['alert.triggered'] });
  expect(
    await enqueueWebhook(storage.webhooks, user.id, 'scan.completed', pingPayload(clock.read()), clock.read()),
  ).toBeUndefined();
  const pending = await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(clock.read()), clock.read());
  expect(pending).toBeDefined();
  // Downgraded after the event: the delivery is not sent.
  await storage.users.setPlan(user.id, 'starter', clock.read());
  expect(
    await enqueueWebhook(storage.webhooks, user.id, 'alert.triggered', pingPayload(clock.read()), clock.read()),
  ).toBeUndefined();
  expect(await deliver(pending!)).toBe('not_sent');
  expect(receiver.received).toHaveLength(0);
  expect(await storage.webhooks.findDelivery(pending!.id)).toMatchObject({
    status: 'failed',
    webhookLastError: 'not sent: webhooks need the Pro plan or higher',
  });
});

test("scan.completed: the outbox row commits with the scan's end; the exact payload arrives", async () => {
  const { user, secret } = await proUserWithEndpoint({ events: ['scan.completed'] });
  const finishedAt = new Date('2026-11-26T10:00:00Z');
  const publicId = newPublicId(finishedAt);
  await storage.scans.insert({
    publicId,
    userId: user.id,
    url: 'https://shop.example.com/',
    host: 'shop.example.com',
    region: 'local',
    isPublic: false,
    authType: null,
    authSecret: null,
    requestedAt: finishedAt,
    cacheKey: null,
  });
  const observation = cleanObservation({
    requestedUrl: 'https://shop.example.com/',
    finalUrl: 'https://shop.example.com/',
  });
  const result = buildResultRecord(observation, scoreScan(observation, finishedAt));
  const finished = await finishScan(storage.scans, publicId, result, finishedAt, api.config.baseUrl);
  expect(finished.finished).toBe(true);
  expect(finished.webhooks).toHaveLength(1);
  // Finishing again (an activity retry) writes no second event.
  expect(await finishScan(storage.scans, publicId, result, finishedAt, api.config.baseUrl)).toEqual({
    finished: false,
    webhooks: [],
  });
  expect(await deliver(finished.webhooks[0]!)).toBe('succeeded');
  expect(verify(secret, receiver.received[0]!)).toEqual({
    event: 'scan.completed',
    url: 'https://shop.example.com/',
    score: result.scores.overall,
    score_speed: result.scores.speed,
    score_images: result.scores.images,
    score_caching: result.scores.caching,
    score_tech: result.scores.technical,
    lcp_ms: Math.round(result.metrics.mobile.lcp_ms),
    ttfb_ms: Math.round(result.ttfbMs),
    cls: result.metrics.mobile.cls,
    tbt_ms: Math.round(result.metrics.mobile.tbt_ms),
    scan_url: `${api.config.baseUrl}/reports/${publicId}`,
    scanned_at: '2026-11-26T10:00:00+00:00',
  });
});

test("alert.triggered and alert.resolved: written in the evaluation's transaction, exact payloads", async () => {
  const { user, secret } = await proUserWithEndpoint({ events: ['alert.triggered', 'alert.resolved'] });
  const target = await insertTarget(api.db.knex, user.id);
  const day = (n: number) => new Date(Date.UTC(2026, 10, 1 + n, 6));
  const low = await insertFinishedScan(api.db.knex, user.id, target, scoresOf(30), day(1));
  const raised = await evaluateScanAlertsWithWebhooks(storage.alerts, low, day(1));
  expect(raised.webhooks.map((d) => d.event)).toEqual(['alert.triggered']);
  const alertId = raised.evaluation.changes[0]!.alertId;
  expect(await deliver(raised.webhooks[0]!)).toBe('succeeded');
  const triggered = verify(secret, receiver.received[0]!) as Record<string, unknown>;
  const [row] = await api.db.knex('alerts').where({ id: alertId });
  expect(triggered).toEqual({
    event: 'alert.triggered',
    alert_id: alertId,
    type: 'score_below_threshold',
    severity: row.severity,
    title: expect.any(String),
    message: expect.any(String),
    target_url: target.url,
    host: target.host,
    region: target.region,
    scan_public_id: low,
    created_at: '2026-11-02T06:00:00+00:00',
  });
  expect(['warning', 'critical']).toContain(row.severity);

  const fine = await insertFinishedScan(api.db.knex, user.id, target, scoresOf(95), day(2));
  const resolved = await evaluateScanAlertsWithWebhooks(storage.alerts, fine, day(2));
  expect(resolved.webhooks.map((d) => d.event)).toEqual(['alert.resolved']);
  expect(await deliver(resolved.webhooks[0]!)).toBe('succeeded');
  expect(verify(secret, receiver.received[1]!)).toEqual({
    ...triggered,
    event: 'alert.resolved',
    message: expect.any(String),
    scan_public_id: fine,
    resolved_at: '2026-11-03T06:00:00+00:00',
  });
});

test('the sweeper starts workflows for outbox rows left without one (a crash between commit and start)', async () => {
  const { user } = await proUserWithEndpoint();
  const orphan = await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(clock.read()), clock.read());
  expect(await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, clock.read())).toBe(0);
  expect(
    await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, new Date(clock.read().getTime() + 31_000)),
  ).toBeGreaterThanOrEqual(1);
  await receiver.waitFor(1);
  const handle = api.temporal.workflow.getHandle(
    webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), orphan!.id),
  );
  expect(await handle.result()).toBe('succeeded');
  // A second sweep or start sends nothing again.
  await worker.webhookDispatch.start([orphan!]);
  expect(
    await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, new Date(clock.read().getTime() + 31_000)),
  ).toBe(0);
  expect(receiver.received.filter((r) => r.headers['webhook-id'] === orphan!.messageId)).toHaveLength(1);
});

test("Retry-After on 429 sets the wait before the next attempt (longer than the schedule's)", async () => {
  const { user } = await proUserWithEndpoint();
  receiver.answer([{ status: 429, headers: { 'retry-after': '2' } }, { status: 200 }]);
  const { delivery, outcome } = await deliverPing(user.id);
  expect(outcome).toBe('succeeded');
  const history = await api.temporal.workflow
    .getHandle(webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), delivery.id))
    .fetchHistory();
  const timers = (history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers).toEqual([2]);
  expect(await storage.webhooks.attemptsOf(delivery.id)).toMatchObject([{ responseCode: 429 }, { responseCode: 200 }]);
});

test('an alert raised by the evaluation workflow reaches the receiver without further help (the activity starts the delivery)', async () => {
  const { user, secret } = await proUserWithEndpoint({ events: ['alert.triggered'] });
  const target = await insertTarget(api.db.knex, user.id);
  const scanId = await insertFinishedScan(
    api.db.knex,
    user.id,
    target,
    scoresOf(20),
    new Date(Date.UTC(2026, 10, 10, 6)),
  );
  await api.temporal.workflow.execute('targetAlertsWorkflow', {
    taskQueue: mainTaskQueue(api.config.temporal.taskQueuePrefix),
    workflowId: `alerts-${scanId}`,
    args: [{ scanPublicId: scanId }],
  });
  const [request] = await receiver.waitFor(1);
  expect(verify(secret, request!)).toMatchObject({
    event: 'alert.triggered',
    scan_public_id: scanId,
    host: target.host,
  });
});
