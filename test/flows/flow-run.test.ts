import type { FlowRunner, FlowRunnerResult } from '../../activities/flows/flow-runner.ts';
import type { FlowRunInput, FlowRunOutcome } from '../../core/flows/flow.ts';
import { flowRunWorkflowId } from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';

/**
 * A flow run through the real workflow, dispatcher slot, activities, Postgres, asset store and API, with a
 * stand-in behind the FlowRunner interface (the real runner, activities/flows/process-flow-runner.ts, is
 * wired by the worker; its own tests drive Chromium). What is checked here is everything around it: only ids
 * in Temporal, secrets decrypted for the runner alone, the outcome and images stored and shown.
 */
let api: TestApi;
let worker: InProcessWorker;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
const SECRET = 'run-secret-value-93be1d';
registerSecret(SECRET);
const SHOT = Buffer.from('stand-in jpeg bytes');
const received: FlowRunInput[] = [];
let next: (input: FlowRunInput) => Promise<FlowRunnerResult>;

const standIn: FlowRunner = {
  run: (input, options) => {
    received.push(structuredClone(input));
    options.onProgress('step 0');
    return next(input);
  },
};

const STEPS = [
  { type: 'navigate', url: 'https://shop.example.com/', name: 'Home' },
  { type: 'type', selector: '#password', secret: 'pw' },
  { type: 'start_timespan', name: 'Sign in' },
  { type: 'click', selector: 'form > button' },
  { type: 'end_timespan' },
];

const finished = (runId: string): FlowRunOutcome => ({
  steps: [
    {
      index: 0,
      mode: 'navigation',
      name: 'Home',
      url: 'https://shop.example.com/',
      scores: { performance: 91, accessibility: 88, best_practices: 100, seo: 92 },
      metrics: { lcp_ms: 1200, fcp_ms: 800, tbt_ms: 40, cls: 0.01, speed_index_ms: 1100, ttfb_ms: 120 },
      findings: [
        { id: 'unused-css-rules', title: 'Reduce unused CSS', score: 0.5, display_value: '20 KiB', items: [] },
      ],
      screenshot: `flow-step-0.jpg`,
    },
    {
      index: 2,
      mode: 'timespan',
      name: 'Sign in',
      url: 'https://shop.example.com/account',
      scores: { performance: null, accessibility: null, best_practices: null, seo: null },
      metrics: { inp_ms: 90, cls: 0, tbt_ms: 10 },
      findings: [],
      screenshot: null,
    },
  ],
  failure: null,
  lighthouseVersion: `12.0.0-${runId.slice(0, 2)}`,
  chromiumVersion: '140.0.0.0',
});

beforeAll(async () => {
  api = await startTestApi();
  worker = await startInProcessWorker(api, { flowRunner: standIn });
  conforms = await openApiContract(api);
});

afterAll(async () => {
  await worker?.close();
  await api?.close();
});

async function flowWithSecret(token: string): Promise<string> {
  const res = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Sign in',
      form_factor: 'desktop',
      steps: STEPS,
      secrets: { pw: { kind: 'password', value: SECRET } },
    },
  });
  expect(res.status).toBe(201);
  return (res.body.data as { id: string }).id;
}

async function runToEnd(token: string, flowId: string): Promise<Record<string, unknown>> {
  const started = await call(api, `/flows/${flowId}/runs`, { token, method: 'POST', body: {} });
  expect(started.status).toBe(202);
  const runId = (started.body.data as { id: string }).id;
  for (let i = 0; i < 300; i++) {
    const res = await call(api, `/flows/${flowId}/runs/${runId}`, { token });
    expect(conforms('GET', '/flows/{id}/runs/{run_id}', res)).toEqual([]);
    const run = res.body.data as Record<string, unknown>;
    if (run.status === 'finished' || run.status === 'failed') return run;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`run ${runId} did not end`);
}

