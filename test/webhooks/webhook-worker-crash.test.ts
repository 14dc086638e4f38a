import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { createStorage } from '../../db/store/index.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { sweepWebhookOutbox, temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';

/** Kill -9 the worker while the receiver holds a delivery's request open, start another: the event still arrives. */
let stack: ScanStack;
let sites: FixtureSites;
/** The worker process serving the stack now; each test kills it and starts the next. */
let current: RunningService;
const replacements: RunningService[] = [];

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay' });
  current = stack.worker;
}, 120_000);
afterAll(async () => {
  for (const replacement of replacements) await replacement.stop();
  await stack?.close();
  await sites?.close();
});

async function replaceWorker(): Promise<void> {
  current.child.kill('SIGKILL');
  current = await startReady('worker', stack.workerEnv);
  replacements.push(current);
}

/** A receiver that never answers its first request (the worker dies waiting for it) and answers 200 after. */
async function holdFirstReceiver() {
  const held: ServerResponse[] = [];
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      if (received.length === 1) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      server.close();
    },
  };
}

it("a direct first attempt whose worker process died mid-request is completed by the sweeper's workflow once the claim has run out, with the same webhook-id", async () => {
  const receiver = await holdFirstReceiver();
  try {
    const storage = createStorage(stack.api.db.knex);
    const { user, token } = await createTestUser(stack.api, 'pro');
    const saved = await saveWebhookSettings(
      { webhooks: storage.webhooks, keys: stack.api.config.keys, allowLoopback: true, clock: () => new Date() },
      user,
      { url: receiver.url, headerName: '', headerValue: '', events: ['scan.completed'] },
    );
    if (saved.status !== 'saved') throw new Error('settings not saved');
    // A real scan in the worker process: its end commits scan.completed, and the worker sends the first attempt itself.
    const created = await call(stack.api, '/scans', { token, method: 'POST', body: { url: `${sites.origin}/fast/` } });
    expect(created.status).toBe(202);
    await waitUntil('the direct first attempt', async () => receiver.received.length === 1, 240_000, 100);
    const [delivery] = await storage.webhooks.listDeliveries(user.id, 10);
    const row = await stack.api.db.knex('webhook_deliveries').where({ id: delivery!.id }).first();
    // Claimed by the worker for its attempt, no workflow yet: the direct path, not a workflow's attempt.
    expect(row).toMatchObject({ status: 'pending', workflow_started_at: null, webhook_attempts: 0 });
    expect(row.claimed_until).not.toBeNull();
    await replaceWorker();

    // The sweeper as any worker runs it, at a time past the claim (the injected clock: no 60 s wait).
    const dispatch = temporalWebhookDispatch({
      temporal: () => stack.api.temporal,
      webhooks: storage.webhooks,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
      log: console,
    });
    expect(await sweepWebhookOutbox(storage.webhooks, dispatch, new Date(row.claimed_until.getTime() - 1))).toBe(0);
    expect(
      await sweepWebhookOutbox(storage.webhooks, dispatch, new Date(row.claimed_until.getTime() + 1)),
    ).toBeGreaterThanOrEqual(1);
    expect(await dispatch.result(delivery!.id)).toBe('succeeded');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery!.messageId, delivery!.messageId]);
    expect(
      new Webhook(saved.settings.secret).verify(receiver.received[1]!.body, receiver.received[1]!.headers),
    ).toMatchObject({ event: 'scan.completed' });
    expect(await storage.webhooks.findDelivery(delivery!.id)).toMatchObject({
      status: 'succeeded',
      webhookResponseCode: 200,
      webhookAttempts: 1,
    });
    expect(await storage.webhooks.listDeliveries(user.id, 10)).toHaveLength(1);
  } finally {
    receiver.close();
  }
}, 360_000);

it('a delivery whose worker died mid-request in its workflow is sent again by the next worker, with the same webhook-id', async () => {
  const receiver = await holdFirstReceiver();
  try {
    const storage = createStorage(stack.api.db.knex);
    const { user } = await createTestUser(stack.api, 'pro');
    const saved = await saveWebhookSettings(
      { webhooks: storage.webhooks, keys: stack.api.config.keys, allowLoopback: true, clock: () => new Date() },
      user,
      { url: receiver.url, headerName: '', headerValue: '', events: [] },
    );
    if (saved.status !== 'saved') throw new Error('settings not saved');
    const delivery = (await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!;
    const dispatch = temporalWebhookDispatch({
      temporal: () => stack.api.temporal,
      webhooks: storage.webhooks,
      taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
      log: console,
    });
    await dispatch.start([delivery]);

    await waitUntil('the first request', async () => receiver.received.length === 1, 60_000, 50);
    await replaceWorker();

    expect(await dispatch.result(delivery.id)).toBe('succeeded');
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received.map((r) => r.headers['webhook-id'])).toEqual([delivery.messageId, delivery.messageId]);
    expect(
      new Webhook(saved.settings.secret).verify(receiver.received[1]!.body, receiver.received[1]!.headers),
    ).toMatchObject({ event: 'ping' });
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({
      status: 'succeeded',
      webhookResponseCode: 200,
    });
  } finally {
    receiver.close();
  }
}, 180_000);
