import type { Clock } from '../core/clock.ts';
import type { Logger } from '../infra/logger.ts';
import { rumEmailDue, type SiteWindowsQuery, type Transition } from '../core/rum/alert-check.ts';
import { composeRumAlertEmail } from '../core/rum/alert-email.ts';
import type { RumAlertNotice } from '../core/webhooks/payloads.ts';
import type { RumAlertStore } from '../db/store/rum-alerts.ts';
import type { AlertEmailOutcome } from './alerts.ts';
import type { RumAlertCheckResult } from '../core/rum/alert-check-result.ts';
import { checkRumAlerts } from '../services/rum-alert-check.ts';
import type { Mailer } from '../services/mailer.ts';
import { sendFromActivity } from './email.ts';
import type { WebhookDispatch } from '../services/webhook-dispatch.ts';
import type { WorkerMetrics } from '../infra/worker-metrics.ts';

export interface RumAlertActivityDeps {
  rumAlerts: RumAlertStore;
  /** The ClickHouse query (db/clickhouse/rum-alert-queries.ts siteWindows), bound to a client and database. */
  windows: SiteWindowsQuery;
  mailer: Mailer;
  baseUrl: string;
  clock: Clock;
  log: Logger;
  /** Starts the delivery workflows of the webhook rows a check wrote (the outbox sweeper catches any it misses). */
  webhookDispatch?: WebhookDispatch;
  metrics?: Pick<WorkerMetrics, 'rumAlertCheck'>;
}

/** The live-data alert check and its e-mails (workflows/rum-alerts.ts). Built with the others in worker/activities.ts. */
export function createRumAlertActivities(deps: RumAlertActivityDeps) {
  const { rumAlerts, mailer, clock, log } = deps;
  return {
    /** One check of every configuration (services/rum-alert-check.ts); returns what changed and the e-mails to send. */
    async checkRumAlerts(): Promise<RumAlertCheckResult> {
      const started = Date.now();
      const { result, webhooks } = await checkRumAlerts(
        { rumAlerts, windows: deps.windows, baseUrl: deps.baseUrl },
        clock(),
      );
      if (webhooks.length) await deps.webhookDispatch?.start(webhooks);
      const ms = Date.now() - started;
      deps.metrics?.rumAlertCheck(ms / 1000);
      const summary = {
        configurations: result.configurations,
        queries: result.queries,
        recorded: result.recorded,
        transitions: result.transitions,
        ms,
      };
      if (result.transitions.length) log.info(summary, 'live-data alerts changed');
      else log.debug(summary, 'live-data alerts checked');
      return result;
    },

    /**
     * Sends the e-mail about one transition and records when the SMTP server accepted it; nothing when that was
     * recorded before or the alert has moved on (core/rum/alert-check.ts rumEmailDue). SMTP 5xx is not retried.
     */
    async sendRumAlertEmail(
      alertId: number,
      change: Transition,
      occurrenceMs: number,
      notice: RumAlertNotice,
    ): Promise<AlertEmailOutcome> {
      const alert = await rumAlerts.find(alertId);
      const occurrence = new Date(occurrenceMs);
      const due = alert ? rumEmailDue(alert, change, occurrence) : 'not_due';
      if (due !== 'send') return due === 'sent' ? 'sent_before' : 'not_due';
      const recipient = await rumAlerts.recipient(alertId);
      if (!recipient) return 'not_due';
      if (!recipient.verified) {
        // Unverified addresses may not be the owner's: no mail to them, or the service could be used to spam.
        log.info(
          { rumAlertId: alertId, change },
          'live-data alert e-mail skipped: the owner has not verified their e-mail address',
        );
        return 'unverified';
      }
      if (!recipient.wantsEmail) {
        log.info({ rumAlertId: alertId, change }, 'live-data alert e-mail not wanted (settings)');
        return 'not_wanted';
      }
      await sendFromActivity(mailer, composeRumAlertEmail(notice, change, recipient, deps.baseUrl), (error) =>
        log.warn({ rumAlertId: alertId, change, err: error }, 'live-data alert e-mail not sent'),
      );
      await rumAlerts.recordEmailed(alertId, change, occurrence, clock());
      log.info({ rumAlertId: alertId, change }, 'live-data alert e-mail sent');
      return 'sent';
    },
  };
}

export type RumAlertActivities = ReturnType<typeof createRumAlertActivities>;
