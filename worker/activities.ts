import { createFlowScheduleActivities } from '../activities/flows/flow-schedule.ts';
import type { Client } from '@temporalio/client';
import { createAccountDeletionActivities, type RumEraser } from '../activities/account-deletion.ts';
import { createActivities } from '../activities/index.ts';
import { createFlowRunActivities, createFlowRunEnding } from '../activities/flows/flow-run.ts';
import type { FlowRunner } from '../activities/flows/flow-runner.ts';
import { createAlertActivities } from '../activities/alerts.ts';
import { createReconcileActivities } from '../activities/reconcile.ts';
import { createRumAlertActivities } from '../activities/rum-alerts.ts';
import type { ScanRunner } from '../activities/scan-runner.ts';
import { createScanActivities } from '../activities/scan.ts';
import { createScanSlotActivities } from '../activities/scan-slots.ts';
import { createTargetActivities } from '../activities/targets.ts';
import { createWebhookActivities } from '../activities/webhooks.ts';
import type { Clock } from '../core/clock.ts';
import type { SiteWindowsQuery } from '../core/rum/alert-check.ts';
import type { Storage } from '../db/store/index.ts';
import type { Config } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';
import type { HostLookup } from '../infra/scan-target.ts';
import type { WorkerMetrics } from '../infra/worker-metrics.ts';
import type { Mailer } from '../services/mailer.ts';
import type { WebhookDeliveryDeps } from '../services/webhook-attempt.ts';
import type { WebhookDispatch } from '../services/webhook-dispatch.ts';
import { createAssetStore } from '../services/asset-store.ts';

/** What the worker's activities are built from: worker/main.ts passes the real ones, test harnesses their own. */
export interface WorkerDeps {
  storage: Storage;
  config: Config;
  temporal: () => Client;
  clock: Clock;
  log: Logger;
  /** Every e-mail the worker sends goes through it, counted by kind in `metrics`. */
  mailer: Mailer;
  metrics: WorkerMetrics;
  /** Lighthouse (activities/lighthouse/process-runner.ts); `noScanRunner` where no scan queue is served. */
  runner: ScanRunner;
  /** The live-data alert check's ClickHouse query, bound to a client and database. */
  rumWindows: SiteWindowsQuery;
  /** Starts the workflows of the webhook deliveries the activities write. */
  webhookDispatch: WebhookDispatch;
  /** Named in the main queue's health activity. */
  identity: string;
  /** Tests shorten a scan attempt's limit (activities/scan.ts ATTEMPT_LIMIT_MS otherwise). */
  attemptLimitMs?: number;
  /** Tests resolve webhook hosts their own way and shorten the request timeout. */
  webhookLookup?: HostLookup;
  webhookTimeoutMs?: number;
  /** Deletes a closed account's live-data rows (ClickHouse); the worker process always passes it. */
  rumErase?: RumEraser;
  /** User flows' runner (activities/flows/process-flow-runner.ts) on processes that serve scan queues. */
  flowRunner?: FlowRunner;
}

/** A runner for processes that serve no scan queue: the scan activities are built but never polled there. */
export const noScanRunner: ScanRunner = {
  run: () => Promise.reject(new Error('this worker serves no scan queue')),
};

/** For processes that serve no scan queue: the flow activities are built but never polled there. */
export const noFlowRunner: FlowRunner = {
  run: () => Promise.reject(new Error('this worker has no flow runner')),
};

/** What a webhook attempt needs, whether the webhook activity or the worker's direct first attempt makes it. */
export function webhookDeliveryDeps(
  deps: Omit<WorkerDeps, 'runner' | 'rumWindows' | 'webhookDispatch' | 'identity' | 'attemptLimitMs'>,
): WebhookDeliveryDeps {
  const { storage, config, metrics } = deps;
  return {
    webhooks: storage.webhooks,
    users: storage.users,
    mailer: metrics.countingMailer(deps.mailer, 'webhook_disabled'),
    keys: config.keys,
    allowLoopback: config.callbacksAllowLoopback,
    baseUrl: config.baseUrl,
    clock: deps.clock,
    metrics,
    log: deps.log,
    ...(deps.webhookLookup ? { lookup: deps.webhookLookup } : {}),
    ...(deps.webhookTimeoutMs !== undefined ? { timeoutMs: deps.webhookTimeoutMs } : {}),
  };
}

/** The activities of each task queue the worker polls: the main queue, every region's scan queue, the webhook queue. */
export function buildActivities(deps: WorkerDeps) {
  const { storage, config, temporal, clock, log, metrics, webhookDispatch } = deps;
  const assets = createAssetStore(config);
  const scan = createScanActivities({
    scans: storage.scans,
    lighthouseReports: storage.lighthouseReports,
    config,
    assets,
    clock,
    log,
    runner: deps.runner,
    attemptLimitMs: deps.attemptLimitMs,
    webhookDispatch,
    metrics,
  });
  const alertActivities = createAlertActivities({
    alerts: storage.alerts,
    mailer: metrics.countingMailer(deps.mailer, 'alert'),
    baseUrl: config.baseUrl,
    clock,
    log,
    webhookDispatch,
  });
  const flowRunDeps = {
    flows: storage.flows,
    users: storage.users,
    config,
    assets,
    temporal,
    clock,
    log,
    flowRunner: deps.flowRunner ?? noFlowRunner,
    webhookDispatch,
    alerts: storage.alerts,
    sendAlertEmail: alertActivities.sendAlertEmail,
  };
  const flowRuns = createFlowRunActivities(flowRunDeps);
  const main = {
    ...createActivities({ pingPostgres: storage.ping, workerIdentity: deps.identity }),
    ...scan,
    ...createReconcileActivities({
      scans: storage.scans,
      flows: storage.flows,
      failFlowRun: createFlowRunEnding(flowRunDeps).failRun,
      graceMs: config.worker.reconcileGraceMs,
      temporal,
      clock,
      log,
      accountData: storage.accountData,
      taskQueuePrefix: config.temporal.taskQueuePrefix,
    }),
    ...createScanSlotActivities({ scans: storage.scans, users: storage.users, temporal, config }),
    ...flowRuns,
    ...createFlowScheduleActivities({ flows: storage.flows, temporal, config, clock, log }),
    ...createTargetActivities({
      targets: storage.targets,
      scans: storage.scans,
      users: storage.users,
      temporal,
      config,
      clock,
      log,
      metrics,
    }),
    ...alertActivities,
    ...createRumAlertActivities({
      rumAlerts: storage.rumAlerts,
      windows: deps.rumWindows,
      mailer: metrics.countingMailer(deps.mailer, 'rum_alert'),
      baseUrl: config.baseUrl,
      clock,
      log,
      webhookDispatch,
      metrics,
    }),
    ...createAccountDeletionActivities({
      accountData: storage.accountData,
      targets: storage.targets,
      flows: storage.flows,
      temporal,
      config,
      assets,
      rumErase: deps.rumErase,
      log,
      clock,
    }),
  };
  // The region's scan queue runs flows too (runFlow); the main queue their slot and status steps.
  return { main, scan: { ...scan, ...flowRuns }, webhooks: createWebhookActivities(webhookDeliveryDeps(deps)) };
}

export type WorkerActivities = ReturnType<typeof buildActivities>;
