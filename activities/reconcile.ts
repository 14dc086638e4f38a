import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../infra/logger.ts';
import { scanWorkflowId } from '../core/temporal.ts';
import type { AccountDataStore } from '../db/store/account-data.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { startAccountDeletionWorkflow } from '../infra/temporal-client.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import { markFailed } from '../services/scans.ts';

export interface ReconcileDeps {
  scans: ScanStore;
  temporal: () => Client;
  clock: Clock;
  log: Logger;
  accountData: AccountDataStore;
  taskQueuePrefix: string;
}

export interface ReconcileReport {
  checked: number;
  failed: string[];
  /** Closed accounts whose deletion workflow had to be started (absent in reports of older workers). */
  deletionsStarted?: number[];
}

/** A closed account's own request starts its deletion; past this the reconciler does (Temporal was away then). */
export const DELETION_START_GRACE_MS = 60_000;

/** Activities of the scan reconciler: scans whose workflow ended without recording an outcome are failed. */
export function createReconcileActivities(deps: ReconcileDeps) {
  return {
    async reconcileStaleScans(): Promise<ReconcileReport> {
      const now = deps.clock();
      const stale = await deps.scans.staleInFlight(now, 500);
      const failed: string[] = [];
      for (const publicId of stale) {
        let ended: string;
        try {
          const { status } = await deps.temporal().workflow.getHandle(scanWorkflowId(publicId)).describe();
          if (status.name === 'RUNNING') continue; // its own timeouts will end it, through its failure path
          ended = FAILURE_DETAILS.workflowEndedWithoutResult(status.name);
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
          ended = FAILURE_DETAILS.noWorkflow();
        }
        if (
          await markFailed(deps.scans, publicId, 'scan_error', FAILURE_DETAILS.stoppedByReconciler(ended), deps.clock())
        ) {
          failed.push(publicId);
          deps.log.warn({ scanId: publicId, reason: ended }, 'stale scan failed by the reconciler');
        }
      }
      return { checked: stale.length, failed, deletionsStarted: await startMissingDeletions(deps) };
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
