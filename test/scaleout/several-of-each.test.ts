import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { scanDispatcherWorkflowId, scanWorkflowId } from '../../core/temporal.ts';
import { beacon, createSite, queryRows, send } from '../ingest/support.ts';
import { createStorage } from '../../db/store/index.ts';
import { loadConfig, type Config } from '../../infra/config.ts';
import { createUser } from '../../services/accounts.ts';
import { SIGN_IN_THROTTLE } from '../../services/sign-in-throttle.ts';
import { mintToken } from '../../services/tokens.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { startBalancer, type Balancer } from '../../stack/balancer.ts';
import { waitUntil } from '../../stack/proc.ts';
import { scaledLayout, type ScaledPorts, type ScaledProcess } from '../../stack/scaled.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import {
  freePort,
  isolatedClickHouse,
  isolatedPostgres,
  uniqueName,
  type IsolatedClickHouse,
  type IsolatedPostgres,
} from '../harness/isolated.ts';
import { childPids, startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv, harnessInfo } from '../harness/shared.ts';
import { WebClient } from '../harness/web.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { registerSecret } from '../harness/log-sink.ts';

/**
 * Several of every process at once against one Postgres, ClickHouse and Temporal, laid out as `./svc start
 * --scaled` lays them out (stack/scaled.ts): two APIs and two ingest instances behind the local balancers, a
 * main-queue worker, two scan workers for `eu` and one for `us`, the webhook worker on its own. Which process
 * did what is read from Temporal's history (the identity `worker@host:pid` of the worker that completed each
 * activity), the processes' own logs and metrics, never assumed.
 */
const PASSWORD = 'scaled out horse battery';
let db: IsolatedPostgres;
let ch: IsolatedClickHouse;
let sites: FixtureSites;
let receiver: WebhookReceiver;
let assetsDir: string;
let spoolRoot: string;
let config: Config;
let processes: ScaledProcess[];
const running = new Map<string, RunningService>();
const balancers: Balancer[] = [];
let connection: Connection;
let temporal: Client;
let apiUrl: string;
let ingestUrl: string;
let token: string;

const service = (name: string): RunningService => {
  const found = running.get(name);
  if (!found) throw new Error(`no process ${name}`);
  return found;
};
const portOf = (s: RunningService) => Number(new URL(s.readyUrl).port);
const urlOf = (name: string) => `http://127.0.0.1:${portOf(service(name))}`;

beforeAll(async () => {
  [db, ch, sites, receiver] = await Promise.all([
    isolatedPostgres(),
    isolatedClickHouse(),
    startFixtureSites(),
    webhookReceiver(),
  ]);
  assetsDir = mkdtempSync(join(tmpdir(), 'webperf-scaleout-assets-'));
  spoolRoot = mkdtempSync(join(tmpdir(), 'webperf-scaleout-spools-'));
  const port = () => freePort();
  const pair = async (): Promise<[number, number]> => [await port(), await port()];
  const ports: ScaledPorts = {
    api: await pair(),
    apiMetrics: await pair(),
    ingest: await pair(),
    ingestMetrics: await pair(),
    workerHealth: [await port(), await port(), await port(), await port(), await port()],
  };
  const base = {
    ...baseTestEnv(),
    DATABASE_URL: db.databaseUrl,
    CLICKHOUSE_DATABASE: ch.database,
    TEMPORAL_TASK_QUEUE_PREFIX: uniqueName('scaleout'),
    WORKFLOW_BUNDLE_PATH: harnessInfo().workflowBundlePath,
    ASSETS_DIR: assetsDir,
    API_PORT: String(await port()),
    INGEST_PORT: String(await port()),
    SCAN_REGIONS: 'eu,us',
    INGEST_BATCH_MS: '200',
    // All beacons come from one address to one site: the per-sender and per-site limits stay out of the way.
    INGEST_ADDRESS_RATE: '1000000',
    INGEST_ADDRESS_BURST: '1000000',
    INGEST_SITE_RATE: '1000000',
    INGEST_SITE_BURST: '1000000',
    LOG_LEVEL: 'info',
  };
  config = loadConfig(base);
  const layout = scaledLayout(config, base, ports);
  expect(layout.regions).toEqual(['eu', 'us']);
  processes = layout.processes.map((p) =>
    p.kind === 'ingest' ? { ...p, env: { ...p.env, INGEST_SPOOL_DIR: join(spoolRoot, p.name) } } : p,
  );
  expect(processes.map((p) => p.name)).toEqual([
    'api-1',
    'api-2',
    'worker-main',
    'scan-eu-1',
    'scan-eu-2',
    'scan-us-1',
    'webhook-worker',
    'ingest-1',
    'ingest-2',
  ]);
  const started = await Promise.allSettled(
    processes.map(async (p) => running.set(p.name, await startReady(p.kind, p.env))),
  );
  const failed = started.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  // The balancers in front, on the ports the instances really listen on.
  for (const b of layout.balancers) {
    const backends = processes
      .filter((p) => p.kind === b.name)
      .map((p) => ({ host: b.host, port: portOf(service(p.name)) }));
    balancers.push(await startBalancer(b.host, b.port, backends));
  }
  apiUrl = config.baseUrl;
  ingestUrl = config.ingest.publicUrl;

  connection = await Connection.connect({ address: config.temporal.address });
  temporal = new Client({ connection, namespace: config.temporal.namespace });
  const storage = createStorage(db.knex);
  const user = await createUser(storage.users, {
    name: 'Scaled',
    email: `${uniqueName('scaled')}@example.com`,
    password: null,
    plan: 'agency',
  });
  ({ token } = await mintToken(storage.tokens, user.id, 'scaleout', null));
  registerSecret(token);
  const saved = await saveWebhookSettings(
    { webhooks: storage.webhooks, keys: config.keys, allowLoopback: true, clock: () => new Date() },
    user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['scan.completed'] },
  );
  if (saved.status !== 'saved') throw new Error('webhook settings not saved');
}, 180_000);

