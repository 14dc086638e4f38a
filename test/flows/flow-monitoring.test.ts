import { ScheduleOverlapPolicy } from '@temporalio/client';
import { msToNumber } from '@temporalio/common';
import { Webhook } from 'standardwebhooks';
import { dailyStartTime, TARGET_CATCHUP_WINDOW } from '../../core/monitoring/schedule.ts';
import { flowScheduleId, mainTaskQueue } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import {
  deleteFlowSchedule,
  deleteTargetSchedulesOf,
  describeFlowSchedule,
  listFlowSchedules,
} from '../../infra/temporal-client.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { waitUntil } from '../../stack/proc.ts';
import { flowRunnerFor } from '../../worker/runners.ts';
import { MISSING_BUTTON_FLOW, SIGN_IN_PAGE_FLOW } from '../../fixtures/recorded-flows.ts';
import { startShop, type Shop } from '../../fixtures/shop.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * A monitored flow on the real stack: its Temporal Schedule as Temporal has it, kept in step with the row (off,
 * on, repaired by the reconciler, gone with the flow), a triggered schedule that skips while a run is in flight
 * and otherwise runs the flow (one navigation, one snapshot on the fixture shop) with trigger `schedule`, the
 * steps' history, the signed flow.completed webhook at a real receiver, and monitored flows counted against the
 * plan's target limit. The worker's flow runner is composed with SCAN_RUNNER=replay (worker/runners.ts): its
 * runner processes replay recorded real runs of the fixture flows (fixtures/flow-replay-runner.ts), fetching each
 * page from the shop through the egress proxy; what a real run measures and where it fails is the subject of
 * test/flows/flow-end-to-end.test.ts and flow-runner.test.ts.
 */
const SECRET = 'never-in-the-schedule-9f2';
registerSecret(SECRET);

let shop: Shop;
let api: TestApi;
let worker: InProcessWorker;
let receiver: WebhookReceiver;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
let prefix: string;
let flowRunner: ReturnType<typeof flowRunnerFor>;

beforeAll(async () => {
  shop = await startShop();
  api = await startTestApi({ env: { SCAN_RUNNER: 'replay' } });
  prefix = api.config.temporal.taskQueuePrefix;
  flowRunner = flowRunnerFor(api.config);
  worker = await startInProcessWorker(api, { flowRunner });
  receiver = await webhookReceiver();
  conforms = await openApiContract(api);
}, 60_000);

afterAll(async () => {
  if (api) await deleteTargetSchedulesOf(api.temporal, prefix).catch(() => undefined);
  await receiver?.close();
  await worker?.close();
  flowRunner?.close();
  await api?.close();
  await shop?.close();
});

const storage = () => createStorage(api.db.knex);
const rowId = async (publicId: string) => (await storage().flows.find(publicId))!.id;

let token: string;
let flowId: string;
let flowRow: number;
let signingSecret: string;

it('monitoring on keeps a daily schedule that starts flowScheduleWorkflow with the flow id only', async () => {
  const created = await createTestUser(api, 'pro');
  token = created.token;
  const saved = await saveWebhookSettings(
    { webhooks: storage().webhooks, keys: api.config.keys, allowLoopback: true, clock: () => new Date() },
    created.user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['flow.completed', 'flow.failed'] },
  );
  if (saved.status !== 'saved') throw new Error('settings not saved');
  signingSecret = saved.settings.secret;

  const res = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Sign-in page',
      form_factor: 'desktop',
      monitored: true,
      // Open sign-in (a navigation), Sign-in form (a snapshot).
      steps: SIGN_IN_PAGE_FLOW.steps(shop.origin),
      // Set but not typed: it must appear nowhere in the schedule.
      secrets: { password: { kind: 'password', value: SECRET } },
    },
  });
  expect(res.status).toBe(201);
  expect(conforms('POST', '/flows', res)).toEqual([]);
  const flow = res.body.data as { id: string; monitored: boolean };
  expect(flow.monitored).toBe(true);
  flowId = flow.id;
  flowRow = await rowId(flowId);

  const described = (await describeFlowSchedule(api.temporal, prefix, flowRow))!;
  expect(described.scheduleId).toBe(flowScheduleId(prefix, flowRow));
  const { hour, minute, second } = dailyStartTime(flowRow);
  expect(described.spec.calendars).toHaveLength(1);
  expect(described.spec.calendars![0]).toMatchObject({
    hour: [{ start: hour, end: hour, step: 1 }],
    minute: [{ start: minute, end: minute, step: 1 }],
    second: [{ start: second, end: second, step: 1 }],
  });
  expect(described.action).toMatchObject({
    type: 'startWorkflow',
    workflowType: 'flowScheduleWorkflow',
    taskQueue: mainTaskQueue(prefix),
    args: [{ flowId: flowRow }],
  });
  expect(described.policies).toMatchObject({
    overlap: ScheduleOverlapPolicy.SKIP,
    catchupWindow: msToNumber(TARGET_CATCHUP_WINDOW),
  });
  expect(JSON.stringify(described)).not.toContain(SECRET);
});

