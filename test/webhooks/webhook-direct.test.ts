import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ScanRunner } from '../../activities/scan-runner.ts';
import { createLogger } from '../../core/logger.ts';
import { mainTaskQueue, webhookDeliveryWorkflowId } from '../../core/temporal.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { directFirstAttempt } from '../../services/webhook-direct.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { webhookReceiver, type WebhookReceiver } from '../harness/webhook-receiver.ts';
import { smtpMailer } from '../../services/mailer.ts';

/**
 * The first attempt sent straight from the process that committed the outbox row (services/webhook-direct.ts),
 * with the real Temporal server carrying the retries, Postgres for the attempt log, and a real receiver.
 */
const NO_SCANS: ScanRunner = { run: () => Promise.reject(new Error('webhook tests run no scans')) };
let api: TestApi;
let worker: InProcessWorker;
let storage: Storage;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startTestApi();
  worker = await startInProcessWorker(api, { runner: NO_SCANS, webhooks: { schedule: [200, 200, 200] } });
  storage = createStorage(api.db.knex);
  receiver = await webhookReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await api?.close();
});

async function setUp(maxInFlight = 8, url?: string) {
  const { user } = await createTestUser(api, 'pro');
  const clock = () => new Date();
  const saved = await saveWebhookSettings({ webhooks: storage.webhooks, keys: api.config.keys, allowLoopback: true, clock }, user, { url: url ?? receiver.url, headerName: '', headerValue: '', events: [] });
  expect(saved.status).toBe('saved');
  const dispatch = directFirstAttempt(worker.webhookDispatch, {
    webhooks: storage.webhooks,
    users: storage.users,
    mailer: smtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: api.config.mail.from }),
    keys: api.config.keys,
    allowLoopback: true,
    baseUrl: api.config.baseUrl,
    clock,
    log: createLogger({ logLevel: 'silent' }, 'worker'),
    maxInFlight,
  });
  const raise = async () => (await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!;
  return { user, dispatch, raise };
}

const workflowOf = (deliveryId: number) => api.temporal.workflow.getHandle(webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), deliveryId));

it('delivers at once without a workflow when the first attempt succeeds, and claims the row only when it has ended', async () => {
  // A receiver that holds its answer until the test releases it: the attempt is in flight meanwhile.
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  const holding = createServer((req, res) => {
    req.resume();
    arrived();
    void released.then(() => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((ready) => holding.listen(0, '127.0.0.1', ready));
  try {
    const { dispatch, raise } = await setUp(8, `http://127.0.0.1:${(holding.address() as AddressInfo).port}/hook`);
    const delivery = await raise();
    await dispatch.start([delivery]);
    await arrival;
    // In flight: not claimed yet, so a crash now leaves the row to the outbox sweeper.
    expect((await api.db.knex('webhook_deliveries').where({ id: delivery.id }).first()).workflow_started_at).toBeNull();
    release();
    await dispatch.idle();
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({ status: 'succeeded', webhookAttempts: 1 });
    expect((await api.db.knex('webhook_deliveries').where({ id: delivery.id }).first()).workflow_started_at).not.toBeNull();
    await expect(workflowOf(delivery.id).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  } finally {
    holding.close();
  }
});

it('hands a failed first attempt to a workflow that goes on with the next wait of the schedule', async () => {
  const { dispatch, raise } = await setUp();
  const before = receiver.received.length;
  receiver.answer([{ status: 500 }, { status: 200 }]);
  const delivery = await raise();
  await dispatch.start([delivery]);
  await dispatch.idle();
  expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  expect(receiver.received.length - before).toBe(2);
  const [first, second] = receiver.received.slice(before);
  expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
  expect(second!.at - first!.at).toBeGreaterThanOrEqual(200);
  const attempts = await storage.webhooks.attemptsOf(delivery.id);
  expect(attempts.map((a) => a.responseCode)).toEqual([500, 200]);
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({ status: 'succeeded', webhookAttempts: 2 });
});

it('beyond its in-flight bound sends deliveries straight to workflows; each event arrives once', async () => {
  const { dispatch, raise } = await setUp(1);
  const before = receiver.received.length;
  receiver.answer([{ status: 200 }]);
  const deliveries = [await raise(), await raise(), await raise()];
  await dispatch.start(deliveries);
  await dispatch.idle();
  for (const delivery of deliveries.slice(1)) expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  await expect(workflowOf(deliveries[0]!.id).describe()).rejects.toBeInstanceOf(WorkflowNotFoundError);
  const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id']);
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);
});
