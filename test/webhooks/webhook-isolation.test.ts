import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
  REPLAY_MAX_DELIVERIES,
  WEBHOOK_ACTION_LIMITS,
} from '../../core/webhooks/limits.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import type { User } from '../../core/user.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * One account cannot stall, flood or exhaust the webhook path of the others, nor the worker: the real API, a
 * real worker process (as `./svc start` runs it: the main queue and the webhook queue, each its own Worker),
 * Temporal, Postgres, Chromium for a scan, and real receivers.
 */
const PASSWORD = 'a-long-password-1';
let stack: ScanStack;
let sites: FixtureSites;
let storage: Storage;
const receivers: Array<{ close(): unknown }> = [];

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay' });
  storage = createStorage(stack.api.db.knex);
}, 180_000);
afterAll(async () => {
  for (const receiver of receivers) await receiver.close();
  await stack?.close();
  await sites?.close();
});

async function receiver(): Promise<WebhookReceiver> {
  const made = await webhookReceiver();
  receivers.push(made);
  return made;
}

/** A receiver that holds every request open until the test releases them (the sender gives up after 15 s). */
async function hangingReceiver() {
  const open = new Set<ServerResponse>();
  let maxOpen = 0;
  let total = 0;
  let released = false;
  const server = createServer((req, res) => {
    req.resume();
    total += 1;
    if (released) return void res.writeHead(200).end('ok');
    open.add(res);
    maxOpen = Math.max(maxOpen, open.size);
    res.on('close', () => open.delete(res));
  });
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const made = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hang`,
    open: () => open.size,
    maxOpen: () => maxOpen,
    total: () => total,
    release() {
      released = true;
      for (const res of open) res.writeHead(200).end('ok');
    },
    close() {
      made.release();
      server.closeAllConnections();
      server.close();
    },
  };
  receivers.push(made);
  return made;
}

/** A Pro account signed in to the web area, its endpoint pointed at `url`. */
async function account(url: string) {
  const { user, token } = await createTestUser(stack.api, 'pro', PASSWORD);
  const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  await pointAt(user, url);
  await web.get('/account/notifications');
  return { user, token, web };
}

async function pointAt(user: User, url: string): Promise<void> {
  const saved = await saveWebhookSettings(
    { webhooks: storage.webhooks, keys: stack.api.config.keys, allowLoopback: true, clock: () => new Date() },
    user,
    { url, headerName: '', headerValue: '', events: ['scan.completed'] },
  );
  expect(saved.status).toBe('saved');
}

const deliveriesOf = async (userId: number, status?: string) =>
  Number(
    (
      await stack.api.db
        .knex('webhook_deliveries')
        .where({ user_id: userId, ...(status ? { status } : {}) })
        .count<Array<{ count: string | number }>>('id as count')
    )[0]!.count,
  );
const notice = (html: string) =>
  /<p class="notice" id="notice" role="status">([^<]*)<\/p>/.exec(html)?.[1]?.replace(/&#39;/g, "'") ?? '';

/** The visibility store's count of an account's delivery workflows, once it has settled on one number. */
async function workflowsOf(userId: number): Promise<number> {
  const count = async () =>
    (
      await stack.api.temporal.workflow.count(
        `UserId = "${userId}" AND TaskQueue = "${stack.api.config.temporal.taskQueuePrefix}-webhooks"`,
      )
    ).count;
  let last = -1;
  let seen = await count();
  while (seen !== last) {
    last = seen;
    await new Promise((r) => setTimeout(r, 1500));
    seen = await count();
  }
  return seen;
}

it('test events, resends and replays over the account limits: the page says so (429, Retry-After) and nothing is queued', async () => {
  const ok = await receiver();
  const { user, web } = await account(ok.url);
  const limit = WEBHOOK_ACTION_LIMITS.test.max;
  for (let i = 0; i < limit; i++) {
    const sent = await web.post('/account/notifications/test', {});
    expect(sent.headers.location).toMatch(/notice=test_result&delivery=\d+/);
    expect(notice((await web.get(String(sent.headers.location).replace(/^https?:\/\/[^/]+/, ''))).text)).toBe(
      'Test event delivered: HTTP 200.',
    );
  }
  expect(await deliveriesOf(user.id)).toBe(limit);
  const refused = await web.post('/account/notifications/test', {});
  expect(refused.status).toBe(429);
  expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
  expect(notice(refused.text)).toMatch(
    new RegExp(
      `^Too many test events: at most ${limit} every 10 minutes per account\\. Nothing was sent; try again after \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC\\.$`,
    ),
  );
  expect(await deliveriesOf(user.id)).toBe(limit);
  await ok.waitFor(limit);
  expect(await workflowsOf(user.id)).toBe(limit);

  // Resends: each a workflow of its own (one more attempt unless a resend before delivered it); the one over the limit starts none.
  const [delivery] = await storage.webhooks.listDeliveries(user.id, 1);
  for (let i = 0; i < WEBHOOK_ACTION_LIMITS.resend.max; i++)
    expect((await web.post(`/account/notifications/deliveries/${delivery!.id}/resend`, {})).status).toBe(303);
  const resendRefused = await web.post(`/account/notifications/deliveries/${delivery!.id}/resend`, {});
  expect(resendRefused.status).toBe(429);
  expect(notice(resendRefused.text)).toMatch(
    /^Too many resends: at most 30 every 10 minutes per account\. Nothing was sent/,
  );
  expect(await workflowsOf(user.id)).toBe(limit + WEBHOOK_ACTION_LIMITS.resend.max);

  // Replays: counted per replay; nothing failed here, so each re-sends none, and the one over the limit is refused.
  for (let i = 0; i < WEBHOOK_ACTION_LIMITS.replay.max; i++)
    expect((await web.post('/account/notifications/replay', { since: '2020-01-01T00:00' })).status).toBe(303);
  const replayRefused = await web.post('/account/notifications/replay', { since: '2020-01-01T00:00' });
  expect(replayRefused.status).toBe(429);
  expect(notice(replayRefused.text)).toMatch(
    /^Too many replays: at most 5 every 60 minutes per account\. Nothing was sent/,
  );
  expect(await deliveriesOf(user.id)).toBe(limit);
  expect(await workflowsOf(user.id)).toBe(limit + WEBHOOK_ACTION_LIMITS.resend.max);
}, 240_000);

it(`one replay re-sends at most ${REPLAY_MAX_DELIVERIES} failed deliveries, the oldest first, and says so`, async () => {
  const ok = await receiver();
  const { user, web } = await account(ok.url);
  const failed: number[] = [];
  for (let i = 0; i < REPLAY_MAX_DELIVERIES + 5; i++)
    failed.push((await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!.id);
  // As the outbox keeps deliveries whose schedule ran out (no workflow is needed for what this test replays).
  await stack.api.db
    .knex('webhook_deliveries')
    .whereIn('id', failed)
    .update({ status: 'failed', workflow_started_at: new Date(), webhook_attempts: 8 });
  const replayed = await web.post('/account/notifications/replay', { since: '2020-01-01T00:00' });
  expect(replayed.status).toBe(303);
  const page = await web.get(String(replayed.headers.location).replace(/^https?:\/\/[^/]+/, ''));
  expect(notice(page.text)).toBe(
    `Replaying the ${REPLAY_MAX_DELIVERIES} oldest failed deliveries since then (the most one replay sends); replay from a later time for the rest.`,
  );
  await ok.waitFor(REPLAY_MAX_DELIVERIES, 120_000);
  const bodies = new Set(ok.received.map((request) => String(request.headers['webhook-id'])));
  const rows = await stack.api.db
    .knex('webhook_deliveries')
    .whereIn('id', failed)
    .orderBy('id')
    .select('message_id', 'status');
  expect(rows.slice(0, REPLAY_MAX_DELIVERIES).every((row: { message_id: string }) => bodies.has(row.message_id))).toBe(
    true,
  );
  expect(rows.slice(REPLAY_MAX_DELIVERIES).map((row: { status: string }) => row.status)).toEqual([
    'failed',
    'failed',
    'failed',
    'failed',
    'failed',
  ]);
  expect(ok.received).toHaveLength(REPLAY_MAX_DELIVERIES);
}, 240_000);

it("an account filling the webhook path (failures, then a hanging receiver and a replay) holds at most its cap of requests, while another account's test event arrives at once, its scan finishes, and full readiness stays up (never two probes in a row missed)", async () => {
  const failing = await receiver();
  failing.answer([{ status: 500, body: 'down' }]);
  const a = await account(failing.url);
  // A's failures: its test events up to the limit, and more of its events through the outbox and their workflows.
  for (let i = 0; i < WEBHOOK_ACTION_LIMITS.test.max; i++) await a.web.post('/account/notifications/test', {});
  const dispatch = temporalWebhookDispatch({
    temporal: () => stack.api.temporal,
    webhooks: storage.webhooks,
    taskQueuePrefix: stack.api.config.temporal.taskQueuePrefix,
    log: console,
  });
  const raised = [];
  for (let i = 0; i < 50; i++)
    raised.push((await enqueueWebhook(storage.webhooks, a.user.id, 'ping', pingPayload(new Date()), new Date()))!);
  await dispatch.start(raised, { single: true });
  await waitUntil(
    "A's 60 failed deliveries",
    async () => (await deliveriesOf(a.user.id, 'failed')) === 60,
    120_000,
    250,
  );

  const readiness: number[] = [];
  /** What readiness said when it was not 200. */
  const unready: string[] = [];
  let polling = true;
  const poller = (async () => {
    while (polling) {
      const started = Date.now();
      readiness.push(
        await fetch(`${stack.api.url}/readyz?full=1`, { signal: AbortSignal.timeout(20_000) }).then(
          async (r) => {
            if (r.status !== 200) unready.push(await r.text());
            return r.status;
          },
          () => 0,
        ),
      );
      await new Promise((r) => setTimeout(r, Math.max(0, 500 - (Date.now() - started))));
    }
  })();

  const hanging = await hangingReceiver();
  try {
    await pointAt(a.user, hanging.url);
    const replay = await a.web.post('/account/notifications/replay', { since: '2020-01-01T00:00' });
    expect(replay.status).toBe(303);
    expect(notice((await a.web.get(String(replay.headers.location).replace(/^https?:\/\/[^/]+/, ''))).text)).toBe(
      'Replaying 60 failed deliveries.',
    );
    await waitUntil("A's requests held by its hanging receiver", async () => hanging.open() >= 1, 60_000, 50);
    // Let A's replay fill what it can.
    await new Promise((r) => setTimeout(r, 3000));

    const okB = await receiver();
    const b = await account(okB.url);
    const scan = await call(stack.api, '/scans', {
      token: b.token,
      method: 'POST',
      body: { url: `${sites.origin}/fast/` },
    });
    expect(scan.status).toBe(202);
    const scanStarted = Date.now();
    const sent = Date.now();
    let openWhenBArrived = -1;
    const arrival = okB.waitFor(1, 60_000).then(() => {
      openWhenBArrived = hanging.open();
      return Date.now() - sent;
    });
    const page = await b.web.post('/account/notifications/test', {});
    const tookMs = await arrival;
    console.log(
      `B's test event reached B's receiver after ${tookMs} ms, while A's receiver held ${openWhenBArrived} request(s) (A's most at once: ${hanging.maxOpen()}, A's requests so far: ${hanging.total()})`,
    );
    // Structural: B's request arrived while A's were still held, and B's test event was delivered within its own
    // request (below). How long it took is measured by bench:webhooks, not asserted here: timings belong in benchmarks.
    expect(openWhenBArrived).toBeGreaterThanOrEqual(1);
    expect(page.status).toBe(303);
    expect(page.headers.location).toMatch(/notice=test_result&delivery=\d+/);
    expect(notice((await b.web.get(String(page.headers.location).replace(/^https?:\/\/[^/]+/, ''))).text)).toBe(
      'Test event delivered: HTTP 200.',
    );

    const finished = await waitForScan(stack.api, b.token, (scan.body.data as { id: string }).id);
    console.log(
      `B's scan ${finished.status} after ${((Date.now() - scanStarted) / 1000).toFixed(1)} s; A's requests held now: ${hanging.open()}, most at once: ${hanging.maxOpen()}`,
    );
    expect(finished.status).toBe('finished');
    // A's first requests time out (15 s) and the next ones come, still never more than the cap at once.
    await waitUntil(
      "A's next requests after the first timed out",
      async () => hanging.total() > ATTEMPTS_IN_FLIGHT_PER_ACCOUNT,
      60_000,
      100,
    );
    // A's slow receiver never got more than A's cap of requests at once, though 60 deliveries were waiting.
    expect(hanging.maxOpen()).toBeLessThanOrEqual(ATTEMPTS_IN_FLIGHT_PER_ACCOUNT);
    console.log(`A's requests so far: ${hanging.total()}, most at once: ${hanging.maxOpen()}`);
  } finally {
    polling = false;
    await poller;
    hanging.release();
  }
  console.log(
    `full readiness polled ${readiness.length} times: ${JSON.stringify(Object.fromEntries([...new Set(readiness)].map((s) => [s, readiness.filter((x) => x === s).length])))}`,
  );
  expect(readiness.length).toBeGreaterThan(5);
  // A flood that held the API's pool or its Temporal client would keep readiness down for as long as A's
  // receiver holds its requests (15 s, 30 polls); one probe slower than its 3 s limit on a machine whose two
  // cores the whole test suite shares is not that, so a single miss between 200s is tolerated and shown.
  if (unready.length) console.log(`readiness not 200 at times: ${unready.join(' | ')}`);
  const longestMiss = Math.max(
    0,
    ...readiness.map((_, i) => {
      let run = 0;
      while (i + run < readiness.length && readiness[i + run] !== 200) run += 1;
      return run;
    }),
  );
  expect(longestMiss).toBeLessThanOrEqual(1);
  expect(readiness.filter((status) => status !== 200).length).toBeLessThanOrEqual(readiness.length / 20);
}, 400_000);
