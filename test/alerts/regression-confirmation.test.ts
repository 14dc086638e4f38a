import { Webhook } from 'standardwebhooks';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import { newPublicId } from '../../core/ids.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { mainTaskQueue, TargetIdAttribute, targetConfirmWorkflowId } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import { resultScoring } from '../../fixtures/finished-scan.ts';
import { startRegressionSite, type RegressionSite } from '../../fixtures/regression-site.ts';
import { saveWebhookSettings } from '../../services/webhook-settings.ts';
import type { TargetConfirmOutcome } from '../../workflows/target-confirm.ts';
import type { TargetScanOutcome } from '../../workflows/target-scan.ts';
import { waitUntil } from '../../stack/proc.ts';
import { REPLAY_RUNNER_SCRIPT } from '../../worker/runners.ts';
import { createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort, uniqueName } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';
import { webhookReceiver, type WebhookReceiver } from '../../fixtures/webhook-receiver.ts';

/**
 * Confirmed regressions end to end: real Temporal, Postgres, SMTP and webhook receiver, and scans of fixture pages
 * on 127.0.0.1 (fixtures/regression-site.ts) through the runner processes with the replay runner
 * (fixtures/replay-runner.ts): each scan fetches the page through the egress proxy, and the page's response names
 * the state it served, whose recorded real Lighthouse run is replayed (the normal page, or the one with the heavy
 * hero: mobile LCP 1.2 s later in the recordings). So the statistics judge real measurements of the normal and the
 * slow page, and which of them a scan gets is decided by what the site served to it. A target's history is its
 * first scan plus seeded scans at the same level (the stored result of that scan with the metrics a little apart,
 * as fixtures/finished-scan.ts builds results); then the page gets slower and the target's scheduled scan runs. A
 * persistent slowdown: the confirmation workflow runs one more scan at once and the alert is raised with its e-mail
 * and webhook. A one-off: the confirmation scan is back to normal, and nothing is raised.
 */

const DAY = 86_400_000;
const T0 = new Date('2026-11-01T06:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

let smtp: TestSmtpServer;
let clock: TestClock;
let api: TestApi;
let worker: InProcessWorker;
let site: RegressionSite;
let receiver: WebhookReceiver;
let runner: ReturnType<typeof processRunner>;
let owner: { user: { id: number; email: string; name: string; plan: 'pro' }; token: string };
let secret: string;
/** The first scan of a fixture page: the level the seeded history is built at. */
let level: ScanResultRecord;
/** How many HTML loads one scan makes (for the one-off slowdown). */
let loadsPerScan: number;

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  site = await startRegressionSite();
  receiver = await webhookReceiver();
  clock = new TestClock(T0);
  api = await startTestApi({
    clock,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: 'Alerts <alerts@perf.example.test>',
      OUTBOUND_ALLOW_LOOPBACK: 'true',
    },
  });
  runner = processRunner({
    chromiumPath: api.config.chromiumPath,
    allowLoopback: true,
    scanUser: api.config.scanUser,
    script: REPLAY_RUNNER_SCRIPT,
  });
  worker = await startInProcessWorker(api, { runner });
  const created = await createTestUser(api, 'pro');
  owner = { ...created, user: { ...created.user, plan: 'pro' } };
  await api.db.knex('users').where({ id: owner.user.id }).update({ email_verified_at: T0 });
  const saved = await saveWebhookSettings(
    { webhooks: createStorage(api.db.knex).webhooks, keys: api.config.keys, allowLoopback: true, clock: () => T0 },
    owner.user,
    { url: receiver.url, headerName: '', headerValue: '', events: ['alert.triggered'] },
  );
  if (saved.status !== 'saved') throw new Error('webhook settings not saved');
  secret = saved.settings.secret;
}, 120_000);
afterAll(async () => {
  await worker?.close();
  runner?.close();
  await api?.close();
  await site?.close();
  await receiver?.close();
  await smtp?.stop();
});

