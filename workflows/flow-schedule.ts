import { executeChild, ParentClosePolicy, proxyActivities } from '@temporalio/workflow';
import type { FlowScheduleActivities } from '../activities/flows/flow-schedule.ts';
import type { FlowRunStatus } from '../activities/flows/flow-run.ts';
import type { FlowScheduleInput } from '../core/monitoring/schedule.ts';
import { flowRunWorkflowId, HostAttribute, UserIdAttribute } from '../core/temporal.ts';
import { flowRunWorkflow } from './flow-run.ts';
import { scanIdOfThisRun } from './target-scan-run.ts';

const { dispatchScheduledFlowRun } = proxyActivities<FlowScheduleActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

export type FlowScheduleOutcome = { dispatched: false } | { dispatched: true; runId: string; outcome: FlowRunStatus };

/**
 * Started daily by a monitored flow's schedule (core/monitoring/schedule.ts): stores a run with trigger
 * `schedule` and runs it as an ordinary `flow-run-<run id>` child, with the search attributes of a run started
 * by the API, so deleting the flow or the account stops it like any run. Nothing runs for a flow that is gone
 * or no longer monitored, or while one of its runs is still queued or running.
 */
export async function flowScheduleWorkflow(input: FlowScheduleInput): Promise<FlowScheduleOutcome> {
  const runId = scanIdOfThisRun();
  const run = await dispatchScheduledFlowRun({ flowId: input.flowId, runId });
  if (!run) return { dispatched: false };
  const outcome = await executeChild(flowRunWorkflow, {
    workflowId: flowRunWorkflowId(run.runId),
    args: [{ runId: run.runId, scanTaskQueue: run.scanTaskQueue }],
    staticSummary: `User flow run ${run.runId} on ${run.host} (region ${run.region}), scheduled`,
    typedSearchAttributes: [
      { key: UserIdAttribute, value: String(run.userId) },
      { key: HostAttribute, value: run.host },
    ],
    // The run is the user's like any other: should this workflow be terminated, the run still ends properly.
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
  return { dispatched: true, runId: run.runId, outcome };
}