it('off deletes the schedule, on creates it again, and the reconciler repairs one lost behind its back', async () => {
  const off = await call(api, `/flows/${flowId}`, { token, method: 'PATCH', body: { monitored: false } });
  expect([off.status, (off.body.data as { monitored: boolean }).monitored]).toEqual([200, false]);
  expect(await describeFlowSchedule(api.temporal, prefix, flowRow)).toBeNull();

  const on = await call(api, `/flows/${flowId}`, { token, method: 'PATCH', body: { monitored: true } });
  expect(conforms('PATCH', '/flows/{id}', on)).toEqual([]);
  expect(await describeFlowSchedule(api.temporal, prefix, flowRow)).not.toBeNull();

  await deleteFlowSchedule(api.temporal, prefix, flowRow);
  // Temporal's schedule list, which the reconciler reads first, lags behind a deletion.
  await waitUntil(
    'the schedule list to lose the schedule',
    async () => !(await listFlowSchedules(api.temporal, prefix)).includes(flowRow),
    30_000,
    250,
  );
  const report = (await api.temporal.workflow.execute('reconcileTargetsWorkflow', {
    taskQueue: mainTaskQueue(prefix),
    workflowId: `${prefix}-test-reconcile-flows`,
  })) as { flows: { created: number[] } };
  expect(report.flows.created).toEqual([flowRow]);
  expect(await describeFlowSchedule(api.temporal, prefix, flowRow)).not.toBeNull();
});

/** Triggers the flow's schedule and waits for the workflow it started to end; its result. */
async function triggerAndWait(): Promise<{ dispatched: boolean; runId?: string }> {
  const handle = api.temporal.schedule.getHandle(flowScheduleId(prefix, flowRow));
  const before = (await handle.describe()).info.numActionsTaken;
  await handle.trigger();
  let workflowId = '';
  await waitUntil(
    'the schedule to start its workflow',
    async () => {
      const described = await handle.describe();
      workflowId = described.info.recentActions.at(-1)?.action.workflow.workflowId ?? '';
      return described.info.numActionsTaken > before && workflowId !== '';
    },
    30_000,
    200,
  );
  return (await api.temporal.workflow.getHandle(workflowId).result()) as { dispatched: boolean; runId?: string };
}

it('a scheduled run is skipped while a run of the flow is queued', async () => {
  const flow = (await storage().flows.find(flowId))!;
  const queued = await storage().flows.insertRun({
    publicId: 'queuedrun0000000000000',
    flowId: flow.id,
    userId: flow.userId,
    region: api.config.regions.default,
    trigger: 'api',
    definition: { name: flow.name, form_factor: flow.formFactor, steps: flow.steps },
    requestedAt: api.clock.read(),
  });
  expect(await triggerAndWait()).toEqual({ dispatched: false });
  const runs = await call(api, `/flows/${flowId}/runs`, { token });
  expect((runs.body.data as Array<{ id: string }>).map((run) => run.id)).toEqual([queued.publicId]);
  await storage().flows.failRun(
    queued.publicId,
    { index: null, step_type: null, code: 'run_error', message: 'test', screenshot: null },
    api.clock.read(),
  );
}, 40_000);

let runId: string;

it('a triggered schedule runs the flow: a run with trigger schedule, each step measured', async () => {
  const result = await triggerAndWait();
  expect(result.dispatched).toBe(true);
  runId = result.runId!;
  const res = await call(api, `/flows/${flowId}/runs/${runId}`, { token });
  expect(conforms('GET', '/flows/{id}/runs/{run_id}', res)).toEqual([]);
  const run = res.body.data as {
    status: string;
    trigger: string;
    steps: Array<{ mode: string; scores: Record<string, number | null>; metrics: Record<string, number | null> }>;
  };
  expect([run.status, run.trigger]).toEqual(['finished', 'schedule']);
  expect(run.steps.map((step) => step.mode)).toEqual(['navigation', 'snapshot']);
  expect(run.steps[0]!.metrics.lcp_ms).toBeGreaterThan(0);
}, 90_000);

it('the history gives each step its series, with the run, its trigger, metrics and scores', async () => {
  const res = await call(api, `/flows/${flowId}/history?days=30`, { token });
  expect(res.status).toBe(200);
  expect(conforms('GET', '/flows/{id}/history', res)).toEqual([]);
  const series = res.body.data as Array<{
    index: number;
    mode: string;
    name: string;
    points: Array<{ run_id: string; trigger: string; metrics: Record<string, number>; scores: Record<string, number> }>;
  }>;
  expect(series.map((s) => [s.index, s.mode, s.name, s.points.map((p) => [p.run_id, p.trigger])])).toEqual([
    [0, 'navigation', 'Open sign-in', [[runId, 'schedule']]],
    [1, 'snapshot', 'Sign-in form', [[runId, 'schedule']]],
  ]);
  expect(series[0]!.points[0]!.metrics.lcp_ms).toBeGreaterThan(0);
  expect(series[1]!.points[0]!.scores.accessibility).toBeGreaterThanOrEqual(0);
  expect(res.body.meta).toEqual({ days: 30 });
  expect((await call(api, `/flows/${flowId}/history?days=0`, { token })).status).toBe(422);
});

