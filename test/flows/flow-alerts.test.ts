import { Webhook } from 'standardwebhooks';
import { createStorage } from '../../db/store/index.ts';
import { deleteTargetSchedulesOf } from '../../infra/temporal-client.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import { flowRunnerFor } from '../../worker/runners.ts';
import { SIGN_IN_PAGE_FLOW, SIGN_IN_WRONG_PASSWORD_FLOW } from '../../fixtures/recorded-flows.ts';
import { SHOP_PASSWORD, startShop, type Shop } from '../../fixtures/shop.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { freePort } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';
import { waitUntil } from '../../stack/proc.ts';

/**
 * A monitored flow's alerts on the real stack, one account with a real SMTP server and a real webhook receiver for
 * all of them. The flows on the fixture shop go through the worker's flow runner composed with SCAN_RUNNER=replay
 * (worker/runners.ts): its runner processes replay recorded real runs of the fixture flows
 * (fixtures/flow-replay-runner.ts), fetching each page from the shop through the egress proxy; what a real run
 * measures and where it fails is the subject of test/flows/flow-end-to-end.test.ts and flow-runner.test.ts.
 * Budgets: a 1 ms LCP budget on the navigation step raises a critical metric_over_budget alert for the flow
 * (API), its e-mail and its signed alert.triggered webhook name the flow and the step; a relaxed budget and
 * another run resolve it (alert.resolved). Steps that would leave the budget on a non-measured step are refused
 * (422). Failures: a wrong password makes a run fail at its `wait_for_selector #signed-in` step, which raises a
 * flow_failed warning naming that step (API, e-mail, webhook); the right password and another run resolve it.
 */
let shop: Shop;
let smtp: TestSmtpServer;
let api: TestApi;
let flowRunner: ReturnType<typeof flowRunnerFor>;
let worker: InProcessWorker;
let receiver: WebhookReceiver;
let conforms: Awaited<ReturnType<typeof openApiContract>>;

beforeAll(async () => {
  shop = await startShop();
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  api = await startTestApi({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, SCAN_RUNNER: 'replay' } });
  flowRunner = flowRunnerFor(api.config);
  worker = await startInProcessWorker(api, { flowRunner });
  receiver = await webhookReceiver();
  conforms = await openApiContract(api);
}, 60_000);

afterAll(async () => {
  if (api) await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await receiver?.close();
  await worker?.close();
  flowRunner?.close();
  await api?.close();
  await smtp?.stop();
  await shop?.close();
});

const storage = () => createStorage(api.db.knex);
let token: string;
let email: string;
let flowId: string;
let signingSecret: string;
/** Open sign-in (a navigation), Sign-in form (a snapshot). */
const STEPS = () => SIGN_IN_PAGE_FLOW.steps(shop.origin);

