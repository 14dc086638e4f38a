import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { DispatchedTargetScan } from '../../activities/targets.ts';
import { ensureRumAlertCheckSchedule, requestScanSlot } from '../../infra/temporal-client.ts';
import {
  mainTaskQueue,
  rumAlertCheckScheduleId,
  scanDispatcherWorkflowId,
  scanTaskQueue,
  SEARCH_ATTRIBUTES,
  targetScheduleId,
} from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { harnessInfo } from '../harness/shared.ts';

/** What operators are told to type into the Temporal UI finds the workflow, and it says what it is doing. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

it('every search attribute the runbook names is registered on the server', async () => {
  const { customAttributes } = await api.temporal.connection.operatorService.listSearchAttributes({
    namespace: api.config.temporal.namespace,
  });
  for (const key of SEARCH_ATTRIBUTES) expect(Object.keys(customAttributes ?? {})).toContain(key.name);
  expect(SEARCH_ATTRIBUTES.map((key) => key.name)).toEqual(
    expect.arrayContaining(['ScanId', 'Host', 'TargetId', 'UserId', 'WebhookEvent', 'DeliveryId']),
  );
});

it('a scan is found by ScanId and carries a summary naming its host and region', async () => {
  const { token } = await createTestUser(api, 'starter');
  const started = await call(api, '/scans', { token, method: 'POST', body: { url: 'http://127.0.0.1:9/findable' } });
  expect(started.status).toBe(202);
  const id = (started.body.data as { id: string }).id;
  const found: string[] = [];
  // Visibility is eventually consistent: the list catches up within moments.
  for (let attempt = 0; attempt < 50 && found.length === 0; attempt += 1) {
    for await (const execution of api.temporal.workflow.list({ query: `ScanId = "${id}"` }))
      found.push(execution.workflowId);
    if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(found).toEqual([`scan-${id}`]);
  const description = await api.temporal.workflow.getHandle(`scan-${id}`).describe();
  expect(await description.staticSummary()).toBe(
    `Scan of 127.0.0.1 (region ${api.config.regions.default}), scan ${id}`,
  );
  await api.temporal.workflow.getHandle(`scan-${id}`).terminate('test done');
});

/** The workflows a visibility query lists, once the list has caught up (it is eventually consistent). */
async function listed(
  query: string,
  count: number,
): Promise<Array<{ workflowId: string; runId: string; type: string }>> {
  let found: Array<{ workflowId: string; runId: string; type: string }> = [];
  for (let attempt = 0; attempt < 100 && found.length < count; attempt += 1) {
    found = [];
    for await (const execution of api.temporal.workflow.list({ query }))
      found.push({ workflowId: execution.workflowId, runId: execution.runId, type: execution.type });
    if (found.length < count) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return found;
}

describe('with a worker serving the workflows (activities stubbed: nothing here needs them to finish)', () => {
  let connection: NativeConnection;
  let worker: Worker;
  let running: Promise<void>;
  const started: Array<{ workflowId: string; runId?: string }> = [];
  let prefix: string;
  let region: string;

  beforeAll(async () => {
    try {
      Runtime.install({ logger: new DefaultLogger('ERROR') });
    } catch {
      // Installed already in this process.
    }
    prefix = api.config.temporal.taskQueuePrefix;
    region = api.config.regions.default;
    connection = await NativeConnection.connect({ address: api.config.temporal.address });
    worker = await Worker.create({
      connection,
      namespace: api.config.temporal.namespace,
      taskQueue: mainTaskQueue(prefix),
      workflowBundle: { codePath: harnessInfo().workflowBundlePath },
      activities: {
        // The target's run dispatches its scan; the scan workflow then waits on activities nobody serves.
        dispatchTargetScan: async (input: { targetId: number; publicId: string }): Promise<DispatchedTargetScan> => ({
          publicId: input.publicId,
          host: 'findable-target.example.com',
          scanTaskQueue: scanTaskQueue(prefix, region),
          region,
        }),
      },
    });
    running = worker.run();
  }, 60_000);

  afterAll(async () => {
    for (const { workflowId, runId } of started)
      await api.temporal.workflow
        .getHandle(workflowId, runId)
        .terminate('test done')
        .catch(() => undefined);
    await api.temporal.schedule
      .getHandle(rumAlertCheckScheduleId(prefix))
      .delete()
      .catch(() => undefined);
    worker?.shutdown();
    await running;
    await connection?.close();
  });

  it("a target's run and the scan it starts are found by TargetId, each with its summary", async () => {
    const { token } = await createTestUser(api, 'pro');
    const created = await call(api, '/domains', {
      token,
      method: 'POST',
      body: { url: 'https://findable-target.example.com/' },
    });
    expect(created.status).toBe(201);
    const targetId = (created.body.data as { id: number }).id;
    await api.temporal.schedule.getHandle(targetScheduleId(prefix, targetId)).trigger();

    // Target ids start at 1 in every test database: the task queue keeps this test's own.
    const found = await listed(`TargetId = "${targetId}" AND TaskQueue = "${mainTaskQueue(prefix)}"`, 2);
    started.push(...found);
    expect(found.map((execution) => execution.type).sort()).toEqual(['scanWorkflow', 'targetScanWorkflow']);
    const run = found.find((execution) => execution.type === 'targetScanWorkflow')!;
    const scan = found.find((execution) => execution.type === 'scanWorkflow')!;
    expect(await (await api.temporal.workflow.getHandle(run.workflowId, run.runId).describe()).staticSummary()).toBe(
      `Daily scan of target ${targetId}`,
    );
    const scanId = scan.workflowId.replace(/^scan-/, '');
    expect(await (await api.temporal.workflow.getHandle(scan.workflowId).describe()).staticSummary()).toBe(
      `Scan of findable-target.example.com (region ${region}), scan ${scanId}, target ${targetId}`,
    );
  });

  it("the live-data alert check's runs are found by their schedule, with its summary", async () => {
    const { scheduleId } = await ensureRumAlertCheckSchedule(api.temporal, prefix);
    const schedule = await api.temporal.schedule.getHandle(scheduleId).describe();
    expect(schedule.action).toMatchObject({
      workflowType: 'rumAlertCheckWorkflow',
      staticSummary: 'rumAlertCheckWorkflow, every 5 minutes',
    });
    await api.temporal.schedule.getHandle(scheduleId).trigger();
    // The runbook's query: every run the schedule started.
    const found = await listed(`TemporalScheduledById = "${scheduleId}"`, 1);
    started.push(...found);
    expect(found.map((execution) => execution.type)).toEqual(['rumAlertCheckWorkflow']);
    expect(
      await (await api.temporal.workflow.getHandle(found[0]!.workflowId, found[0]!.runId).describe()).staticSummary(),
    ).toBe('rumAlertCheckWorkflow, every 5 minutes');
  });

  it("a region's scan dispatcher is found by its id and says what it does", async () => {
    const { dispatcherId } = await requestScanSlot(api.temporal, prefix, region, {
      scanId: '01findabledispatcher000000',
      accountId: 1,
      accountCap: 1,
      capacity: 1,
    });
    expect(dispatcherId).toBe(scanDispatcherWorkflowId(prefix, region));
    started.push({ workflowId: dispatcherId });
    const found = await listed(`WorkflowId = "${dispatcherId}"`, 1);
    expect(found.map((execution) => execution.type)).toEqual(['scanDispatcherWorkflow']);
    expect(await (await api.temporal.workflow.getHandle(dispatcherId).describe()).staticSummary()).toBe(
      `Scan slots of region ${region}: grants them to queued scans, fairly between accounts`,
    );
  });
});
