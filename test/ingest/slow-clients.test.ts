import { connect, type Socket } from 'node:net';
import type { RumSite } from '../../core/rum/site.ts';
import { waitUntil } from '../../stack/proc.ts';
import { beacon, createSite, ingestBed, type IngestBed, type IngestProcess, metric, send } from './support.ts';

/**
 * Slow and many clients against the real ingest process (loopback only; every 127.x.y.z is a sender of its
 * own). Small limits so the test is short: headers within 2 s, body within 2 s, 20 connections per address,
 * 150 in all. Each slow client is bounded in count and time and closed at the end.
 */
let bed: IngestBed;
let ingest: IngestProcess;
let site: RumSite;
let port: number;
const opened: Socket[] = [];

beforeAll(async () => {
  bed = await ingestBed();
  site = await createSite(bed.db.knex, { domain: 'example.com' });
  ingest = await bed.start('spool', {
    INGEST_HEADERS_TIMEOUT_MS: '2000',
    INGEST_BODY_TIMEOUT_MS: '2000',
    INGEST_REQUEST_TIMEOUT_MS: '4000',
    INGEST_MAX_CONNECTIONS_PER_ADDRESS: '20',
    INGEST_MAX_CONNECTIONS: '150',
  });
  port = Number(new URL(ingest.url).port);
}, 120_000);

afterAll(async () => {
  for (const socket of opened) socket.destroy();
  await bed?.close();
});

interface SlowClient {
  socket: Socket;
  closed: boolean;
  /** What the server answered before closing, if anything. */
  answer: string;
}

/** A client from `localAddress` that writes `text` one byte every `everyMs` (until the server closes it). */
function trickle(localAddress: string, text: string, everyMs: number): Promise<SlowClient> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress });
    opened.push(socket);
    const client: SlowClient = { socket, closed: false, answer: '' };
    let i = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (client.answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      client.closed = true;
      clearInterval(timer);
    });
    socket.once('connect', () => {
      timer = setInterval(() => {
        if (client.closed || i >= text.length) return clearInterval(timer);
        socket.write(text[i++]!);
      }, everyMs);
      resolve(client);
    });
    socket.once('error', reject);
  });
}

const beaconBody = (): string => JSON.stringify(beacon(site.publicId));
const requestHead = (body: string) =>
  `POST /b HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://example.com\r\nUser-Agent: Mozilla/5.0 Chrome/131.0\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;

async function genuineBeaconsAccepted(count: number): Promise<void> {
  for (let i = 0; i < count; i++) expect((await send(ingest.url, beacon(site.publicId))).status).toBe(204);
}

it('cuts clients that send their headers byte by byte, caps connections per address, and keeps accepting genuine beacons', async () => {
  const started = Date.now();
  const head = requestHead(beaconBody());
  const slow = await Promise.all(Array.from({ length: 120 }, () => trickle('127.0.5.1', head, 250)));
  // 100 of the 120 are over the per-address cap of 20 and are closed at once, before any answer.
  await waitUntil(
    'connections over the per-address cap closed',
    async () => slow.filter((c) => c.closed).length >= 100,
    20_000,
    50,
  );
  const stillOpen = slow.filter((c) => !c.closed);
  expect(stillOpen.length).toBe(20);
  expect(await metric(ingest.metricsUrl, 'rum_ingest_connections_refused_total')).toBeGreaterThanOrEqual(100);
  // Genuine beacons from another address are accepted while the slow clients still hold their connections.
  await genuineBeaconsAccepted(10);
  expect(stillOpen.filter((c) => !c.closed).length).toBe(20);
  // The 20 that stayed are cut by the headers timeout (2 s; the 250 ms trickle needs ~60 s for the headers).
  await waitUntil('slow header senders cut', async () => stillOpen.every((c) => c.closed), 30_000, 100);
  console.log(`slow header senders: all cut after ${Date.now() - started} ms (headers timeout 2000 ms)`);
  expect(stillOpen.every((c) => c.answer === '' || c.answer.startsWith('HTTP/1.1 408'))).toBe(true);
  await genuineBeaconsAccepted(3);
}, 60_000);

it('cuts clients that trickle their body with 408, and keeps accepting genuine beacons', async () => {
  const started = Date.now();
  const body = beaconBody();
  const head = requestHead(body);
  // Headers at once, then the body one byte every 300 ms: about 2 minutes for the whole beacon.
  const slow = await Promise.all(
    Array.from({ length: 40 }, async (_, i) => {
      const client = await trickle(`127.0.6.${1 + (i % 4)}`, body, 300);
      client.socket.write(head);
      return client;
    }),
  );
  await genuineBeaconsAccepted(5);
  expect(slow.every((c) => !c.closed)).toBe(true);
  await waitUntil('slow body senders cut', async () => slow.every((c) => c.closed), 30_000, 100);
  console.log(`slow body senders: all cut after ${Date.now() - started} ms (body timeout 2000 ms)`);
  expect(slow.every((c) => c.answer.startsWith('HTTP/1.1 408'))).toBe(true);
  expect(await metric(ingest.metricsUrl, 'rum_ingest_beacons_rejected_total', 'reason="slow_body"')).toBe(40);
  await genuineBeaconsAccepted(3);
}, 60_000);

it('holds at most INGEST_MAX_CONNECTIONS; once idle connections are cut, beacons are accepted again', async () => {
  const before = await metric(ingest.metricsUrl, 'rum_ingest_connections_refused_total');
  // 8 addresses x 20 connections that send nothing: 160, over the cap of 150.
  const idle = await Promise.all(Array.from({ length: 160 }, (_, i) => trickle(`127.0.7.${1 + (i % 8)}`, '', 1000)));
  await waitUntil(
    'connections over the instance cap closed',
    async () => idle.filter((c) => c.closed).length >= 10,
    20_000,
    50,
  );
  expect(await metric(ingest.metricsUrl, 'rum_ingest_connections_refused_total')).toBeGreaterThanOrEqual(before + 10);
  await waitUntil('idle connections cut', async () => idle.every((c) => c.closed), 30_000, 100);
  await genuineBeaconsAccepted(3);
}, 60_000);
