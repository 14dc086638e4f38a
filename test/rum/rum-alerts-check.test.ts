import { ScheduleOverlapPolicy } from '@temporalio/client';
import { Webhook } from 'standardwebhooks';
import { exactQuantile } from '../../core/rum/metrics.ts';
import { mainTaskQueue, rumAlertCheckScheduleId, rumAlertEmailWorkflowId } from '../../core/temporal.ts';
import { ensureRumAlertCheckSchedule } from '../../infra/temporal-client.ts';
import { createStorage } from '../../db/store/index.ts';
import type { RumAlertCheckResult } from '../../core/rum/alert-check-result.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import type { EmailRetry } from '../../workflows/alert-emails.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort, isolatedClickHouse, uniqueName, type IsolatedClickHouse } from '../harness/isolated.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { waitUntil } from '../../stack/proc.ts';
import { insertMetrics, insertSite, startRumAlertWorker } from './rum-alerts-harness.ts';

/**
 * The live-data alert check end to end: configurations made through the API, measurements written straight
 * into a real ClickHouse database, the check workflow on the real Temporal server (the schedule's workflow,
 * started by the test at the moments the schedule would, with the test's clock: every check is 5 minutes after
 * the one before), webhooks through the real delivery path to a real receiver, e-mails to a real SMTP server.
 */

const FAST_RETRY: EmailRetry = { initialInterval: '200 ms', maximumInterval: '1 second', giveUpAfter: '10 minutes' };
const T0 = new Date('2026-11-23T10:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);
const iso = (minutes: number) => at(minutes).toISOString().replace('.000Z', '+00:00');

let api: TestApi;
let clickhouse: IsolatedClickHouse;
let smtp: TestSmtpServer;
let receiver: WebhookReceiver;
let worker: Awaited<ReturnType<typeof startRumAlertWorker>>;
let clock: TestClock;

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  clock = new TestClock(T0);
  api = await startTestApi({
    clock,
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Alerts <alerts@perf.example.test>' },
  });
  clickhouse = await isolatedClickHouse(api.config);
  worker = await startRumAlertWorker(api, clickhouse);
  receiver = await webhookReceiver();
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await worker?.close();
  await clickhouse?.drop();
  await api?.close();
  await smtp?.stop();
});

const queue = () => mainTaskQueue(api.config.temporal.taskQueuePrefix);

/** The check as the schedule runs it, `minutes` after T0. */
async function checkAt(minutes: number): Promise<RumAlertCheckResult> {
  clock.set(at(minutes));
  return (await api.temporal.workflow.execute('rumAlertCheckWorkflow', {
    taskQueue: queue(),
    workflowId: uniqueName('rum-check'),
    args: [{ emailRetry: FAST_RETRY }],
  })) as RumAlertCheckResult;
}

const alertRow = async (id: number) =>
  (await api.db.knex('rum_alerts').where({ id }).first()) as Record<string, unknown>;
const emailResult = (alertId: number, change: string, minutes: number) =>
  api.temporal.workflow.getHandle(rumAlertEmailWorkflowId(queue(), alertId, change, at(minutes).getTime())).result();
const p75 = (values: number[]) =>
  exactQuantile(
    [...values].sort((a, b) => a - b),
    0.75,
  )!;

