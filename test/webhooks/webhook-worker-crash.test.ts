import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { createStorage } from '../../db/store/index.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { createTestUser } from '../harness/api.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';

/** Kill -9 the worker while the receiver holds a delivery's request open, start another: the event still arrives. */
let stack: ScanStack;
let replacement: RunningService | null = null;

beforeAll(async () => {
  stack = await startScanStack();
}, 120_000);
afterAll(async () => {
  await replacement?.stop();
  await stack.close();
});

it('a delivery whose worker died mid-request is sent again by the next worker, with the same webhook-id', async () => {
  const held: ServerResponse[] = [];
  const received: Array<{ headers: Record<string, string>; body: string }> = [];
  const receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      // The first request is never answered: the worker dies waiting for it.
      if (received.length === 1) held.push(res);
      else res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((ready) => receiver.listen(0, '127.0.0.1', ready));
  try {
    const storage = createStorage(stack.api.db.knex);
    const { user } = await createTestUser(stack.api, 'pro');
    const saved = await saveWebhookSettings(
      { webhooks: storage.webhooks, keys: stack.api.config.keys, allowLoopback: true, clock: () => new Date() },
      user,
      { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`, headerName: '', headerValue: '', events: [] },
    );
    if (saved.status !== 'saved') throw new Error('settings not saved');
    const delivery = (await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!;
    const dispatch = temporalWebhookDispatch({ temporal: () => stack.api.temporal, webhooks: storage.webhooks, taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix, log: console });
    await dispatch.start([delivery]);

    await waitUntil('the first request', async () => received.length === 1, 60_000, 50);
    stack.worker.child.kill('SIGKILL');
    replacement = await startReady('worker', stack.workerEnv);

    expect(await dispatch.result(delivery.id)).toBe('succeeded');
    expect(received).toHaveLength(2);
    expect(received.map((r) => r.headers['webhook-id'])).toEqual([delivery.messageId, delivery.messageId]);
    expect(new Webhook(saved.settings.secret).verify(received[1]!.body, received[1]!.headers)).toMatchObject({ event: 'ping' });
    expect(await storage.webhooks.findDelivery(delivery.id)).toMatchObject({ status: 'succeeded', webhookResponseCode: 200 });
  } finally {
    for (const res of held) res.destroy();
    receiver.closeAllConnections();
    receiver.close();
  }
}, 180_000);