it('measures the flow: the runner gets the secrets decrypted, Temporal never sees them, the steps and screenshots are shown', async () => {
  next = async (input) => ({ outcome: finished(input.runId), images: [{ name: 'flow-step-0.jpg', bytes: SHOT }] });
  const { token } = await createTestUser(api, 'pro');
  const flowId = await flowWithSecret(token);
  const run = await runToEnd(token, flowId);
  const runId = run.id as string;
  expect(received.at(-1)).toEqual({
    runId,
    definition: { name: 'Sign in', form_factor: 'desktop', steps: STEPS },
    secrets: { pw: { kind: 'password', value: SECRET } },
  });
  expect(run).toMatchObject({
    status: 'finished',
    lighthouse_version: `12.0.0-${runId.slice(0, 2)}`,
    chromium_version: '140.0.0.0',
    failure: null,
  });
  const steps = run.steps as Array<Record<string, unknown>>;
  expect(steps.map((s) => [s.index, s.mode, s.name])).toEqual([
    [0, 'navigation', 'Home'],
    [2, 'timespan', 'Sign in'],
  ]);
  expect(steps[0]).toMatchObject({
    scores: { performance: 91 },
    metrics: { lcp_ms: 1200 },
    findings: [{ id: 'unused-css-rules' }],
  });
  const shot = steps[0]!.screenshot_url as string;
  expect(shot).toMatch(new RegExp(`^${api.url}/assets/${runId}/flow-step-0\\.jpg\\?expires=\\d+&signature=`));
  const image = await fetch(shot);
  expect(image.status).toBe(200);
  expect(Buffer.from(await image.arrayBuffer())).toEqual(SHOT);
  expect((await fetch(shot.split('?')[0]!)).status).toBe(404);
  expect(steps[1]!.screenshot_url).toBeNull();

  const history = JSON.stringify(await api.temporal.workflow.getHandle(flowRunWorkflowId(runId)).fetchHistory());
  expect(history).not.toContain(SECRET);
  expect((await api.db.knex('flow_runs').where({ public_id: runId }).first()).status).toBe('finished');
});

it('records the step a run failed at, named, with its screenshot', async () => {
  next = async (input) => ({
    outcome: {
      ...finished(input.runId),
      steps: finished(input.runId).steps.slice(0, 1),
      failure: {
        index: 3,
        step_type: 'click',
        code: 'selector_not_found',
        message: 'No element matches form > button.',
        screenshot: 'flow-failure.jpg',
      },
    },
    images: [
      { name: 'flow-step-0.jpg', bytes: SHOT },
      { name: 'flow-failure.jpg', bytes: SHOT },
    ],
  });
  const { token } = await createTestUser(api, 'pro');
  const run = await runToEnd(token, await flowWithSecret(token));
  expect(run.status).toBe('failed');
  expect(run.failure).toEqual({
    step_index: 3,
    step_type: 'click',
    step: 'click form > button',
    code: 'selector_not_found',
    message: 'No element matches form > button.',
    screenshot_url: expect.stringContaining(`/assets/${run.id as string}/flow-failure.jpg?expires=`),
  });
  expect((await fetch((run.failure as { screenshot_url: string }).screenshot_url)).status).toBe(200);
});

it('fails the run when every attempt crashed, and frees its slot for the next run', async () => {
  next = () => Promise.reject(new Error('browser crashed'));
  const { token } = await createTestUser(api, 'pro');
  const flowId = await flowWithSecret(token);
  const run = await runToEnd(token, flowId);
  expect(run.status).toBe('failed');
  expect(run.failure).toEqual({
    step_index: null,
    step_type: null,
    step: 'the run',
    code: 'run_error',
    message: 'The run failed after several attempts.',
    screenshot_url: null,
  });
  next = async (input) => ({ outcome: finished(input.runId), images: [] });
  expect((await runToEnd(token, flowId)).status).toBe('finished');
});
