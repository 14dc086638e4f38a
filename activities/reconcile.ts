import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../infra/logger.ts';
import { RUN_FAILURE_MESSAGES, type RunFailureCode } from '../core/flows/flow.ts';
import { flowRunWorkflowId, scanWorkflowId, targetRunNowWorkflowId } from '../core/temporal.ts';
import type { AccountDataStore } from '../db/store/account-data.ts';
import type { FlowStore } from '../db/store/flows.ts';
import type { InFlightScan, ScanStore } from '../db/store/scans.ts';
import { startAccountDeletionWorkflow } from '../infra/temporal-client.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import { markFailed } from '../services/scans.ts';

export interface ReconcileDeps {
  scans: ScanStore;
  flows: Pick<FlowStore, 'inFlightRunsRequestedBefore'>;
  /** Ends a flow run with its webhook and alerts (activities/flows/flow-run.ts createFlowRunEnding). */
  failFlowRun: (runId: string, code: RunFailureCode, message: string, detail: string) => Promise<boolean>;
  temporal: () => Client;
  clock: Clock;
  log: Logger;
  accountData: AccountDataStore;
  taskQueuePrefix: string;
  /** Rows younger than this are not looked at (RECONCILE_GRACE_SECONDS; core/scan/lifecycle.ts). */
  graceMs: number;
}

export interface ReconcileReport {
  checked: number;
  /** Scans failed: `not_started` when still queued, `scan_error` when running. */
  failed: string[];
  /** Flow runs failed likewise: `not_started` or `run_error` (absent in reports of older workers). */
  failedFlowRuns?: string[];
  /** Closed accounts whose deletion workflow had to be started (absent in reports of older workers). */
  deletionsStarted?: number[];
}

/** A closed account's own request starts its deletion; past this the reconciler does (Temporal was away then). */
export const DELETION_START_GRACE_MS = 60_000;

const PAGE = 200;

/**
 * Activities of the reconciler: scans and flow runs left queued or running with no workflow of theirs running
 * (terminated by an operator, timed out, never started) are failed. Only a missing workflow fails a row, never
 * its age: a scan waiting for its slot has a running workflow however long it waits.
 */
export function createReconcileActivities(deps: ReconcileDeps) {
  /** Null while the workflow runs; otherwise why it does not, in words for operators. */
  async function notRunning(workflowId: string): Promise<string | null> {
    try {
      const { status } = await deps.temporal().workflow.getHandle(workflowId).describe();
      return status.name === 'RUNNING' ? null : FAILURE_DETAILS.workflowEndedWithoutResult(status.name);
    } catch (error) {
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      return FAILURE_DETAILS.noWorkflow();
    }
  }

  /** A run now's scan is the run-now workflow's until it starts the scan's own workflow. */
  async function scanLost(scan: InFlightScan): Promise<string | null> {
    const own = await notRunning(scanWorkflowId(scan.publicId));
    if (!own || scan.trigger !== 'run_now' || scan.targetId === null) return own;
    const parent = await notRunning(targetRunNowWorkflowId(deps.taskQueuePrefix, scan.targetId, scan.publicId));
    return parent && own;
  }

  async function reconcileScans(before: Date): Promise<{ checked: number; failed: string[] }> {
    const failed: string[] = [];
    let checked = 0;
    for (let afterId = 0; ;) {
      const page = await deps.scans.inFlightRequestedBefore(before, afterId, PAGE);
      for (const scan of page) {
        checked++;
        const why = await scanLost(scan);
        if (!why) continue;
        const code = scan.status === 'queued' ? 'not_started' : 'scan_error';
        if (await markFailed(deps.scans, scan.publicId, code, FAILURE_DETAILS.stoppedByReconciler(why), deps.clock())) {
          failed.push(scan.publicId);
          deps.log.warn({ scanId: scan.publicId, code, reason: why }, 'scan failed by the reconciler');
        }
      }
      if (page.length < PAGE) return { checked, failed };
      afterId = page[page.length - 1]!.id;
    }
  }

  async function reconcileFlowRuns(before: Date): Promise<{ checked: number; failed: string[] }> {
    const failed: string[] = [];
    let checked = 0;
    for (let afterId = 0; ;) {
      const page = await deps.flows.inFlightRunsRequestedBefore(before, afterId, PAGE);
      for (const run of page) {
        checked++;
        const why = await notRunning(flowRunWorkflowId(run.publicId));
        if (!why) continue;
        const [code, message] =
          run.status === 'queued'
            ? (['not_started', RUN_FAILURE_MESSAGES.notStarted] as const)
            : (['run_error', RUN_FAILURE_MESSAGES.lost] as const);
        if (await deps.failFlowRun(run.publicId, code, message, `stopped by the reconciler: ${why}`)) {
          failed.push(run.publicId);
          deps.log.warn({ flowRunId: run.publicId, code, reason: why }, 'flow run failed by the reconciler');
        }
      }
      if (page.length < PAGE) return { checked, failed };
      afterId = page[page.length - 1]!.id;
    }
  }

  return {
    async reconcileStaleScans(): Promise<ReconcileReport> {
      const before = new Date(deps.clock().getTime() - deps.graceMs);
      const scans = await reconcileScans(before);
      const runs = await reconcileFlowRuns(before);
      return {
        checked: scans.checked + runs.checked,
        failed: scans.failed,
        failedFlowRuns: runs.failed,
        deletionsStarted: await startMissingDeletions(deps),
      };
    },
  };
}

/** Starts the deletion workflow of every account closed a while ago whose row is still there and that has none running. */
async function startMissingDeletions(deps: ReconcileDeps): Promise<number[]> {
  const closedBefore = new Date(deps.clock().getTime() - DELETION_START_GRACE_MS);
  const started: number[] = [];
  for (const userId of await deps.accountData.closedAccounts(closedBefore, 100)) {
    const { status } = await startAccountDeletionWorkflow(deps.temporal(), deps.taskQueuePrefix, userId);
    if (status === 'started') {
      started.push(userId);
      deps.log.warn({ userId }, 'account deletion started by the reconciler');
    }
  }
  return started;
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
