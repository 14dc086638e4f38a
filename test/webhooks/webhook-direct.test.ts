import type { WebhookDelivery } from '../../core/webhooks/delivery.ts';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { defaultPayloadConverter } from '@temporalio/common';
import { createLogger } from '../../infra/logger.ts';
import { mainTaskQueue, webhookDeliveryWorkflowId, webhookTaskQueue } from '../../core/temporal.ts';
import {
  ATTEMPT_SLOT_POOLS,
  ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
  DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
} from '../../core/webhooks/limits.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { directFirstAttempt } from '../../services/webhook-direct.ts';
import { sweepWebhookOutbox, type WebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { smtpMailer } from '../../services/mailer.ts';

/**
 * The first attempt sent straight from the process that committed the outbox row (services/webhook-direct.ts),
 * with the real Temporal server carrying the retries and every delivery's workflow, Postgres for the attempt
 * log and the claims, and real receivers.
 */
const HEADER_VALUE = 'hv-not-for-logs-7f3a';
let api: TestApi;
let worker: InProcessWorker;
let storage: Storage;
let receiver: WebhookReceiver;

beforeAll(async () => {
  api = await startTestApi();
  worker = await startInProcessWorker(api, { webhooks: { schedule: [200, 200, 200] } });
  storage = createStorage(api.db.knex);
  receiver = await webhookReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await api?.close();
});

async function setUp(options: { maxInFlight?: number; url?: string; workflows?: WebhookDispatch } = {}) {
  const { user } = await createTestUser(api, 'pro');
  const clock = () => new Date();
  const saved = await saveWebhookSettings(
    { webhooks: storage.webhooks, keys: api.config.keys, allowLoopback: true, clock },
    user,
    { url: options.url ?? receiver.url, headerName: 'X-Hook-Auth', headerValue: HEADER_VALUE, events: [] },
  );
  expect(saved.status).toBe('saved');
  let logs = '';
  const dispatch = directFirstAttempt(options.workflows ?? worker.webhookDispatch, {
    webhooks: storage.webhooks,
    users: storage.users,
    mailer: smtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: api.config.mail.from }),
    keys: api.config.keys,
    allowLoopback: true,
    baseUrl: api.config.baseUrl,
    clock,
    log: createLogger({ logLevel: 'info' }, 'worker', { write: (line: string) => void (logs += line) }),
    maxInFlight: options.maxInFlight ?? 8,
  });
  const raise = async () =>
    (await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!;
  return { user, dispatch, raise, logs: () => logs, secret: saved.status === 'saved' ? saved.settings.secret : '' };
}

const workflowOf = (deliveryId: number) =>
  api.temporal.workflow.getHandle(
    webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), deliveryId),
  );

/**
 * The workflow ids a visibility query on DeliveryId finds, once visibility has caught up with `expected` of them.
 * Within this file's task queue: every test database numbers its deliveries from 1 on the one shared server.
 */
async function foundByDeliveryId(deliveryId: number, expected: number): Promise<string[]> {
  let found: string[] = [];
  const query = `DeliveryId = "${deliveryId}" AND TaskQueue = "${webhookTaskQueue(api.config.temporal.taskQueuePrefix)}"`;
  await waitUntil(
    `${query} in visibility`,
    async () => {
      found = [];
      for await (const execution of api.temporal.workflow.list({ query })) found.push(execution.workflowId);
      return found.length >= expected;
    },
    30_000,
    200,
  );
  return found;
}

/** A receiver that holds each request until the test releases it. */
async function holdingReceiver() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrived!: () => void;
  const arrival = new Promise<void>((resolve) => (arrived = resolve));
  let requests = 0;
  const server = createServer((req, res) => {
    req.resume();
    requests += 1;
    arrived();
    void released.then(() => res.writeHead(200).end('ok'));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrival,
    release,
    requests: () => requests,
    close: () => server.close(),
  };
}

