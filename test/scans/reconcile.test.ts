import { Client, Connection } from '@temporalio/client';
import { msToNumber } from '@temporalio/common';
import { RECONCILE_EVERY, RECONCILE_GRACE_DEFAULT_MS } from '../../core/scan/lifecycle.ts';
import { mainTaskQueue, scanReconcilerScheduleId, scanWorkflowId } from '../../core/temporal.ts';
import type { ReconcileReport } from '../../activities/reconcile.ts';
import { FAILURE_TEXTS } from '../../core/i18n/failures.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startScanStack, type ScanStack } from '../harness/scans.ts';

/**
 * A scan is never left queued or running for ever: when its workflow ends without recording an outcome
 * (an operator terminates it in the Temporal UI, say), the scheduled reconciler marks it failed.
 * The API offers a region `far` that no worker serves, so those scans wait in Temporal, untouched.
 */
let stack: ScanStack;
let connection: Connection;
let temporal: Client;
let token: string;

beforeAll(async () => {
  stack = await startScanStack({ runner: 'replay', env: { SCAN_REGIONS: 'local,far', WORKER_SCAN_REGIONS: 'local' } });
  connection = await Connection.connect({ address: stack.api.config.temporal.address });
  temporal = new Client({ connection, namespace: stack.api.config.temporal.namespace });
  ({ token } = await createTestUser(stack.api, 'pro'));
}, 120_000);

afterAll(async () => {
  await connection?.close();
  await stack?.close();
});

async function submitFar(path: string, runs = 1): Promise<string> {
  const res = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `https://example.com/${path}`, region: 'far', runs },
  });
  expect(res.status).toBe(202);
  return (res.body.data as { id: string }).id;
}

const ageScan = (id: string, ms: number) =>
  stack.api.db
    .knex('scans')
    .where({ public_id: id })
    .update({ requested_at: new Date(Date.now() - ms) });
const scanRow = (id: string) => stack.api.db.knex('scans').where({ public_id: id }).first();
const runReconciler = () =>
  temporal.workflow.execute('reconcileScansWorkflow', {
    taskQueue: mainTaskQueue(stack.api.config.temporal.taskQueuePrefix),
    workflowId: `reconcile-test-${Date.now()}`,
  }) as Promise<ReconcileReport>;

it('the worker schedules the reconciler on its main queue', async () => {
  const schedule = await temporal.schedule
    .getHandle(scanReconcilerScheduleId(stack.api.config.temporal.taskQueuePrefix))
    .describe();
  expect(schedule.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: 'reconcileScansWorkflow',
    taskQueue: mainTaskQueue(stack.api.config.temporal.taskQueuePrefix),
  });
  expect(msToNumber(schedule.spec.intervals![0]!.every)).toBe(msToNumber(RECONCILE_EVERY));
});

it('fails a scan past its grace whose workflow was terminated, and one that has no workflow, and leaves the rest alone', async () => {
  const terminated = await submitFar('terminated');
  // The region's one slot is its own: it is running when an operator stops it.
  await waitUntil('the first scan to run', async () => (await scanRow(terminated)).status === 'running', 30_000, 100);
  const waiting = await submitFar('still-waiting');
  const young = await submitFar('young');
  await temporal.workflow.getHandle(scanWorkflowId(terminated)).terminate('operator stopped it in the Temporal UI');
  await temporal.workflow.getHandle(scanWorkflowId(young)).terminate('terminated, but not stale yet');
  // A row the API wrote when Temporal never heard of it (a crash between the insert and the start).
  const orphan = await submitFar('orphan');
  await temporal.workflow.getHandle(scanWorkflowId(orphan)).terminate('');
  await stack.api.db
    .knex('scans')
    .where({ public_id: orphan })
    .update({ public_id: `${orphan}x` });
  for (const id of [terminated, waiting, `${orphan}x`]) await ageScan(id, RECONCILE_GRACE_DEFAULT_MS + 60_000);

  const report = await runReconciler();
  expect(report.failed.sort()).toEqual([terminated, `${orphan}x`].sort());

  const failed = await call(stack.api, `/scans/${terminated}`, { token });
  // Users read the code's own text; the reason is for operators, in the row (and the worker's log).
  expect(failed.body.data).toMatchObject({
    status: 'failed',
    error: { code: 'scan_error', message: FAILURE_TEXTS.en.scan_error },
  });
  expect(await scanRow(terminated)).toMatchObject({ failure_message: expect.stringContaining('TERMINATED') });
  // Queued behind the first (the region has one slot) when its workflow went: it never started.
  expect(await scanRow(`${orphan}x`)).toMatchObject({
    status: 'failed',
    failure_code: 'not_started',
    failure_message: expect.stringContaining('no workflow'),
  });
  // Still running in Temporal: its own timeouts end it, through the workflow's failure path.
  expect((await scanRow(waiting)).status).toMatch(/queued|running/);
  // Terminated but younger than the grace: not touched yet.
  expect((await scanRow(young)).status).toMatch(/queued|running/);

  // Running it again changes nothing.
  expect((await runReconciler()).failed).toEqual([]);
}, 120_000);

it('gives a scan of more runs the same grace: only its workflow decides', async () => {
  const fiveRuns = await submitFar('five-runs', 5);
  await temporal.workflow.getHandle(scanWorkflowId(fiveRuns)).terminate('operator stopped it in the Temporal UI');
  await ageScan(fiveRuns, RECONCILE_GRACE_DEFAULT_MS + 60_000);
  expect((await runReconciler()).failed).toEqual([fiveRuns]);
}, 120_000);
