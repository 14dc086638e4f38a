import { createServer } from 'node:net';
import { freePort } from '../../stack/ports.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { sendWebhook } from '../../services/webhook-sender.ts';

/**
 * What a webhook's owner reads when a send fails (the delivery page shows the attempt's error): the host they
 * typed, never the address it resolved to. Real HTTP against a real receiver on 127.0.0.1; the names are
 * resolved by the test (`lookup`) so that a name can stand for loopback.
 */
let receiver: WebhookReceiver;
beforeAll(async () => {
  receiver = await webhookReceiver();
});
afterAll(async () => receiver.close());

const toLoopback = async () => ['127.0.0.1'];
const send = (url: string, allowLoopback: boolean) =>
  sendWebhook({
    url,
    headers: { 'content-type': 'application/json' },
    body: '{}',
    timeoutMs: 3000,
    allowLoopback,
    lookup: toLoopback,
  });

test('a name resolving to loopback is refused without a request, and the message names the host, not its address', async () => {
  const port = new URL(receiver.url).port;
  const before = receiver.received.length;
  const refused = await send(`http://hooks.example.test:${port}/hook`, false);
  expect(refused).toMatchObject({
    responseCode: null,
    responseBody: null,
    error: 'refused: hooks.example.test resolves to a private or special-use address',
  });
  expect(refused.error).not.toContain('127.0.0.1');
  expect(receiver.received.length).toBe(before);

  // The same name with loopback allowed reaches the receiver: the refusal above was the address rule's.
  expect(await send(`http://hooks.example.test:${port}/hook`, true)).toMatchObject({ responseCode: 200, error: null });
  expect(receiver.received.length).toBe(before + 1);
});

test('an address literal is named as typed', async () => {
  const refused = await send('http://10.20.30.40/hook', true);
  expect(refused.error).toBe('refused: 10.20.30.40 is a private or special-use address');
});

test('a refused connection does not name the address the host resolved to', async () => {
  const closed = await freePort();
  const failed = await send(`http://hooks.example.test:${closed}/hook`, true);
  expect(failed).toMatchObject({ responseCode: null, error: 'connect ECONNREFUSED' });
});

test('a connection the receiver drops says so, without an address', async () => {
  const dropping = createServer((socket) => socket.destroy());
  await new Promise<void>((listening) => dropping.listen(0, '127.0.0.1', listening));
  try {
    const port = (dropping.address() as { port: number }).port;
    const failed = await send(`http://hooks.example.test:${port}/hook`, true);
    expect(failed.responseCode).toBeNull();
    expect(failed.error).toMatch(/socket hang up|ECONNRESET/);
    expect(failed.error).not.toContain('127.0.0.1');
  } finally {
    await new Promise((closed) => dropping.close(closed));
  }
});
