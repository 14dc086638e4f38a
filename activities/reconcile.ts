import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Logger } from '../infra/logger.ts';
import { scanWorkflowId } from '../core/temporal.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import { markFailed } from '../services/scans.ts';

export interface ReconcileDeps {
  scans: ScanStore;
  temporal: () => Client;
  clock: Clock;
  log: Logger;
}

export interface ReconcileReport {
  checked: number;
  failed: string[];
}

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
      return { checked: stale.length, failed };
    },
  };
}

export type ReconcileActivities = ReturnType<typeof createReconcileActivities>;
