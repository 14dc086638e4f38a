import type { Clock } from '../core/clock.ts';
import type { Logger } from '../infra/logger.ts';
import type { AlertChange } from '../core/monitoring/alert.ts';
import { composeAlertEmail, emailDue } from '../core/monitoring/alert-email.ts';
import type { AlertStore } from '../db/store/alerts.ts';
import type {
  AlertEvaluation,
  ConfirmationEvaluation,
  ConfirmationInput,
} from '../core/monitoring/alert-evaluation.ts';
import { evaluateScanAlertsWithWebhooks } from '../services/alert-evaluation.ts';
import { confirmRegressionAlerts } from '../services/regression-evaluation.ts';
import type { Mailer } from '../services/mailer.ts';
import { sendFromActivity } from './email.ts';
import type { WebhookDispatch } from '../services/webhook-dispatch.ts';

export interface AlertActivityDeps {
  alerts: AlertStore;
  mailer: Mailer;
  /** BASE_URL: the e-mails link to reports and the alerts page there. */
  baseUrl: string;
  clock: Clock;
  log: Logger;
  /** Starts the workflows of the webhook deliveries an evaluation wrote (the outbox sweeper catches any it misses). */
  webhookDispatch?: WebhookDispatch;
}

/**
 * `unverified`: not sent, because the owner has not verified their address (the workflow's result records it).
 * `not_wanted`: the owner turned this kind of e-mail off in the settings (nothing is recorded as e-mailed).
 */
export type AlertEmailOutcome = 'sent' | 'sent_before' | 'not_due' | 'unverified' | 'not_wanted';

/** Alert evaluation and e-mail (workflows/target-alerts.ts). Built with the others in worker/activities.ts. */
export function createAlertActivities(deps: AlertActivityDeps) {
  const { alerts, mailer, clock, log } = deps;
  return {
    /** Applies the alert rules to a finished scan of a target; returns what changed and the e-mails due. */
    async evaluateTargetAlerts(scanPublicId: string): Promise<AlertEvaluation> {
      const { evaluation, webhooks } = await evaluateScanAlertsWithWebhooks(alerts, scanPublicId, clock());
      if (evaluation.changes.length) log.info({ scanId: scanPublicId, changes: evaluation.changes }, 'alerts changed');
      if (webhooks.length) await deps.webhookDispatch?.start(webhooks);
      return evaluation;
    },

    /** Judges a regression candidate's scan with its confirmation scan; raises the confirmed alerts (workflows/target-confirm.ts). */
    async confirmTargetRegressions(input: ConfirmationInput): Promise<ConfirmationEvaluation> {
      const { evaluation, webhooks } = await confirmRegressionAlerts(alerts, input, clock());
      log.info(
        {
          scanId: input.candidateScanId,
          confirmationScanId: input.confirmationScanId,
          candidates: input.keys,
          confirmed: evaluation.confirmed,
          changes: evaluation.changes,
        },
        evaluation.changes.length ? 'regression confirmed: alerts raised' : 'regression candidates not confirmed',
      );
      if (webhooks.length) await deps.webhookDispatch?.start(webhooks);
      return evaluation;
    },

    /**
     * Sends the e-mail about one change of an alert and records when the SMTP server accepted it; does nothing
     * when it was recorded before or is no longer due (core/monitoring/alert-email.ts). Failures throw and
     * Temporal retries them, except SMTP 5xx replies, which no retry changes.
     */
    async sendAlertEmail(alertId: number, change: AlertChange): Promise<AlertEmailOutcome> {
      const alert = await alerts.find(alertId);
      const due = alert ? emailDue(alert, change) : 'not_due';
      if (due !== 'send') return due === 'sent' ? 'sent_before' : 'not_due';
      const recipient = await alerts.recipient(alertId);
      if (!recipient) return 'not_due';
      if (!recipient.verified) {
        // Unverified addresses may not be the owner's: no mail to them, or the service could be used to spam.
        log.info({ alertId, change }, 'alert e-mail skipped: the owner has not verified their e-mail address');
        return 'unverified';
      }
      if (!recipient.wantsEmail) {
        log.info({ alertId, change }, 'alert e-mail not wanted (settings)');
        return 'not_wanted';
      }
      await sendFromActivity(mailer, composeAlertEmail(alert!, change, recipient, deps.baseUrl), (error) =>
        log.warn({ alertId, change, err: error }, 'alert e-mail not sent'),
      );
      await alerts.recordEmailed(alertId, change, clock());
      log.info({ alertId, change }, 'alert e-mail sent');
      return 'sent';
    },
  };
}

export type AlertActivities = ReturnType<typeof createAlertActivities>;
