import { WorkflowExecutionAlreadyStartedError, type Duration } from '@temporalio/common';
import { ParentClosePolicy, proxyActivities, startChild, workflowInfo } from '@temporalio/workflow';
import type { AlertActivities, AlertEmailOutcome } from '../activities/alerts.ts';
import type { AlertChange } from '../core/monitoring/alert.ts';
import type { AlertEmailJob } from '../core/monitoring/alert-evaluation.ts';
import { alertEmailWorkflowId } from '../core/temporal.ts';

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
