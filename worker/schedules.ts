import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Storage } from '../db/store/index.ts';
import type { Logger } from '../infra/logger.ts';
import {
  ensureReconcilerSchedule,
  ensureRumAlertCheckSchedule,
  ensureTargetReconcilerSchedule,
  triggerTargetReconciler,
} from '../infra/temporal-client.ts';
import { LIGHTHOUSE_REPORT_SWEEP_EVERY_MS, sweepExpiredLighthouseReports } from '../services/lighthouse-reports.ts';
import { OAUTH_SWEEP_EVERY_MS, sweepExpiredOAuth } from '../services/oauth-apps.ts';
import { sweepWebhookOutbox, type WebhookDispatch } from '../services/webhook-dispatch.ts';

/** How often the webhook outbox is swept for rows a crash left without a workflow. */
const WEBHOOK_SWEEP_EVERY_MS = 30_000;

export interface ScheduleDeps {
  client: Client;
  taskQueuePrefix: string;
  storage: Pick<Storage, 'webhooks' | 'oauth' | 'lighthouseReports'>;
  /** Starts delivery workflows straight away (no direct first attempt): the swept rows are due for their workflow. */
  workflowDispatch: WebhookDispatch;
  clock: Clock;
  log: Logger;
}

/**
 * The schedules that go with the main queue (scan reconciler, target reconciler, live-data alert check),
 * created or updated now, and the sweepers (webhook outbox, expired OAuth rows, Lighthouse results past their
 * plan's retention) started. A schedule that cannot
 * be made is logged and tried again at the next start. Resolves with a function that stops the sweepers.
 */
export async function startSchedulesAndSweepers(deps: ScheduleDeps): Promise<() => void> {
  const { client, taskQueuePrefix: prefix, storage, log } = deps;
  await ensureReconcilerSchedule(client, prefix).then(
    ({ scheduleId, created }) => created && log.info({ scheduleId }, 'scan reconciler scheduled'),
    (error: unknown) =>
      log.error(
        { err: error },
        'could not create or update the scan reconciler schedule; stale scans wait for the next start',
      ),
  );
  // Target schedules: reconciled now (a worker starts after deployments and outages, when drift is likeliest) and on a timer.
  await ensureTargetReconcilerSchedule(client, prefix)
    .then(async ({ scheduleId, created }) => {
      if (created) log.info({ scheduleId }, 'target reconciler scheduled');
      await triggerTargetReconciler(client, prefix);
    })
    .catch((error: unknown) =>
      log.error(
        { err: error },
        'could not schedule or start the target reconciler; target schedules are repaired at the next start',
      ),
    );
  await ensureRumAlertCheckSchedule(client, prefix).then(
    ({ scheduleId, created }) => created && log.info({ scheduleId }, 'live-data alert check scheduled'),
    (error: unknown) =>
      log.error(
        { err: error },
        'could not create or update the live-data alert check schedule; it is tried again at the next start',
      ),
  );
  // Every worker sweeps; rows are claimed before their workflow starts (two sweeps never take one row, nor a
  // row whose direct attempt is in flight), and the delivery workflow ids make a repeated start harmless.
  const outboxSweeper = setInterval(() => {
    sweepWebhookOutbox(storage.webhooks, deps.workflowDispatch, deps.clock())
      .then(
        (found) => found && log.info({ found }, 'webhook outbox: started workflows for deliveries left without one'),
      )
      .catch((error: unknown) => log.warn({ err: error }, 'webhook outbox sweep failed'));
  }, WEBHOOK_SWEEP_EVERY_MS);
  outboxSweeper.unref();
  const oauthSweeper = setInterval(() => {
    sweepExpiredOAuth(storage.oauth, deps.clock())
      .then((deleted) => deleted && log.info({ deleted }, 'deleted expired OAuth codes, tokens and grants'))
      .catch((error: unknown) => log.warn({ err: error }, 'OAuth expiry sweep failed'));
  }, OAUTH_SWEEP_EVERY_MS);
  oauthSweeper.unref();
  // Every worker sweeps too: a delete of what is already gone deletes nothing.
  const sweepLighthouseReports = () =>
    sweepExpiredLighthouseReports(storage.lighthouseReports, deps.clock())
      .then((deleted) => deleted && log.info({ deleted }, 'deleted Lighthouse results past their retention'))
      .catch((error: unknown) => log.warn({ err: error }, 'Lighthouse result retention sweep failed'));
  void sweepLighthouseReports();
  const lighthouseReportSweeper = setInterval(() => void sweepLighthouseReports(), LIGHTHOUSE_REPORT_SWEEP_EVERY_MS);
  lighthouseReportSweeper.unref();
  return () => {
    clearInterval(outboxSweeper);
    clearInterval(oauthSweeper);
    clearInterval(lighthouseReportSweeper);
  };
}
