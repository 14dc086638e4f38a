import type { Client } from '@temporalio/client';
import type { ReconcileReport } from '../../activities/reconcile.ts';
import type { SlotsView } from '../../core/scan/slots.ts';
import { mainTaskQueue, scanDispatcherWorkflowId, scanWorkflowId } from '../../core/temporal.ts';
import { waitUntil } from '../../stack/proc.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/**
 * One account cannot monopolise a region's scan workers: each region's dispatcher workflow hands its slots
 * out fairly between accounts, within each plan's cap on scans in flight. Region `local` has one worker
 * and one slot; regions `far` (five slots) and `near` (one) have no worker, so their scans wait in Temporal.
 */
let stack: ScanStack;
let sites: FixtureSites;
let temporal: Client;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({
    runner: 'replay',
    env: { SCAN_REGIONS: 'local,far,near', WORKER_SCAN_REGIONS: 'local', SCAN_REGION_SLOTS: '1,far=5' },
  });
  temporal = stack.api.temporal;
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

async function submit(token: string, body: Record<string, unknown>): Promise<string> {
  const res = await call(stack.api, '/scans', { token, method: 'POST', body });
  if (res.status !== 202) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { id: string }).id;
}

const slots = (region: string) =>
  temporal.workflow
    .getHandle(scanDispatcherWorkflowId(stack.api.config.temporal.taskQueuePrefix, region))
    .query<SlotsView>('slots');
const statusOf = async (id: string) =>
  ((await stack.api.db.knex('scans').where({ public_id: id }).first()) as { status: string }).status;
const hasPendingScan = async (id: string) =>
  ((await temporal.workflow.getHandle(scanWorkflowId(id)).describe()).raw.pendingActivities ?? []).some(
    (a) => a.activityType?.name === 'scanPage',
  );

/** Holders of slots checked every 2 s instead of every 30 s, so a terminated scan's slot is freed soon. */
const HOLDER_CHECK_EVERY_MS = 2_000;

it('caps an account’s scans in flight per region, frees the slot of a terminated scan, and keeps waiting scans queued', async () => {
  const prefix = stack.api.config.temporal.taskQueuePrefix;
  // Started ahead of the first request (which then only signals it), with the shorter holder check.
  await temporal.workflow.start('scanDispatcherWorkflow', {
    workflowId: scanDispatcherWorkflowId(prefix, 'far'),
    taskQueue: mainTaskQueue(prefix),
    args: [{ holderCheckEveryMs: HOLDER_CHECK_EVERY_MS }],
  });
  const { user, token } = await createTestUser(stack.api, 'starter'); // 2 in flight per region
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) ids.push(await submit(token, { url: `https://example.com/cap-${i}`, region: 'far' }));

  // The four slot requests reach the dispatcher one by one: wait until all have (two in flight, two waiting).
  await waitUntil(
    'two scans to get a slot and two to wait',
    async () => {
      const now = await slots('far');
      return now.inFlight[user.id] === 2 && now.waiting[user.id] === 2;
    },
    30_000,
    200,
  );
  expect(await slots('far')).toEqual({ capacity: 5, inFlight: { [user.id]: 2 }, waiting: { [user.id]: 2 } });
  // Which two: the slot requests reach the dispatcher in whatever order their activities ran.
  const pending = async () =>
    (await Promise.all(ids.map(async (id) => ((await hasPendingScan(id)) ? id : null)))).filter(
      (id): id is string => id !== null,
    );
  await waitUntil('the granted scans to reach the far queue', async () => (await pending()).length === 2, 30_000, 200);
  const [first, second] = (await pending()) as [string, string];
  const [third, fourth] = ids.filter((id) => id !== first && id !== second) as [string, string];
  expect([await statusOf(first), await statusOf(second), await statusOf(third), await statusOf(fourth)]).toEqual([
    'running',
    'running',
    'queued',
    'queued',
  ]);

  // Terminated scans never release their slot; the dispatcher notices and hands it to the next in line.
  await temporal.workflow.getHandle(scanWorkflowId(first)).terminate('operator stopped it');
  let promoted: string | undefined;
  await waitUntil(
    'a waiting scan to get the freed slot',
    async () => {
      for (const id of [third, fourth]) if (await hasPendingScan(id)) promoted = id;
      return promoted !== undefined;
    },
    200_000,
    500,
  );
  const waiting = promoted === third ? fourth : third;
  expect(await slots('far')).toEqual({ capacity: 5, inFlight: { [user.id]: 2 }, waiting: { [user.id]: 1 } });
  expect(await hasPendingScan(waiting)).toBe(false);

  // A scan waiting its turn for long (a day here) is not failed by the reconciler: its workflow still runs.
  await stack.api.db
    .knex('scans')
    .where({ public_id: waiting })
    .update({ requested_at: new Date(Date.now() - 24 * 3600_000) });
  const report = (await temporal.workflow.execute('reconcileScansWorkflow', {
    taskQueue: mainTaskQueue(stack.api.config.temporal.taskQueuePrefix),
    workflowId: `reconcile-fair-${Date.now()}`,
  })) as ReconcileReport;
  expect(report.failed).not.toContain(waiting);
  expect(await statusOf(waiting)).toBe('queued');

  // A cancelled scan gives its place in the queue back.
  await temporal.workflow.getHandle(scanWorkflowId(waiting)).cancel();
  await waitUntil(
    'the cancelled scan to leave the queue',
    async () => (await slots('far')).waiting[user.id] === undefined,
    30_000,
    200,
  );

  for (const id of [second, promoted!])
    await temporal.workflow.getHandle(scanWorkflowId(id)).terminate('test finished');
}, 360_000);

