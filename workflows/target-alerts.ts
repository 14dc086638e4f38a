import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { log, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import type { AlertActivities } from '../activities/alerts.ts';
import { HostAttribute, ScanIdAttribute, TargetIdAttribute, targetConfirmWorkflowId } from '../core/temporal.ts';
import type { AlertEvaluation } from '../core/monitoring/alert-evaluation.ts';
import { startAlertEmails, type EmailRetry } from './alert-emails.ts';
import { targetConfirmWorkflow, type TargetConfirmInput } from './target-confirm.ts';

const { evaluateTargetAlerts } = proxyActivities<AlertActivities>({
  startToCloseTimeout: '1 minute',
  // Postgres away for a while: keep trying, but not forever (an open workflow would hold up the target's next run).
  scheduleToCloseTimeout: '6 hours',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * After a target's scan has finished (workflows/target-scan.ts calls this): the alert rules, then one e-mail
 * workflow per e-mail due. Those run on their own (ParentClosePolicy ABANDON), so a day of SMTP retries never
 * keeps the scan's workflow open; their ids are per alert and change, so two cannot send the same e-mail at
 * once. Never throws: the scan's own outcome does not depend on its alerts. When the scan made regression
 * candidates, it starts their confirmation (workflows/target-confirm.ts), also on its own.
 */
export async function evaluateAfterScan(
  scanPublicId: string,
  options: { emailRetry?: EmailRetry } = {},
): Promise<AlertEvaluation | null> {
  let evaluation: AlertEvaluation;
  try {
    evaluation = await evaluateTargetAlerts(scanPublicId);
  } catch (error) {
    log.error('alert evaluation failed', { scanPublicId, error: String(error) });
    return null;
  }
  await startAlertEmails(evaluation.emails, options.emailRetry);
  if (evaluation.confirmation) await startConfirmation(scanPublicId, evaluation.confirmation, options.emailRetry);
  return evaluation;
}

/**
 * The confirmation of a scan's regression candidates, as a workflow of its own that outlives this one
 * (ABANDON), with the search attributes of the target's scans (ScanId: the candidate scan). At most one per
 * scan: a scan evaluated again (a targetAlertsWorkflow of its own, a reset of the target's run) makes the same
 * candidates when none was confirmed, and its confirmation, running or ended, is left as it is (REJECT_DUPLICATE:
 * Temporal's default would start an ended one again, a second confirmation scan judged anew).
 */
async function startConfirmation(
  scanPublicId: string,
  confirmation: NonNullable<AlertEvaluation['confirmation']>,
  emailRetry: EmailRetry | undefined,
): Promise<void> {
  const input: TargetConfirmInput = {
    targetId: confirmation.targetId,
    candidateScanId: scanPublicId,
    keys: confirmation.keys,
    ...(emailRetry ? { emailRetry } : {}),
  };
  try {
    await startChild(targetConfirmWorkflow, {
      workflowId: targetConfirmWorkflowId(confirmation.targetId, scanPublicId),
      args: [input],
      staticSummary: `Confirmation of ${confirmation.keys.join(', ')} on target ${confirmation.targetId} (${confirmation.host})`,
      typedSearchAttributes: [
        { key: ScanIdAttribute, value: scanPublicId },
        { key: HostAttribute, value: confirmation.host },
        { key: TargetIdAttribute, value: String(confirmation.targetId) },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

/** A finished target scan's alerts, as a workflow of its own (tests; a parent may also run it as a child). */
export async function targetAlertsWorkflow(input: {
  scanPublicId: string;
  emailRetry?: EmailRetry;
}): Promise<AlertEvaluation | null> {
  return evaluateAfterScan(input.scanPublicId, { emailRetry: input.emailRetry });
}
