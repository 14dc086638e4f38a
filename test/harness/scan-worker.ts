import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createAlertActivities } from '../../activities/alerts.ts';
import type { ScanRunner } from '../../activities/scan-runner.ts';
import { createScanActivities } from '../../activities/scan.ts';
import { createScanSlotActivities } from '../../activities/scan-slots.ts';
import { createTargetActivities } from '../../activities/targets.ts';
import { createTargetStore } from '../../db/store/targets.ts';
import { createAlertStore } from '../../db/store/alerts.ts';
import { createScanStore } from '../../db/store/scans.ts';
import { createUserStore } from '../../db/store/users.ts';
import { requireSmtpUrl } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { mainTaskQueue, scanDispatcherWorkflowId, scanTaskQueue, webhookTaskQueue } from '../../core/temporal.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { createWebhookActivities } from '../../activities/webhooks.ts';
import { createWebhookStore } from '../../db/store/webhooks.ts';
import type { HostLookup } from '../../infra/scan-target.ts';
import { temporalWebhookDispatch, type WebhookDispatch } from '../../services/webhook-dispatch.ts';
import type { TestApi } from './api.ts';
import { harnessInfo } from './shared.ts';
import { watchLogs } from './log-sink.ts';

export interface InProcessWorker {
  /** Everything the scan activities logged, as JSON lines. */
  logs(): string;
  /** Starts webhook delivery workflows as the worker does (with the test's retry schedule). */
  webhookDispatch: WebhookDispatch;
  close(): Promise<void>;
}

/**
 * A worker in the test's own process, serving the API's task queues like worker/main.ts does (scan
 * workflows, slots, alerts and their e-mail through the API's SMTP_URL, every region's Lighthouse queue, and
 * the webhook queue),
 * with the runner the test hands it.
 */
export interface WorkerWebhookOptions {
  /** Waits between delivery attempts (ms); the documented schedule when not given. */
  schedule?: number[];
  lookup?: HostLookup;
  timeoutMs?: number;
}

export async function startInProcessWorker(api: TestApi, options: { runner: ScanRunner; attemptLimitMs?: number; webhooks?: WorkerWebhookOptions }): Promise<InProcessWorker> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process (the SDK logs failed attempts as warnings; the tests look at them).
  }
  let logs = '';
  const log = createLogger({ logLevel: 'info' }, 'worker', { write: (line: string) => void (logs += line) });
  const logSink = watchLogs('in-process worker', () => logs);
  const { config } = api;
  const prefix = config.temporal.taskQueuePrefix;
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const webhooks = createWebhookStore(api.db.knex);
  const webhookDispatch = temporalWebhookDispatch({ temporal: () => api.temporal, webhooks, taskQueuePrefix: prefix, log, schedule: options.webhooks?.schedule });
  const scanActivities = createScanActivities({ scans: createScanStore(api.db.knex), config, clock: api.clock.read, log, runner: options.runner, attemptLimitMs: options.attemptLimitMs, webhookDispatch });
  const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
  const alertActivities = createAlertActivities({ alerts: createAlertStore(api.db.knex), mailer, baseUrl: config.baseUrl, clock: api.clock.read, log, webhookDispatch });
  const webhookActivities = createWebhookActivities({
    webhooks,
    users: createUserStore(api.db.knex),
    mailer,
    keys: config.keys,
    allowLoopback: config.callbacksAllowLoopback,
    baseUrl: config.baseUrl,
    clock: api.clock.read,
    lookup: options.webhooks?.lookup,
    timeoutMs: options.webhooks?.timeoutMs,
    log,
  });
  const common = { connection, namespace: config.temporal.namespace, shutdownGraceTime: '2 seconds' } as const;
  const workers = [
    await Worker.create({
      ...common,
      taskQueue: mainTaskQueue(prefix),
      workflowBundle: { codePath: harnessInfo().workflowBundlePath },
      activities: {
        ...scanActivities,
        ...createScanSlotActivities({ scans: createScanStore(api.db.knex), users: createUserStore(api.db.knex), temporal: () => api.temporal, config }),
        ...createTargetActivities({ targets: createTargetStore(api.db.knex), users: createUserStore(api.db.knex), temporal: () => api.temporal, config, clock: api.clock.read, log }),
        ...alertActivities,
      },
    }),
    // Webhook deliveries on their own queue, as worker/main.ts serves it.
    await Worker.create({ ...common, taskQueue: webhookTaskQueue(prefix), workflowBundle: { codePath: harnessInfo().workflowBundlePath }, activities: webhookActivities }),
    ...(await Promise.all(config.regions.available.map((region) => Worker.create({ ...common, taskQueue: scanTaskQueue(prefix, region), activities: scanActivities, maxConcurrentActivityTaskExecutions: 1 })))),
  ];
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    logs: () => logs,
    webhookDispatch,
    close: async () => {
      for (const region of config.regions.available) {
        await api.temporal.workflow.getHandle(scanDispatcherWorkflowId(prefix, region)).terminate('test finished').catch(() => undefined);
      }
      for (const worker of workers) worker.shutdown();
      await running;
      mailer.close();
      await connection.close();
      logSink.check();
    },
  };
}
