import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import type { RumAlertActivities } from '../../../activities/rum-alerts.ts';
import { RUM_ALERT_CHECK_EVERY_MINUTES } from '../../../core/rum/alert-check.ts';
import { mainTaskQueue, rumAlertEmailWorkflowId } from '../../../core/temporal.ts';
import type { RumAlertCheckResult, RumAlertEmailJob } from '../../../core/rum/alert-check-result.ts';
import { durationMs, gaps, workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * workflows/rum-alerts.ts, the live-data alert check its 5-minute schedule starts and the e-mail workflows it
 * starts, on the time-skipping test server with stubbed activities: the check's retries and 4-minute limit,
 * one e-mail per alert, change and occurrence, and the e-mails' backoff.
 */
const PREFIX = 'unit-rum';
const MAIN_QUEUE = mainTaskQueue(PREFIX);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const PROCESSING_MS = SECOND;

let bed: WorkflowTestbed;
let check: (attempt: number) => Promise<RumAlertCheckResult>;
const checkAttempts: number[] = [];
let send: (alertId: number, attempt: number) => Promise<'sent'>;
const sent: Array<{ alertId: number; occurrenceMs: number; atMs: number }> = [];

beforeAll(async () => {
  bed = await workflowTestbed();
  const activities: RumAlertActivities = {
    async checkRumAlerts() {
      checkAttempts.push(await bed.now());
      return check(Context.current().info.attempt);
    },
    async sendRumAlertEmail(alertId, _change, occurrenceMs) {
      sent.push({ alertId, occurrenceMs, atMs: await bed.now() });
      return send(alertId, Context.current().info.attempt);
    },
  };
  await bed.worker(MAIN_QUEUE, activities);
}, 60_000);
afterAll(() => bed?.teardown());

beforeEach(() => {
  checkAttempts.length = 0;
  sent.length = 0;
  check = async () => result([]);
  send = async () => 'sent';
});

const job = (alertId: number, occurrenceMs: number): RumAlertEmailJob => ({
  alertId,
  change: 'triggered',
  occurrenceMs,
  notice: {
    alertName: 'Slow LCP',
    domain: 'shop.example',
    siteId: 1,
    metric: 'LCP',
    p75: 4100,
    threshold: 2500,
    samples: 120,
    windowMinutes: 30,
    at: new Date(occurrenceMs).toISOString(),
  },
});
const result = (emails: RumAlertEmailJob[]): RumAlertCheckResult => ({
  configurations: emails.length,
  queries: 1,
  recorded: emails.length,
  transitions: emails.map((e) => ({ alertId: e.alertId, change: e.change })),
  emails,
});

async function runCheck(workflowId = `rum-check-${Date.now()}-${Math.random()}`): Promise<RumAlertCheckResult> {
  const handle = await bed.env.client.workflow.start('rumAlertCheckWorkflow', {
    taskQueue: MAIN_QUEUE,
    workflowId,
    args: [{}],
  });
  return (await handle.result()) as RumAlertCheckResult;
}
const emailResult = (j: RumAlertEmailJob) =>
  bed.env.client.workflow.getHandle(rumAlertEmailWorkflowId(MAIN_QUEUE, j.alertId, j.change, j.occurrenceMs)).result();

it('retries a failed check from 2 s on, doubling', async () => {
  check = async (attempt) => {
    if (attempt < 4) throw new Error('ClickHouse away');
    return result([]);
  };
  await runCheck();
  const [g1, g2, g3] = gaps(checkAttempts);
  console.log(`check retry gaps: ${gaps(checkAttempts).join(', ')} ms`);
  for (const [gap, wait] of [
    [g1!, 2 * SECOND],
    [g2!, 4 * SECOND],
    [g3!, 8 * SECOND],
  ] as const) {
    expect(gap).toBeGreaterThanOrEqual(wait);
    expect(gap).toBeLessThan(wait + PROCESSING_MS);
  }
});

// The test server does not skip time while an activity is scheduled, so a schedule-to-close limit cannot
// pass in skipped time: the limits are checked as the workflow hands them to the server, in its history.
it('limits the check to 4 minutes in all, before the next one is due, retrying up to every 30 s', async () => {
  const workflowId = `rum-check-limits-${Date.now()}`;
  await runCheck(workflowId);
  const scheduled = await bed.scheduledActivity(workflowId, 'checkRumAlerts');
  expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(4 * MINUTE);
  expect(durationMs(scheduled.scheduleToCloseTimeout)).toBeLessThan(RUM_ALERT_CHECK_EVERY_MINUTES * MINUTE);
  expect(durationMs(scheduled.startToCloseTimeout)).toBe(3 * MINUTE);
  expect(durationMs(scheduled.retryPolicy?.initialInterval)).toBe(2 * SECOND);
  expect(durationMs(scheduled.retryPolicy?.maximumInterval)).toBe(30 * SECOND);
});

it('retries an e-mail with backoff from 30 s, doubling up to hourly, for a day', async () => {
  const j = job(3, Date.UTC(2026, 0, 2));
  send = async (_alertId, attempt) => {
    if (attempt < 4) throw new Error('SMTP server away');
    return 'sent';
  };
  check = async () => result([j]);
  await runCheck();
  expect(await emailResult(j)).toBe('sent');
  const spans = gaps(sent.filter((s) => s.alertId === 3).map((s) => s.atMs));
  console.log(`e-mail retry gaps: ${spans.join(', ')} ms`);
  expect(spans).toHaveLength(3);
  spans.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(30 * SECOND * 2 ** i);
    expect(gap).toBeLessThan(30 * SECOND * 2 ** i + PROCESSING_MS);
  });
  const scheduled = await bed.scheduledActivity(
    rumAlertEmailWorkflowId(MAIN_QUEUE, j.alertId, j.change, j.occurrenceMs),
    'sendRumAlertEmail',
  );
  expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(24 * HOUR);
  expect(durationMs(scheduled.retryPolicy?.maximumInterval)).toBe(HOUR);
});

