import { Context } from '@temporalio/activity';
import { WorkflowFailedError, WorkflowNotFoundError } from '@temporalio/client';
import type { FlowRunActivities, FlowRunStatus } from '../../../activities/flows/flow-run.ts';
import type { DispatchedFlowRun, FlowScheduleActivities } from '../../../activities/flows/flow-schedule.ts';
import { FLOW_RUN_ATTEMPTS, flowActivityTimeoutMs, flowRunLimitMs } from '../../../core/flows/lifecycle.ts';
import { newPublicId, PUBLIC_ID_PATTERN } from '../../../core/ids.ts';
import { SLOT_REQUEST_REPEAT } from '../../../core/scan/lifecycle.ts';
import type { SlotsView } from '../../../core/scan/slots.ts';
import {
  flowRunWorkflowId,
  HostAttribute,
  mainTaskQueue,
  SCAN_SLOT_SIGNALS,
  scanDispatcherWorkflowId,
  scanTaskQueue,
  UserIdAttribute,
} from '../../../core/temporal.ts';
import { requestScanSlot } from '../../../infra/temporal-client.ts';
import type { FlowScheduleOutcome } from '../../../workflows/flow-schedule.ts';
import { slotsQuery } from '../../../workflows/scan-dispatch.ts';
import { scanStubs } from './scan-stubs.ts';
import { durationMs, gaps, heartbeatUntil, waitFor, workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * The workflows of user flows on the time-skipping test server with stubbed activities: a run
 * (workflows/flow-run.ts), which waits for a slot of its region's real dispatcher (the scans' one,
 * workflows/scan-dispatch.ts) under its workflow id, and a monitored flow's daily run (workflows/flow-schedule.ts),
 * which stores the run and runs it as a child flow run.
 */
const PREFIX = 'unit-flow';
const MAIN_QUEUE = mainTaskQueue(PREFIX);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const PROCESSING_MS = SECOND;

/** What one stubbed run does: its region, its account, its step count (0: gone or ended), its runner per attempt. */
interface ScriptedRun {
  region: string;
  accountId: number;
  steps: number;
  runFlow(attempt: number): Promise<FlowRunStatus>;
}

interface RunCall {
  runId: string;
  what: 'request' | 'running' | 'attempt' | 'failed';
  atMs: number;
  attempt?: number;
  detail?: string;
}

let bed: WorkflowTestbed;
const runs = new Map<string, ScriptedRun>();
const calls: RunCall[] = [];
const callsOf = (runId: string) => calls.filter((c) => c.runId === runId);
let dispatchRun: (attempt: number, input: { flowId: number; runId: string }) => DispatchedFlowRun | null = () => null;
const dispatchCalls: Array<{ flowId: number; runId: string; attempt: number; atMs: number }> = [];

beforeAll(async () => {
  bed = await workflowTestbed();
  const scripted = (runId: string): ScriptedRun => {
    const run = runs.get(runId);
    if (!run) throw new Error(`no scripted flow run ${runId}`);
    return run;
  };
  const main: Omit<FlowRunActivities, 'runFlow'> & Pick<FlowScheduleActivities, 'dispatchScheduledFlowRun'> = {
    // As the real activity asks: the holder id is the run's workflow id, which the dispatcher signals. Runs in a
    // region named `stalled` are recorded only (no dispatcher grants them).
    async requestFlowRunSlot(runId) {
      calls.push({ runId, what: 'request', atMs: await bed.now() });
      const { region, accountId } = scripted(runId);
      const holderId = flowRunWorkflowId(runId);
      if (region === 'stalled') return { dispatcherId: scanDispatcherWorkflowId(PREFIX, region), holderId };
      const { dispatcherId } = await requestScanSlot(bed.env.client, PREFIX, region, {
        scanId: holderId,
        accountId,
        accountCap: 1,
        capacity: 1,
      });
      return { dispatcherId, holderId };
    },
    async markFlowRunRunning(runId) {
      calls.push({ runId, what: 'running', atMs: await bed.now() });
      return { steps: scripted(runId).steps };
    },
    async markFlowRunFailed(runId, detail) {
      calls.push({ runId, what: 'failed', atMs: await bed.now(), detail });
    },
    async dispatchScheduledFlowRun(input) {
      const { attempt } = Context.current().info;
      dispatchCalls.push({ ...input, attempt, atMs: await bed.now() });
      const run = dispatchRun(attempt, input);
      if (run) runs.set(run.runId, { region: run.region, accountId: run.userId, steps: 2, runFlow: finished });
      return run;
    },
  };
  const onRegionQueue: Pick<FlowRunActivities, 'runFlow'> = {
    async runFlow(runId) {
      const { attempt } = Context.current().info;
      calls.push({ runId, what: 'attempt', atMs: await bed.now(), attempt });
      return scripted(runId).runFlow(attempt);
    },
  };
  // The region's dispatcher runs on the main queue too, with its holder check.
  const { findEndedScanWorkflows } = scanStubs(bed, PREFIX).main;
  await bed.worker(MAIN_QUEUE, { ...main, findEndedScanWorkflows });
  for (const region of ['eu', 'stalled'])
    await bed.worker(scanTaskQueue(PREFIX, region), onRegionQueue, { workflows: false });
}, 60_000);
afterAll(() => bed?.teardown());

