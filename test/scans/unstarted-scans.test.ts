import type { ReconcileReport } from '../../activities/reconcile.ts';
import type { FlowRunner } from '../../activities/flows/flow-runner.ts';
import type { ScanRunner } from '../../activities/scan-runner.ts';
import { RUN_FAILURE_MESSAGES } from '../../core/flows/flow.ts';
import { FAILURE_TEXTS } from '../../core/i18n/failures.ts';
import { newPublicId } from '../../core/ids.ts';
import { PLANS } from '../../core/plans.ts';
import { flowRunWorkflowId, mainTaskQueue, scanWorkflowId, targetRunNowWorkflowId } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import { deleteTargetSchedulesOf, startTargetRunNowWorkflow } from '../../infra/temporal-client.ts';
import { runTargetNow } from '../../services/target-runs.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * Every scan and flow run that never starts ends `failed` with `not_started`, and the reconciler ends those left
 * queued or running with no workflow of theirs, while one that waits for its slot is left alone. The Lighthouse
 * run is not the subject: the stand-in runners hold their slot until their activity is cancelled, so the region
 * `far` (one slot) stays busy and every later scan there waits `queued` with its workflow running.
 */
const holdTheSlot = (signal: AbortSignal) =>
  new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(new Error('cancelled'))));
const HOLDING_SCANS: ScanRunner = { run: (_input, { signal }) => holdTheSlot(signal) };
const HOLDING_FLOWS: FlowRunner = { run: (_input, { signal }) => holdTheSlot(signal) };

let api: TestApi;
let worker: InProcessWorker;
let receiver: WebhookReceiver;
let token: string;
let userId: number;
let blocker: string;

beforeAll(async () => {
  api = await startTestApi({ env: { SCAN_REGIONS: 'local,far', SCAN_REGION_SLOTS: '4,far=1' } });
  worker = await startInProcessWorker(api, { runner: HOLDING_SCANS, flowRunner: HOLDING_FLOWS });
  receiver = await webhookReceiver();
  const created = await createTestUser(api, 'agency');
  token = created.token;
  userId = created.user.id;
  const saved = await saveWebhookSettings(
    { webhooks: storage().webhooks, keys: api.config.keys, allowLoopback: true, clock: () => new Date() },
    created.user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['flow.failed'] },
  );
  if (saved.status !== 'saved') throw new Error('webhook settings not saved');
  blocker = await submitScan('https://example.com/holds-the-slot');
  await waitUntil(
    'the first scan to hold the far slot',
    async () => (await scanRow(blocker)).status === 'running',
    30_000,
    100,
  );
}, 120_000);

afterAll(async () => {
  const ids = ((await api?.db.knex('scans').select('public_id')) ?? []) as Array<{ public_id: string }>;
  for (const { public_id } of ids)
    await api.temporal.workflow
      .getHandle(scanWorkflowId(public_id))
      .terminate('test finished')
      .catch(() => undefined);
  if (api) await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await worker?.close();
  await receiver?.close();
  await api?.close();
});

const storage = () => createStorage(api.db.knex);
const scanRow = (id: string) => api.db.knex('scans').where({ public_id: id }).first();
const flowRunRow = (id: string) => api.db.knex('flow_runs').where({ public_id: id }).first();
const age = (table: 'scans' | 'flow_runs', id: string) =>
  api.db
    .knex(table)
    .where({ public_id: id })
    .update({ requested_at: new Date(Date.now() - 24 * 3600_000) });
const runReconciler = () =>
  api.temporal.workflow.execute('reconcileScansWorkflow', {
    taskQueue: mainTaskQueue(api.config.temporal.taskQueuePrefix),
    workflowId: `reconcile-test-${newPublicId(new Date())}`,
  }) as Promise<ReconcileReport>;

/** A queued scan row in the region `far`, written straight to the store (no workflow is started for it). */
const insertQueuedScan = (path: string, targetId?: number) =>
  storage().scans.insert({
    publicId: newPublicId(new Date()),
    userId,
    url: `https://example.com/${path}`,
    host: 'example.com',
    region: 'far',
    isPublic: false,
    authType: null,
    authSecret: null,
    cacheKey: null,
    requestedAt: new Date(),
    ...(targetId === undefined ? {} : { targetId }),
  });

async function submitScan(url: string): Promise<string> {
  const res = await call(api, '/scans', { token, method: 'POST', body: { url, region: 'far' } });
  expect(res.status).toBe(202);
  return (res.body.data as { id: string }).id;
}

async function createTarget(path: string): Promise<number> {
  const res = await call(api, '/domains', {
    token,
    method: 'POST',
    body: { url: `https://example.com/${path}`, region: 'far' },
  });
  expect(res.status).toBe(201);
  return (res.body.data as { id: number }).id;
}

async function waitForEnd(id: string): Promise<Record<string, unknown>> {
  let data: Record<string, unknown> = {};
  await waitUntil(
    `scan ${id} to end`,
    async () => {
      data = (await call(api, `/scans/${id}`, { token })).body.data as Record<string, unknown>;
      return data.status === 'failed' || data.status === 'finished';
    },
    30_000,
    200,
  );
  return data;
}