it('auto mode: triggers after consecutive_threshold poor checks and not before, resolves after as many good ones, with both webhooks and e-mails', async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const saved = await saveWebhookSettings(
    {
      webhooks: createStorage(api.db.knex).webhooks,
      keys: api.config.keys,
      allowLoopback: true,
      clock: () => new Date(),
    },
    user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['rum.alert.triggered', 'rum.alert.resolved'] },
  );
  if (saved.status !== 'saved') throw new Error('settings not saved');
  const verify = (index: number) =>
    new Webhook(saved.settings.secret).verify(
      receiver.received[index]!.body,
      receiver.received[index]!.headers as Record<string, string>,
    ) as Record<string, unknown>;
  const site = await insertSite(api, user.id);
  const created = await call(api, `/rum/sites/${site.id}/alerts`, {
    token,
    method: 'POST',
    body: { title: 'Core Web Vitals', mode: 'auto', window_minutes: 5, min_samples: 5, consecutive_threshold: 2 },
  });
  expect(created.status).toBe(201);
  const alertId = (created.body.data as { id: number }).id;

  // First poor window: LCP p75 above 4000 ms, one value resent with a higher seq (it counts once, with its last value).
  const first = [3000, 4200, 4500, 5000, 5200, 6000];
  await insertMetrics(clickhouse.client, [
    ...first.map((value) => ({ siteId: site.id, metric: 'LCP' as const, value, at: at(3) })),
    { siteId: site.id, metric: 'LCP', value: 1000, at: at(2), pageView: 'pv-resent', metricId: 'lcp-1', seq: 1 },
    { siteId: site.id, metric: 'LCP', value: 4800, at: at(3), pageView: 'pv-resent', metricId: 'lcp-1', seq: 2 },
    { siteId: site.id, metric: 'LCP', value: 4800, at: at(3), pageView: 'pv-resent', metricId: 'lcp-1', seq: 2 },
  ]);
  const once = await checkAt(5);
  expect(once.transitions).toEqual([]);
  expect(await alertRow(alertId)).toMatchObject({
    status: 'active',
    streak: 1,
    last_metric: 'LCP',
    last_p75: p75([...first, 4800]),
    last_samples: 7,
  });
  // The same check again (an activity retried after its commit): nothing counts twice.
  expect((await checkAt(5)).recorded).toBe(0);
  expect(await alertRow(alertId)).toMatchObject({ streak: 1 });

  const second = [4100, 4300, 4700, 5000, 5100];
  await insertMetrics(
    clickhouse.client,
    second.map((value) => ({ siteId: site.id, metric: 'LCP' as const, value, at: at(8) })),
  );
  const triggering = await checkAt(10);
  expect(triggering.transitions).toEqual([{ alertId, change: 'triggered' }]);
  await receiver.waitFor(1);
  expect(verify(0)).toEqual({
    event: 'rum.alert.triggered',
    alert_name: 'Core Web Vitals',
    domain: site.domain,
    metric: 'LCP',
    p75: p75(second),
    threshold: 4000,
    unit: 'ms',
    samples: 5,
    window_minutes: 5,
    triggered_at: iso(10),
    rum_dashboard_url: `${api.config.baseUrl}/live/${site.id}`,
  });
  expect(await emailResult(alertId, 'triggered', 10)).toBe('sent');
  const mail = smtp.messages.filter((m) => m.to.includes(user.email)).at(-1)!;
  expect(mail.subject).toBe(`[Live data] LCP p75 above 4,000 ms – ${site.domain}`);
  expect(mail.text).toContain(
    `is ${p75(second).toLocaleString('en-GB')} ms, above its threshold of 4,000 ms (5 samples).`,
  );
  expect(mail.text).toContain(`${api.config.baseUrl}/live/${site.id}`);
  const listed = await call(api, `/rum/sites/${site.id}/alerts`, { token });
  expect(listed.body.data).toEqual([
    {
      id: alertId,
      title: 'Core Web Vitals',
      mode: 'auto',
      metric: null,
      threshold: null,
      window_minutes: 5,
      min_samples: 5,
      consecutive_threshold: 2,
      status: 'triggered',
      emailed_at: iso(10),
      resolved_at: null,
      created_at: iso(0),
    },
  ]);

  // One good window: not resolved yet. A window without samples changes nothing. A second good one resolves.
  await insertMetrics(
    clickhouse.client,
    [1000, 1200, 1500, 2000, 2100].map((value) => ({ siteId: site.id, metric: 'LCP' as const, value, at: at(13) })),
  );
  expect((await checkAt(15)).transitions).toEqual([]);
  expect((await checkAt(20)).transitions).toEqual([]);
  expect(await alertRow(alertId)).toMatchObject({ status: 'triggered', streak: 1 });
  const good = [900, 1100, 1300, 1800, 2500];
  await insertMetrics(
    clickhouse.client,
    good.map((value) => ({ siteId: site.id, metric: 'LCP' as const, value, at: at(23) })),
  );
  expect((await checkAt(25)).transitions).toEqual([{ alertId, change: 'resolved' }]);
  await receiver.waitFor(2);
  const resolved = verify(1);
  expect(resolved).toEqual({
    event: 'rum.alert.resolved',
    alert_name: 'Core Web Vitals',
    domain: site.domain,
    metric: 'LCP',
    p75: p75(good),
    threshold: 4000,
    unit: 'ms',
    samples: 5,
    window_minutes: 5,
    resolved_at: iso(25),
    rum_dashboard_url: `${api.config.baseUrl}/live/${site.id}`,
  });
  expect(await emailResult(alertId, 'resolved', 25)).toBe('sent');
  expect(smtp.messages.filter((m) => m.to.includes(user.email)).at(-1)!.subject).toBe(
    `[Resolved] LCP p75 back at or below 4,000 ms – ${site.domain}`,
  );
  expect(await alertRow(alertId)).toMatchObject({
    status: 'resolved',
    resolved_at: at(25),
    resolved_emailed_at: at(25),
    emailed_at: at(10),
  });
  expect(receiver.received).toHaveLength(2);
});

