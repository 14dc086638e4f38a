import {
  alertEmailWorkflowId,
  mainTaskQueue,
  ScanIdAttribute,
  TargetIdAttribute,
  targetConfirmWorkflowId,
} from '../../core/temporal.ts';
import type { AlertEvaluation } from '../../core/monitoring/alert-evaluation.ts';
import { waitUntil } from '../../stack/proc.ts';
import type { EmailRetry } from '../../workflows/alert-emails.ts';
import type { TargetConfirmOutcome } from '../../workflows/target-confirm.ts';
import { insertFinishedScan, insertTarget, scoresOf, type TestTarget } from '../harness/alerts.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { freePort, uniqueName } from '../harness/isolated.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { testSmtpServer, type TestSmtpServer } from '../../fixtures/smtp.ts';

/**
 * Alerts end to end on the real Temporal server, Postgres and a real SMTP server: the evaluation workflow
 * (workflows/target-alerts.ts) after a target's scan, its e-mails through nodemailer, and the API reading the
 * result. Scans are stored with fixed scores and times (no Chromium); the clock is the test's.
 */

/** Short retries for tests; production waits 30 s to an hour, for a day. */
const FAST_RETRY: EmailRetry = { initialInterval: '200 ms', maximumInterval: '1 second', giveUpAfter: '10 minutes' };
const DAY = 86_400_000;
const T0 = new Date('2026-11-01T06:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);
/** When scanAndEvaluate evaluates the scan of that day. */
const evaluatedAt = (days: number) => new Date(at(days).getTime() + 60_000);

let smtp: TestSmtpServer;
let clock: TestClock;
let api: TestApi;
let worker: InProcessWorker;
let owner: { user: { id: number; email: string; name: string }; token: string };

beforeAll(async () => {
  smtp = testSmtpServer(await freePort());
  await smtp.start();
  clock = new TestClock(T0);
  api = await startTestApi({
    clock,
    env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: 'Alerts <alerts@perf.example.test>' },
  });
  worker = await startInProcessWorker(api);
  owner = await createTestUser(api, 'pro');
}, 60_000);
afterAll(async () => {
  await worker?.close();
  await api?.close();
  await smtp?.stop();
});

const queue = () => mainTaskQueue(api.config.temporal.taskQueuePrefix);

/** What the schedule's workflow does after a target's scan: the evaluation workflow, to its end. */
async function evaluate(scanId: string): Promise<AlertEvaluation> {
  const result = await api.temporal.workflow.execute('targetAlertsWorkflow', {
    taskQueue: queue(),
    workflowId: uniqueName('alerts'),
    args: [{ scanPublicId: scanId, emailRetry: FAST_RETRY }],
  });
  return result as AlertEvaluation;
}

/** A scan of the target finished on day `days`, evaluated with the clock a minute later. */
async function scanAndEvaluate(
  target: TestTarget,
  overall: number,
  days: number,
  userId = owner.user.id,
): Promise<{ scanId: string; evaluation: AlertEvaluation }> {
  const scanId = await insertFinishedScan(api.db.knex, userId, target, scoresOf(overall), at(days));
  clock.set(evaluatedAt(days));
  return { scanId, evaluation: await evaluate(scanId) };
}

const alertRow = async (id: number) => (await api.db.knex('alerts').where({ id }).first()) as Record<string, unknown>;
const mailsTo = (email: string) => smtp.messages.filter((m) => m.to.includes(email));
const emailWorkflowResult = (alertId: number, change: string) =>
  api.temporal.workflow.getHandle(alertEmailWorkflowId(queue(), alertId, change)).result();