it('claims the row before sending: the sweeper leaves an attempt in flight alone, and the delivery then has exactly one workflow', async () => {
  const holding = await holdingReceiver();
  try {
    const { dispatch, raise } = await setUp({ url: holding.url });
    const delivery = await raise();
    await dispatch.start([delivery]);
    await holding.arrival;
    const row = await api.db.knex('webhook_deliveries').where({ id: delivery.id }).first();
    expect(row.workflow_started_at).toBeNull();
    expect(row.claimed_until).not.toBeNull();
    // A sweep while the request is held, as late as the claim allows (its created_at is long past the sweep age).
    const sweptAt = new Date(row.claimed_until.getTime() - 1000);
    expect(sweptAt.getTime() - row.created_at.getTime()).toBeGreaterThan(30_000);
    expect(await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, sweptAt)).toBe(0);
    expect((await storage.webhooks.findDelivery(delivery.id))!.workflowStartedAt).toBeNull();
    holding.release();
    await dispatch.idle();
    expect(await workflowOf(delivery.id).result()).toBe('succeeded');
    expect(holding.requests()).toBe(1);
    expect(await storage.webhooks.attemptsOf(delivery.id)).toHaveLength(1);
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({ status: 'succeeded', webhookAttempts: 1 });
    expect((await storage.webhooks.findDelivery(delivery.id))!.workflowStartedAt).not.toBeNull();
    expect(await foundByDeliveryId(delivery.id, 1)).toEqual([
      webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), delivery.id),
    ]);
  } finally {
    holding.close();
  }
});

it('a successful first attempt still leaves a completed workflow, found by its id and by DeliveryId, with no second request', async () => {
  const { dispatch, raise } = await setUp();
  const before = receiver.received.length;
  receiver.answer([{ status: 200 }]);
  const delivery = await raise();
  await dispatch.start([delivery]);
  await dispatch.idle();
  // Started by the time idle() resolves; it ends at its first workflow task, with no activity.
  expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  const description = await workflowOf(delivery.id).describe();
  expect(description.status.name).toBe('COMPLETED');
  expect(await description.staticSummary()).toBe(`Webhook ping, delivery ${delivery.id}, user ${delivery.userId}`);
  expect(await foundByDeliveryId(delivery.id, 1)).toEqual([description.workflowId]);
  expect(receiver.received.length - before).toBe(1);
  expect(await storage.webhooks.attemptsOf(delivery.id)).toHaveLength(1);
});

it('hands a failed first attempt to its workflow, which goes on with the next wait; the failure is logged without secrets', async () => {
  const { dispatch, raise, logs, secret } = await setUp();
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
  const failed = logs()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.msg === 'webhook attempt failed');
  expect(failed).toMatchObject({
    level: 40,
    deliveryId: delivery.id,
    userId: delivery.userId,
    event: 'ping',
    attempt: 1,
    responseCode: 500,
    error: 'HTTP 500',
  });
  expect(logs()).not.toContain(HEADER_VALUE);
  expect(logs()).not.toContain(secret.slice('whsec_'.length));
  expect(logs()).not.toContain('"payload"');
});

it('a delivery whose workflow start never came (the process died after its attempt) gets it from the sweeper once the claim has run out, which returns the recorded outcome and sends nothing', async () => {
  const noStarts: WebhookDispatch = {
    ...worker.webhookDispatch,
    start: () => Promise.reject(new Error('the process died')),
  };
  const { dispatch, raise } = await setUp({ workflows: noStarts });
  const before = receiver.received.length;
  receiver.answer([{ status: 200 }]);
  const delivery = await raise();
  await dispatch.start([delivery]);
  await dispatch.idle();
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
    status: 'succeeded',
    workflowStartedAt: null,
  });
  const row = await api.db.knex('webhook_deliveries').where({ id: delivery.id }).first();
  // Not while the claim lives; after it, the sweeper's workflow.
  expect(
    await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, new Date(row.claimed_until.getTime() - 1)),
  ).toBe(0);
  expect(
    await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, new Date(row.claimed_until.getTime() + 1)),
  ).toBe(1);
  expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  expect(receiver.received.length - before).toBe(1);
  expect(await storage.webhooks.attemptsOf(delivery.id)).toHaveLength(1);
});