const queue = () => mainTaskQueue(api.config.temporal.taskQueuePrefix);

async function insertTarget(page: string): Promise<number> {
  const [row] = await api.db
    .knex('scan_targets')
    .insert({
      user_id: owner.user.id,
      url: site.url(page),
      host: '127.0.0.1',
      region: api.config.regions.default,
      thresholds: JSON.stringify({}),
      created_at: T0,
      updated_at: T0,
    })
    .returning('id');
  return Number((row as { id: number }).id);
}

/** The target's scheduled scan as its schedule starts it, on day `day` of the test's clock. */
async function scheduledScan(targetId: number, day: number): Promise<string> {
  clock.set(at(day));
  const outcome = (await api.temporal.workflow.execute('targetScanWorkflow', {
    taskQueue: queue(),
    workflowId: uniqueName('target-scan'),
    args: [{ targetId }],
  })) as TargetScanOutcome;
  if (!outcome.dispatched || outcome.outcome.status !== 'finished')
    throw new Error(`scan did not finish: ${JSON.stringify(outcome)}`);
  return outcome.scanId;
}

/**
 * Finished scheduled scans of the target on days `from`..`to`, holding `level`'s result with its times a few
 * ms apart from scan to scan (so the history has a spread), built as fixtures/finished-scan.ts builds results.
 */
async function seedHistory(targetId: number, page: string, from: number, to: number): Promise<void> {
  for (let day = from; day <= to; day++) {
    const jitter = (day % 3) - 1; // -1, 0, 1
    const base = resultScoring(level.scores.overall, { url: site.url(page) });
    const metrics = Object.fromEntries(
      (['desktop', 'mobile'] as const).map((ff) => {
        const m = level.metrics[ff];
        return [ff, { ...m, lcp_ms: m.lcp_ms + 5 * jitter, fcp_ms: m.fcp_ms + 5 * jitter, tbt_ms: m.tbt_ms }];
      }),
    ) as ScanResultRecord['metrics'];
    const result: ScanResultRecord = { ...base, scores: level.scores, ttfbMs: level.ttfbMs + jitter, metrics };
    await api.db.knex('scans').insert({
      public_id: newPublicId(at(day)),
      user_id: owner.user.id,
      url: site.url(page),
      host: '127.0.0.1',
      region: api.config.regions.default,
      is_public: false,
      status: 'finished',
      requested_at: at(day),
      started_at: at(day),
      finished_at: at(day),
      target_id: targetId,
      trigger: 'schedule',
      runs: 1,
      result: JSON.stringify(result),
    });
  }
}

const confirmation = (targetId: number, scanId: string) =>
  api.temporal.workflow.getHandle(targetConfirmWorkflowId(targetId, scanId));

