import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { scanWorkflowId } from '../../core/temporal.ts';
import { createUser } from '../../services/accounts.ts';
import { mintToken } from '../../services/tokens.ts';
import { parseDatabaseUrl } from '../../stack/postgres.ts';
import { waitUntil } from '../../stack/proc.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { freePort, isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { startPrivateTemporal, type PrivateTemporal } from '../harness/private-temporal.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv, harnessInfo } from '../harness/shared.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';
import { createStorage } from '../../db/store/index.ts';

/**
 * Dependencies going away in the middle of a scan, for 30 s each, with real processes: the api and a worker
 * (Lighthouse in Chromium) reach Postgres through a TCP forwarder the test cuts, and Temporal is a dev
 * server of this test's own that it stops and starts again (the shared one serves other tests).
 */
const OUTAGE_MS = 30_000;
let db: IsolatedPostgres;
let pgProxy: TcpProxy;
let temporal: PrivateTemporal;
let sites: FixtureSites;
let api: RunningService;
let worker: RunningService;
let apiUrl: string;
let token: string;
let assetsDir: string;

beforeAll(async () => {
  db = await isolatedPostgres();
  const pg = parseDatabaseUrl(db.databaseUrl);
  pgProxy = new TcpProxy(pg.host, pg.port);
  await pgProxy.start();
  temporal = await startPrivateTemporal();
  sites = await startFixtureSites();
  assetsDir = mkdtempSync(join(tmpdir(), 'webperf-assets-'));
  const [apiPort, workerPort] = [await freePort(), await freePort()];
  apiUrl = `http://127.0.0.1:${apiPort}`;
  const env = {
    ...baseTestEnv(),
    DATABASE_URL: `postgres://${pg.user}@127.0.0.1:${pgProxy.port}/${pg.database}`,
    TEMPORAL_ADDRESS: temporal.address,
    TEMPORAL_TASK_QUEUE_PREFIX: uniqueName('faults'),
    API_PORT: String(apiPort),
    BASE_URL: apiUrl,
    WORKER_HEALTH_PORT: String(workerPort),
    WORKFLOW_BUNDLE_PATH: harnessInfo().workflowBundlePath,
    ASSETS_DIR: assetsDir,
    LOG_LEVEL: 'info',
  };
  [api, worker] = await Promise.all([startReady('api', env), startReady('worker', env)]);
  const user = await createUser(createStorage(db.knex).users, {
    name: 'Faults',
    email: `${uniqueName('faults')}@example.com`,
    password: null,
    plan: 'pro',
  });
  ({ token } = await mintToken(createStorage(db.knex).tokens, user.id, 'faults', null));
}, 180_000);

afterAll(async () => {
  await Promise.all([api, worker].filter(Boolean).map((s) => s.stop()));
  await temporal?.close();
  await sites?.close();
  await pgProxy?.cut();
  await db?.drop();
  if (assetsDir) rmSync(assetsDir, { recursive: true, force: true });
});

interface Answer {
  status: number;
  type: string;
  headers: Headers;
  body: Record<string, unknown>;
  text: string;
}