it("a failed first attempt whose workflow start never came: the sweeper's workflow goes on from it (the second attempt, not a new first)", async () => {
  const noStarts: WebhookDispatch = {
    ...worker.webhookDispatch,
    start: () => Promise.reject(new Error('the process died')),
  };
  const { dispatch, raise } = await setUp({ workflows: noStarts });
  const before = receiver.received.length;
  receiver.answer([{ status: 500 }, { status: 200 }]);
  const delivery = await raise();
  await dispatch.start([delivery]);
  await dispatch.idle();
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
    status: 'pending',
    webhookAttempts: 1,
    workflowStartedAt: null,
  });
  const row = await api.db.knex('webhook_deliveries').where({ id: delivery.id }).first();
  expect(
    await sweepWebhookOutbox(storage.webhooks, worker.webhookDispatch, new Date(row.claimed_until.getTime() + 1)),
  ).toBe(1);
  expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  const history = await workflowOf(delivery.id).fetchHistory();
  const [input] = history.events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads!;
  expect(defaultPayloadConverter.fromPayload<{ after?: unknown }>(input!).after).toEqual({
    attempts: 1,
    outcome: 'retry',
    retryAfterMs: null,
  });
  expect(receiver.received.length - before).toBe(2);
  expect((await storage.webhooks.attemptsOf(delivery.id)).map((a) => a.responseCode)).toEqual([500, 200]);
  expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({ status: 'succeeded', webhookAttempts: 2 });
});

it('beyond its in-flight bound sends deliveries straight to workflows; each event arrives once and each has its workflow', async () => {
  const { dispatch, raise } = await setUp({ maxInFlight: 1 });
  const before = receiver.received.length;
  receiver.answer([{ status: 200 }]);
  const deliveries = [await raise(), await raise(), await raise()];
  await dispatch.start(deliveries);
  await dispatch.idle();
  for (const delivery of deliveries) expect(await workflowOf(delivery.id).result()).toBe('succeeded');
  const ids = receiver.received.slice(before).map((r) => r.headers['webhook-id']);
  expect(ids).toHaveLength(3);
  expect(new Set(ids).size).toBe(3);
});

