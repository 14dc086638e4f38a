import { executeChild, ParentClosePolicy, proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { TargetActivities } from '../activities/targets.ts';
import type { ScanOutcome } from '../activities/scan.ts';
import { publicIdFrom } from '../core/ids.ts';
import { HostAttribute, ScanIdAttribute, TargetIdAttribute, scanSummary, scanWorkflowId } from '../core/temporal.ts';
import { scanWorkflow } from './scan.ts';

/** A target's scan as its scheduled run (workflows/target-scan.ts) and its confirmation (target-confirm.ts) run it. */

const { dispatchTargetScan } = proxyActivities<TargetActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 10, initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/**
 * Stores the target's scan (or finds it stored) and runs it as an ordinary scan: a child `scanWorkflow` with the
 * id and search attributes any scan gets (plus TargetId). Null when the target is gone or paused.
 */
export async function dispatchAndRunTargetScan(
  targetId: number,
  publicId: string,
  trigger?: 'confirmation',
): Promise<{ outcome: ScanOutcome } | null> {
  const dispatched = await dispatchTargetScan(trigger ? { targetId, publicId, trigger } : { targetId, publicId });
  if (!dispatched) return null;
  const outcome = await executeChild(scanWorkflow, {
    workflowId: scanWorkflowId(publicId),
    args: [{ publicId, scanTaskQueue: dispatched.scanTaskQueue }],
    // As a scan started by the API says (infra/temporal-client.ts startScanWorkflow), plus the target.
    staticSummary: scanSummary({ host: dispatched.host, region: dispatched.region, publicId, targetId }),
    typedSearchAttributes: [
      { key: ScanIdAttribute, value: publicId },
      { key: HostAttribute, value: dispatched.host },
      { key: TargetIdAttribute, value: String(targetId) },
    ],
    // The scan is the user's like any other: should this workflow be terminated, the scan still ends properly.
    parentClosePolicy: ParentClosePolicy.ABANDON,
  });
  return { outcome };
}

/**
 * The scan's public id, from this run's start time and its deterministic randomness: the same on every
 * replay and every retry of the dispatch, different for every run (manual triggers included).
 */
export function scanIdOfThisRun(): string {
  const hex = uuid4().replaceAll('-', '');
  // Bytes 6 and 8 of a UUIDv4 carry its version and variant; the 10 taken here are all random.
  const bytes = [0, 1, 2, 3, 4, 5, 9, 10, 11, 12].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16));
  return publicIdFrom(workflowInfo().runStartTime.getTime(), Uint8Array.from(bytes));
}