it('keeps its queue and the slots it granted through continue-as-new', async () => {
  const prefix = stack.api.config.temporal.taskQueuePrefix;
  const dispatcherId = scanDispatcherWorkflowId(prefix, 'near');
  // Started ahead of the first request, so that it continues as new after a few signals.
  const first = await temporal.workflow.start('scanDispatcherWorkflow', {
    workflowId: dispatcherId,
    taskQueue: mainTaskQueue(prefix),
    args: [{ continueAfterEvents: 20, holderCheckEveryMs: HOLDER_CHECK_EVERY_MS }],
  });
  const { user, token } = await createTestUser(stack.api, 'starter');
  const ids: string[] = [];
  for (let i = 1; i <= 4; i++) ids.push(await submit(token, { url: `https://example.com/near-${i}`, region: 'near' }));

  await waitUntil(
    'a later run to hold all four scans',
    async () => {
      const { runId } = await temporal.workflow.getHandle(dispatcherId).describe();
      const view = await slots('near');
      return runId !== first.firstExecutionRunId && view.inFlight[user.id] === 1 && view.waiting[user.id] === 3;
    },
    60_000,
    500,
  );
  expect((await temporal.workflow.getHandle(dispatcherId, first.firstExecutionRunId).describe()).status.name).toBe(
    'CONTINUED_AS_NEW',
  );

  // The new run still knows who holds the slot: once that scan's workflow is terminated, the next scan gets it.
  // (Which scan holds it depends on the order the slot requests reached the dispatcher.)
  let holder: string | undefined;
  await waitUntil(
    'the holder to reach the near queue',
    async () => {
      for (const id of ids) if (await hasPendingScan(id)) holder = id;
      return holder !== undefined;
    },
    30_000,
    500,
  );
  await temporal.workflow.getHandle(scanWorkflowId(holder!)).terminate('operator stopped it');
  const others = ids.filter((id) => id !== holder);
  await waitUntil(
    'the next scan to get the slot',
    async () => (await Promise.all(others.map(hasPendingScan))).some(Boolean),
    120_000,
    500,
  );
  expect(await slots('near')).toEqual({ capacity: 1, inFlight: { [user.id]: 1 }, waiting: { [user.id]: 2 } });
  for (const id of others) await temporal.workflow.getHandle(scanWorkflowId(id)).terminate('test finished');
}, 240_000);

it('with one worker, a second account’s scan runs before most of the first account’s six; every scan runs once', async () => {
  const a = await createTestUser(stack.api, 'starter'); // 30 scans an hour, 2 in flight per region
  const b = await createTestUser(stack.api, 'starter');
  const aIds: string[] = [];
  for (let i = 1; i <= 6; i++) aIds.push(await submit(a.token, { url: `${sites.origin}/slow/?a=${i}` }));
  const bId = await submit(b.token, { url: `${sites.origin}/fast/?b=1` });

  // The region runs one scan at a time, so the rest wait in the dispatcher, visibly queued.
  await waitUntil(
    'B’s scan to wait for a slot',
    async () => (await slots('local')).waiting[b.user.id] === 1,
    30_000,
    200,
  );
  const view = await slots('local');
  expect(view.capacity).toBe(1);
  expect(Object.values(view.inFlight).reduce((n, c) => n + c, 0)).toBeLessThanOrEqual(1);
  expect((await call(stack.api, `/scans/${bId}`, { token: b.token })).body.data).toMatchObject({ status: 'queued' });

  for (const id of aIds) expect((await waitForScan(stack.api, a.token, id, 900_000)).status).toBe('finished');
  expect((await waitForScan(stack.api, b.token, bId, 60_000)).status).toBe('finished');

  const rows = (await stack.api.db
    .knex('scans')
    .whereIn('public_id', [...aIds, bId])
    .select('public_id', 'finished_at')) as Array<{ public_id: string; finished_at: Date }>;
  const finishedAt = new Map(rows.map((r) => [r.public_id, r.finished_at.getTime()]));
  const aBeforeB = aIds.filter((id) => finishedAt.get(id)! < finishedAt.get(bId)!).length;
  // B waits only for the scan of A that was running when it asked (two if that one had just finished).
  expect(aBeforeB).toBeLessThanOrEqual(2);

  // Durable and exactly once: each scan's Lighthouse activity was scheduled once and started once.
  for (const id of [...aIds, bId]) {
    const handle = temporal.workflow.getHandle(scanWorkflowId(id));
    expect(await handle.result()).toEqual({ status: 'finished' });
    const events = (await handle.fetchHistory()).events ?? [];
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'scanPage');
    expect(scheduled).toHaveLength(1);
    const started = events.filter(
      (e) => Number(e.activityTaskStartedEventAttributes?.scheduledEventId) === Number(scheduled[0]!.eventId),
    );
    expect(started.map((e) => e.activityTaskStartedEventAttributes!.attempt)).toEqual([1]);
  }
  await waitUntil(
    'the dispatcher to hold nothing',
    async () => {
      const after = await slots('local');
      return Object.keys(after.inFlight).length === 0 && Object.keys(after.waiting).length === 0;
    },
    30_000,
    200,
  );
}, 1_200_000);
