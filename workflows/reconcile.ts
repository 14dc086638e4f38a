import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileActivities, ReconcileReport } from '../activities/reconcile.ts';
import type { FlowReconcileReport, FlowScheduleActivities } from '../activities/flows/flow-schedule.ts';
import type { TargetActivities, TargetReconcileReport } from '../activities/targets.ts';

const { reconcileStaleScans } = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds' },
});

/** Run by a Temporal schedule (RECONCILE_EVERY): scans left queued or running past their limit are failed. */
export async function reconcileScansWorkflow(): Promise<ReconcileReport> {
  return reconcileStaleScans();
}

const { reconcileTargetSchedules } = proxyActivities<TargetActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds' },
});

const { reconcileFlowSchedules } = proxyActivities<FlowScheduleActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds' },
});

/**
 * Run by a Temporal schedule (TARGET_RECONCILE_EVERY) and at every worker start: target schedules missing,
 * orphaned or in the wrong paused state are repaired from the rows, then monitored flows' schedules likewise.
 */
export async function reconcileTargetsWorkflow(): Promise<TargetReconcileReport & { flows: FlowReconcileReport }> {
  const targets = await reconcileTargetSchedules();
  return { ...targets, flows: await reconcileFlowSchedules() };
}
