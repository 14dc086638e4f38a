import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { TargetReconcileReport } from '../../activities/targets.ts';
import { createLogger } from '../../infra/logger.ts';
import { ORPHAN_SCHEDULE_GRACE_MS } from '../../core/monitoring/schedule.ts';
import { mainTaskQueue, targetScheduleId } from '../../core/temporal.ts';
import {
  createTargetSchedule,
  deleteTargetSchedulesOf,
  describeTargetSchedule,
  listTargetSchedules,
} from '../../infra/temporal-client.ts';
import { createStorage } from '../../db/store/index.ts';
import { requireSmtpUrl } from '../../infra/config.ts';
import { createWorkerMetrics } from '../../infra/worker-metrics.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { buildActivities, noScanRunner } from '../../worker/activities.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { harnessInfo } from '../harness/shared.ts';
import { TcpProxy } from '../harness/tcp-proxy.ts';

/**
 * Row and schedule stay consistent when Temporal is away: the API reaches Temporal through a TCP forwarder the
 * test cuts, so every request that needs a schedule change fails (503) and changes nothing. Then drift made
 * behind the service's back is repaired by the reconciler, run through Temporal on a worker of this file's own
 * (connected directly), whose clock the test moves.
 */
let api: TestApi;
let proxy: TcpProxy;
let connection: Connection;
let temporal: Client;
let worker: { close(): Promise<void> };
let prefix: string;
let token: string;
let userId: number;
const clock = new TestClock();

beforeAll(async () => {
  const [host, port] = (process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233').split(':') as [string, string];
  proxy = new TcpProxy(host, Number(port));
  await proxy.start();
  api = await startTestApi({ clock, env: { TEMPORAL_ADDRESS: `127.0.0.1:${proxy.port}` } });
  prefix = api.config.temporal.taskQueuePrefix;
  connection = await Connection.connect({ address: `${host}:${port}` });
  temporal = new Client({ connection, namespace: api.config.temporal.namespace });
  ({
    token,
    user: { id: userId },
  } = await createTestUser(api, 'pro'));
  worker = await startReconcilerWorker(`${host}:${port}`);
});

afterAll(async () => {
  await worker?.close();
  if (temporal) await deleteTargetSchedulesOf(temporal, prefix);
  await connection?.close();
  await api?.close();
  await proxy?.cut();
});

/** The main queue of the API's prefix, with the worker's activities on the test's clock and a direct connection. */
async function startReconcilerWorker(address: string): Promise<{ close(): Promise<void> }> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // installed already in this process
  }
  const native = await NativeConnection.connect({ address });
  const log = createLogger({ logLevel: 'silent' }, 'worker');
  const storage = createStorage(api.db.knex);
  const mailer = smtpMailer({ url: requireSmtpUrl(api.config), from: api.config.mail.from });
  const activities = buildActivities({
    storage,
    config: api.config,
    temporal: () => temporal,
    clock: clock.read,
    log,
    mailer,
    metrics: createWorkerMetrics({ regions: api.config.regions.available }),
    // The reconciler only: no scans, no live data.
    runner: noScanRunner,
    rumWindows: () => Promise.reject(new Error('no live data in this test')),
    webhookDispatch: temporalWebhookDispatch({
      temporal: () => temporal,
      webhooks: storage.webhooks,
      taskQueuePrefix: prefix,
      log,
    }),
    identity: 'reconciler test worker',
  });
  const w = await Worker.create({
    connection: native,
    namespace: api.config.temporal.namespace,
    taskQueue: mainTaskQueue(prefix),
    workflowBundle: { codePath: harnessInfo().workflowBundlePath },
    activities: activities.main,
    shutdownGraceTime: '2 seconds',
  });
  const running = w.run();
  return {
    close: async () => {
      w.shutdown();
      await running;
      mailer.close();
      await native.close();
    },
  };
}

const runReconciler = () =>
  temporal.workflow.execute('reconcileTargetsWorkflow', {
    taskQueue: mainTaskQueue(prefix),
    workflowId: `${prefix}-reconcile-test-${Date.now()}`,
  }) as Promise<TargetReconcileReport>;
const rows = () => api.db.knex('scan_targets').where({ user_id: userId }).orderBy('id');
const paused = async (id: number) => (await describeTargetSchedule(temporal, prefix, id))?.state.paused;

