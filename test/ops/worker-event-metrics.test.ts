import { createLogger } from '../../infra/logger.ts';
import { newPublicId } from '../../core/ids.ts';
import { createWorkerMetrics } from '../../infra/worker-metrics.ts';
import { siteWindows } from '../../db/clickhouse/rum-alert-queries.ts';
import { createStorage } from '../../db/store/index.ts';
import { smtpMailer, type Mailer } from '../../services/mailer.ts';
import { temporalWebhookDispatch } from '../../services/webhook-dispatch.ts';
import { buildActivities, noScanRunner } from '../../worker/activities.ts';
import { enqueueWebhook } from '../../services/webhook-delivery.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { pingPayload } from '../../core/webhooks/payloads.ts';
import { insertTarget } from '../harness/alerts.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * The worker's metrics of what is not a scan move with the real activities: target runs dispatched and
 * skipped (Postgres), webhook attempts, deliveries and disabled endpoints (a real receiver), e-mails sent and
 * failed (a real SMTP server), and the live-data alert check's duration (ClickHouse).
 */
let api: TestApi;
let receiver: WebhookReceiver;
let clickhouse: IsolatedClickHouse;
const smtp: TestSmtpServer[] = [];
const log = createLogger({ logLevel: 'silent' }, 'worker');

beforeAll(async () => {
  api = await startTestApi();
  receiver = await webhookReceiver();
  clickhouse = await isolatedClickHouse(api.config);
}, 60_000);
afterAll(async () => {
  for (const server of smtp) await server.stop();
  await clickhouse?.drop();
  await receiver?.close();
  await api?.close();
});

const newMetrics = () => createWorkerMetrics({ regions: api.config.regions.available });
async function value(
  metrics: ReturnType<typeof newMetrics>,
  name: string,
  labels: Record<string, string> = {},
): Promise<number> {
  const family = name.replace(/_count$/, '');
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === family);
  if (!metric) throw new Error(`no metric ${family}`);
  const values = metric.values as Array<{
    value: number;
    labels: Record<string, string | number>;
    metricName?: string;
  }>;
  const found = values.find(
    (v) => (v.metricName ?? family) === name && Object.entries(labels).every(([k, l]) => String(v.labels[k]) === l),
  );
  return found?.value ?? 0;
}

/** The worker's activities as the worker process builds them, with these metrics, a mailer of the test's and no scans. */
function workerActivities(metrics: ReturnType<typeof newMetrics>, mailer: Mailer) {
  const storage = createStorage(api.db.knex);
  return buildActivities({
    storage,
    config: api.config,
    temporal: () => api.temporal,
    clock: () => new Date(),
    log,
    mailer,
    metrics,
    runner: noScanRunner,
    rumWindows: (siteIds, minutes, now) => siteWindows(clickhouse.client, clickhouse.database, siteIds, minutes, now),
    webhookDispatch: temporalWebhookDispatch({
      temporal: () => api.temporal,
      webhooks: storage.webhooks,
      taskQueuePrefix: api.config.temporal.taskQueuePrefix,
      log,
    }),
    identity: 'metrics test',
  });
}
/** A mailer whose server is not there: sending fails. */
const unreachableMailer = async () =>
  smtpMailer({ url: `smtp://127.0.0.1:${await freePort()}`, from: api.config.mail.from });

it('counts a scheduled scan dispatched, and a firing for a target that is gone as skipped', async () => {
  const metrics = newMetrics();
  const activities = workerActivities(metrics, await unreachableMailer()).main;
  const { user } = await createTestUser(api, 'pro');
  const target = await insertTarget(api.db.knex, user.id);
  expect(
    await activities.dispatchTargetScan({ targetId: target.id, publicId: newPublicId(new Date()) }),
  ).not.toBeNull();
  await api.db.knex('scan_targets').where({ id: target.id }).update({ is_active: false });
  expect(await activities.dispatchTargetScan({ targetId: target.id, publicId: newPublicId(new Date()) })).toBeNull();
  expect(await value(metrics, 'webperf_target_runs_dispatched_total')).toBe(1);
  expect(await value(metrics, 'webperf_target_runs_skipped_total', { reason: 'inactive' })).toBe(1);
});

it('counts webhook attempts and deliveries by outcome, and an endpoint disabled by 410 Gone', async () => {
  const metrics = newMetrics();
  const storage = createStorage(api.db.knex);
  const { user } = await createTestUser(api, 'pro');
  const deps = { webhooks: storage.webhooks, keys: api.config.keys, allowLoopback: true, clock: () => new Date() };
  const saved = await saveWebhookSettings(deps, user, {
    url: receiver.url,
    headerName: '',
    headerValue: '',
    events: ['scan.completed'],
  });
  expect(saved.status).toBe('saved');
  const activities = workerActivities(metrics, await unreachableMailer()).webhooks;
  const ping = async () =>
    (await enqueueWebhook(storage.webhooks, user.id, 'ping', pingPayload(new Date()), new Date()))!.id;

  receiver.answer([{ status: 200 }]);
  expect((await activities.attemptWebhookDelivery(await ping(), false)).outcome).toBe('succeeded');
  receiver.answer([{ status: 500 }]);
  expect((await activities.attemptWebhookDelivery(await ping(), false)).outcome).toBe('retry');
  receiver.answer([{ status: 410 }]);
  expect((await activities.attemptWebhookDelivery(await ping(), false)).outcome).toBe('gone');

  expect(await value(metrics, 'webperf_webhook_attempts_total', { result: 'succeeded' })).toBe(1);
  expect(await value(metrics, 'webperf_webhook_attempts_total', { result: 'failed' })).toBe(2);
  expect(await value(metrics, 'webperf_webhook_deliveries_total', { outcome: 'succeeded' })).toBe(1);
  // The 500 leaves its delivery pending (retries remain); the 410 ends its own.
  expect(await value(metrics, 'webperf_webhook_deliveries_total', { outcome: 'failed' })).toBe(1);
  expect(await value(metrics, 'webperf_webhook_endpoints_disabled_total')).toBe(1);
});

it('counts e-mails the SMTP server accepted and those it refused, by kind', async () => {
  const metrics = newMetrics();
  const accepting = testSmtpServer(await freePort());
  const refusing = testSmtpServer(await freePort(), { refuseRecipients: true });
  smtp.push(accepting, refusing);
  await accepting.start();
  await refusing.start();
  const mail = { to: 'owner@example.com', subject: 'Alert', text: 'text', html: '<p>text</p>' };
  await metrics
    .countingMailer(smtpMailer({ url: `smtp://127.0.0.1:${accepting.port}`, from: api.config.mail.from }), 'alert')
    .send(mail);
  await expect(
    metrics
      .countingMailer(smtpMailer({ url: `smtp://127.0.0.1:${refusing.port}`, from: api.config.mail.from }), 'rum_alert')
      .send(mail),
  ).rejects.toThrow();
  expect(accepting.messages).toHaveLength(1);
  expect(await value(metrics, 'webperf_emails_total', { kind: 'alert', outcome: 'sent' })).toBe(1);
  expect(await value(metrics, 'webperf_emails_total', { kind: 'alert', outcome: 'failed' })).toBe(0);
  expect(await value(metrics, 'webperf_emails_total', { kind: 'rum_alert', outcome: 'failed' })).toBe(1);
});

it('times each live-data alert check', async () => {
  const metrics = newMetrics();
  const activities = workerActivities(metrics, await unreachableMailer()).main;
  await activities.checkRumAlerts();
  await activities.checkRumAlerts();
  expect(await value(metrics, 'webperf_rum_alert_check_duration_seconds_count')).toBe(2);
});
