import { proxyActivities } from '@temporalio/workflow';
import type { ReconcileActivities, ReconcileReport } from '../activities/reconcile.ts';

const { reconcileStaleScans } = proxyActivities<ReconcileActivities>({
  startToCloseTimeout: '5 minutes',
  retry: { maximumAttempts: 3, initialInterval: '10 seconds' },
});

/** Run by a Temporal schedule (RECONCILE_EVERY): scans left queued or running past their limit are failed. */
export async function reconcileScansWorkflow(): Promise<ReconcileReport> {
  return reconcileStaleScans();
}
