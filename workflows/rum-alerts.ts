import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { AlertEmailOutcome } from '../activities/alerts.ts';
import type { RumAlertActivities } from '../activities/rum-alerts.ts';
import { rumAlertEmailWorkflowId } from '../core/temporal.ts';
import type { RumAlertCheckResult, RumAlertEmailJob } from '../core/rum/alert-check-result.ts';
import { ALERT_EMAIL_RETRY, type EmailRetry } from './alert-emails.ts';

const { checkRumAlerts } = proxyActivities<RumAlertActivities>({
  // The next check comes in 5 minutes (the schedule skips it while this one runs): retry a little, not for long.
  startToCloseTimeout: '3 minutes',
  scheduleToCloseTimeout: '4 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '30 seconds' },
});

/**
 * The live-data alert check, started every 5 minutes by its schedule (infra/temporal-client.ts
 * ensureRumAlertCheckSchedule, overlap SKIP): one activity judges every configuration, then one e-mail
 * workflow per transition, abandoned (so a day of SMTP retries never holds up the next check) and with an id
 * per alert, change and occurrence (REJECT_DUPLICATE: never the same e-mail twice).
 */
export async function rumAlertCheckWorkflow(options: { emailRetry?: EmailRetry } = {}): Promise<RumAlertCheckResult> {
  const result = await checkRumAlerts();
  for (const job of result.emails) {
    try {
      await startChild(rumAlertEmailWorkflow, {
        workflowId: rumAlertEmailWorkflowId(workflowInfo().taskQueue, job.alertId, job.change, job.occurrenceMs),
        args: [{ ...job, retry: options.emailRetry }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
    }
  }
  return result;
}

/** Sends one live-data alert e-mail, retrying with backoff like score alert e-mails (30 s to hourly, for a day). */
export async function rumAlertEmailWorkflow(
  input: RumAlertEmailJob & { retry?: EmailRetry },
): Promise<AlertEmailOutcome> {
  const retry = input.retry ?? ALERT_EMAIL_RETRY;
  const { sendRumAlertEmail } = proxyActivities<RumAlertActivities>({
    startToCloseTimeout: '2 minutes',
    scheduleToCloseTimeout: retry.giveUpAfter,
    retry: { initialInterval: retry.initialInterval, maximumInterval: retry.maximumInterval, backoffCoefficient: 2 },
  });
  return sendRumAlertEmail(input.alertId, input.change, input.occurrenceMs, input.notice);
}