it('a run now raced by the deletion of its target 50 ms later always ends failed `not_started`', async () => {
  for (let attempt = 0; attempt < 4; attempt++) {
    const targetId = await createTarget(`race-${attempt}`);
    const ran = await call(api, `/domains/${targetId}/scans`, { token, method: 'POST' });
    expect(ran.status).toBe(202);
    const scanId = (ran.body.data as { id: string }).id;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const deleted = await fetch(`${api.url}/api/v1/domains/${targetId}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(deleted.status).toBe(204);

    expect(await waitForEnd(scanId)).toMatchObject({
      status: 'failed',
      error: { code: 'not_started', message: FAILURE_TEXTS.en.not_started },
    });
    expect(await scanRow(scanId)).toMatchObject({ failure_message: expect.stringContaining('target was deleted') });
  }
}, 120_000);

it('a run now whose target is deleted between its lookup and its insert answers not_found and stores nothing', async () => {
  const targetId = await createTarget('deleted-mid-run-now');
  const stores = storage();
  const scansBefore = await api.db.knex('scans').where({ user_id: userId }).count<[{ count: string }]>('* as count');
  // The real stores, with the target's deletion landing just after run now looked it up.
  const targets = {
    ...stores.targets,
    findOwned: async (owner: number, id: number) => {
      const found = await stores.targets.findOwned(owner, id);
      await api.db.knex('scan_targets').where({ id }).delete();
      return found;
    },
  };
  const outcome = await runTargetNow(
    { scans: stores.scans, targets, temporal: api.temporal, config: api.config, clock: () => new Date() },
    { id: userId, plan: PLANS.agency },
    targetId,
  );
  expect(outcome).toEqual({ kind: 'not_found' });
  const scansAfter = await api.db.knex('scans').where({ user_id: userId }).count<[{ count: string }]>('* as count');
  expect(scansAfter[0]?.count).toBe(scansBefore[0]?.count);
});

it('a run now whose target vanished before its workflow dispatched it is failed `not_started` by that workflow', async () => {
  const targetId = await createTarget('vanished');
  const scan = await insertQueuedScan('vanished', targetId);
  // Gone without the service's deletion (which fails the scan itself): only the dispatch can notice.
  await api.db.knex('scan_targets').where({ id: targetId }).delete();
  const prefix = api.config.temporal.taskQueuePrefix;
  await startTargetRunNowWorkflow(api.temporal, prefix, { targetId, scanId: scan.publicId });
  const outcome: unknown = await api.temporal.workflow
    .getHandle(targetRunNowWorkflowId(prefix, targetId, scan.publicId))
    .result();
  expect(outcome).toEqual({ dispatched: false });
  expect(await scanRow(scan.publicId)).toMatchObject({ status: 'failed', failure_code: 'not_started' });
}, 60_000);

it('the reconciler fails a scan left queued with no workflow `not_started` and leaves scans whose workflow lives alone', async () => {
  const waiting = await submitScan('https://example.com/waits-its-turn');
  expect((await scanRow(waiting)).status).toBe('queued');
  // A row Temporal never heard of (the API stopped between the insert and the start).
  const orphan = await insertQueuedScan('orphan');
  for (const id of [waiting, blocker, orphan.publicId]) await age('scans', id);

  const report = await runReconciler();
  expect(report.failed).toEqual([orphan.publicId]);
  expect(await scanRow(orphan.publicId)).toMatchObject({
    status: 'failed',
    failure_code: 'not_started',
    failure_message: expect.stringContaining('no workflow'),
  });
  expect((await call(api, `/scans/${orphan.publicId}`, { token })).body.data).toMatchObject({
    status: 'failed',
    error: { code: 'not_started', message: FAILURE_TEXTS.en.not_started },
  });
  // A day in the queue, or running, with their workflows alive: untouched.
  expect((await scanRow(waiting)).status).toBe('queued');
  expect((await scanRow(blocker)).status).toBe('running');

  // Its workflow terminated from outside: the running scan is failed `scan_error`, the waiting one `not_started`.
  await api.temporal.workflow.getHandle(scanWorkflowId(blocker)).terminate('operator stopped it');
  await api.temporal.workflow.getHandle(scanWorkflowId(waiting)).terminate('operator stopped it');
  expect((await runReconciler()).failed.sort()).toEqual([blocker, waiting].sort());
  expect(await scanRow(blocker)).toMatchObject({
    status: 'failed',
    failure_code: 'scan_error',
    failure_message: expect.stringContaining('TERMINATED'),
  });
  expect(await scanRow(waiting)).toMatchObject({ status: 'failed', failure_code: 'not_started' });
  // Running it again changes nothing.
  expect((await runReconciler()).failed).toEqual([]);
}, 120_000);

it('the reconciler fails a flow run left running whose workflow was terminated, with its flow.failed webhook', async () => {
  const created = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Home',
      form_factor: 'desktop',
      steps: [{ type: 'navigate', url: 'https://example.com/', name: 'Open home' }],
    },
  });
  expect(created.status).toBe(201);
  const flowId = (created.body.data as { id: string }).id;
  const started = await call(api, `/flows/${flowId}/runs`, { token, method: 'POST' });
  expect(started.status).toBe(202);
  const runId = (started.body.data as { id: string }).id;
  await waitUntil('the run to start', async () => (await flowRunRow(runId)).status === 'running', 30_000, 100);
  await age('flow_runs', runId);

  // Alive: untouched.
  expect((await runReconciler()).failedFlowRuns).toEqual([]);
  expect((await flowRunRow(runId)).status).toBe('running');

  await api.temporal.workflow.getHandle(flowRunWorkflowId(runId)).terminate('operator stopped it');
  expect((await runReconciler()).failedFlowRuns).toEqual([runId]);
  expect(await flowRunRow(runId)).toMatchObject({
    status: 'failed',
    failure: { index: null, code: 'run_error', message: RUN_FAILURE_MESSAGES.lost },
  });
  const [webhook] = await receiver.waitFor(1, 30_000);
  const body = JSON.parse(webhook!.body) as Record<string, unknown>;
  expect(body).toMatchObject({ event: 'flow.failed', failed_step: { index: null, code: 'run_error' } });
}, 120_000);
