import type { ScanOutcome } from '../activities/scan.ts';
import type { TargetScanInput } from '../core/monitoring/schedule.ts';
import { evaluateAfterScan } from './target-alerts.ts';
import { dispatchAndRunTargetScan, scanIdOfThisRun } from './target-scan-run.ts';

export type TargetScanOutcome = { dispatched: false } | { dispatched: true; scanId: string; outcome: ScanOutcome };

/**
 * Started by a target's schedule (core/monitoring/schedule.ts), or by its "Run now" with the id of the scan it
 * stored already (services/target-runs.ts): stores the scan of the target (a run now's is found as stored) and
 * runs it as an ordinary scan, a child `scanWorkflow` with the id and search attributes any scan gets (plus
 * TargetId). Nothing runs for a target that is gone or, on a scheduled run, paused. The schedule's overlap
 * policy (SKIP) keeps one scheduled run per target at a time. When the scan has finished, the target's alerts
 * are evaluated (workflows/target-alerts.ts).
 */
export async function targetScanWorkflow(input: TargetScanInput): Promise<TargetScanOutcome> {
  const publicId = input.scanId ?? scanIdOfThisRun();
  const ran = await dispatchAndRunTargetScan(input.targetId, publicId);
  if (!ran) return { dispatched: false };
  // Never throws, and skips failed scans.
  await evaluateAfterScan(publicId);
  return { dispatched: true, scanId: publicId, outcome: ran.outcome };
}