it('the owner’s receiver gets flow.completed, signed, with the flow and its measured steps', async () => {
  const [request] = await receiver.waitFor(1, 30_000);
  const payload = new Webhook(signingSecret).verify(
    request!.body,
    request!.headers as Record<string, string>,
  ) as Record<string, unknown>;
  expect(payload).toMatchObject({
    event: 'flow.completed',
    url: `${shop.origin}/login`,
    flow: { id: flowId, name: 'Sign-in page', run_id: runId, trigger: 'schedule' },
    run_url: `${api.config.baseUrl}/flows/${flowId}/runs/${runId}`,
  });
  expect((payload.steps as Array<{ index: number; mode: string }>).map((s) => [s.index, s.mode])).toEqual([
    [0, 'navigation'],
    [1, 'snapshot'],
  ]);
  expect(request!.body).not.toContain(SECRET);
});

it('a failed run sends flow.failed naming the step it stopped at, with the steps measured before it', async () => {
  const created = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Missing button',
      form_factor: 'desktop',
      // Open /login, click #no-such-button.
      steps: MISSING_BUTTON_FLOW.steps(shop.origin),
    },
  });
  expect([created.status, (created.body.data as { monitored: boolean }).monitored]).toEqual([201, false]);
  const failingId = (created.body.data as { id: string }).id;
  const started = await call(api, `/flows/${failingId}/runs`, { token, method: 'POST', body: {} });
  expect(started.status).toBe(202);
  const failedRunId = (started.body.data as { id: string }).id;
  const [, request] = await receiver.waitFor(2, 60_000);
  const payload = new Webhook(signingSecret).verify(
    request!.body,
    request!.headers as Record<string, string>,
  ) as Record<string, unknown>;
  expect(payload).toMatchObject({
    event: 'flow.failed',
    url: `${shop.origin}/login`,
    flow: { id: failingId, name: 'Missing button', run_id: failedRunId, trigger: 'api' },
    failed_step: { index: 1, step_type: 'click', step: 'click #no-such-button', code: 'selector_not_found' },
  });
  expect((payload.steps as Array<{ mode: string }>).map((s) => s.mode)).toEqual(['navigation']);
  // A failed run is not part of the history.
  const history = await call(api, `/flows/${failingId}/history`, { token });
  expect([history.status, history.body.data, history.body.meta]).toEqual([200, [], { days: 30 }]);
}, 70_000);

it('deleting the flow deletes its schedule', async () => {
  const res = await fetch(`${api.url}/api/v1/flows/${flowId}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(204);
  expect(await describeFlowSchedule(api.temporal, prefix, flowRow)).toBeNull();
});

it('monitored flows count against the plan’s target limit, with the targets’ 403', async () => {
  const starter = await createTestUser(api, 'starter');
  for (let i = 1; i <= 4; i++) {
    const target = await call(api, '/domains', {
      token: starter.token,
      method: 'POST',
      body: { url: `https://limit-${i}.example/` },
    });
    expect(target.status).toBe(201);
  }
  const steps = [{ type: 'navigate', url: 'https://limit.example/' }];
  const fifth = await call(api, '/flows', {
    token: starter.token,
    method: 'POST',
    body: { name: 'Fifth', form_factor: 'mobile', steps, monitored: true },
  });
  expect(fifth.status).toBe(201);
  const sixth = await call(api, '/flows', {
    token: starter.token,
    method: 'POST',
    body: { name: 'Sixth', form_factor: 'mobile', steps, monitored: true },
  });
  expect([sixth.status, sixth.body.required_plan]).toEqual([403, 'pro']);
  expect(sixth.body.message).toMatch(/keeps at most 5 monitored targets/);
  const unmonitored = await call(api, '/flows', {
    token: starter.token,
    method: 'POST',
    body: { name: 'Sixth', form_factor: 'mobile', steps },
  });
  expect(unmonitored.status).toBe(201);
  const target = await call(api, '/domains', {
    token: starter.token,
    method: 'POST',
    body: { url: 'https://limit-6.example/' },
  });
  expect([target.status, target.body.required_plan]).toEqual([403, 'pro']);
  const turnedOn = await call(api, `/flows/${(unmonitored.body.data as { id: string }).id}`, {
    token: starter.token,
    method: 'PATCH',
    body: { monitored: true },
  });
  expect(turnedOn.status).toBe(403);
});
