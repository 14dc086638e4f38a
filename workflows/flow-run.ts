import {
  ActivityFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { FlowRunActivities, FlowRunStatus } from '../activities/flows/flow-run.ts';
import { FLOW_RUN_ATTEMPTS, flowActivityTimeoutMs, flowRunLimitMs } from '../core/flows/lifecycle.ts';
import { SLOT_REQUEST_REPEAT } from '../core/scan/lifecycle.ts';
import { releaseSlotSignal, slotGrantedSignal } from './scan-dispatch.ts';

export interface FlowRunWorkflowInput {
  runId: string;
  /** The region's task queue, where the runner works. */
  scanTaskQueue: string;
}

const { requestFlowRunSlot, markFlowRunRunning, markFlowRunFailed } = proxyActivities<FlowRunActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/**
 * `flow-run-<run id>`: queued → (a slot of the region's dispatcher, shared with scans) → running → finished |
 * failed. Only the run's id travels: the activity on the region's queue reads the definition and secrets.
 */
export async function flowRunWorkflow(input: FlowRunWorkflowInput): Promise<FlowRunStatus> {
  let granted = false;
  setHandler(slotGrantedSignal, () => void (granted = true));
  let slot: { dispatcherId: string; holderId: string } | null = null;
  try {
    while (!granted) {
      slot = await requestFlowRunSlot(input.runId);
      await condition(() => granted, SLOT_REQUEST_REPEAT);
    }
    return await runFlowOnce(input);
  } finally {
    const held = slot;
    if (held) {
      await CancellationScope.nonCancellable(() =>
        getExternalWorkflowHandle(held.dispatcherId).signal(releaseSlotSignal, held.holderId),
      ).catch(() => undefined);
    }
  }
}

async function runFlowOnce(input: FlowRunWorkflowInput): Promise<FlowRunStatus> {
  const { steps } = await markFlowRunRunning(input.runId);
  if (steps === 0) return { status: 'failed' };
  const { runFlow } = proxyActivities<FlowRunActivities>({
    taskQueue: input.scanTaskQueue,
    startToCloseTimeout: flowActivityTimeoutMs(steps),
    heartbeatTimeout: '30 seconds',
    scheduleToCloseTimeout: flowRunLimitMs(steps),
    retry: { maximumAttempts: FLOW_RUN_ATTEMPTS, initialInterval: '5 seconds', backoffCoefficient: 2 },
  });
  try {
    return await runFlow(input.runId);
  } catch (error) {
    const cause = error instanceof ActivityFailure && error.cause ? error.cause.message : String(error);
    await markFlowRunFailed(input.runId, cause.slice(0, 300));
    return { status: 'failed' };
  }
}
