import type { SlackMessage } from '../../core/alert-destinations/slack.ts';
import type { TeamsMessage } from '../../core/alert-destinations/teams.ts';
import { formatNumber } from '../../core/i18n/locale.ts';
import { exactQuantile } from '../../core/rum/metrics.ts';
import { mainTaskQueue } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import { addAlertDestination, type AlertDestinationDeps } from '../../services/alert-destinations.ts';
import type { RumAlertCheckResult } from '../../core/rum/alert-check-result.ts';
import type { EmailRetry } from '../../workflows/alert-emails.ts';
import { insertTarget } from '../harness/alerts.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort, isolatedClickHouse, uniqueName, type IsolatedClickHouse } from '../harness/isolated.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { insertMetrics, insertSite, startRumAlertWorker } from './rum-alerts-harness.ts';

/**
 * Live-data alerts to Slack and Teams: the check workflow on the real Temporal server over measurements in a
 * real ClickHouse database, the outbox rows written in its transaction, delivered to real receivers. A live-data
 * alert has no target, so it goes to the account-wide destinations only.
 */

const FAST_RETRY: EmailRetry = { initialInterval: '200 ms', maximumInterval: '1 second', giveUpAfter: '10 minutes' };
const T0 = new Date('2026-11-24T10:00:00Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let api: TestApi;
let clickhouse: IsolatedClickHouse;
let smtp: TestSmtpServer;
let worker: Awaited<ReturnType<typeof startRumAlertWorker>>;
let clock: TestClock;
let slack: WebhookReceiver;
let teams: WebhookReceiver;
let targetTeams: WebhookReceiver;

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
  slack = await webhookReceiver('/services/T1/B1/rum');
  teams = await webhookReceiver('/webhookb2/rum');
  targetTeams = await webhookReceiver('/webhookb2/target-only');
}, 60_000);
afterAll(async () => {
  await slack?.close();
  await teams?.close();
  await targetTeams?.close();
  await worker?.close();
  await clickhouse?.drop();
  await api?.close();
  await smtp?.stop();
});

async function checkAt(minutes: number): Promise<RumAlertCheckResult> {
  clock.set(at(minutes));
  return (await api.temporal.workflow.execute('rumAlertCheckWorkflow', {
    taskQueue: mainTaskQueue(api.config.temporal.taskQueuePrefix),
    workflowId: uniqueName('rum-check'),
    args: [{ emailRetry: FAST_RETRY }],
  })) as RumAlertCheckResult;
}

it('a live-data alert that triggers is posted to the account-wide Slack and Teams destinations with its reading and dashboard link', async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const deps: AlertDestinationDeps = {
    webhooks: createStorage(api.db.knex).webhooks,
    keys: api.config.keys,
    allowLoopback: true,
    clock: () => new Date(),
    ownsTarget: async () => true,
  };
  const pro = { id: user.id, plan: 'pro' as const };
  const target = await insertTarget(api.db.knex, user.id);
  for (const [kind, url, scope] of [
    ['slack', slack.url, ''],
    ['teams', teams.url, ''],
    ['teams', targetTeams.url, String(target.id)],
  ] as const) {
    expect((await addAlertDestination(deps, pro, { kind, url, target: scope })).status).toBe('added');
  }
  const site = await insertSite(api, user.id);
  const created = await call(api, `/rum/sites/${site.id}/alerts`, {
    token,
    method: 'POST',
    body: { title: 'Checkout speed', mode: 'auto', window_minutes: 5, min_samples: 5, consecutive_threshold: 1 },
  });
  expect(created.status).toBe(201);
  const values = [4100, 4300, 4700, 5000, 5100];
  const p75 = `${formatNumber(Math.round(exactQuantile(values, 0.75)!), 'en')} ms`;
  await insertMetrics(
    clickhouse.client,
    values.map((value) => ({ siteId: site.id, metric: 'LCP' as const, value, at: at(3) })),
  );
  expect((await checkAt(5)).transitions).toHaveLength(1);
  const dashboard = `${api.config.baseUrl}/live/${site.id}`;

  const [toSlack] = await slack.waitFor(1);
  const slackBody = JSON.parse(toSlack!.body) as SlackMessage;
  expect(slackBody.text).toBe(`Triggered: Checkout speed: LCP p75 – ${site.domain}`);
  expect(slackBody.blocks.map((b) => b.type)).toEqual(['header', 'section', 'section', 'context']);
  const main = slackBody.blocks[1] as Extract<SlackMessage['blocks'][number], { type: 'section' }>;
  expect(main.text.text).toBe(`:bell: The p75 of LCP on ${site.domain} is ${p75}, above the threshold of 4,000 ms.`);
  expect(main.fields!.map((f) => f.text)).toEqual([
    '*Status*\nTriggered',
    '*Metric*\nLCP',
    `*p75*\n${p75}`,
    '*Threshold*\n4,000 ms',
    '*Page views*\n5',
    '*Window (minutes)*\n5',
  ]);
  expect(JSON.stringify(slackBody.blocks)).toContain(`<${dashboard}|Open live data>`);

  const [toTeams] = await teams.waitFor(1);
  const card = (JSON.parse(toTeams!.body) as TeamsMessage).attachments[0]!.content;
  expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open live data', url: dashboard }]);
  expect((card.body[2] as { facts: unknown[] }).facts).toContainEqual({ title: 'Site', value: site.domain });

  // The target's own destination gets score alerts of that target only, not live-data alerts: no row for it.
  const rows = (await api.db
    .knex('webhook_deliveries')
    .where({ user_id: user.id })
    .whereNotNull('destination_id')) as unknown[];
  expect(rows).toHaveLength(2);
  expect(targetTeams.received).toHaveLength(0);
});