/** A receiver that holds each request until released, counting what it holds at once. */
async function countingHoldReceiver() {
  /** Each held response with its request's `webhook-id`. */
  const held = new Map<ServerResponse, string>();
  let most = 0;
  let total = 0;
  let released = false;
  const server = createServer((req, res) => {
    req.resume();
    total += 1;
    if (released) return void res.writeHead(200).end('ok');
    held.set(res, String(req.headers['webhook-id']));
    most = Math.max(most, held.size);
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    held: () => held.size,
    heldIds: () => [...held.values()],
    most: () => most,
    total: () => total,
    release() {
      released = true;
      for (const res of held.keys()) res.writeHead(200).end('ok');
      held.clear();
    },
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

it(`sends at most ${DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT} first attempts of one account at once, over its raising processes; the rest wait here or go to their workflows (at most ${ATTEMPTS_IN_FLIGHT_PER_ACCOUNT} more there), and another account is not held up`, async () => {
  const holding = await countingHoldReceiver();
  try {
    const first = await setUp({ url: holding.url, maxInFlight: 256 });
    // A second raising process of the same account: the pool is in Postgres, shared by both.
    const second = directFirstAttempt(worker.webhookDispatch, {
      webhooks: storage.webhooks,
      users: storage.users,
      mailer: smtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: api.config.mail.from }),
      keys: api.config.keys,
      allowLoopback: true,
      baseUrl: api.config.baseUrl,
      clock: () => new Date(),
      log: createLogger({ logLevel: 'silent' }, 'worker'),
      maxInFlight: 256,
    });
    const other = await setUp({ maxInFlight: 256 });
    receiver.answer([{ status: 200 }]);
    const mine: WebhookDelivery[] = [];
    for (let i = 0; i < DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT + 3; i++) mine.push(await first.raise());
    await first.dispatch.start(mine);
    await waitUntil(
      'the account cap of held requests',
      async () => holding.held() >= DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
      30_000,
      20,
    );
    const fromSecond = await first.raise();
    await second.start([fromSecond]);
    const before = receiver.received.length;
    const othersEvent = await other.raise();
    await other.dispatch.start([othersEvent]);
    // Another account's first attempt goes out while this account's requests are held.
    await receiver.waitFor(before + 1, 10_000);
    // Held now: the direct attempts at the cap and, on a slow machine, the attempts of deliveries whose wait here
    // ran out and whose workflows sent them (the workers' pool, at most ATTEMPTS_IN_FLIGHT_PER_ACCOUNT).
    const sentBy = async () => {
      const heldIds = holding.heldIds();
      const deliveryIds = heldIds.map((id) => [...mine, fromSecond].find((one) => one.messageId === id)!.id);
      const rows = (await api.db
        .knex('webhook_deliveries')
        .whereIn('id', deliveryIds)
        .select('id', 'workflow_started_at')) as Array<{ id: number | string; workflow_started_at: Date | null }>;
      const byWorkflow = new Set(rows.filter((row) => row.workflow_started_at !== null).map((row) => Number(row.id)));
      expect(rows).toHaveLength(heldIds.length);
      const direct = heldIds.filter((_, i) => !byWorkflow.has(Number(deliveryIds[i])));
      const workflows = heldIds.filter((_, i) => byWorkflow.has(Number(deliveryIds[i])));
      return { direct, workflows };
    };
    const held = await sentBy();
    expect(held.direct).toHaveLength(DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    expect(held.workflows.length).toBeLessThanOrEqual(ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    // The second process found every direct slot taken: that delivery went to its workflow, whose attempt is the webhook worker's.
    await second.idle();
    expect((await storage.webhooks.findDelivery(fromSecond.id))!.workflowStartedAt).not.toBeNull();
    await waitUntil("the workflow's attempt", async () => holding.heldIds().includes(fromSecond.messageId), 30_000, 20);
    const afterSecond = await sentBy();
    expect(afterSecond.direct).toHaveLength(DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    expect(afterSecond.workflows).toContain(fromSecond.messageId);
    expect(afterSecond.workflows.length).toBeLessThanOrEqual(ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    holding.release();
    await first.dispatch.idle();
    for (const delivery of [...mine, fromSecond]) expect(await workflowOf(delivery.id).result()).toBe('succeeded');
    expect(holding.most()).toBeGreaterThan(DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    expect(holding.most()).toBeLessThanOrEqual(DIRECT_ATTEMPTS_IN_FLIGHT_PER_ACCOUNT + ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    expect(holding.total()).toBe(mine.length + 1);
  } finally {
    holding.close();
  }
}, 120_000);

it('the account slots: concurrent takers never get more than the cap, a given-back slot is taken again, and a lease that ran out is taken over', async () => {
  const { user } = await createTestUser(api, 'pro');
  const taken = (
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        storage.webhooks.takeAttemptSlot(user.id, i + 1, ATTEMPT_SLOT_POOLS.worker, 60_000),
      ),
    )
  ).filter((slot) => slot !== undefined);
  expect(taken).toHaveLength(ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
  expect(new Set(taken.map((slot) => slot.slot)).size).toBe(ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
  // The direct pool is the account's own too, apart from the workers'.
  expect(
    (await storage.webhooks.takeAttemptSlot(user.id, 98, ATTEMPT_SLOT_POOLS.direct, 60_000))?.slot,
  ).toBeGreaterThanOrEqual(ATTEMPT_SLOT_POOLS.direct.first);
  expect(await storage.webhooks.takeAttemptSlot(user.id, 99, ATTEMPT_SLOT_POOLS.worker, 60_000)).toBeUndefined();
  await storage.webhooks.releaseAttemptSlot(taken[0]!);
  const again = await storage.webhooks.takeAttemptSlot(user.id, 100, ATTEMPT_SLOT_POOLS.worker, 60_000);
  expect(again?.slot).toBe(taken[0]!.slot);
  // Another account is not affected.
  const { user: other } = await createTestUser(api, 'pro');
  expect(await storage.webhooks.takeAttemptSlot(other.id, 101, ATTEMPT_SLOT_POOLS.worker, 60_000)).toBeDefined();
  // A holder that died: its lease runs out (here made to have run out) and the slot is taken over; its late release frees nothing.
  await api.db
    .knex('webhook_attempt_slots')
    .where({ user_id: user.id, slot: taken[1]!.slot })
    .update({ expires_at: new Date(Date.now() - 1000) });
  const takenOver = await storage.webhooks.takeAttemptSlot(user.id, 102, ATTEMPT_SLOT_POOLS.worker, 60_000);
  expect(takenOver?.slot).toBe(taken[1]!.slot);
  await storage.webhooks.releaseAttemptSlot(taken[1]!);
  expect(await storage.webhooks.takeAttemptSlot(user.id, 103, ATTEMPT_SLOT_POOLS.worker, 60_000)).toBeUndefined();
});
