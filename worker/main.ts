import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { bundleWorkflowCode, NativeConnection, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import type { FlowRunner } from '../activities/flows/flow-runner.ts';
import type { ScanRunner } from '../activities/scan-runner.ts';
import { systemClock } from '../core/clock.ts';
import { loadConfig, PROJECT_ROOT, requireSmtpUrl } from '../infra/config.ts';
import { HealthState, serveHealth } from '../infra/health.ts';
import { createWorkerMetrics } from '../infra/worker-metrics.ts';
import { registerReadyGauge } from '../infra/ready-metric.ts';
import { probeScanQueue, QUEUE_PROBE_SHARED_MS, sharedPerRegion } from '../infra/temporal-queues.ts';
import { createLogger } from '../infra/logger.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { mainTaskQueue, scanTaskQueue, webhookTaskQueue } from '../core/temporal.ts';
import { createTemporalClient, temporalReachable } from '../infra/temporal-client.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { siteWindows } from '../db/clickhouse/rum-alert-queries.ts';
import { eraseRumRows } from '../db/clickhouse/rum-erase.ts';
import { createKnex } from '../db/knex.ts';
import { createStorage } from '../db/store/index.ts';
import { smtpMailer } from '../services/mailer.ts';
import { directFirstAttempt } from '../services/webhook-direct.ts';
import { temporalWebhookDispatch } from '../services/webhook-dispatch.ts';
import {
  buildActivities,
  noFlowRunner,
  noScanRunner,
  webhookDeliveryDeps,
  type WorkerActivities,
  type WorkerDeps,
} from './activities.ts';
import { flowRunnerFor, scanRunnerFor } from './runners.ts';
import { startSchedulesAndSweepers } from './schedules.ts';

assertNodeVersion();
const config = loadConfig();
const log = createLogger(config, 'worker');
const identity = `worker@${hostname()}:${process.pid}`;
const taskQueue = mainTaskQueue(config.temporal.taskQueuePrefix);
const { role } = config.worker;
/** The main queue, the regions' Lighthouse queues and the webhook queue: `all` serves all three, each its own Workers. */
const servesMain = role === 'all' || role === 'main';
const servesScans = role !== 'webhooks' && config.worker.scanRegions.length > 0;
const servesWebhooks = role === 'all' || role === 'webhooks';

Runtime.install({
  logger: {
    log: (level, message, meta) =>
      log[
        level === 'TRACE'
          ? 'trace'
          : level === 'DEBUG'
            ? 'debug'
            : level === 'INFO'
              ? 'info'
              : level === 'WARN'
                ? 'warn'
                : 'error'
      ]({ meta }, message),
    trace: (message, meta) => log.trace({ meta }, message),
    debug: (message, meta) => log.debug({ meta }, message),
    info: (message, meta) => log.info({ meta }, message),
    warn: (message, meta) => log.warn({ meta }, message),
    error: (message, meta) => log.error({ meta }, message),
  },
  shutdownSignals: [],
  // The SDK's own metrics (task slots, poll latency, workflow task failures, ...) on an operator port of their own.
  ...(config.worker.sdkMetricsPort
    ? {
        telemetryOptions: {
          metrics: { prometheus: { bindAddress: `${config.worker.healthHost}:${config.worker.sdkMetricsPort}` } },
        },
      }
    : {}),
});

// Refused at start rather than at the first alert: a worker that cannot send e-mail is misconfigured.
const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
const knex = createKnex(config.databaseUrl, { min: 0, max: 5 });
const storage = createStorage(knex);
const client = createTemporalClient(config.temporal);
// The live-data alert check reads ClickHouse (one query per window length for every site).
const clickhouse = createClickHouse(config);
let workers: Worker[] = [];
let stopping = false;
const workflowDispatch = temporalWebhookDispatch({
  temporal: () => client,
  webhooks: storage.webhooks,
  taskQueuePrefix: config.temporal.taskQueuePrefix,
  log,
});
/** First webhook attempts sent at once from this process; beyond that, deliveries go straight to workflows. */
const WEBHOOK_DIRECT_IN_FLIGHT = 256;
/** Set once the main queue is served (worker/schedules.ts); a webhooks-only worker has no sweepers. */
let stopSweepers = (): void => undefined;

const health = new HealthState(
  {
    postgres: storage.ping,
    temporal: () => temporalReachable(client),
    worker: async () => {
      if (workers.length === 0) throw new Error('worker is CONNECTING');
      for (const w of workers) if (w.getState() !== 'RUNNING') throw new Error(`worker is ${w.getState()}`);
    },
  },
  log,
);

// Operator metrics on the health port (/metrics): scans by region and outcome, each region's queue as Temporal sees it.
const metrics = createWorkerMetrics({
  regions: config.regions.available,
  probeQueue: sharedPerRegion(QUEUE_PROBE_SHARED_MS, (region) =>
    probeScanQueue(client, config.temporal.namespace, scanTaskQueue(config.temporal.taskQueuePrefix, region)),
  ),
  oldestWaiting: async (region) => {
    const oldest = await storage.scans.oldestQueued(region);
    return oldest ? Math.max(0, (Date.now() - oldest.getTime()) / 1000) : 0;
  },
  webhookBacklog: () => storage.webhooks.pendingCount(),
});
registerReadyGauge(metrics.registry, 'worker', health);

const activityDeps: Omit<WorkerDeps, 'runner' | 'webhookDispatch'> = {
  storage,
  config,
  temporal: () => client,
  clock: systemClock,
  log,
  mailer,
  metrics,
  rumWindows: (siteIds, minutes, now) => siteWindows(clickhouse, config.clickhouse.database, siteIds, minutes, now),
  rumErase: (siteIds) =>
    eraseRumRows(clickhouse, config.clickhouse.database, siteIds, { layout: config.clickhouse.layout }),
  identity,
};
// Events raised here get their first attempt at once from this process; each delivery's workflow is started
// after it (in the background) and carries the retries.
const webhookDispatch = directFirstAttempt(workflowDispatch, {
  ...webhookDeliveryDeps(activityDeps),
  maxInFlight: WEBHOOK_DIRECT_IN_FLIGHT,
});

const healthServer = createServer((req, res) => {
  const respond = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  };
  if (new URL(req.url ?? '/', 'http://x').pathname === '/metrics') {
    metrics.registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
      () => respond(500, { message: 'Server error.' }),
    );
    return;
  }
  serveHealth(health, new URL(req.url ?? '/', 'http://x').pathname, respond)
    .then((handled) => handled || respond(404, { message: 'Not found.' }))
    .catch((error: unknown) => {
      log.error({ err: error }, 'health endpoint failed');
      respond(500, { message: 'Server error.' });
    });
});

