import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { ScanRunner } from '../../activities/scan-runner.ts';
import type { FlowRunner } from '../../activities/flows/flow-runner.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { siteWindows } from '../../db/clickhouse/rum-alert-queries.ts';
import { eraseRumRows } from '../../db/clickhouse/rum-erase.ts';
import { createStorage } from '../../db/store/index.ts';
import { requireSmtpUrl } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { createWorkerMetrics } from '../../infra/worker-metrics.ts';
import { mainTaskQueue, scanDispatcherWorkflowId, scanTaskQueue, webhookTaskQueue } from '../../core/temporal.ts';
import { smtpMailer } from '../../services/mailer.ts';
import type { HostLookup } from '../../infra/scan-target.ts';
import { temporalWebhookDispatch, type WebhookDispatch } from '../../services/webhook-dispatch.ts';
import { buildActivities, noScanRunner } from '../../worker/activities.ts';
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
 * A worker in the test's own process, serving the API's task queues with the activities the worker process builds
 * (worker/activities.ts): the main queue, every region's Lighthouse queue and the webhook queue, e-mail through
 * the API's SMTP_URL, with the runner the test hands it (none: the test runs no scans). Webhook deliveries are started as workflows straight
 * away (no direct first attempt), with the test's retry schedule.
 */
export interface WorkerWebhookOptions {
  /** Waits between delivery attempts (ms); the documented schedule when not given. */
  schedule?: number[];
  lookup?: HostLookup;
  timeoutMs?: number;
}

export async function startInProcessWorker(
  api: TestApi,
  options: {
    /** `noScanRunner` (worker/activities.ts) when not given: a test that scans nothing names no runner. */
    runner?: ScanRunner;
    flowRunner?: FlowRunner;
    attemptLimitMs?: number;
    webhooks?: WorkerWebhookOptions;
    /** Scans each region's queue runs at once (a worker process runs one); 1 when not given. */
    scanSlots?: number;
  } = {},
): Promise<InProcessWorker> {
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
  const storage = createStorage(api.db.knex);
  const webhookDispatch = temporalWebhookDispatch({
    temporal: () => api.temporal,
    webhooks: storage.webhooks,
    taskQueuePrefix: prefix,
    log,
    schedule: options.webhooks?.schedule,
  });
  const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
  // Reached only by the live-data alert check, which no schedule starts here, and an account's deletion.
  const clickhouse = createClickHouse(config);
  const activities = buildActivities({
    storage,
    config,
    temporal: () => api.temporal,
    clock: api.clock.read,
    log,
    mailer,
    metrics: createWorkerMetrics({ regions: config.regions.available }),
    runner: options.runner ?? noScanRunner,
    flowRunner: options.flowRunner,
    rumWindows: (siteIds, minutes, now) => siteWindows(clickhouse, config.clickhouse.database, siteIds, minutes, now),
    rumErase: (siteIds) => eraseRumRows(clickhouse, config.clickhouse.database, siteIds),
    webhookDispatch,
    identity: 'in-process worker',
    attemptLimitMs: options.attemptLimitMs,
    webhookLookup: options.webhooks?.lookup,
    webhookTimeoutMs: options.webhooks?.timeoutMs,
  });
  const common = { connection, namespace: config.temporal.namespace, shutdownGraceTime: '2 seconds' } as const;
  const workers = [
    await Worker.create({
      ...common,
      taskQueue: mainTaskQueue(prefix),
      workflowBundle: { codePath: harnessInfo().workflowBundlePath },
      activities: activities.main,
    }),
    // Webhook deliveries on their own queue, as worker/main.ts serves it.
    await Worker.create({
      ...common,
      taskQueue: webhookTaskQueue(prefix),
      workflowBundle: { codePath: harnessInfo().workflowBundlePath },
      activities: activities.webhooks,
    }),
    ...(await Promise.all(
      config.regions.available.map((region) =>
        Worker.create({
          ...common,
          taskQueue: scanTaskQueue(prefix, region),
          activities: activities.scan,
          maxConcurrentActivityTaskExecutions: options.scanSlots ?? 1,
        }),
      ),
    )),
  ];
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    logs: () => logs,
    webhookDispatch,
    close: async () => {
      for (const region of config.regions.available) {
        await api.temporal.workflow
          .getHandle(scanDispatcherWorkflowId(prefix, region))
          .terminate('test finished')
          .catch(() => undefined);
      }
      for (const worker of workers) worker.shutdown();
      await running;
      mailer.close();
      await clickhouse.close();
      await connection.close();
      logSink.check();
    },
  };
}