it('a page that got slower: the confirmation workflow scans it again at once, agrees, and the alert is raised with its e-mail and webhook', async () => {
  const targetId = await insertTarget('slower');
  const loadsBefore = site.loads('slower').loads;
  const first = await scheduledScan(targetId, 0);
  loadsPerScan = site.loads('slower').loads - loadsBefore;
  level = ((await api.db.knex('scans').where({ public_id: first }).first('result')) as { result: ScanResultRecord })
    .result;
  // No history yet: no candidate, so no confirmation workflow.
  await expect(confirmation(targetId, first).describe()).rejects.toThrow();
  await seedHistory(targetId, 'slower', 1, 6);

  // A heavier hero image: about +1.1 s of mobile LCP under Lighthouse's simulated throttling.
  site.set('slower', { heroSide: 300 });
  const slow = await scheduledScan(targetId, 7);
  const handle = confirmation(targetId, slow);
  const described = await handle.describe();
  expect(described.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(targetId));
  const outcome = (await handle.result()) as TargetConfirmOutcome;
  if (!outcome.dispatched || !outcome.evaluation) throw new Error(`no confirmation: ${JSON.stringify(outcome)}`);
  expect(outcome.outcome).toEqual({ status: 'finished' });
  expect(outcome.evaluation.confirmed).toEqual(expect.arrayContaining(['mobile.lcp']));

  // The confirmation scan is the target's, labelled as such, and not part of its scheduled history.
  expect(await api.db.knex('scans').where({ public_id: outcome.scanId }).first('target_id', 'trigger')).toEqual({
    target_id: targetId,
    trigger: 'confirmation',
  });

  const [alert, ...others] = await api.db
    .knex('alerts')
    .where({ target_id: targetId, type: 'metric_regression' })
    .select('id', 'details', 'scan_public_id');
  expect(others).toEqual([]);
  expect(alert).toMatchObject({
    scan_public_id: slow,
    details: { regression: { path: '/slower/', confirmation_scan_id: outcome.scanId, baseline_scans: 7 } },
  });
  const facts = alert!.details.regression as { metric: string; shift: number; p_value: number; current: number };
  expect(facts.metric).toBe('lcp');
  expect(facts.shift).toBeGreaterThan(500);
  expect(facts.p_value).toBeLessThanOrEqual(0.05);

  // The overall score may have fallen far enough for a score_regression of its own; the metric's mail is this one.
  const metricMail = () => smtp.messages.find((m) => / LCP regressed: /.test(m.subject));
  await waitUntil('the metric regression e-mail', async () => metricMail() !== undefined, 60_000, 100);
  const mail = metricMail()!;
  expect(mail.to).toEqual([owner.user.email]);
  expect(mail.subject).toMatch(/^\[(Warning|Critical)\] (Mobile|Desktop) LCP regressed: .* – 127\.0\.0\.1\/slower\/$/);
  expect(mail.text).toContain('127.0.0.1/slower/');
  expect(mail.text).toContain('Hodges-Lehmann');

  const verified = () =>
    receiver.received.map(
      (request) =>
        new Webhook(secret).verify(request.body, request.headers as Record<string, string>) as Record<string, unknown>,
    );
  await waitUntil(
    'the metric regression webhook',
    async () => verified().some((p) => p.type === 'metric_regression'),
    60_000,
    100,
  );
  const payload = verified().find((p) => p.type === 'metric_regression')!;
  expect(payload).toMatchObject({
    event: 'alert.triggered',
    type: 'metric_regression',
    alert_id: Number(alert!.id),
    target_url: site.url('slower'),
    scan_public_id: slow,
    regression: { path: '/slower/', metric: facts.metric, p_value: facts.p_value },
  });
  expect(payload.message).toContain('127.0.0.1/slower/');
}, 600_000);

it('a one-off slow scan: the confirmation scan is back to normal, so no alert, no e-mail, no webhook', async () => {
  const targetId = await insertTarget('oneoff');
  await seedHistory(targetId, 'oneoff', 20, 26);
  const mailsBefore = smtp.messages.length;
  const hooksBefore = receiver.received.length;

  // Only the scheduled scan's loads are slow; the confirmation scan's are not.
  site.slowNext('oneoff', loadsPerScan, { heroSide: 300 });
  const slow = await scheduledScan(targetId, 27);
  const outcome = (await confirmation(targetId, slow).result()) as TargetConfirmOutcome;
  if (!outcome.dispatched || !outcome.evaluation) throw new Error(`no confirmation: ${JSON.stringify(outcome)}`);
  expect(outcome.evaluation).toMatchObject({ outcome: 'evaluated', changes: [], emails: [], confirmed: [] });
  expect(await api.db.knex('scans').where({ public_id: outcome.scanId }).first('trigger')).toEqual({
    trigger: 'confirmation',
  });
  expect(await api.db.knex('alerts').where({ target_id: targetId })).toEqual([]);
  expect(smtp.messages.length).toBe(mailsBefore);
  expect(receiver.received.length).toBe(hooksBefore);
}, 600_000);