it('manual mode: one metric against its threshold, judged only with min_samples samples; one query per window length for every site', async () => {
  const { user, token } = await createTestUser(api, 'starter');
  await api.db.knex('users').where({ id: user.id }).update({ locale: 'de' });
  const site = await insertSite(api, user.id);
  const other = await insertSite(api, user.id);
  const create = (siteId: number, body: Record<string, unknown>) =>
    call(api, `/rum/sites/${siteId}/alerts`, { token, method: 'POST', body });
  const inp = (
    await create(site.id, {
      title: 'INP',
      mode: 'manual',
      metric: 'INP',
      threshold: 300,
      window_minutes: 5,
      min_samples: 10,
      consecutive_threshold: 1,
    })
  ).body.data as { id: number };
  await create(other.id, {
    title: 'Hourly',
    mode: 'auto',
    window_minutes: 60,
    min_samples: 1,
    consecutive_threshold: 1,
  });

  // Nine poor INP samples, and plenty of poor LCP, which a manual INP alert does not watch.
  await insertMetrics(clickhouse.client, [
    ...Array.from({ length: 9 }, () => ({ siteId: site.id, metric: 'INP' as const, value: 800, at: at(28) })),
    ...Array.from({ length: 30 }, () => ({ siteId: site.id, metric: 'LCP' as const, value: 9000, at: at(28) })),
  ]);
  const short = await checkAt(30);
  expect(short.transitions.filter((t) => t.alertId === inp.id)).toEqual([]);
  expect(short.queries).toBe(2);
  expect(await alertRow(inp.id)).toMatchObject({ status: 'active', streak: 0, last_metric: null });

  await insertMetrics(
    clickhouse.client,
    Array.from({ length: 10 }, (_, i) => ({
      siteId: site.id,
      metric: 'INP' as const,
      value: 290 + i * 10,
      at: at(33),
    })),
  );
  const enough = await checkAt(35);
  expect(enough.transitions).toContainEqual({ alertId: inp.id, change: 'triggered' });
  expect(enough.queries).toBe(2);
  expect(await emailResult(inp.id, 'triggered', 35)).toBe('sent');
  const mail = smtp.messages.filter((m) => m.to.includes(user.email)).at(-1)!;
  expect(mail.subject).toBe(`[Live-Daten] INP p75 über 300 ms – ${site.domain}`);
  expect(mail.text).toContain('Das 75. Perzentil von INP der letzten 5 Minuten beträgt 360 ms');
  expect(await alertRow(inp.id)).toMatchObject({
    status: 'triggered',
    triggered_metric: 'INP',
    last_p75: 360,
    last_samples: 10,
    emailed_at: at(35),
  });
});