async function connectWithRetry(): Promise<NativeConnection | null> {
  for (let attempt = 1; !stopping; attempt++) {
    try {
      return await NativeConnection.connect({ address: config.temporal.address });
    } catch (error) {
      log.warn({ err: error, attempt }, 'Temporal not reachable yet; retrying');
      await sleep(Math.min(5000, 250 * attempt));
    }
  }
  return null;
}

async function main(): Promise<void> {
  await new Promise<void>((ready) => healthServer.listen(config.worker.healthPort, config.worker.healthHost, ready));
  log.info(
    { url: `http://${config.worker.healthHost}:${config.worker.healthPort}` },
    'worker health endpoints listening',
  );

  const connection = await connectWithRetry();
  if (!connection) return;
  if (config.env === 'production' && !config.worker.workflowBundlePath)
    throw new Error('WORKFLOW_BUNDLE_PATH is required in production');
  // Bundled once for both the webhook and the main Worker when no prebuilt bundle is given (development); a
  // scan-only worker runs activities only and needs none.
  const workflowSource: Pick<WorkerOptions, 'workflowBundle'> = {
    workflowBundle: config.worker.workflowBundlePath
      ? { codePath: config.worker.workflowBundlePath }
      : servesMain || servesWebhooks
        ? await bundleWorkflowCode({ workflowsPath: resolve(PROJECT_ROOT, 'workflows/index.ts') })
        : undefined,
  };

  const runner = servesScans ? startLighthouseRunner() : noScanRunner;
  const flowRunner = servesScans ? startFlowRunner() : noFlowRunner;
  const activities = buildActivities({ ...activityDeps, runner, flowRunner, webhookDispatch });

  // Webhook deliveries, workflows and attempts, on their own queue with their own slots: a slow receiver holds
  // at most one activity slot per attempt here (and its account at most ATTEMPTS_IN_FLIGHT_PER_ACCOUNT of them).
  const webhookWorkers = servesWebhooks
    ? [
        await Worker.create({
          connection,
          namespace: config.temporal.namespace,
          taskQueue: webhookTaskQueue(config.temporal.taskQueuePrefix),
          identity,
          activities: activities.webhooks,
          maxConcurrentActivityTaskExecutions: config.worker.webhookSlots,
          // Delivery workflow tasks only schedule an attempt or a timer.
          maxConcurrentWorkflowTaskExecutions: 10,
          shutdownGraceTime: '30 seconds',
          ...workflowSource,
        }),
      ]
    : [];
  workers = [
    ...webhookWorkers,
    ...(servesMain ? await mainWorkers(connection, workflowSource, activities) : []),
    ...(servesScans ? await scanWorkers(connection, activities) : []),
  ];
  log.info(
    {
      role,
      taskQueue: servesMain ? taskQueue : null,
      webhookTaskQueue: servesWebhooks ? webhookTaskQueue(config.temporal.taskQueuePrefix) : null,
      webhookSlots: servesWebhooks ? config.worker.webhookSlots : null,
      scanRegions: servesScans ? config.worker.scanRegions : [],
      identity,
      bundle: config.worker.workflowBundlePath,
    },
    'worker polling',
  );
  try {
    const running = Promise.all(workers.map((w) => w.run()));
    // A signal that arrived while the workers were being created (bundling takes seconds): stop now.
    if (stopping) for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
    await running;
  } finally {
    await connection.close();
  }
}

