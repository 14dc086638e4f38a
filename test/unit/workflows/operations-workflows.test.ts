import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Activities, WorkerHealth } from '../../../activities/index.ts';
import type { AlertActivities } from '../../../activities/alerts.ts';
import type { FlowReconcileReport, FlowScheduleActivities } from '../../../activities/flows/flow-schedule.ts';
import type { ReconcileActivities, ReconcileReport } from '../../../activities/reconcile.ts';
import type { TargetActivities, TargetReconcileReport } from '../../../activities/targets.ts';
import type { WebhookActivities } from '../../../activities/webhooks.ts';
import { mainTaskQueue } from '../../../core/temporal.ts';
import type { AttemptOutcomeKind, WebhookDeliveryInput } from '../../../core/webhooks/delivery.ts';
import { runHealthWorkflow } from '../../../infra/temporal-client.ts';
import type { AttemptResult } from '../../../services/webhook-attempt.ts';
import type { AlertEmailInput, EmailRetry } from '../../../workflows/alert-emails.ts';
import { durationMs, gaps, workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * The operational workflows on the time-skipping test server with stubbed activities: the health round trip
 * (workflows/health.ts), the reconcilers (reconcile.ts), one alert e-mail (alert-emails.ts) and one webhook
 * delivery (webhook-delivery.ts): the activities each calls, in which order, their retries and where they give up.
 */
const PREFIX = 'unit-ops';
const QUEUE = mainTaskQueue(PREFIX);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const PROCESSING_MS = SECOND;

interface Call {
  name: string;
  atMs: number;
  /** Temporal's attempt of the activity. */
  attempt: number;
  args: unknown[];
}

type Stubbed = Activities &
  ReconcileActivities &
  Pick<TargetActivities, 'reconcileTargetSchedules'> &
  Pick<FlowScheduleActivities, 'reconcileFlowSchedules'> &
  Pick<AlertActivities, 'sendAlertEmail'> &
  WebhookActivities;
/** A stub's answer for Temporal's attempt `attempt` of it (it may throw). */
type Answers = {
  [K in keyof Stubbed]?: (attempt: number, ...args: Parameters<Stubbed[K]>) => Awaited<ReturnType<Stubbed[K]>>;
};

let bed: WorkflowTestbed;
const calls: Call[] = [];
const callsOf = (name: keyof Stubbed) => calls.filter((c) => c.name === name);
/** Each stub's answers; set by each test. */
let answers: Answers = {};

beforeAll(async () => {
  bed = await workflowTestbed();
  const stub =
    <K extends keyof Stubbed>(name: K) =>
    async (...args: Parameters<Stubbed[K]>): Promise<Awaited<ReturnType<Stubbed[K]>>> => {
      const { attempt } = Context.current().info;
      calls.push({ name, atMs: await bed.now(), attempt, args });
      const answer = answers[name];
      if (!answer) throw ApplicationFailure.nonRetryable(`no answer scripted for ${name}`);
      return answer(attempt, ...args);
    };
  const activities: Stubbed = {
    workerHealth: stub('workerHealth'),
    reconcileStaleScans: stub('reconcileStaleScans'),
    reconcileTargetSchedules: stub('reconcileTargetSchedules'),
    reconcileFlowSchedules: stub('reconcileFlowSchedules'),
    sendAlertEmail: stub('sendAlertEmail'),
    attemptWebhookDelivery: stub('attemptWebhookDelivery'),
  };
  await bed.worker(QUEUE, activities);
}, 60_000);
afterAll(() => bed?.teardown());

beforeEach(() => {
  calls.length = 0;
  answers = {};
});

const away = (what: string) => () => {
  throw new Error(`${what} away`);
};
const run = <T>(workflow: string, args: unknown[], workflowId = `${workflow}-${Date.now()}-${Math.random()}`) =>
  bed.env.client.workflow.execute(workflow, { taskQueue: QUEUE, workflowId, args }) as Promise<T>;
/** Each gap is its wait, plus no more than the worker's processing. */
function expectGaps(times: number[], waits: number[]): void {
  const spans = gaps(times);
  expect(spans).toHaveLength(waits.length);
  spans.forEach((gap, i) => {
    expect(gap).toBeGreaterThanOrEqual(waits[i]!);
    expect(gap).toBeLessThan(waits[i]! + PROCESSING_MS);
  });
}

describe('the health round trip (workflows/health.ts, as the full readiness check runs it)', () => {
  it("ends with the worker's answer", async () => {
    const health: WorkerHealth = { worker: 'unit worker', postgres: 'ok', checkedAt: '2026-01-01T00:00:00.000Z' };
    answers.workerHealth = () => health;
    expect(await run('healthCheckWorkflow', [])).toEqual(health);
    await runHealthWorkflow(bed.env.client, PREFIX);
    expect(callsOf('workerHealth')).toHaveLength(2);
  });

  it('tries a worker that cannot reach Postgres twice, a second apart, then fails, within 20 s in all', async () => {
    answers.workerHealth = away('Postgres');
    const workflowId = `health-failing-${Date.now()}`;
    await expect(run('healthCheckWorkflow', [], workflowId)).rejects.toBeInstanceOf(WorkflowFailedError);
    expectGaps(
      callsOf('workerHealth').map((c) => c.atMs),
      [SECOND],
    );
    const scheduled = await bed.scheduledActivity(workflowId, 'workerHealth');
    expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(20 * SECOND);
    expect(durationMs(scheduled.startToCloseTimeout)).toBe(10 * SECOND);
    // As the readiness check runs it: a failed round trip is a failed check.
    await expect(runHealthWorkflow(bed.env.client, PREFIX)).rejects.toBeInstanceOf(WorkflowFailedError);
  });
});

describe('the reconcilers (workflows/reconcile.ts)', () => {
  const report: ReconcileReport = { checked: 4, failed: ['scan-a'], failedFlowRuns: [], deletionsStarted: [9] };
  const targets: TargetReconcileReport = {
    targets: 3,
    schedules: 2,
    created: [3],
    paused: [],
    resumed: [],
    deleted: [8],
  };
  const flows: FlowReconcileReport = { monitored: 1, schedules: 0, created: [5], deleted: [] };

  it("of scans: ends with the activity's report, retrying it after 10 s, then 20 s", async () => {
    answers.reconcileStaleScans = (attempt: number) => (attempt < 3 ? away('Postgres')() : report);
    expect(await run('reconcileScansWorkflow', [])).toEqual(report);
    expectGaps(
      callsOf('reconcileStaleScans').map((c) => c.atMs),
      [10 * SECOND, 20 * SECOND],
    );
  });

  it('of scans: fails after 3 attempts', async () => {
    answers.reconcileStaleScans = away('Temporal');
    await expect(run('reconcileScansWorkflow', [])).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(callsOf('reconcileStaleScans').map((c) => c.attempt)).toEqual([1, 2, 3]);
  });

  it("of schedules: the targets' schedules first, then the monitored flows', in one report", async () => {
    answers.reconcileTargetSchedules = () => targets;
    answers.reconcileFlowSchedules = () => flows;
    expect(await run('reconcileTargetsWorkflow', [])).toEqual({ ...targets, flows });
    expect(calls.map((c) => c.name)).toEqual(['reconcileTargetSchedules', 'reconcileFlowSchedules']);
  });

  it("of schedules: fails after 3 attempts at the targets' schedules, leaving the flows' alone", async () => {
    answers.reconcileTargetSchedules = away('Postgres');
    answers.reconcileFlowSchedules = () => flows;
    await expect(run('reconcileTargetsWorkflow', [])).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(calls.map((c) => [c.name, c.attempt])).toEqual([
      ['reconcileTargetSchedules', 1],
      ['reconcileTargetSchedules', 2],
      ['reconcileTargetSchedules', 3],
    ]);
  });
});

describe('one alert e-mail (workflows/alert-emails.ts)', () => {
  const email = (retry?: EmailRetry): AlertEmailInput => ({
    alertId: 5,
    change: 'raised',
    ...(retry ? { retry } : {}),
  });

  it("ends with the send's outcome, for this alert and change", async () => {
    answers.sendAlertEmail = () => 'sent_before';
    expect(await run('alertEmailWorkflow', [email()])).toBe('sent_before');
    expect(callsOf('sendAlertEmail').map((c) => c.args)).toEqual([[5, 'raised']]);
  });

  it('retries while the SMTP server fails with the retry given: doubling from its first wait up to its longest', async () => {
    answers.sendAlertEmail = (attempt: number) => (attempt < 6 ? away('SMTP server')() : 'sent');
    const retry: EmailRetry = { initialInterval: '10 seconds', maximumInterval: '40 seconds', giveUpAfter: '1 hour' };
    expect(await run('alertEmailWorkflow', [email(retry)])).toBe('sent');
    expectGaps(
      callsOf('sendAlertEmail').map((c) => c.atMs),
      [10, 20, 40, 40, 40].map((s) => s * SECOND),
    );
  });

  it('by default retries from 30 s on, at most hourly, and gives up after a day', async () => {
    answers.sendAlertEmail = (attempt: number) => (attempt < 3 ? away('SMTP server')() : 'sent');
    const workflowId = `alert-email-default-${Date.now()}`;
    expect(await run('alertEmailWorkflow', [email()], workflowId)).toBe('sent');
    expectGaps(
      callsOf('sendAlertEmail').map((c) => c.atMs),
      [30 * SECOND, 60 * SECOND],
    );
    const scheduled = await bed.scheduledActivity(workflowId, 'sendAlertEmail');
    expect(durationMs(scheduled.retryPolicy?.maximumInterval)).toBe(HOUR);
    expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(24 * HOUR);
  });

  it('gives up when the next attempt would come after its limit: the e-mail workflow fails', async () => {
    answers.sendAlertEmail = away('SMTP server');
    const retry: EmailRetry = {
      initialInterval: '10 seconds',
      maximumInterval: '40 seconds',
      giveUpAfter: '2 minutes',
    };
    await expect(run('alertEmailWorkflow', [email(retry)])).rejects.toBeInstanceOf(WorkflowFailedError);
    const times = callsOf('sendAlertEmail').map((c) => c.atMs);
    // At 0, 10, 30, 70 and 110 s; the next one, at 150 s, would be past the 2 minutes.
    expectGaps(
      times,
      [10, 20, 40, 40].map((s) => s * SECOND),
    );
  });

  it('does not retry an e-mail the SMTP server refused for good', async () => {
    answers.sendAlertEmail = () => {
      throw ApplicationFailure.nonRetryable('550 mailbox unavailable', 'PermanentMailError');
    };
    await expect(run('alertEmailWorkflow', [email()])).rejects.toBeInstanceOf(WorkflowFailedError);
    expect(callsOf('sendAlertEmail')).toHaveLength(1);
  });
});

describe('one webhook delivery (workflows/webhook-delivery.ts)', () => {
  /** A receiver failing each attempt, as the activity reports it: `failed` on the attempt marked final. */
  const receiverDown =
    (retryAfterMs: (attempt: number) => number | null = () => null) =>
    (_temporalAttempt: number, _deliveryId: number, final: boolean): AttemptResult => ({
      outcome: final ? 'failed' : 'retry',
      retryAfterMs: retryAfterMs(callsOf('attemptWebhookDelivery').length),
    });
  const deliver = (input: WebhookDeliveryInput, workflowId?: string) =>
    run<AttemptOutcomeKind>('webhookDeliveryWorkflow', [input], workflowId);
  const attempts = () => callsOf('attemptWebhookDelivery');
  const finals = () => attempts().map((c) => c.args[1]);

  it('makes an attempt now and one after each wait of its schedule, only the last one final; then the delivery has failed', async () => {
    answers.attemptWebhookDelivery = receiverDown();
    expect(await deliver({ deliveryId: 1, schedule: [5 * SECOND, MINUTE, 10 * MINUTE] })).toBe('failed');
    expect(attempts().map((c) => c.args[0])).toEqual([1, 1, 1, 1]);
    expect(finals()).toEqual([false, false, false, true]);
    expectGaps(
      attempts().map((c) => c.atMs),
      [5 * SECOND, MINUTE, 10 * MINUTE],
    );
  });

  it("waits as long as a receiver's Retry-After asks when that is longer than the schedule's wait, at most 10 hours", async () => {
    const retryAfter = [2 * MINUTE, SECOND, 100 * HOUR];
    answers.attemptWebhookDelivery = (temporalAttempt: number, deliveryId: number, final: boolean): AttemptResult =>
      attempts().length === 4
        ? { outcome: 'succeeded', retryAfterMs: null }
        : receiverDown((n) => retryAfter[n - 1] ?? null)(temporalAttempt, deliveryId, final);
    expect(await deliver({ deliveryId: 2, schedule: [5 * SECOND, 5 * SECOND, 5 * SECOND, 5 * SECOND] })).toBe(
      'succeeded',
    );
    expectGaps(
      attempts().map((c) => c.atMs),
      [2 * MINUTE, 5 * SECOND, 10 * HOUR],
    );
  });

  it.each<AttemptOutcomeKind>(['succeeded', 'gone', 'not_sent'])(
    'ends at once with an attempt that comes to %s',
    async (outcome) => {
      answers.attemptWebhookDelivery = (_attempt: number, _id: number, final: boolean) =>
        attempts().length === 2 ? { outcome, retryAfterMs: null } : receiverDown()(_attempt, _id, final);
      expect(await deliver({ deliveryId: 3, schedule: [5 * SECOND, 5 * SECOND, 5 * SECOND] })).toBe(outcome);
      expect(attempts()).toHaveLength(2);
    },
  );

  it('makes one attempt, marked final, for a single delivery (a resend)', async () => {
    answers.attemptWebhookDelivery = receiverDown();
    expect(await deliver({ deliveryId: 4, single: true, schedule: [5 * SECOND] })).toBe('failed');
    expect(finals()).toEqual([true]);
  });

  it('after a first attempt made before it started: ends with an ending outcome at once, goes on with the next wait after a failed one, and fails with nothing left of the schedule', async () => {
    expect(await deliver({ deliveryId: 5, after: { attempts: 1, outcome: 'succeeded', retryAfterMs: null } })).toBe(
      'succeeded',
    );
    expect(attempts()).toEqual([]);

    const schedule = [30 * SECOND, MINUTE];
    expect(
      await deliver({ deliveryId: 5, schedule, after: { attempts: 3, outcome: 'retry', retryAfterMs: null } }),
    ).toBe('failed');
    expect(attempts()).toEqual([]);

    answers.attemptWebhookDelivery = receiverDown();
    const workflowId = `webhook-after-${Date.now()}`;
    const handle = await bed.env.client.workflow.start('webhookDeliveryWorkflow', {
      taskQueue: QUEUE,
      workflowId,
      args: [{ deliveryId: 6, schedule, after: { attempts: 1, outcome: 'retry', retryAfterMs: 45 * SECOND } }],
    });
    expect(await handle.result()).toBe('failed');
    const startedAt = (await handle.describe()).startTime.getTime();
    // The second attempt after the first's Retry-After (longer than the schedule's 30 s), the third, final, a minute later.
    expect(finals()).toEqual([false, true]);
    expectGaps([startedAt, ...attempts().map((c) => c.atMs)], [45 * SECOND, MINUTE]);
  });

  it("retries the activity itself while the worker has trouble (Postgres away, the account's attempt slots taken), without using up the schedule", async () => {
    const workflowId = `webhook-trouble-${Date.now()}`;
    answers.attemptWebhookDelivery = (temporalAttempt: number, deliveryId: number, final: boolean) => {
      if (attempts().length === 1) throw new Error('Postgres away');
      if (attempts().length === 2)
        throw ApplicationFailure.create({
          type: 'WebhookAccountBusy',
          message: 'account 1 has every webhook attempt slot taken',
          nextRetryDelay: '45 seconds',
        });
      return receiverDown()(temporalAttempt, deliveryId, final);
    };
    expect(await deliver({ deliveryId: 7, schedule: [5 * SECOND] }, workflowId)).toBe('failed');
    // Three tries at the first attempt (after 1 s, then after the wait the busy account asked for), then the second.
    expect(attempts().map((c) => [c.attempt, c.args[1]])).toEqual([
      [1, false],
      [2, false],
      [3, false],
      [1, true],
    ]);
    expectGaps(
      attempts().map((c) => c.atMs),
      [SECOND, 45 * SECOND, 5 * SECOND],
    );
    const scheduled = await bed.scheduledActivity(workflowId, 'attemptWebhookDelivery');
    expect(durationMs(scheduled.startToCloseTimeout)).toBe(MINUTE);
    expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(6 * HOUR);
    expect(durationMs(scheduled.retryPolicy?.maximumInterval)).toBe(MINUTE);
  });
});
