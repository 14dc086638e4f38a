import {
  ActivityFailure,
  CancellationScope,
  condition,
  getExternalWorkflowHandle,
  proxyActivities,
  setHandler,
} from '@temporalio/workflow';
import type { ScanActivities, ScanOutcome } from '../activities/scan.ts';
import type { ScanSlotActivities } from '../activities/scan-slots.ts';
import { SCAN_ATTEMPTS, scanActivityTimeoutMs, scanRunLimitMs, SLOT_REQUEST_REPEAT } from '../core/scan/lifecycle.ts';
import { releaseSlotSignal, slotGrantedSignal } from './scan-dispatch.ts';

export interface ScanWorkflowInput {
  publicId: string;
  /** The region's task queue, served by the workers deployed there. */
  scanTaskQueue: string;
}

const { markScanRunning, markScanFailed } = proxyActivities<ScanActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

const { requestScanSlot } = proxyActivities<ScanSlotActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * queued → (a slot in the region, from its dispatcher) → running → finished | failed, each step stored in
 * Postgres by an activity. The scan stays `queued` while it waits for its slot, however long that takes.
 */
export async function scanWorkflow(input: ScanWorkflowInput): Promise<ScanOutcome> {
  let granted = false;
  setHandler(slotGrantedSignal, () => void (granted = true));
  let dispatcherId: string | null = null;
  try {
    // Repeated while waiting: a dispatcher that was terminated meanwhile is started again with this request.
    while (!granted) {
      ({ dispatcherId } = await requestScanSlot(input.publicId));
      await condition(() => granted, SLOT_REQUEST_REPEAT);
    }
    return await runScan(input);
  } finally {
    // Also when cancelled, or when the scan failed: the slot (or the place in the queue) goes to the next scan.
    const dispatcher = dispatcherId;
    if (dispatcher) {
      await CancellationScope.nonCancellable(() =>
        getExternalWorkflowHandle(dispatcher).signal(releaseSlotSignal, input.publicId),
      ).catch(() => undefined);
    }
  }
}

/**
 * Lighthouse runs on the region's queue, one at a time per worker process; crashes are retried (3 attempts),
 * page failures are not. If no attempt succeeds, or no worker serves the region within the scan's run limit
 * (core/scan/lifecycle.ts, longer for more runs), the scan is failed with `scan_error`; the reconciler
 * (workflows/reconcile.ts) catches workflows that ended any other way.
 */
async function runScan(input: ScanWorkflowInput): Promise<ScanOutcome> {
  // The scan's row says how many runs it has, whoever started it (the API, a target's schedule).
  const { runs } = await markScanRunning(input.publicId);
  const { scanPage } = proxyActivities<ScanActivities>({
    taskQueue: input.scanTaskQueue,
    startToCloseTimeout: scanActivityTimeoutMs(runs),
    heartbeatTimeout: '20 seconds',
    scheduleToCloseTimeout: scanRunLimitMs(runs),
    retry: { maximumAttempts: SCAN_ATTEMPTS, initialInterval: '5 seconds', backoffCoefficient: 2 },
  });
  try {
    return await scanPage(input.publicId);
  } catch (error) {
    const cause = error instanceof ActivityFailure && error.cause ? error.cause.message : String(error);
    await markScanFailed(
      input.publicId,
      'scan_error',
      `The scan failed after several attempts (${cause.slice(0, 300)}).`,
    );
    return { status: 'failed', code: 'scan_error' };
  }
}