it('a falling score raises one alert with its e-mail, a worse one escalates it, a recovering one resolves it, each with its e-mail', async () => {
  const target = await insertTarget(api.db.knex, owner.user.id);
  const before = smtp.messages.length;

  const fine = await scanAndEvaluate(target, 90, 0);
  expect(fine.evaluation).toEqual({ outcome: 'evaluated', changes: [], emails: [] });

  const falling = await scanAndEvaluate(target, 65, 1);
  expect(falling.evaluation.changes).toEqual([
    { alertId: expect.any(Number), type: 'score_below_threshold', change: 'raised' },
  ]);
  const alertId = falling.evaluation.changes[0]!.alertId;
  expect(await emailWorkflowResult(alertId, 'raised')).toBe('sent');
  const [raised] = mailsTo(owner.user.email).slice(-1);
  expect(raised).toMatchObject({
    from: 'alerts@perf.example.test',
    to: [owner.user.email],
    subject: `[Warning] Overall score below the warning threshold – ${target.host}`,
  });
  expect(raised!.text).toContain(`The overall score of ${target.host} is 65, below the warning threshold of 70.`);
  expect(raised!.text).toContain(`Report: ${api.config.baseUrl}/reports/${falling.scanId}`);
  expect(raised!.html).toContain(`<a href="${api.config.baseUrl}/alerts">`);
  expect(await alertRow(alertId)).toMatchObject({
    severity: 'warning',
    scan_public_id: falling.scanId,
    created_at: evaluatedAt(1),
    raised_emailed_at: evaluatedAt(1),
  });
  await call(api, '/alerts/mark-read', { token: owner.token, method: 'POST', body: { ids: [alertId] } });

  const worse = await scanAndEvaluate(target, 45, 2);
  expect(worse.evaluation.changes).toEqual([{ alertId, type: 'score_below_threshold', change: 'escalated' }]);
  expect(await emailWorkflowResult(alertId, 'escalated')).toBe('sent');
  expect(mailsTo(owner.user.email).at(-1)!.subject).toBe(
    `[Critical] Escalated: Overall score below the critical threshold – ${target.host}`,
  );
  const escalated = (await call(api, `/alerts/${alertId}`, { token: owner.token })).body.data;
  expect(escalated).toMatchObject({
    severity: 'critical',
    is_read: false,
    scan_id: worse.scanId,
    resolved_at: null,
    escalated_at: '2026-11-03T06:01:00+00:00',
  });

  // Still critical, then better but below warning: the same alert, unchanged, and no e-mail.
  expect((await scanAndEvaluate(target, 40, 3)).evaluation).toEqual({ outcome: 'evaluated', changes: [], emails: [] });
  expect((await scanAndEvaluate(target, 60, 4)).evaluation).toEqual({ outcome: 'evaluated', changes: [], emails: [] });

  const recovering = await scanAndEvaluate(target, 75, 5);
  expect(recovering.evaluation.changes).toEqual([{ alertId, type: 'score_below_threshold', change: 'resolved' }]);
  expect(await emailWorkflowResult(alertId, 'resolved')).toBe('sent');
  const resolvedMail = mailsTo(owner.user.email).at(-1)!;
  expect(resolvedMail.subject).toBe(`[Resolved] Overall score below the critical threshold – ${target.host}`);
  expect(resolvedMail.text).toContain('Resolved: every score is back at or above its threshold (overall 75).');
  expect(resolvedMail.text).toContain(`/reports/${recovering.scanId}`);
  expect(await alertRow(alertId)).toMatchObject({
    resolved_scan_public_id: recovering.scanId,
    resolved_at: evaluatedAt(5),
    resolved_emailed_at: evaluatedAt(5),
  });

  // One alert in all, three e-mails in all.
  expect(await api.db.knex('alerts').where({ target_id: target.id }).count('* as n')).toEqual([{ n: 1 }]);
  expect(smtp.messages.length - before).toBe(3);

  // Evaluating a scan again changes nothing and sends nothing.
  expect(await evaluate(recovering.scanId)).toEqual({ outcome: 'evaluated', changes: [], emails: [] });
});

it('a single scan far below its history raises no regression by itself: it starts a confirmation workflow, and a confirmation that fails raises nothing', async () => {
  const target = await insertTarget(api.db.knex, owner.user.id);
  for (const [day, overall] of [
    [0, 98],
    [1, 97],
    [2, 99],
    [3, 98],
    [4, 96],
    [5, 98],
    [6, 99],
  ] as const) {
    await insertFinishedScan(api.db.knex, owner.user.id, target, scoresOf(overall), at(day));
  }
  const before = smtp.messages.length;
  const drop = await scanAndEvaluate(target, 85, 7);
  // No threshold is crossed, and a regression needs its confirmation first (test/alerts/regression-confirmation.test.ts).
  expect(drop.evaluation).toEqual({
    outcome: 'evaluated',
    changes: [],
    emails: [],
    confirmation: { targetId: target.id, host: target.host, keys: ['score'] },
  });
  const confirmation = api.temporal.workflow.getHandle(targetConfirmWorkflowId(target.id, drop.scanId));
  const described = await confirmation.describe();
  expect(described.type).toBe('targetConfirmWorkflow');
  expect(described.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(target.id));
  expect(described.typedSearchAttributes.get(ScanIdAttribute)).toBe(drop.scanId);
  // This worker runs no scans: the confirmation scan fails, and nothing is raised.
  const outcome = (await confirmation.result()) as TargetConfirmOutcome;
  expect(outcome).toMatchObject({ dispatched: true, outcome: { status: 'failed' }, evaluation: null });
  if (!outcome.dispatched) throw new Error('not dispatched');
  expect(await api.db.knex('scans').where({ public_id: outcome.scanId }).first('target_id', 'trigger')).toEqual({
    target_id: target.id,
    trigger: 'confirmation',
  });
  expect(await api.db.knex('alerts').where({ target_id: target.id })).toEqual([]);
  expect(smtp.messages.length).toBe(before);
  // The failed confirmation scan is no scheduled scan of the target: evaluating the drop again still asks for one.
  expect((await evaluate(drop.scanId)).confirmation).toEqual({
    targetId: target.id,
    host: target.host,
    keys: ['score'],
  });
}, 120_000);