/** Runs the flow once; its id when it ended as `expected`. */
async function runToEnd(flow = flowId, expected: 'finished' | 'failed' = 'finished'): Promise<string> {
  const started = await call(api, `/flows/${flow}/runs`, { token, method: 'POST', body: {} });
  expect(started.status).toBe(202);
  const runId = (started.body.data as { id: string }).id;
  for (let i = 0; i < 300; i++) {
    const run = (await call(api, `/flows/${flow}/runs/${runId}`, { token })).body.data as { status: string };
    if (run.status === 'finished' || run.status === 'failed') {
      if (run.status !== expected) throw new Error(`run ${runId} ${run.status}`);
      return runId;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} did not end`);
}

/** A run's alerts are judged right after it is stored as ended: the API shows them a moment later. */
async function openAlerts(count: number) {
  let listed = await call(api, '/alerts?status=open', { token });
  await waitUntil(
    `${count} open alert(s)`,
    async () => {
      listed = await call(api, '/alerts?status=open', { token });
      return (listed.body.data as unknown[]).length >= count;
    },
    30_000,
    200,
  );
  return listed;
}

async function resolvedAlert(id: number): Promise<Record<string, unknown>> {
  let alert: Record<string, unknown> = {};
  await waitUntil(
    `alert ${id} resolved`,
    async () => {
      alert = (await call(api, `/alerts/${id}`, { token })).body.data as Record<string, unknown>;
      return alert.resolved_at !== null;
    },
    30_000,
    200,
  );
  return alert;
}

const verified = (index: number) =>
  new Webhook(signingSecret).verify(
    receiver.received[index]!.body,
    receiver.received[index]!.headers as Record<string, string>,
  ) as Record<string, unknown>;

it('budgets are stored per measured step, and a step of another kind is refused naming the field', async () => {
  const created = await createTestUser(api, 'pro');
  token = created.token;
  email = created.user.email;
  await api.db.knex('users').where({ id: created.user.id }).update({ email_verified_at: new Date() });
  const saved = await saveWebhookSettings(
    { webhooks: storage().webhooks, keys: api.config.keys, allowLoopback: true, clock: () => new Date() },
    created.user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['alert.triggered', 'alert.resolved'] },
  );
  if (saved.status !== 'saved') throw new Error('settings not saved');
  signingSecret = saved.settings.secret;

  const wrong = await call(api, '/flows', {
    token,
    method: 'POST',
    body: { name: 'Shop', form_factor: 'desktop', steps: STEPS(), budgets: { '1': { lcp_ms: 1 } } },
  });
  expect(wrong.status).toBe(422);
  expect(JSON.stringify(wrong.body)).toContain('budgets.1.lcp_ms');

  const res = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Shop sign-in',
      form_factor: 'desktop',
      monitored: true,
      steps: STEPS(),
      budgets: { '0': { lcp_ms: 1 } },
    },
  });
  expect(res.status).toBe(201);
  expect(conforms('POST', '/flows', res)).toEqual([]);
  flowId = (res.body.data as { id: string }).id;
  expect((res.body.data as { budgets: unknown }).budgets).toEqual({ '0': { lcp_ms: 1 } });

  const withSnapshot = await call(api, `/flows/${flowId}`, {
    token,
    method: 'PATCH',
    body: { budgets: { '0': { lcp_ms: 1 }, '1': { scores: { seo: 1 } } } },
  });
  expect(withSnapshot.status).toBe(200);
  const moved = await call(api, `/flows/${flowId}`, {
    token,
    method: 'PATCH',
    body: { steps: [STEPS()[0], { type: 'click', selector: 'button' }, STEPS()[1]] },
  });
  expect(moved.status).toBe(422);
  expect(Object.keys(moved.body.errors as object)).toEqual(['budgets.1']);
  const outOfRange = await call(api, `/flows/${flowId}`, {
    token,
    method: 'PATCH',
    body: { budgets: { '0': { cls: 11 } } },
  });
  expect(outOfRange.status).toBe(422);
  expect(JSON.stringify(outOfRange.body)).toContain('budgets.0.cls');
});

let alertId: number;

it('a run over the 1 ms LCP budget raises a critical alert: API, e-mail and signed webhook name the flow and step', async () => {
  const runId = await runToEnd();
  const listed = await openAlerts(1);
  expect(conforms('GET', '/alerts', listed)).toEqual([]);
  const alerts = listed.body.data as Array<Record<string, unknown>>;
  expect(alerts).toHaveLength(1);
  const alert = alerts[0]!;
  alertId = alert.id as number;
  expect(alert).toMatchObject({
    type: 'metric_over_budget',
    severity: 'critical',
    url: `${shop.origin}/login`,
    scan_id: runId,
    target_id: null,
    resolved_at: null,
    flow: { id: flowId, name: 'Shop sign-in' },
    details: {
      budget: { metric: 'lcp_ms', budget: 1, unit: 'ms', step: { index: 0, name: 'Open sign-in', mode: 'navigation' } },
    },
  });
  expect(alert.title).toBe('LCP of step 0 “Open sign-in” over budget');

  const [mail] = await smtp.waitForMessages(1, 30_000);
  expect(mail!.to).toEqual([email]);
  expect(mail!.subject).toContain('LCP of step 0 “Open sign-in” over budget');
  expect(mail!.text).toContain(`/flows/${flowId}/runs/${runId}`);

  await receiver.waitFor(1, 30_000);
  expect(verified(0)).toMatchObject({
    event: 'alert.triggered',
    alert_id: alertId,
    type: 'metric_over_budget',
    severity: 'critical',
    target_url: `${shop.origin}/login`,
    scan_public_id: runId,
    flow: { id: flowId, name: 'Shop sign-in' },
    budget: { metric: 'lcp_ms', budget: 1, step: { index: 0, name: 'Open sign-in', mode: 'navigation' } },
  });
}, 60_000);

it('a relaxed budget and another run resolve it (alert.resolved)', async () => {
  const relaxed = await call(api, `/flows/${flowId}`, {
    token,
    method: 'PATCH',
    body: { budgets: { '0': { lcp_ms: 60_000 } } },
  });
  expect(relaxed.status).toBe(200);
  expect(conforms('PATCH', '/flows/{id}', relaxed)).toEqual([]);
  const runId = await runToEnd();
  const alert = await resolvedAlert(alertId);
  expect(alert).toMatchObject({ resolved_scan_id: runId, flow: { id: flowId } });
  expect(alert.resolved_at).not.toBeNull();
  await receiver.waitFor(2, 30_000);
  expect(verified(1)).toMatchObject({ event: 'alert.resolved', alert_id: alertId, flow: { id: flowId } });
  await smtp.waitForMessages(2, 30_000);
}, 60_000);

let failingFlowId: string;
let failedAlertId: number;

it('a run failing at a step after a wrong password raises a flow_failed warning: API, e-mail and webhook name the step', async () => {
  const created = await call(api, '/flows', {
    token,
    method: 'POST',
    body: {
      name: 'Shop account',
      form_factor: 'desktop',
      monitored: true,
      // Open sign-in, the user name, the password (a secret), sign in, wait for the next page and #signed-in.
      steps: SIGN_IN_WRONG_PASSWORD_FLOW.steps(shop.origin),
      secrets: SIGN_IN_WRONG_PASSWORD_FLOW.secrets,
    },
  });
  expect(created.status).toBe(201);
  failingFlowId = (created.body.data as { id: string }).id;
  const runId = await runToEnd(failingFlowId, 'failed');

  const listed = await openAlerts(1);
  expect(conforms('GET', '/alerts', listed)).toEqual([]);
  const alerts = listed.body.data as Array<Record<string, unknown>>;
  expect(alerts).toHaveLength(1);
  const alert = alerts[0]!;
  failedAlertId = alert.id as number;
  const failedStep = {
    index: 5,
    step_type: 'wait_for_selector',
    step: 'wait for #signed-in',
    code: 'selector_not_found',
    message: 'no element matches "#signed-in" within 10 s',
  };
  expect(alert).toMatchObject({
    type: 'flow_failed',
    severity: 'warning',
    title: 'Flow “Shop account” failed at step 5 (wait for #signed-in)',
    url: `${shop.origin}/login`,
    scan_id: runId,
    target_id: null,
    flow: { id: failingFlowId, name: 'Shop account' },
    details: { value: 1, reference: 2, failed_step: failedStep, budget: null },
  });

  const mail = (await smtp.waitForMessages(3, 30_000))[2]!;
  expect(mail.subject).toContain('[Warning] Flow “Shop account” failed at step 5 (wait for #signed-in)');
  expect(mail.text).toContain(`/flows/${failingFlowId}/runs/${runId}`);

  await receiver.waitFor(3, 30_000);
  expect(verified(2)).toMatchObject({
    event: 'alert.triggered',
    alert_id: failedAlertId,
    type: 'flow_failed',
    severity: 'warning',
    scan_public_id: runId,
    flow: { id: failingFlowId, name: 'Shop account' },
    failed_step: failedStep,
  });
}, 60_000);

it('the right password and another run resolve it (alert.resolved)', async () => {
  const secret = await call(api, `/flows/${failingFlowId}/secrets/password`, {
    token,
    method: 'PUT',
    body: { kind: 'password', value: SHOP_PASSWORD },
  });
  expect(secret.status).toBe(200);
  const runId = await runToEnd(failingFlowId);
  const alert = await resolvedAlert(failedAlertId);
  expect(alert).toMatchObject({ resolved_scan_id: runId, severity: 'warning' });
  expect(alert.resolved_at).not.toBeNull();
  expect(alert.message).toMatch(/ Resolved: the next run got through without failing\.$/);
  await receiver.waitFor(4, 30_000);
  expect(verified(3)).toMatchObject({
    event: 'alert.resolved',
    alert_id: failedAlertId,
    type: 'flow_failed',
    scan_public_id: runId,
    flow: { id: failingFlowId },
  });
  await smtp.waitForMessages(4, 30_000);
}, 60_000);