it('does not retry an e-mail the SMTP server refused for good', async () => {
  const j = job(4, Date.UTC(2026, 0, 3));
  send = async () => {
    throw ApplicationFailure.nonRetryable('550 mailbox unavailable', 'PermanentMailError');
  };
  check = async () => result([j]);
  await runCheck();
  await expect(emailResult(j)).rejects.toThrow(WorkflowFailedError);
  expect(sent.filter((s) => s.alertId === 4)).toHaveLength(1);
});

// After every test that waits in skipped time: once an e-mail workflow ends after the check that started it
// has closed (the backoff test above, after its waits), this test server stops skipping time for the rest of the
// file (later waits pass in real time, or never).
it('starts one e-mail workflow per transition', async () => {
  const a = job(1, Date.UTC(2026, 0, 1, 10));
  const b = job(2, Date.UTC(2026, 0, 1, 10));
  check = async () => result([a, b]);
  expect((await runCheck()).emails).toHaveLength(2);
  expect(await emailResult(a)).toBe('sent');
  expect(await emailResult(b)).toBe('sent');
  expect(sent.map((s) => [s.alertId, s.occurrenceMs]).sort()).toEqual([
    [1, a.occurrenceMs],
    [2, b.occurrenceMs],
  ]);
});

it('never starts a second e-mail for the same alert, change and occurrence, and does one for a new occurrence', async () => {
  const a = job(5, Date.UTC(2026, 0, 4, 10));
  check = async () => result([a]);
  await runCheck();
  expect(await emailResult(a)).toBe('sent');

  // The next check reports a again (its e-mail not yet recorded as sent) and a new occurrence of it.
  const again = job(5, Date.UTC(2026, 0, 4, 11));
  check = async () => result([a, again]);
  expect((await runCheck()).emails).toHaveLength(2);
  expect(await emailResult(again)).toBe('sent');
  expect(sent.map((s) => s.occurrenceMs)).toEqual([a.occurrenceMs, again.occurrenceMs]);
});
