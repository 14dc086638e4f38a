import { Client, Connection } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { scanTaskQueue, scanWorkflowId } from '../../core/temporal.ts';
import { waitUntil } from '../../stack/proc.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import { freePort } from '../harness/isolated.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/**
 * Lighthouse runs on the region's own task queue: a scan for region `far` waits while only a `local` worker
 * runs, and is done by the worker deployed for `far` once it starts.
 */
let stack: ScanStack;
let sites: FixtureSites;
let farWorker: RunningService | null = null;
let connection: Connection;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ runner: 'replay', env: { SCAN_REGIONS: 'local,far', WORKER_SCAN_REGIONS: 'local' } });
  connection = await Connection.connect({ address: stack.api.config.temporal.address });
}, 120_000);

afterAll(async () => {
  await farWorker?.stop();
  await connection?.close();
  await stack?.close();
  await sites?.close();
});

it('a scan for a region is run only by that region’s worker', async () => {
  const { token } = await createTestUser(stack.api, 'pro');
  const created = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `${sites.origin}/fast/?region=far`, region: 'far' },
  });
  expect(created.status).toBe(202);
  const id = (created.body.data as { id: string }).id;
  const handle = new Client({ connection, namespace: stack.api.config.temporal.namespace }).workflow.getHandle(
    scanWorkflowId(id),
  );

  // The Lighthouse activity is scheduled on the far queue and stays unclaimed while only `local` is served.
  const pendingScan = async () =>
    (await handle.describe()).raw.pendingActivities?.find((a) => a.activityType?.name === 'scanPage');
  let pending: proto.api.workflow.v1.IPendingActivityInfo | undefined;
  await waitUntil(
    'the scan activity to be scheduled',
    async () => (pending = await pendingScan()) !== undefined,
    30_000,
    200,
  );
  await new Promise((r) => setTimeout(r, 3000)); // the local worker polls all along; it must not take the task
  pending = await pendingScan();
  expect(pending?.state).toBe(proto.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_SCHEDULED);
  expect((await call(stack.api, `/scans/${id}`, { token })).body.data).toMatchObject({
    status: 'running',
    region: 'far',
  });

  farWorker = await startReady('worker', {
    ...stack.workerEnv,
    WORKER_SCAN_REGIONS: 'far',
    WORKER_HEALTH_PORT: String(await freePort()),
  });
  expect((await waitForScan(stack.api, token, id)).status).toBe('finished');

  // The row says finished while the activity is still returning; its started event is written when it completes.
  expect(await handle.result()).toEqual({ status: 'finished' });
  const history = await handle.fetchHistory();
  const started = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes);
  const scanStarted = started.find((e) => {
    const scheduled = (history.events ?? []).find(
      (s) => Number(s.eventId) === Number(e.activityTaskStartedEventAttributes!.scheduledEventId),
    );
    return (
      scheduled?.activityTaskScheduledEventAttributes?.taskQueue?.name ===
      scanTaskQueue(stack.api.config.temporal.taskQueuePrefix, 'far')
    );
  });
  expect(scanStarted?.activityTaskStartedEventAttributes?.identity).toMatch(new RegExp(`:${farWorker.child.pid}$`));
}, 300_000);
