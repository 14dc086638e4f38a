import { WorkflowExecutionAlreadyStartedError, type Duration } from '@temporalio/common';
import { log, ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { AlertActivities, AlertEmailOutcome } from '../activities/alerts.ts';
import type { AlertChange } from '../core/monitoring/alert.ts';
import {
  alertEmailWorkflowId,
  HostAttribute,
  ScanIdAttribute,
  TargetIdAttribute,
  targetConfirmWorkflowId,
} from '../core/temporal.ts';
import type { AlertEmailJob, AlertEvaluation } from '../core/monitoring/alert-evaluation.ts';
import type { TargetConfirmInput } from './target-confirm.ts';

/** How long an alert e-mail keeps being retried while the SMTP server fails, and how often. */
export interface EmailRetry {
  initialInterval: Duration;
  maximumInterval: Duration;
  giveUpAfter: Duration;
}

/** Exponential backoff from 30 s to hourly, for a day; tests pass shorter intervals. */
export const ALERT_EMAIL_RETRY: EmailRetry = {
  initialInterval: '30 seconds',
  maximumInterval: '1 hour',
  giveUpAfter: '1 day',
};

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

/** One e-mail workflow per e-mail due, each on its own (ParentClosePolicy ABANDON); one already started is left as it is. */
export async function startAlertEmails(emails: AlertEmailJob[], retry: EmailRetry | undefined): Promise<void> {
  for (const { alertId, change } of emails) {
    try {
      await startChild(alertEmailWorkflow, {
        workflowId: alertEmailWorkflowId(workflowInfo().taskQueue, alertId, change),
        args: [{ alertId, change, retry }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
}

/**
 * The confirmation of a scan's regression candidates, as a workflow of its own that outlives this one
 * (ABANDON), with the search attributes of the target's scans (ScanId: the candidate scan). Started by type
 * name: workflows/target-confirm.ts imports this file.
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
    await startChild('targetConfirmWorkflow', {
      workflowId: targetConfirmWorkflowId(confirmation.targetId, scanPublicId),
      args: [input],
      staticSummary: `Confirmation of ${confirmation.keys.join(', ')} on target ${confirmation.targetId} (${confirmation.host})`,
      typedSearchAttributes: [
        { key: ScanIdAttribute, value: scanPublicId },
        { key: HostAttribute, value: confirmation.host },
        { key: TargetIdAttribute, value: String(confirmation.targetId) },
      ],
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
  }
}

export interface AlertEmailInput {
  alertId: number;
  change: AlertChange;
  retry?: EmailRetry;
}

/** Sends one alert e-mail, retrying with backoff while the SMTP server fails (activities/alerts.ts sendAlertEmail). */
export async function alertEmailWorkflow(input: AlertEmailInput): Promise<AlertEmailOutcome> {
  const retry = input.retry ?? ALERT_EMAIL_RETRY;
  const { sendAlertEmail } = proxyActivities<AlertActivities>({
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: retry.giveUpAfter,
    retry: { initialInterval: retry.initialInterval, maximumInterval: retry.maximumInterval, backoffCoefficient: 2 },
  });
  return sendAlertEmail(input.alertId, input.change);
}

/** A finished target scan's alerts, as a workflow of its own (tests; a parent may also run it as a child). */
export async function targetAlertsWorkflow(input: {
  scanPublicId: string;
  emailRetry?: EmailRetry;
}): Promise<AlertEvaluation | null> {
  return evaluateAfterScan(input.scanPublicId, { emailRetry: input.emailRetry });
}
