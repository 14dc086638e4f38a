import type { SlackMessage } from '../../core/alert-destinations/slack.ts';
import type { TeamsMessage } from '../../core/alert-destinations/teams.ts';
import { mainTaskQueue, webhookDeliveryWorkflowId } from '../../core/temporal.ts';
import type { WebhookDelivery } from '../../core/webhooks/delivery.ts';
import { type Storage } from '../../db/store/index.ts';
import {
  addAlertDestination,
  enqueueTestMessage,
  type AlertDestinationDeps,
} from '../../services/alert-destinations.ts';
import { insertFinishedScan, insertTarget, scoresOf } from '../harness/alerts.ts';
import type { TestClock } from '../harness/api.ts';
import { createTestUser, type TestApi } from '../harness/api.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { type InProcessWorker } from '../harness/scan-worker.ts';
import { startDeliveryStack, type DeliveryStack } from './delivery-stack.ts';
import { webhookReceiver, type ReceivedWebhook, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * Slack and Teams alert destinations end to end: a real target's alert evaluation on the real Temporal server,
 * the outbox rows in Postgres, the delivery workflows and their attempts on the webhook queue, real HTTP
 * receivers standing in for Slack and Teams on 127.0.0.1 (CALLBACKS_ALLOW_LOOPBACK, as every webhook test).
 * Each receiver checks the body as the service documents it. The retry schedule is shortened (20 ms waits).
 */

/** Every name resolves to loopback here; `private.example.test` to a private address (refused). */
const lookup = async (host: string) => (host === 'private.example.test' ? ['10.1.2.3'] : ['127.0.0.1']);

let stack: DeliveryStack;
let clock: TestClock;
let api: TestApi;
let worker: InProcessWorker;
let storage: Storage;
let slack: WebhookReceiver;
let teams: WebhookReceiver;

beforeAll(async () => {
  stack = await startDeliveryStack(lookup);
  ({ clock, api, worker, storage } = stack);
  // The suite-wide log check fails this file if a URL's secret part reaches any log line.
  for (const path of ['/webhookb2/teamssecretWxYz', '/services/T0001/B0001/slacksecretAbCd']) registerSecret(path);
}, 60_000);
afterAll(async () => {
  await stack?.close();
});
beforeEach(async () => {
  slack = await webhookReceiver('/services/T0001/B0001/slacksecretAbCd');
  teams = await webhookReceiver('/webhookb2/teamssecretWxYz');
});
afterEach(async () => {
  await slack.close();
  await teams.close();
});

const deps = (): AlertDestinationDeps => ({
  webhooks: storage.webhooks,
  keys: api.config.keys,
  allowLoopback: true,
  clock: clock.read,
  lookup,
  ownsTarget: async (userId, targetId) => (await storage.targets.findOwned(userId, targetId)) !== undefined,
});

async function destination(user: { id: number; plan: 'pro' }, kind: 'slack' | 'teams', url: string, target = '') {
  const added = await addAlertDestination(deps(), user, { kind, url, target });
  if (added.status !== 'added') throw new Error(`not added: ${JSON.stringify(added)}`);
  return added.destination;
}

const workflowOf = (deliveryId: number) =>
  api.temporal.workflow.getHandle(
    webhookDeliveryWorkflowId(mainTaskQueue(api.config.temporal.taskQueuePrefix), deliveryId),
  );

async function deliver(delivery: WebhookDelivery): Promise<string> {
  await worker.webhookDispatch.start([delivery]);
  return workflowOf(delivery.id).result();
}

const slackBodyOf = (request: ReceivedWebhook) => JSON.parse(request.body) as SlackMessage;
const teamsBodyOf = (request: ReceivedWebhook) => JSON.parse(request.body) as TeamsMessage;

/** What Slack's incoming webhooks take (Block Kit): `text` and blocks of known types, mrkdwn sections within limits. */
function expectSlackShape(body: SlackMessage) {
  expect(typeof body.text).toBe('string');
  const { blocks } = body;
  expect(blocks.length).toBeGreaterThan(0);
  expect(blocks.length).toBeLessThanOrEqual(50);
  for (const block of blocks) {
    expect(['header', 'section', 'context']).toContain(block.type);
    if (block.type === 'header') {
      expect(block.text.type).toBe('plain_text');
      expect(block.text.text.length).toBeLessThanOrEqual(150);
    }
    if (block.type === 'section') {
      expect(block.text.type).toBe('mrkdwn');
      expect(block.text.text.length).toBeLessThanOrEqual(3000);
      for (const field of block.fields ?? []) expect(field.type).toBe('mrkdwn');
      expect((block.fields ?? []).length).toBeLessThanOrEqual(10);
    }
    if (block.type === 'context') for (const element of block.elements) expect(element.type).toBe('mrkdwn');
  }
}

/** What Teams' incoming webhooks and Workflows take: a message with one Adaptive Card attachment. */
function expectTeamsShape(body: TeamsMessage) {
  expect(body.type).toBe('message');
  const { attachments } = body;
  expect(attachments).toHaveLength(1);
  expect(attachments[0]!.contentType).toBe('application/vnd.microsoft.card.adaptive');
  const card = attachments[0]!.content;
  expect(card).toMatchObject({ type: 'AdaptiveCard', version: '1.4' });
  for (const element of card.body) expect(['TextBlock', 'FactSet']).toContain(element.type);
  for (const action of card.actions) expect(action.type).toBe('Action.OpenUrl');
}

test('an alert raised by a target scan arrives at a Slack and a Teams receiver in their formats; another target’s destination gets nothing', async () => {
  const { user } = await createTestUser(api, 'pro');
  const pro = { id: user.id, plan: 'pro' as const };
  const target = await insertTarget(api.db.knex, user.id);
  const other = await insertTarget(api.db.knex, user.id);
  const elsewhere = await webhookReceiver('/services/T0001/B0002/otherXXXX');
  try {
    await destination(pro, 'slack', slack.url);
    await destination(pro, 'teams', teams.url, String(target.id));
    await destination(pro, 'slack', elsewhere.url, String(other.id));

    const scanId = await insertFinishedScan(
      api.db.knex,
      user.id,
      target,
      scoresOf(20),
      new Date(Date.UTC(2026, 10, 10, 6)),
    );
    await api.temporal.workflow.execute('targetAlertsWorkflow', {
      taskQueue: mainTaskQueue(api.config.temporal.taskQueuePrefix),
      workflowId: `alerts-${scanId}`,
      args: [{ scanPublicId: scanId }],
    });
    const report = `${api.config.baseUrl}/reports/${scanId}`;

    const [toSlack] = await slack.waitFor(1);
    expect(toSlack!.headers['content-type']).toBe('application/json');
    // Not the signed webhook: no signature, no webhook-id.
    expect(toSlack!.headers['webhook-signature']).toBeUndefined();
    const slackBody = slackBodyOf(toSlack!);
    expectSlackShape(slackBody);
    expect(slackBody.text).toBe(`Triggered (Critical): Overall score below the critical threshold – ${target.host}/`);
    const slackText = JSON.stringify(slackBody.blocks);
    expect(slackText).toContain(`Triggered: Overall score below the critical threshold`);
    expect(slackText).toContain('*Severity*\\nCritical');
    expect(slackText).toContain('*Value*\\n20');
    expect(slackText).toContain(`<${target.url}|${target.host}/>`);
    expect(slackText).toContain(`<${report}|Open the report>`);

    const [toTeams] = await teams.waitFor(1);
    const teamsBody = teamsBodyOf(toTeams!);
    expectTeamsShape(teamsBody);
    const card = teamsBody.attachments[0]!.content;
    expect(card.body[0]).toMatchObject({
      type: 'TextBlock',
      text: 'Triggered: Overall score below the critical threshold',
      color: 'Attention',
    });
    expect((card.body[2] as { facts: unknown[] }).facts).toEqual(
      expect.arrayContaining([
        { title: 'Severity', value: 'Critical' },
        { title: 'Page', value: `[${target.host}/](${target.url})` },
        { title: 'Value', value: '20' },
      ]),
    );
    expect(card.actions).toEqual([{ type: 'Action.OpenUrl', title: 'Open the report', url: report }]);

    // Both deliveries in the attempt log, succeeded; the other target's destination got nothing.
    const deliveries = (await storage.webhooks.listDeliveries(user.id, 10)).filter((d) => d.destinationId);
    expect(deliveries).toHaveLength(2);
    for (const d of deliveries) {
      expect(await workflowOf(d.id).result()).toBe('succeeded');
      expect(await storage.webhooks.attemptsOf(d.id)).toMatchObject([{ responseCode: 200, responseBody: 'ok' }]);
    }
    expect(elsewhere.received).toHaveLength(0);

    // The URL is a credential: stored sealed, shown only as a hint, never logged.
    const rows = (await api.db.knex('alert_destinations').where({ user_id: user.id })) as Array<Record<string, string>>;
    for (const row of rows) {
      expect(row.url_encrypted).not.toContain('secret');
      expect(row.url_encrypted).toMatch(/^v2\./);
    }
    expect(rows.map((r) => r.url_hint).sort()).toEqual(
      [
        `127.0.0.1:${new URL(slack.url).port}/…AbCd`,
        `127.0.0.1:${new URL(teams.url).port}/…WxYz`,
        `127.0.0.1:${new URL(elsewhere.url).port}/…XXXX`,
      ].sort(),
    );
    expect(worker.logs()).not.toContain('slacksecret');
    expect(worker.logs()).not.toContain('teamssecret');
  } finally {
    await elsewhere.close();
  }
});

test('a 500 is retried (its Retry-After followed) and then delivered, with the same message each time', async () => {
  const { user } = await createTestUser(api, 'pro');
  const dest = await destination({ id: user.id, plan: 'pro' }, 'slack', slack.url);
  slack.answer([
    { status: 500, headers: { 'retry-after': '1' }, body: 'internal_error' },
    { status: 200, body: 'ok' },
  ]);
  const delivery = await enqueueTestMessage(storage.webhooks, user.id, dest.id, 'de', clock.read());
  expect(await deliver(delivery!)).toBe('succeeded');
  expect(slack.received).toHaveLength(2);
  expect(slack.received[0]!.body).toBe(slack.received[1]!.body);
  const body = slackBodyOf(slack.received[1]!);
  expectSlackShape(body);
  expect(body.text).toBe('Test: Testnachricht von WebPerf');
  expect(await storage.webhooks.attemptsOf(delivery!.id)).toMatchObject([
    { responseCode: 500, responseBody: 'internal_error', error: 'HTTP 500' },
    { responseCode: 200, responseBody: 'ok', error: null },
  ]);
  expect(await storage.webhooks.findDelivery(delivery!.id)).toMatchObject({ status: 'succeeded', webhookAttempts: 2 });
  // The wait before the second attempt was the Retry-After's second, not the schedule's 20 ms.
  const history = await workflowOf(delivery!.id).fetchHistory();
  const timers = (history.events ?? [])
    .filter((e) => e.timerStartedEventAttributes)
    .map((e) => Number(e.timerStartedEventAttributes!.startToFireTimeout!.seconds));
  expect(timers).toEqual([1]);
});

test('a 404 (Slack\'s "no_service") ends the delivery at once; a 410 also disables the destination', async () => {
  const { user } = await createTestUser(api, 'pro');
  const pro = { id: user.id, plan: 'pro' as const };
  const dest = await destination(pro, 'slack', slack.url);
  slack.answer([
    { status: 404, body: 'no_service' },
    { status: 200, body: 'ok' },
  ]);
  const failed = await enqueueTestMessage(storage.webhooks, user.id, dest.id, 'en', clock.read());
  expect(await deliver(failed!)).toBe('failed');
  expect(slack.received).toHaveLength(1);
  expect(await storage.webhooks.findDelivery(failed!.id)).toMatchObject({
    status: 'failed',
    webhookAttempts: 1,
    webhookResponseCode: 404,
    webhookLastError: 'HTTP 404',
  });
  expect((await storage.webhooks.findDestination(dest.id))!.disabledAt).toBeNull();
  expect(worker.logs()).toContain('"msg":"chat alert attempt failed"');

  const gone = await destination(pro, 'teams', teams.url);
  teams.answer([{ status: 410, body: 'Gone' }]);
  const toGone = await enqueueTestMessage(storage.webhooks, user.id, gone.id, 'en', clock.read());
  expect(await deliver(toGone!)).toBe('gone');
  expect(teams.received).toHaveLength(1);
  expect(await storage.webhooks.findDestination(gone.id)).toMatchObject({ disabledReason: 'gone' });
  // A disabled destination gets no message: the next attempt is recorded as not sent.
  const after = await enqueueTestMessage(storage.webhooks, user.id, gone.id, 'en', clock.read());
  expect(await deliver(after!)).toBe('not_sent');
  expect(teams.received).toHaveLength(1);
  expect(await storage.webhooks.findDelivery(after!.id)).toMatchObject({
    webhookLastError: 'not sent: the alert destination is disabled',
  });
});

test('adding a destination: Pro only, https only (loopback http only with CALLBACKS_ALLOW_LOOPBACK), public addresses only, owned targets only', async () => {
  const { user } = await createTestUser(api, 'pro');
  const pro = { id: user.id, plan: 'pro' as const };
  const starter = await createTestUser(api, 'starter');
  expect(
    await addAlertDestination(
      deps(),
      { id: starter.user.id, plan: 'starter' },
      { kind: 'slack', url: slack.url, target: '' },
    ),
  ).toEqual({ status: 'plan_required' });
  const refused = async (form: { kind: string; url: string; target?: string }, allowLoopback = true) =>
    addAlertDestination({ ...deps(), allowLoopback }, pro, { target: '', ...form });
  expect(await refused({ kind: 'slack', url: slack.url }, false)).toEqual({
    status: 'invalid',
    errors: { url: 'not_https' },
  });
  expect(await refused({ kind: 'slack', url: 'http://hooks.slack.com/services/x' })).toEqual({
    status: 'invalid',
    errors: { url: 'not_https' },
  });
  expect(await refused({ kind: 'teams', url: 'https://private.example.test/webhookb2/x' })).toEqual({
    status: 'invalid',
    errors: { url: 'blocked_address' },
  });
  expect(await refused({ kind: 'discord', url: slack.url })).toEqual({ status: 'invalid', errors: { kind: 'kind' } });
  const foreign = await insertTarget(api.db.knex, starter.user.id);
  expect(await refused({ kind: 'slack', url: slack.url, target: String(foreign.id) })).toEqual({
    status: 'invalid',
    errors: { target: 'target' },
  });
  expect(await storage.webhooks.listDestinations(user.id)).toEqual([]);
});