it("a downgraded owner's configurations and inactive sites are not checked", async () => {
  const { user, token } = await createTestUser(api, 'starter');
  const site = await insertSite(api, user.id);
  const created = (
    await call(api, `/rum/sites/${site.id}/alerts`, {
      token,
      method: 'POST',
      body: { title: 'x', mode: 'auto', window_minutes: 5, min_samples: 1, consecutive_threshold: 1 },
    })
  ).body.data as { id: number };
  await api.db.knex('users').where({ id: user.id }).update({ plan: 'free' });
  await insertMetrics(clickhouse.client, [{ siteId: site.id, metric: 'CLS', value: 0.9, at: at(38) }]);
  expect((await checkAt(40)).transitions).not.toContainEqual({ alertId: created.id, change: 'triggered' });
  expect(await alertRow(created.id)).toMatchObject({ status: 'active', last_checked_at: null });
  await api.db.knex('users').where({ id: user.id }).update({ plan: 'starter' });
  await api.db.knex('rum_sites').where({ id: site.id }).update({ active: false });
  await insertMetrics(clickhouse.client, [{ siteId: site.id, metric: 'CLS', value: 0.9, at: at(43) }]);
  await checkAt(45);
  expect(await alertRow(created.id)).toMatchObject({ status: 'active', last_checked_at: null });
});

it('the check runs from one schedule every 5 minutes that skips overlapping runs', async () => {
  const prefix = uniqueName('rumsched');
  const { scheduleId, created } = await ensureRumAlertCheckSchedule(api.temporal, prefix);
  try {
    expect(created).toBe(true);
    expect(scheduleId).toBe(rumAlertCheckScheduleId(prefix));
    const described = await api.temporal.schedule.getHandle(scheduleId).describe();
    expect((described.spec.intervals ?? []).map((interval) => interval.every)).toEqual([300_000]);
    expect(described.policies.overlap).toBe(ScheduleOverlapPolicy.SKIP);
    expect(described.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'rumAlertCheckWorkflow',
      taskQueue: mainTaskQueue(prefix),
    });
    // A second start (another worker, a restart) keeps the one schedule.
    expect((await ensureRumAlertCheckSchedule(api.temporal, prefix)).created).toBe(false);
  } finally {
    await api.temporal.schedule.getHandle(scheduleId).delete();
  }
});