const finished = async (): Promise<FlowRunStatus> => ({ status: 'finished' });

async function startRun(script: Partial<ScriptedRun>): Promise<string> {
  const runId = newPublicId();
  const run: ScriptedRun = { region: 'eu', accountId: 1, steps: 2, runFlow: finished, ...script };
  runs.set(runId, run);
  await bed.env.client.workflow.start('flowRunWorkflow', {
    workflowId: flowRunWorkflowId(runId),
    taskQueue: MAIN_QUEUE,
    args: [{ runId, scanTaskQueue: scanTaskQueue(PREFIX, run.region) }],
  });
  return runId;
}

const outcomeOf = (runId: string): Promise<FlowRunStatus> =>
  bed.env.client.workflow.getHandle(flowRunWorkflowId(runId)).result();
const slotsOf = (region: string): Promise<SlotsView> =>
  bed.env.client.workflow.getHandle(scanDispatcherWorkflowId(PREFIX, region)).query(slotsQuery);
const whats = (runId: string) => callsOf(runId).map((c) => c.what);

describe('a flow run (workflows/flow-run.ts)', () => {
  it("waits for a slot of its region's dispatcher while another run holds it, runs once that one gives it back, and gives its own back", async () => {
    let letFirstFinish!: () => void;
    const firstMayFinish = new Promise<void>((resolve) => (letFirstFinish = resolve));
    const first = await startRun({
      runFlow: async () => (await heartbeatUntil(firstMayFinish), { status: 'finished' }),
    });
    let second: string;
    try {
      await waitFor(async () => whats(first).includes('attempt'));
      second = await startRun({});
      const secondId = second;
      await waitFor(async () => (await slotsOf('eu')).waiting['1'] === 1 || whats(secondId).includes('running'));
      expect(whats(second)).toEqual(['request']);
      expect(await slotsOf('eu')).toEqual({ capacity: 1, inFlight: { '1': 1 }, waiting: { '1': 1 } });
    } finally {
      letFirstFinish();
    }
    expect(await outcomeOf(first)).toEqual({ status: 'finished' });
    expect(await outcomeOf(second)).toEqual({ status: 'finished' });
    expect(whats(first)).toEqual(['request', 'running', 'attempt']);
    expect(whats(second)).toEqual(['request', 'running', 'attempt']);
    expect(callsOf(second)[1]!.atMs).toBeGreaterThanOrEqual(callsOf(first)[2]!.atMs);
    expect(await slotsOf('eu')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });

  it(`retries a crashed run once (${FLOW_RUN_ATTEMPTS} attempts) after 5 s, then fails the run with the cause, and gives its slot back`, async () => {
    const cause = `runner crashed: ${'x'.repeat(400)}`;
    const runId = await startRun({
      runFlow: async () => {
        throw new Error(cause);
      },
    });
    expect(await outcomeOf(runId)).toEqual({ status: 'failed' });
    const attempts = callsOf(runId).filter((c) => c.what === 'attempt');
    expect(attempts.map((c) => c.attempt)).toEqual([1, 2]);
    const [gap] = gaps(attempts.map((c) => c.atMs));
    expect(gap).toBeGreaterThanOrEqual(5 * SECOND);
    expect(gap).toBeLessThan(5 * SECOND + PROCESSING_MS);
    expect(whats(runId)).toEqual(['request', 'running', 'attempt', 'attempt', 'failed']);
    // The cause, cut to 300 characters, for operators.
    expect(callsOf(runId).at(-1)!.detail).toBe(cause.slice(0, 300));
    expect(await slotsOf('eu')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });

  it("ends a run that failed on its own (a step's failure) as failed after one attempt, without failing it again", async () => {
    const runId = await startRun({ runFlow: async () => ({ status: 'failed' }) });
    expect(await outcomeOf(runId)).toEqual({ status: 'failed' });
    expect(whats(runId)).toEqual(['request', 'running', 'attempt']);
  });

  it('does not run a run that is gone or ended by the time it gets its slot, and gives the slot back', async () => {
    const runId = await startRun({ steps: 0 });
    expect(await outcomeOf(runId)).toEqual({ status: 'failed' });
    expect(whats(runId)).toEqual(['request', 'running']);
    expect(await slotsOf('eu')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });

  // The test server does not skip time while an activity task waits for a worker, so the run limit is checked as
  // the workflow hands it to the server.
  it.each([1, 6])(
    `gives the runner of a flow of %i step(s) its time limits, ${FLOW_RUN_ATTEMPTS} attempts, a 30 s heartbeat timeout and the region's queue`,
    async (steps) => {
      const runId = await startRun({ steps });
      expect(await outcomeOf(runId)).toEqual({ status: 'finished' });
      const scheduled = await bed.scheduledActivity(flowRunWorkflowId(runId), 'runFlow');
      expect(scheduled.taskQueue?.name).toBe(scanTaskQueue(PREFIX, 'eu'));
      expect(durationMs(scheduled.startToCloseTimeout)).toBe(flowActivityTimeoutMs(steps));
      expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(flowRunLimitMs(steps));
      expect(durationMs(scheduled.heartbeatTimeout)).toBe(30 * SECOND);
      expect(scheduled.retryPolicy?.maximumAttempts).toBe(FLOW_RUN_ATTEMPTS);
      expect(durationMs(scheduled.retryPolicy?.initialInterval)).toBe(5 * SECOND);
      expect(scheduled.retryPolicy?.backoffCoefficient).toBe(2);
    },
  );

  it(`waits queued while no slot is granted, repeating its request every ${SLOT_REQUEST_REPEAT}, and runs once granted`, async () => {
    const runId = await startRun({ region: 'stalled' });
    await bed.env.sleep('25 minutes');
    const requests = callsOf(runId).filter((c) => c.what === 'request');
    expect(requests).toHaveLength(3);
    expect(whats(runId)).toEqual(['request', 'request', 'request']);
    for (const gap of gaps(requests.map((c) => c.atMs))) {
      expect(gap).toBeGreaterThanOrEqual(10 * MINUTE);
      expect(gap).toBeLessThan(10 * MINUTE + PROCESSING_MS);
    }
    await bed.env.client.workflow.getHandle(flowRunWorkflowId(runId)).signal(SCAN_SLOT_SIGNALS.granted);
    // The release goes to a dispatcher that does not exist: that must not fail the run.
    expect(await outcomeOf(runId)).toEqual({ status: 'finished' });
    expect(whats(runId)).toEqual(['request', 'request', 'request', 'running', 'attempt']);
  });
});

async function runSchedule(flowId: number): Promise<FlowScheduleOutcome> {
  return (await bed.env.client.workflow.execute('flowScheduleWorkflow', {
    workflowId: `flow-schedule-${flowId}-${newPublicId()}`,
    taskQueue: MAIN_QUEUE,
    args: [{ flowId }],
  })) as FlowScheduleOutcome;
}
const dispatchesOf = (flowId: number) => dispatchCalls.filter((c) => c.flowId === flowId);

describe("a monitored flow's daily run (workflows/flow-schedule.ts)", () => {
  it('runs nothing when the flow is gone, no longer monitored, or has a run still queued or running', async () => {
    dispatchRun = () => null;
    expect(await runSchedule(1)).toEqual({ dispatched: false });
    const [call, ...more] = dispatchesOf(1);
    expect(more).toEqual([]);
    await expect(bed.env.client.workflow.getHandle(flowRunWorkflowId(call!.runId)).describe()).rejects.toBeInstanceOf(
      WorkflowNotFoundError,
    );
    expect(callsOf(call!.runId)).toEqual([]);
  });

  it("stores the run under this run's id (the same on every retry of the store), runs it as a child flow run with the owner's and host's search attributes, and returns its outcome", async () => {
    dispatchRun = (attempt, { runId }) => {
      if (attempt < 3) throw new Error('Postgres away');
      return { runId, userId: 7, host: 'shop.example', region: 'eu', scanTaskQueue: scanTaskQueue(PREFIX, 'eu') };
    };
    const outcome = await runSchedule(2);
    const stores = dispatchesOf(2);
    expect(stores.map((c) => c.attempt)).toEqual([1, 2, 3]);
    const runId = stores[0]!.runId;
    expect(runId).toMatch(new RegExp(PUBLIC_ID_PATTERN));
    expect(stores.map((c) => c.runId)).toEqual([runId, runId, runId]);
    expect(outcome).toEqual({ dispatched: true, runId, outcome: { status: 'finished' } });

    const child = await bed.env.client.workflow.getHandle(flowRunWorkflowId(runId)).describe();
    expect(child.type).toBe('flowRunWorkflow');
    expect(child.typedSearchAttributes.get(UserIdAttribute)).toBe('7');
    expect(child.typedSearchAttributes.get(HostAttribute)).toBe('shop.example');
    expect(await child.staticSummary()).toBe(`User flow run ${runId} on shop.example (region eu), scheduled`);
    expect(whats(runId)).toEqual(['request', 'running', 'attempt']);

    // The next day's run stores a run of its own.
    const next = await runSchedule(2);
    expect(next.dispatched && next.runId).not.toBe(runId);
  });

  it('gives up storing the run after 10 attempts, at most 30 s apart: the daily run fails and runs nothing', async () => {
    dispatchRun = () => {
      throw new Error('Postgres away');
    };
    await expect(runSchedule(3)).rejects.toBeInstanceOf(WorkflowFailedError);
    const stores = dispatchesOf(3);
    expect(stores).toHaveLength(10);
    const spans = gaps(stores.map((c) => c.atMs));
    console.log(`daily flow run store retry gaps: ${spans.join(', ')} ms`);
    spans.forEach((gap, i) => {
      const wait = Math.min(SECOND * 2 ** i, 30 * SECOND);
      expect(gap).toBeGreaterThanOrEqual(wait);
      expect(gap).toBeLessThan(wait + PROCESSING_MS);
    });
    expect(calls.filter((c) => c.runId === stores[0]!.runId)).toEqual([]);
  });
});