async function request(path: string, options: { method?: string; body?: unknown } = {}): Promise<Answer> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${apiUrl}${path}`, {
    method: options.method ?? 'GET',
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // an HTML page; `text` has it
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', headers: res.headers, body, text };
}

async function submit(path: string): Promise<string> {
  const created = await request('/api/v1/scans', { method: 'POST', body: { url: `${sites.origin}${path}` } });
  if (created.status !== 202)
    throw new Error(
      `POST /scans answered ${created.status} ${created.text}: ${JSON.stringify(await db.knex('scans').select('url', 'status', 'failure_code', 'failure_message'))}`,
    );
  return (created.body.data as { id: string }).id;
}

const scanStatus = async (id: string) =>
  ((await request(`/api/v1/scans/${id}`)).body.data as { status?: string } | undefined)?.status;

const childrenOf = (pid: number | string, pattern: string): string[] => {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', pattern], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean);
  } catch {
    return [];
  }
};

/** A runner with its Chromium (the worker keeps the next runner started ahead, idle, so a runner alone says nothing). */
const lighthouseRunning = (): boolean =>
  childrenOf(worker.child.pid!, 'lighthouse/runner.ts').some((runner) => childrenOf(runner, 'chromium').length > 0);

/** The scan is running and its Lighthouse runner is at work: an outage from now on lands mid-scan. */
async function midScan(id: string): Promise<void> {
  await waitUntil(
    `scan ${id} running in Lighthouse`,
    async () => lighthouseRunning() && (await scanStatus(id)) === 'running',
    120_000,
    200,
  );
  await sleep(2000);
}

async function ended(id: string): Promise<Record<string, unknown>> {
  let data: Record<string, unknown> = {};
  await waitUntil(
    `scan ${id} to end`,
    async () => {
      const answer = await request(`/api/v1/scans/${id}`);
      data = (answer.body.data as Record<string, unknown> | undefined) ?? {};
      return data.status === 'finished' || data.status === 'failed';
    },
    240_000,
    1000,
  );
  return data;
}

/** Every row is whole: finished ones have a result and no failure, failed ones a code and no result, none half-way. */
async function rowsAreConsistent(): Promise<void> {
  const rows = await db.knex('scans').select<
    Array<{
      public_id: string;
      status: string;
      result: unknown;
      finished_at: Date | null;
      failure_code: string | null;
      auth_secret: string | null;
    }>
  >();
  for (const row of rows) {
    if (row.status === 'finished')
      expect(row).toMatchObject({
        result: expect.any(Object),
        finished_at: expect.any(Date),
        failure_code: null,
        auth_secret: null,
      });
    else if (row.status === 'failed')
      expect(row).toMatchObject({
        result: null,
        finished_at: expect.any(Date),
        failure_code: expect.any(String),
        auth_secret: null,
      });
    else throw new Error(`scan ${row.public_id} left ${row.status}`);
  }
}

const logLines = (service: RunningService, id: string, message: string) =>
  service
    .output()
    .split('\n')
    .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes(`"msg":"${message}"`));

describe('Temporal stopped for 30 s in the middle of a scan', () => {
  it('POST /scans meanwhile is a 503 with a JSON body and that scan is not_started; the running scan finishes, once', async () => {
    const id = await submit('/fast/?temporal-outage');
    await midScan(id);
    await temporal.stop();
    const stoppedAt = Date.now();

    const refused = await request('/api/v1/scans', {
      method: 'POST',
      body: { url: `${sites.origin}/fast/?during-temporal-outage` },
    });
    expect([refused.status, refused.type]).toEqual([503, 'application/json; charset=utf-8']);
    expect(refused.body).toEqual({ message: expect.any(String) });
    expect(refused.headers.get('retry-after')).toBe('30');
    const [notStarted] = await db.knex('scans').where('url', 'like', '%during-temporal-outage%');
    expect(notStarted).toMatchObject({ status: 'failed', failure_code: 'not_started' });
    expect((await request(`/api/v1/scans/${notStarted.public_id}`)).body.data).toMatchObject({
      status: 'failed',
      error: { code: 'not_started' },
    });

    await sleep(Math.max(0, stoppedAt + OUTAGE_MS - Date.now()));
    await temporal.start();
    // New scans start again within seconds, by themselves (a page that fails fast keeps the worker free).
    let after = '';
    await waitUntil(
      'POST /scans starts scans again',
      async () => {
        const answer = await request('/api/v1/scans', {
          method: 'POST',
          body: { url: `${sites.refusedUrl}?after-temporal-outage-${Date.now()}` },
        });
        after = answer.status === 202 ? (answer.body.data as { id: string }).id : '';
        return answer.status === 202;
      },
      20_000,
      1000,
    );
    expect(await ended(id)).toMatchObject({ status: 'finished' });
    expect(await ended(after)).toMatchObject({ status: 'failed', error: { code: 'connection_failed' } });

    // Once: one Lighthouse result stored (one "scan finished" in the worker's log), one completed scanPage.
    expect(logLines(worker, id, 'scan finished')).toHaveLength(1);
    const connection = await Connection.connect({ address: temporal.address });
    try {
      const handle = new Client({ connection, namespace: temporal.namespace }).workflow.getHandle(scanWorkflowId(id));
      expect(await handle.result()).toEqual({ status: 'finished' });
      const events = (await handle.fetchHistory()).events ?? [];
      const scheduled = events
        .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'scanPage')
        .map((e) => Number(e.eventId));
      expect(scheduled).toHaveLength(1);
      expect(
        events.filter((e) => scheduled.includes(Number(e.activityTaskCompletedEventAttributes?.scheduledEventId))),
      ).toHaveLength(1);
    } finally {
      await connection.close();
    }
    expect(await db.knex('scans').where('url', 'like', '%?temporal-outage')).toHaveLength(1);
    await rowsAreConsistent();
  }, 300_000);
});

describe('Postgres unreachable for 30 s', () => {
  it('the API answers 503 {message} and recovers by itself; a scan submitted just before finishes after it; no row is half-written', async () => {
    const id = await submit('/fast/?postgres-outage');
    await midScan(id);
    await pgProxy.cut();
    const cutAt = Date.now();

    for (const [path, method, body] of [
      ['/api/v1/me', 'GET', undefined],
      ['/api/v1/scans', 'GET', undefined],
      [`/api/v1/scans/${id}`, 'GET', undefined],
      ['/api/v1/scans', 'POST', { url: `${sites.origin}/fast/?during-postgres-outage` }],
    ] as const) {
      const answer = await request(path, { method, body });
      expect([`${method} ${path}`, answer.status, answer.type]).toEqual([
        `${method} ${path}`,
        503,
        'application/json; charset=utf-8',
      ]);
      expect(answer.body).toEqual({ message: expect.any(String) });
      expect(answer.headers.get('retry-after')).toMatch(/^\d+$/);
    }
    const page = await request(`/reports/${id}`);
    expect([page.status, page.type]).toEqual([503, 'text/html; charset=utf-8']);
    expect((await fetch(`${apiUrl}/livez`)).status).toBe(200);

    await sleep(Math.max(0, cutAt + OUTAGE_MS - Date.now()));
    await pgProxy.restore();
    await waitUntil(
      'the API answers again by itself',
      async () => (await request('/api/v1/me')).status === 200,
      30_000,
      250,
    );

    expect(await ended(id)).toMatchObject({ status: 'finished' });
    expect(logLines(worker, id, 'scan finished')).toHaveLength(1);
    expect(await db.knex('scans').where('url', 'like', '%during-postgres-outage%')).toHaveLength(0);
    await rowsAreConsistent();
  }, 300_000);
});