async function create(url: string): Promise<number> {
  const res = await call(api, '/domains', { token, method: 'POST', body: { url } });
  if (res.status !== 201) throw new Error(`POST /domains answered ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: number }).id;
}

describe('Temporal unreachable', () => {
  it('creating, pausing and deleting a target are 503s that change neither the row nor the schedule; it works again once Temporal is back', async () => {
    const kept = await create('https://kept.example/');
    await proxy.cut();
    try {
      const refused = await call(api, '/domains', {
        token,
        method: 'POST',
        body: { url: 'https://during-outage.example/' },
      });
      expect([refused.status, refused.body, refused.headers.get('retry-after')]).toEqual([
        503,
        { message: 'Monitored targets cannot be changed right now; try again shortly.' },
        '30',
      ]);
      const pause = await call(api, `/domains/${kept}`, { token, method: 'PATCH', body: { is_active: false } });
      expect(pause.status).toBe(503);
      const removal = await fetch(`${api.url}/api/v1/domains/${kept}`, {
        method: 'DELETE',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(removal.status).toBe(503);
      // Reading needs no Temporal.
      expect((await call(api, '/domains', { token })).status).toBe(200);
    } finally {
      await proxy.restore();
    }
    // No row without its schedule, no schedule without its row: exactly the one target that was there, active.
    expect((await rows()).map((r) => [r.id, r.is_active])).toEqual([[kept, true]]);
    expect([...(await listTargetSchedulesNow()).keys()]).toEqual([kept]);
    expect(await paused(kept)).toBe(false);

    let again = 0;
    await waitUntil(
      'POST /domains to work again',
      async () => {
        const res = await call(api, '/domains', {
          token,
          method: 'POST',
          body: { url: 'https://after-outage.example/' },
        });
        if (res.status === 201) again = (res.body.data as { id: number }).id;
        return res.status === 201;
      },
      60_000,
      500,
    );
    expect(await paused(again)).toBe(false);
    expect((await rows()).map((r) => r.url)).toEqual(['https://kept.example/', 'https://after-outage.example/']);
  }, 120_000);
});

/** The schedules of this prefix, once the (eventually consistent) list shows every schedule Temporal has. */
async function listTargetSchedulesNow(): Promise<Map<number, { paused: boolean }>> {
  const ids = (await rows()).map((r) => r.id as number);
  let listed = new Map<number, { paused: boolean }>();
  await waitUntil(
    'the schedule list to catch up',
    async () => {
      listed = await listTargetSchedules(temporal, prefix);
      return ids.every((id) => listed.has(id));
    },
    30_000,
    250,
  );
  return listed;
}

describe('the reconciler', () => {
  it('repairs drift both ways: a deleted schedule is recreated, wrong paused states follow the row, an orphan goes once it is old enough', async () => {
    const missing = await create('https://missing-schedule.example/');
    const wronglyPaused = await create('https://wrongly-paused.example/');
    const wronglyRunning = await create('https://wrongly-running.example/');
    const healthy = await create('https://healthy.example/');
    // Behind the service's back:
    await temporal.schedule.getHandle(targetScheduleId(prefix, missing)).delete();
    await temporal.schedule.getHandle(targetScheduleId(prefix, wronglyPaused)).pause('an operator');
    await api.db.knex('scan_targets').where({ id: wronglyRunning }).update({ is_active: false });
    const orphan = 900_000_000 + Math.floor(Math.random() * 1000);
    await createTargetSchedule(temporal, prefix, { id: orphan, isActive: true });
    // The reconciler reads Temporal's schedule list, which lags a little behind: let it show the drift first.
    await waitUntil(
      'the list to show the drift',
      async () => {
        const listed = await listTargetSchedules(temporal, prefix);
        return !listed.has(missing) && listed.get(wronglyPaused)?.paused === true && listed.has(healthy);
      },
      30_000,
      250,
    );

    const first = await runReconciler();
    expect(first).toMatchObject({
      created: [missing],
      resumed: [wronglyPaused],
      paused: [wronglyRunning],
      deleted: [],
    });
    expect(await paused(missing)).toBe(false);
    expect(await paused(wronglyPaused)).toBe(false);
    expect(await paused(wronglyRunning)).toBe(true);
    expect(await paused(healthy)).toBe(false);
    // A schedule without a row may still be a creation in progress: kept until it is older than the grace period.
    expect(await describeTargetSchedule(temporal, prefix, orphan)).not.toBeNull();

    clock.set(new Date(Date.now() + ORPHAN_SCHEDULE_GRACE_MS + 60_000));
    await waitUntil(
      'the list to show the orphan',
      async () => (await listTargetSchedules(temporal, prefix)).has(orphan),
      30_000,
      250,
    );
    const second = await runReconciler();
    expect(second).toMatchObject({ created: [], resumed: [], paused: [], deleted: [orphan] });
    expect(await describeTargetSchedule(temporal, prefix, orphan)).toBeNull();

    // Once the list has caught up with the repairs, a further run finds nothing to do.
    await listTargetSchedulesNow();
    await waitUntil(
      'the list to show the repaired states',
      async () =>
        (await listTargetSchedules(temporal, prefix)).get(wronglyRunning)?.paused === true &&
        !(await listTargetSchedules(temporal, prefix)).get(wronglyPaused)?.paused,
      30_000,
      250,
    );
    expect(await runReconciler()).toMatchObject({ created: [], resumed: [], paused: [], deleted: [] });
  }, 120_000);
});