afterAll(async () => {
  await Promise.all(balancers.map((b) => b.close()));
  await Promise.all([...running.values()].map((s) => s.stop()));
  if (temporal) {
    const prefix = config.temporal.taskQueuePrefix;
    for await (const schedule of temporal.schedule.list())
      if (schedule.scheduleId.startsWith(prefix))
        await temporal.schedule
          .getHandle(schedule.scheduleId)
          .delete()
          .catch(() => undefined);
    for (const region of config.regions.available)
      await temporal.workflow
        .getHandle(scanDispatcherWorkflowId(prefix, region))
        .terminate('test finished')
        .catch(() => undefined);
    await connection.close();
  }
  await Promise.all([sites?.close(), receiver?.close(), ch?.drop(), db?.drop()]);
  for (const dir of [assetsDir, spoolRoot]) if (dir) rmSync(dir, { recursive: true, force: true });
}, 120_000);

async function api(
  path: string,
  options: { method?: string; body?: unknown; base?: string; bearer?: string } = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${options.base ?? apiUrl}/api/v1${path}`, {
    method: options.method ?? 'GET',
    headers: {
      authorization: `Bearer ${options.bearer ?? token}`,
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function submit(query: string, region: string): Promise<string> {
  const created = await api('/scans', { method: 'POST', body: { url: `${sites.origin}/fast/?${query}`, region } });
  expect(created.status).toBe(202);
  return (created.body.data as { id: string }).id;
}

async function finished(id: string): Promise<void> {
  await waitUntil(
    `scan ${id} to end`,
    async () =>
      ['finished', 'failed'].includes(String(((await api(`/scans/${id}`)).body.data as { status: string }).status)),
    240_000,
    1000,
  );
  // The row says finished as soon as the activity stored the result; the workflow completes just after.
  expect(await temporal.workflow.getHandle(scanWorkflowId(id)).result()).toEqual({ status: 'finished' });
}

/** The scanPage activity in the scan's history: how often scheduled and completed, which process completed it, at which attempt. */
async function scanPageHistory(id: string) {
  const events = (await temporal.workflow.getHandle(scanWorkflowId(id)).fetchHistory()).events ?? [];
  const scheduled = events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'scanPage')
    .map((e) => Number(e.eventId));
  const ofScanPage = (eventId: unknown) => scheduled.includes(Number(eventId));
  const started = events.filter((e) => ofScanPage(e.activityTaskStartedEventAttributes?.scheduledEventId));
  const completed = events.filter((e) => ofScanPage(e.activityTaskCompletedEventAttributes?.scheduledEventId));
  return {
    scheduled: scheduled.length,
    completed: completed.length,
    attempt: started.map((e) => e.activityTaskStartedEventAttributes!.attempt),
    completedBy: completed.map((e) => processByIdentity(e.activityTaskCompletedEventAttributes!.identity ?? '')),
  };
}

/** worker/main.ts names itself `worker@<host>:<pid>` to Temporal. */
function processByIdentity(identity: string): string {
  const pid = Number(/:(\d+)$/.exec(identity)?.[1]);
  return [...running].find(([, s]) => s.child.pid === pid)?.[0] ?? `unknown (${identity})`;
}

const logLines = (name: string, id: string, message: string) =>
  service(name)
    .output()
    .split('\n')
    .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes(`"msg":"${message}"`));

/** Each scan's scan.completed deliveries at the receiver. */
const deliveriesOf = (id: string) => receiver.received.filter((r) => r.body.includes(`/reports/${id}"`));

/** Every process ran the scan's Lighthouse once and stored it once: one row, finished, one "scan finished", one webhook. */
async function storedOnce(id: string): Promise<void> {
  const rows = await db.knex('scans').where({ public_id: id }).select('status', 'result', 'finished_at');
  expect(rows).toEqual([{ status: 'finished', result: expect.any(Object), finished_at: expect.any(Date) }]);
  const finishedLogs = processes.flatMap((p) => logLines(p.name, id, 'scan finished').map(() => p.name));
  expect(finishedLogs).toHaveLength(1);
  await waitUntil(`scan.completed for ${id}`, async () => deliveriesOf(id).length > 0, 30_000, 100);
  expect(deliveriesOf(id)).toHaveLength(1);
}

describe('scans', () => {
  it("are spread over both workers of a region; the second region's scans run on its own worker", async () => {
    // eu runs two at once (SCAN_REGION_SLOTS) and each of its workers one: the second scan cannot go to the busy one.
    const eu = await Promise.all([1, 2].map((n) => submit(`spread=${n}`, 'eu')));
    const us = await submit('spread=us', 'us');
    await Promise.all([...eu, us].map(finished));

    const ranBy = await Promise.all(eu.map(async (id) => (await scanPageHistory(id)).completedBy));
    expect(new Set(ranBy.flat())).toEqual(new Set(['scan-eu-1', 'scan-eu-2']));
    expect((await scanPageHistory(us)).completedBy).toEqual(['scan-us-1']);
    for (const id of [...eu, us]) await storedOnce(id);
    // The deliveries went out from the worker that raised them (its direct first attempt) or the webhook worker.
    expect(receiver.received).toHaveLength(3);
  }, 300_000);

  it('a scan whose worker is killed (SIGKILL) mid-run finishes on the other worker of its region, once', async () => {
    const id = await submit('killed=1', 'eu');
    const handle = temporal.workflow.getHandle(scanWorkflowId(id));
    // Temporal says which worker has the scan; its runner's Chromium shows Lighthouse is under way there.
    let victim = '';
    await waitUntil(
      'the scan running in Lighthouse on a worker of eu',
      async () => {
        const pending = (await handle.describe()).raw.pendingActivities?.find(
          (a) => a.activityType?.name === 'scanPage' && a.lastWorkerIdentity,
        );
        victim = pending ? processByIdentity(pending.lastWorkerIdentity ?? '') : '';
        return (
          victim !== '' &&
          childPids(service(victim).child.pid!, 'lighthouse/runner.ts').some(
            (runner) => childPids(runner, 'chromium').length > 0,
          )
        );
      },
      120_000,
      200,
    );
    expect(['scan-eu-1', 'scan-eu-2']).toContain(victim);
    const survivor = victim === 'scan-eu-1' ? 'scan-eu-2' : 'scan-eu-1';
    await new Promise((r) => setTimeout(r, 1500)); // inside the Lighthouse run
    const killed = service(victim);
    const exited = new Promise((r) => killed.child.once('exit', r));
    killed.child.kill('SIGKILL');
    await exited;

    await finished(id);
    const history = await scanPageHistory(id);
    expect(history).toMatchObject({ scheduled: 1, completed: 1, completedBy: [survivor] });
    expect(history.attempt[0]).toBeGreaterThanOrEqual(2);
    expect(logLines(victim, id, 'scan finished')).toHaveLength(0);
    await storedOnce(id);
    expect(await db.knex('scans').where('url', 'like', '%killed=1')).toHaveLength(1);
  }, 300_000);
});

describe('beacons', () => {
  it('are spread over both ingest instances; one killed (SIGKILL) and restarted under load: every acknowledged beacon is stored once', async () => {
    const site = await createSite(db.knex, { domain: 'example.com', plan: 'agency' });
    const acknowledged = new Set<string>();
    let flowing = true;
    // Each beacon on a connection of its own, so the balancer hands them out in turn.
    const loops = Array.from({ length: 4 }, async () => {
      while (flowing) {
        const b = beacon(site.publicId);
        try {
          if ((await send(ingestUrl, b, { connection: 'close' })).status === 204) acknowledged.add(b.pv);
        } catch {
          await new Promise((r) => setTimeout(r, 20)); // cut by the kill: not acknowledged
        }
      }
    });
    const accepted = async (name: string) => {
      const env = processes.find((p) => p.name === name)!.env;
      const text = await (await fetch(`http://127.0.0.1:${env.INGEST_METRICS_PORT}/metrics`)).text();
      return Number(/^rum_ingest_beacons_accepted_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    const more = (n: number) => {
      const target = acknowledged.size + n;
      return waitUntil(`${n} more acknowledged beacons`, async () => acknowledged.size >= target, 60_000, 20);
    };
    try {
      await more(200);
      expect(await accepted('ingest-1')).toBeGreaterThan(0);
      expect(await accepted('ingest-2')).toBeGreaterThan(0);

      const victim = service('ingest-1');
      const exited = new Promise((r) => victim.child.once('exit', r));
      victim.child.kill('SIGKILL');
      await exited;
      await more(200); // all on ingest-2 meanwhile
      const env = processes.find((p) => p.name === 'ingest-1')!.env;
      running.set('ingest-1', await startReady('ingest', env));
      await more(200);
      expect(await accepted('ingest-1')).toBeGreaterThan(0); // the restarted instance takes beacons again
    } finally {
      flowing = false;
      await Promise.all(loops);
    }

    const database = ch.database;
    const stored = async () =>
      queryRows<{ pv: string; pairs: string; versions: string }>(
        ch.client,
        `SELECT page_view_id AS pv, uniqExact(metric_id) AS pairs, max(versions) AS versions FROM (SELECT page_view_id, metric_id, uniqExact(value, seq, path) AS versions FROM ${database}.rum_metrics GROUP BY page_view_id, metric_id) GROUP BY page_view_id`,
      );
    let rows: Awaited<ReturnType<typeof stored>> = [];
    await waitUntil(
      'every acknowledged beacon in ClickHouse',
      async () => {
        rows = await stored();
        const found = new Set(rows.map((r) => r.pv));
        return [...acknowledged].every((pv) => found.has(pv));
      },
      60_000,
      250,
    );
    // Once, by the dedupe rule every query applies (one row per page view and metric id; a replayed spool
    // inserts identical copies): each acknowledged beacon's three metrics, each with one version.
    const mine = rows.filter((r) => acknowledged.has(r.pv));
    expect(mine).toHaveLength(acknowledged.size);
    expect(mine.filter((r) => Number(r.pairs) !== 3 || Number(r.versions) !== 1)).toEqual([]);
  }, 180_000);
});

describe('the API', () => {
  const otherApi = (name: 'api-1' | 'api-2') => (name === 'api-1' ? 'api-2' : 'api-1');

  it('takes a token and a web session on either process', async () => {
    for (const name of ['api-1', 'api-2'] as const) {
      const me = await api('/me', { base: urlOf(name) });
      expect([name, me.status]).toEqual([name, 200]);
    }
    const email = `${uniqueName('session')}@example.com`;
    await createUser(createStorage(db.knex).users, { name: 'Session', email, password: PASSWORD, plan: 'pro' });
    for (const name of ['api-1', 'api-2'] as const) {
      const browser = new WebClient(urlOf(name), config.baseUrl);
      expect((await browser.signIn(email, PASSWORD)).status).toBe(303);
      const elsewhere = new WebClient(urlOf(otherApi(name)), config.baseUrl);
      for (const [cookie, value] of browser.cookies) elsewhere.cookies.set(cookie, value);
      expect([otherApi(name), (await elsewhere.get('/targets')).status]).toEqual([otherApi(name), 200]);
      expect((await new WebClient(urlOf(otherApi(name)), config.baseUrl).get('/targets')).status).not.toBe(200);
    }
  }, 60_000);

  it('throttles sign-in across both processes', async () => {
    const email = `${uniqueName('throttled')}@example.com`;
    await createUser(createStorage(db.knex).users, { name: 'Throttled', email, password: PASSWORD, plan: 'pro' });
    const browsers = ['api-1', 'api-2'].map((name) => new WebClient(urlOf(name), config.baseUrl));
    for (let i = 0; i < SIGN_IN_THROTTLE.perEmail; i++)
      expect((await browsers[i % 2]!.signIn(email, `guess-${i}`)).status).toBe(422);
    // Half of the failures were seen by each process; together they reach the limit on both.
    for (const browser of browsers) expect((await browser.signIn(email, PASSWORD)).status).toBe(429);
  }, 60_000);

  it('holds the daily API limit across both processes', async () => {
    const storage = createStorage(db.knex);
    const user = await createUser(storage.users, {
      name: 'Limited',
      email: `${uniqueName('limited')}@example.com`,
      password: null,
      plan: 'starter',
    });
    const { token: limited } = await mintToken(storage.tokens, user.id, 'limited', null);
    registerSecret(limited);
    const day = new Date().toISOString().slice(0, 10);
    await db.knex('api_usage_daily').insert({ user_id: user.id, day, used: 490 });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => api('/me', { base: urlOf(i % 2 ? 'api-2' : 'api-1'), bearer: limited })),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(10);
    expect(
      (await db.knex('api_usage_daily').where({ user_id: user.id, day }).first<{ used: number }>('used'))?.used,
    ).toBe(500);
  }, 60_000);
});