it('keeps the transition while SMTP is down and sends its e-mail once the server is back (Temporal retries)', async () => {
  const down = testSmtpServer(await freePort());
  const otherClock = new TestClock(T0);
  const otherApi = await startTestApi({ clock: otherClock, env: { SMTP_URL: `smtp://127.0.0.1:${down.port}` } });
  const otherWorker = await startRumAlertWorker(otherApi, clickhouse);
  try {
    const { user, token } = await createTestUser(otherApi, 'starter');
    const site = await insertSite(otherApi, user.id);
    const { id } = (
      await call(otherApi, `/rum/sites/${site.id}/alerts`, {
        token,
        method: 'POST',
        body: {
          title: 'TTFB',
          mode: 'manual',
          metric: 'TTFB',
          threshold: 800,
          window_minutes: 5,
          min_samples: 1,
          consecutive_threshold: 1,
        },
      })
    ).body.data as { id: number };
    // Five values from five sender networks: the fewest an alert is judged on (RUM_ALERT_MIN_SOURCES).
    await insertMetrics(
      clickhouse.client,
      Array.from({ length: 5 }, () => ({ siteId: site.id, metric: 'TTFB' as const, value: 2000, at: at(48) })),
    );
    otherClock.set(at(50));
    const otherQueue = mainTaskQueue(otherApi.config.temporal.taskQueuePrefix);
    const result = (await otherApi.temporal.workflow.execute('rumAlertCheckWorkflow', {
      taskQueue: otherQueue,
      workflowId: uniqueName('rum-check'),
      args: [{ emailRetry: FAST_RETRY }],
    })) as RumAlertCheckResult;
    expect(result.transitions).toEqual([{ alertId: id, change: 'triggered' }]);
    // The alert is triggered at once, whatever the mail server does.
    expect(await otherApi.db.knex('rum_alerts').where({ id }).first()).toMatchObject({
      status: 'triggered',
      emailed_at: null,
    });
    const email = otherApi.temporal.workflow.getHandle(
      rumAlertEmailWorkflowId(otherQueue, id, 'triggered', at(50).getTime()),
    );
    await waitUntil(
      'a failed e-mail attempt',
      async () => ((await email.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
      60_000,
      100,
    );
    expect(otherWorker.logs()).toContain('live-data alert e-mail not sent');
    await down.start();
    expect(await email.result()).toBe('sent');
    expect(down.messages.map((m) => m.subject)).toEqual([`[Live data] TTFB p75 above 800 ms – ${site.domain}`]);
    expect(await otherApi.db.knex('rum_alerts').where({ id }).first()).toMatchObject({
      status: 'triggered',
      emailed_at: at(50),
    });
  } finally {
    await otherWorker.close();
    await otherApi.close();
    await down.stop();
  }
});

it('one sender network flooding poor values cannot fire an alert; poor values from many networks do', async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const [alone, mixed] = [await insertSite(api, user.id), await insertSite(api, user.id)];
  const alertIds: number[] = [];
  for (const site of [alone, mixed]) {
    const created = await call(api, `/rum/sites/${site.id}/alerts`, {
      token,
      method: 'POST',
      body: { title: 'Forgery', mode: 'auto', window_minutes: 5, min_samples: 5, consecutive_threshold: 1 },
    });
    expect(created.status).toBe(201);
    alertIds.push((created.body.data as { id: number }).id);
  }
  const [aloneAlert, mixedAlert] = alertIds as [number, number];
  const flood = (siteId: number, minute: number) =>
    Array.from({ length: 500 }, () => ({ siteId, metric: 'LCP' as const, value: 9000, at: at(minute), source: 77 }));
  const genuine = (siteId: number, minute: number, value: number, count: number) =>
    Array.from({ length: count }, () => ({ siteId, metric: 'LCP' as const, value, at: at(minute) }));

  // `alone`: 500 poor values, all from one network: not enough distinct sources to judge at all.
  // `mixed`: the same flood beside 20 good values from 20 networks: the flood counts 5 values, p75 stays good.
  await insertMetrics(clickhouse.client, [
    ...flood(alone.id, 103),
    ...flood(mixed.id, 103),
    ...genuine(mixed.id, 103, 1500, 20),
  ]);
  expect((await checkAt(105)).transitions.filter((t) => alertIds.includes(t.alertId))).toEqual([]);
  expect(await alertRow(aloneAlert)).toMatchObject({ status: 'active', last_samples: null });
  expect(await alertRow(mixedAlert)).toMatchObject({
    status: 'active',
    last_metric: 'LCP',
    last_p75: 1500,
    last_samples: 25,
  });

  // Poor values from 30 distinct networks beside the 20 good ones: a real regression fires.
  await insertMetrics(clickhouse.client, [...genuine(mixed.id, 108, 1500, 20), ...genuine(mixed.id, 108, 6000, 30)]);
  expect((await checkAt(110)).transitions.filter((t) => alertIds.includes(t.alertId))).toEqual([
    { alertId: mixedAlert, change: 'triggered' },
  ]);
  expect(await alertRow(mixedAlert)).toMatchObject({ status: 'triggered', last_p75: 6000, last_samples: 50 });
});