it('keeps the alert while SMTP is down and sends its e-mail once the server is back (Temporal retries, no sleeps)', async () => {
  const down = testSmtpServer(await freePort());
  const otherApi = await startTestApi({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${down.port}` } });
  const otherWorker = await startInProcessWorker(otherApi);
  try {
    const { user } = await createTestUser(otherApi, 'starter');
    const target = await insertTarget(otherApi.db.knex, user.id);
    const scanId = await insertFinishedScan(otherApi.db.knex, user.id, target, scoresOf(30), at(10));
    clock.set(at(10));
    const queued = mainTaskQueue(otherApi.config.temporal.taskQueuePrefix);
    const evaluation = (await otherApi.temporal.workflow.execute('targetAlertsWorkflow', {
      taskQueue: queued,
      workflowId: uniqueName('alerts'),
      args: [{ scanPublicId: scanId, emailRetry: FAST_RETRY }],
    })) as AlertEvaluation;
    const alertId = evaluation.changes[0]!.alertId;
    // The alert is there at once, whatever the mail server does.
    expect(await otherApi.db.knex('alerts').where({ id: alertId }).first()).toMatchObject({
      severity: 'critical',
      raised_emailed_at: null,
    });

    const email = otherApi.temporal.workflow.getHandle(alertEmailWorkflowId(queued, alertId, 'raised'));
    await waitUntil(
      'a failed e-mail attempt',
      async () => ((await email.describe()).raw.pendingActivities?.[0]?.attempt ?? 0) >= 2,
      60_000,
      100,
    );
    expect(otherWorker.logs()).toContain('alert e-mail not sent');

    await down.start();
    expect(await email.result()).toBe('sent');
    expect(down.messages).toHaveLength(1);
    expect(down.messages[0]).toMatchObject({
      to: [user.email],
      subject: `[Critical] Overall score below the critical threshold – ${target.host}`,
    });
    expect(await otherApi.db.knex('alerts').where({ id: alertId }).first()).toMatchObject({
      raised_emailed_at: at(10),
    });
  } finally {
    await otherWorker.close();
    await otherApi.close();
    await down.stop();
  }
});

it('does not retry an e-mail the SMTP server refuses for good (5xx); the alert stays', async () => {
  const refusing = testSmtpServer(await freePort(), { refuseRecipients: true });
  await refusing.start();
  const otherApi = await startTestApi({ clock, env: { SMTP_URL: `smtp://127.0.0.1:${refusing.port}` } });
  const otherWorker = await startInProcessWorker(otherApi);
  try {
    const { user } = await createTestUser(otherApi, 'starter');
    const target = await insertTarget(otherApi.db.knex, user.id);
    const scanId = await insertFinishedScan(otherApi.db.knex, user.id, target, scoresOf(60), at(20));
    const queued = mainTaskQueue(otherApi.config.temporal.taskQueuePrefix);
    const evaluation = (await otherApi.temporal.workflow.execute('targetAlertsWorkflow', {
      taskQueue: queued,
      workflowId: uniqueName('alerts'),
      args: [{ scanPublicId: scanId, emailRetry: FAST_RETRY }],
    })) as AlertEvaluation;
    const alertId = evaluation.changes[0]!.alertId;
    const email = otherApi.temporal.workflow.getHandle(alertEmailWorkflowId(queued, alertId, 'raised'));
    await expect(email.result()).rejects.toThrow();
    const history = await email.fetchHistory();
    expect(
      history
        .events!.filter((e) => e.activityTaskStartedEventAttributes)
        .map((e) => e.activityTaskStartedEventAttributes!.attempt),
    ).toEqual([1]);
    expect(otherWorker.logs()).toMatch(/"responseCode":550},"msg":"alert e-mail not sent"/);
    expect(await otherApi.db.knex('alerts').where({ id: alertId }).first()).toMatchObject({
      severity: 'warning',
      raised_emailed_at: null,
      resolved_at: null,
    });
  } finally {
    await otherWorker.close();
    await otherApi.close();
    await refusing.stop();
  }
});
