import { ActivityFailure, proxyActivities } from '@temporalio/workflow';
import type { ScanActivities, ScanOutcome } from '../activities/scan.ts';
import { SCAN_RUN_LIMIT } from '../core/scan/lifecycle.ts';

export interface ScanWorkflowInput {
  publicId: string;
  /** The region's task queue, served by the workers deployed there. */
  scanTaskQueue: string;
}

const { markScanRunning, markScanFailed } = proxyActivities<ScanActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * queued → running → finished | failed, each step stored in Postgres by an activity. Lighthouse runs on the
 * region's queue, one at a time per worker process; crashes are retried (3 attempts), page failures are not.
 * If no attempt succeeds, or no worker serves the region within SCAN_RUN_LIMIT, the scan is failed with
 * `scan_error`; the reconciler (workflows/reconcile.ts) catches workflows that ended any other way.
 */
export async function scanWorkflow(input: ScanWorkflowInput): Promise<ScanOutcome> {
  const { scanPage } = proxyActivities<ScanActivities>({
    taskQueue: input.scanTaskQueue,
    startToCloseTimeout: '4 minutes',
    heartbeatTimeout: '20 seconds',
    scheduleToCloseTimeout: SCAN_RUN_LIMIT,
    retry: { maximumAttempts: 3, initialInterval: '5 seconds', backoffCoefficient: 2 },
  });
  await markScanRunning(input.publicId);
  try {
    return await scanPage(input.publicId);
  } catch (error) {
    const cause = error instanceof ActivityFailure && error.cause ? error.cause.message : String(error);
    await markScanFailed(input.publicId, 'scan_error', `The scan failed after several attempts (${cause.slice(0, 300)}).`);
    return { status: 'failed', code: 'scan_error' };
  }
}
