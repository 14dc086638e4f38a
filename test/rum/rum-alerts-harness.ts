import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { requireSmtpUrl } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import type { RumMetric } from '../../core/rum/metrics.ts';
import { newRumSitePublicId, type RumSite } from '../../core/rum/site.ts';
import { mainTaskQueue, webhookTaskQueue } from '../../core/temporal.ts';
import type { ClickHouseClient } from '../../db/clickhouse/client.ts';
import { siteWindows } from '../../db/clickhouse/rum-alert-queries.ts';
import { createStorage } from '../../db/store/index.ts';
import { createRumSiteStore } from '../../db/store/rum-sites.ts';
import { createWorkerMetrics } from '../../infra/worker-metrics.ts';
import { smtpMailer } from '../../services/mailer.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { buildActivities, noScanRunner } from '../../worker/activities.ts';
import type { TestApi } from '../harness/api.ts';
import type { IsolatedClickHouse } from '../harness/isolated.ts';
import { harnessInfo } from '../harness/shared.ts';
import { watchLogs } from '../harness/log-sink.ts';

/**
 * A worker in the test's process serving the API's main and webhook queues with the activities the worker process
 * builds (worker/activities.ts): the live-data alert check and its e-mails (the API's SMTP_URL, its clock)
 * against the test's ClickHouse database, and webhook delivery (fast retries) to a real receiver. It runs no
 * scans (no Lighthouse runner).
 */
export async function startRumAlertWorker(
  api: TestApi,
  clickhouse: IsolatedClickHouse,
): Promise<{ logs(): string; close(): Promise<void> }> {
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR') });
  } catch {
    // Installed already in this process.
  }
  let logs = '';
  const log = createLogger({ logLevel: 'info' }, 'worker', { write: (line: string) => void (logs += line) });
  const logSink = watchLogs('in-process live-data alert worker', () => logs);
  const { config } = api;
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const storage = createStorage(api.db.knex);
  const webhookDispatch = temporalWebhookDispatch({
    temporal: () => api.temporal,
    webhooks: storage.webhooks,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    log,
    schedule: [200, 500, 1000],
  });
  const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
  const activities = buildActivities({
    storage,
    config,
    temporal: () => api.temporal,
    clock: api.clock.read,
    log,
    mailer,
    metrics: createWorkerMetrics({ regions: config.regions.available }),
    runner: noScanRunner,
    rumWindows: (siteIds, minutes, now) => siteWindows(clickhouse.client, clickhouse.database, siteIds, minutes, now),
    webhookDispatch,
    identity: 'in-process live-data alert worker',
  });
  const common = {
    connection,
    namespace: config.temporal.namespace,
    workflowBundle: { codePath: harnessInfo().workflowBundlePath },
    shutdownGraceTime: '2 seconds',
  } as const;
  const main = await Worker.create({
    ...common,
    taskQueue: mainTaskQueue(config.temporal.taskQueuePrefix),
    activities: activities.main,
  });
  // Webhook deliveries on their own queue, as worker/main.ts serves it.
  const deliveries = await Worker.create({
    ...common,
    taskQueue: webhookTaskQueue(config.temporal.taskQueuePrefix),
    activities: activities.webhooks,
  });
  const workers = [main, deliveries];
  const running = Promise.all(workers.map((worker) => worker.run()));
  return {
    logs: () => logs,
    close: async () => {
      for (const worker of workers) worker.shutdown();
      await running;
      mailer.close();
      await connection.close();
      logSink.check();
    },
  };
}

let siteCounter = 0;

/** A live-data site row of `userId`, through the site store. */
export async function insertSite(api: TestApi, userId: number): Promise<RumSite> {
  siteCounter += 1;
  return createRumSiteStore(api.db.knex).insert({
    userId,
    publicId: newRumSitePublicId(),
    domain: `live${siteCounter}-${Date.now().toString(36)}.example`,
    sampleRate: 100,
    createdAt: new Date(),
  });
}

export interface MetricRow {
  siteId: number;
  metric: RumMetric;
  value: number;
  at: Date;
  /** Same page view and metric id as another row: a resend or replay of it. */
  pageView?: string;
  metricId?: string;
  seq?: number;
  /** The sender network (rum_metrics.source); each row its own by default. */
  source?: number;
}

let rowCounter = 0;
const clickhouseTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

/** Rows written straight into rum_metrics, every column given (as the ingest service writes them). */
export async function insertMetrics(client: ClickHouseClient, rows: readonly MetricRow[]): Promise<void> {
  const values = rows.map((row) => {
    rowCounter += 1;
    return {
      site_id: row.siteId,
      ts: clickhouseTime(row.at),
      page_view_id: row.pageView ?? `pv${rowCounter}`,
      seq: row.seq ?? 1,
      metric_id: row.metricId ?? `v5-${rowCounter}`,
      metric: row.metric,
      value: row.value,
      device: 'mobile',
      navigation: 'navigate',
      path: '/',
      sample_rate: 100,
      attr_target: '',
      attr_url: '',
      attr_type: '',
      source: row.source ?? rowCounter,
      keep_one_in: 1,
    };
  });
  await client.insert({ table: 'rum_metrics', values, format: 'JSONEachRow' });
}
