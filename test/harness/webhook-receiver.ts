import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitUntil } from '../../stack/proc.ts';

export interface ReceivedWebhook {
  at: number;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** Bytes as they are (invalid UTF-8 too). */
  body?: string | Buffer;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The answer to each request in turn (a function may act first, e.g. cut a connection); the last one repeats. */
  answer(replies: Array<Reply | ((request: ReceivedWebhook) => Reply | Promise<Reply>)>): void;
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that records every request and answers as the test scripts it (200 by default). */
export async function webhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  let replies: Array<Reply | ((request: ReceivedWebhook) => Reply | Promise<Reply>)> = [{ status: 200, body: 'ok' }];
  let served = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(request);
      const next = replies[Math.min(served, replies.length - 1)]!;
      served += 1;
      void Promise.resolve(typeof next === 'function' ? next(request) : next).then((reply) =>
        res.writeHead(reply.status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.body ?? ''),
      );
    });
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    received,
    answer(next) {
      replies = next;
      served = 0;
    },
    async waitFor(count, timeoutMs = 30_000) {
      await waitUntil(`${count} webhook requests`, async () => received.length >= count, timeoutMs, 20);
      return received;
    },
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