/** Lighthouse, or recorded runs for tests whose subject is not Lighthouse (SCAN_RUNNER=replay): worker/runners.ts. */
function startLighthouseRunner(): ScanRunner {
  // Throws when a root worker's SCAN_USER cannot run the runner, so the worker does not start.
  const runner = scanRunnerFor(config);
  // The runner started ahead for the next scan goes with us, however we exit (if killed, it goes by itself).
  process.once('exit', () => runner.close());
  return runner;
}

function startFlowRunner(): FlowRunner {
  const flowRunner = flowRunnerFor(config);
  process.once('exit', () => flowRunner.close());
  return flowRunner;
}

/** The main queue, with the schedules and sweepers that go with it. */
async function mainWorkers(
  connection: NativeConnection,
  workflowSource: Pick<WorkerOptions, 'workflowBundle'>,
  activities: WorkerActivities,
): Promise<Worker[]> {
  const main = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue,
    identity,
    activities: activities.main,
    shutdownGraceTime: '30 seconds',
    ...workflowSource,
  });
  stopSweepers = await startSchedulesAndSweepers({
    client,
    taskQueuePrefix: config.temporal.taskQueuePrefix,
    storage,
    workflowDispatch,
    clock: systemClock,
    log,
  });
  return [main];
}

/** Lighthouse: one run at a time per worker process, on each served region's own queue. */
function scanWorkers(connection: NativeConnection, activities: WorkerActivities): Promise<Worker[]> {
  return Promise.all(
    config.worker.scanRegions.map((region) =>
      Worker.create({
        connection,
        namespace: config.temporal.namespace,
        taskQueue: scanTaskQueue(config.temporal.taskQueuePrefix, region),
        identity,
        activities: activities.scan,
        maxConcurrentActivityTaskExecutions: 1,
        // Like the main queue: within the stop grace of ./svc (35 s) and compose (45 s). A Lighthouse run cut
        // short by it is not lost: its heartbeat times out and Temporal retries it on another worker.
        shutdownGraceTime: '30 seconds',
      }),
    ),
  );
}

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight tasks');
  health.startDraining();
  for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
}

process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

main()
  .then(async () => {
    // First attempts under way end within their request timeout, and their workflows are started (each start
    // gives up after 5 s); any cut short are the sweeper's once their claim has run out.
    await Promise.race([webhookDispatch.idle(), sleep(20_000)]);
    stopSweepers();
    healthServer.close();
    mailer.close();
    await Promise.allSettled([knex.destroy(), client.connection.close(), clickhouse.close()]);
    log.info('worker stopped');
    process.exit(0);
  })
  .catch(async (error: unknown) => {
    log.fatal({ err: error }, 'worker failed');
    healthServer.close();
    await Promise.allSettled([knex.destroy(), client.connection.close()]);
    process.exit(1);
  });
