import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { AlertActivities } from '../../../activities/alerts.ts';
import type { DispatchedTargetScan, TargetActivities } from '../../../activities/targets.ts';
import { newPublicId, PUBLIC_ID_PATTERN } from '../../../core/ids.ts';
import {
  alertEmailWorkflowId,
  HostAttribute,
  mainTaskQueue,
  scanSummary,
  scanTaskQueue,
  ScanIdAttribute,
  scanWorkflowId,
  SCAN_SLOT_SIGNALS,
  TargetIdAttribute,
  targetConfirmWorkflowId,
} from '../../../core/temporal.ts';
import type {
  AlertEvaluation,
  ConfirmationEvaluation,
  ConfirmationInput,
} from '../../../core/monitoring/alert-evaluation.ts';
import type { EmailRetry } from '../../../workflows/alert-emails.ts';
import type { TargetConfirmInput, TargetConfirmOutcome } from '../../../workflows/target-confirm.ts';
import type { TargetScanOutcome } from '../../../workflows/target-scan.ts';
import { crash, scanStubs, type ScriptedScan } from './scan-stubs.ts';
import { durationMs, gaps, workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * The workflows of monitored targets on the time-skipping test server with stubbed activities:
 * workflows/target-scan.ts (what a target's schedule starts) with its child scan workflow and the alert
 * evaluation after it (target-scan-run.ts, target-alerts.ts, alert-emails.ts), and the confirmation of
 * regression candidates (target-confirm.ts).
 */
const PREFIX = 'unit-target';
const MAIN_QUEUE = mainTaskQueue(PREFIX);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const PROCESSING_MS = SECOND;

let bed: WorkflowTestbed;
let stubs: ReturnType<typeof scanStubs>;
/** Per target: the dispatch's answers per attempt (an Error is thrown), else the target is gone. */
const dispatchScripts = new Map<number, (attempt: number, publicId: string) => DispatchedTargetScan | null>();
const dispatchCalls: Array<{ targetId: number; publicId: string; attempt: number; trigger?: string }> = [];
/** Per target: how its dispatched scans run (a finished one-run scan in region eu unless said otherwise). */
const scanScripts = new Map<number, Partial<ScriptedScan>>();
const confirmations: Array<ConfirmationInput & { attempt: number; atMs: number }> = [];
const defaultConfirm = async (input: ConfirmationInput): Promise<ConfirmationEvaluation> => ({
  outcome: 'evaluated',
  changes: [],
  emails: [{ alertId: 61, change: 'raised' }],
  confirmed: input.keys,
});
let confirm: (input: ConfirmationInput, attempt: number) => Promise<ConfirmationEvaluation> = defaultConfirm;
let evaluate: (scanPublicId: string, attempt: number) => Promise<AlertEvaluation> = async () => evaluation([]);
const evaluated: string[] = [];
const evaluations: Array<{ scanPublicId: string; attempt: number; atMs: number }> = [];
let sendEmail: (attempt: number, alertId: number) => Promise<'sent'> = async () => 'sent';
const emailAttempts: Array<{ alertId: number; atMs: number }> = [];

const evaluation = (emails: AlertEvaluation['emails']): AlertEvaluation => ({
  outcome: 'evaluated',
  changes: [],
  emails,
});

beforeAll(async () => {
  bed = await workflowTestbed();
  stubs = scanStubs(bed, PREFIX);
  const targets: Pick<TargetActivities, 'dispatchTargetScan'> = {
    async dispatchTargetScan({ targetId, publicId, trigger }) {
      const { attempt } = Context.current().info;
      dispatchCalls.push({ targetId, publicId, attempt, ...(trigger ? { trigger } : {}) });
      const dispatched = dispatchScripts.get(targetId)?.(attempt, publicId) ?? null;
      if (dispatched)
        stubs.scans.set(publicId, {
          region: 'eu',
          accountId: targetId,
          runs: 1,
          scanPage: async () => ({ status: 'finished' }),
          ...scanScripts.get(targetId),
        });
      return dispatched;
    },
  };
  const alerts: Pick<AlertActivities, 'evaluateTargetAlerts' | 'sendAlertEmail' | 'confirmTargetRegressions'> = {
    async confirmTargetRegressions(input) {
      const { attempt } = Context.current().info;
      confirmations.push({ ...input, attempt, atMs: await bed.now() });
      return confirm(input, attempt);
    },
    async evaluateTargetAlerts(scanPublicId) {
      const { attempt } = Context.current().info;
      evaluated.push(scanPublicId);
      evaluations.push({ scanPublicId, attempt, atMs: await bed.now() });
      return evaluate(scanPublicId, attempt);
    },
    async sendAlertEmail(alertId) {
      emailAttempts.push({ alertId, atMs: await bed.now() });
      return sendEmail(Context.current().info.attempt, alertId);
    },
  };
  await bed.worker(MAIN_QUEUE, { ...stubs.main, ...targets, ...alerts });
  await stubs.serveRegions(['eu', 'stalled']);
}, 60_000);
afterAll(() => bed?.teardown());

const dispatched = (publicId: string, region = 'eu'): DispatchedTargetScan => ({
  publicId,
  host: 'shop.example',
  region,
  scanTaskQueue: scanTaskQueue(PREFIX, region),
});

async function runTarget(
  targetId: number,
  scanId?: string,
): Promise<{ outcome: TargetScanOutcome; closedAtMs: number }> {
  const handle = await bed.env.client.workflow.start('targetScanWorkflow', {
    taskQueue: MAIN_QUEUE,
    workflowId: `target-${targetId}-${Date.now()}`,
    args: [scanId === undefined ? { targetId } : { targetId, scanId }],
  });
  const outcome = (await handle.result()) as TargetScanOutcome;
  return { outcome, closedAtMs: (await handle.describe()).closeTime!.getTime() };
}

it('runs nothing for a target that is gone or paused', async () => {
  const requestsBefore = stubs.calls.length;
  const { outcome } = await runTarget(1);
  expect(outcome).toEqual({ dispatched: false });
  expect(stubs.calls.length).toBe(requestsBefore);
  expect(evaluated).toEqual([]);
});

it('retries a failed dispatch with the same scan id, runs the scan as a child scan workflow, then evaluates its alerts', async () => {
  dispatchScripts.set(2, (attempt, publicId) => (attempt < 3 ? crash(attempt) : dispatched(publicId)));
  const { outcome } = await runTarget(2);

  const calls = dispatchCalls.filter((c) => c.targetId === 2);
  expect(calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
  const publicId = calls[0]!.publicId;
  expect(publicId).toMatch(new RegExp(PUBLIC_ID_PATTERN));
  expect(calls.map((c) => c.publicId)).toEqual([publicId, publicId, publicId]);
  expect(outcome).toEqual({ dispatched: true, scanId: publicId, outcome: { status: 'finished' } });
  const child = await bed.env.client.workflow.getHandle(scanWorkflowId(publicId)).describe();
  expect(child.type).toBe('scanWorkflow');
  expect(child.typedSearchAttributes.get(TargetIdAttribute)).toBe('2');
  expect(stubs.callsOf(publicId).map((c) => c.what)).toEqual(['request', 'running', 'attempt']);
  expect(evaluated).toEqual([publicId]);
});

it('gives every run of a target a scan id of its own', async () => {
  dispatchScripts.set(3, (_attempt, publicId) => dispatched(publicId));
  const first = await runTarget(3);
  const second = await runTarget(3);
  expect(first.outcome.dispatched && second.outcome.dispatched).toBe(true);
  if (first.outcome.dispatched && second.outcome.dispatched)
    expect(first.outcome.scanId).not.toBe(second.outcome.scanId);
});

it('runs the scan a run now stored, under its id, as a child scan workflow, then evaluates its alerts', async () => {
  const scanId = '01kzzzzzzzzzzzzzzzzzzzzzz7';
  dispatchScripts.set(7, (_attempt, publicId) => dispatched(publicId));
  const { outcome } = await runTarget(7, scanId);
  expect(dispatchCalls.filter((c) => c.targetId === 7).map((c) => c.publicId)).toEqual([scanId]);
  expect(outcome).toEqual({ dispatched: true, scanId, outcome: { status: 'finished' } });
  const child = await bed.env.client.workflow.getHandle(scanWorkflowId(scanId)).describe();
  expect(child.typedSearchAttributes.get(TargetIdAttribute)).toBe('7');
  expect(evaluated).toContain(scanId);
});

it("still ends with the scan's outcome when its alerts cannot be evaluated", async () => {
  dispatchScripts.set(5, (_attempt, publicId) => dispatched(publicId));
  evaluate = async () => {
    throw ApplicationFailure.nonRetryable('alert rules broke');
  };
  try {
    const { outcome } = await runTarget(5);
    expect(outcome).toMatchObject({ dispatched: true, outcome: { status: 'finished' } });
    expect(evaluated.at(-1)).toBe(outcome.dispatched ? outcome.scanId : null);
  } finally {
    evaluate = async () => evaluation([]);
  }
});

/** An e-mail retry shorter than the default (30 s to hourly, for a day), as callers may pass it. */
const EMAIL_RETRY: EmailRetry = { initialInterval: '10 seconds', maximumInterval: '1 minute', giveUpAfter: '1 hour' };

async function runConfirmation(input: TargetConfirmInput): Promise<TargetConfirmOutcome> {
  return (await bed.env.client.workflow.execute('targetConfirmWorkflow', {
    taskQueue: MAIN_QUEUE,
    workflowId: targetConfirmWorkflowId(input.targetId, input.candidateScanId),
    args: [input],
  })) as TargetConfirmOutcome;
}

async function runAlerts(scanPublicId: string, emailRetry?: EmailRetry): Promise<AlertEvaluation | null> {
  return (await bed.env.client.workflow.execute('targetAlertsWorkflow', {
    taskQueue: MAIN_QUEUE,
    workflowId: `target-alerts-${scanPublicId}-${Date.now()}`,
    args: [emailRetry ? { scanPublicId, emailRetry } : { scanPublicId }],
  })) as AlertEvaluation | null;
}

const confirmationsOf = (candidateScanId: string) => confirmations.filter((c) => c.candidateScanId === candidateScanId);
const inputOf = ({ candidateScanId, confirmationScanId, keys }: ConfirmationInput): ConfirmationInput => ({
  candidateScanId,
  confirmationScanId,
  keys,
});

/** The e-mail's activity options as the workflow gave them to the server: its retry, from the caller's EmailRetry. */
async function emailRetryOf(workflowId: string) {
  const { retryPolicy, scheduleToCloseTimeout } = await bed.scheduledActivity(workflowId, 'sendAlertEmail');
  return {
    initialMs: durationMs(retryPolicy?.initialInterval),
    maximumMs: durationMs(retryPolicy?.maximumInterval),
    giveUpMs: durationMs(scheduleToCloseTimeout),
  };
}

describe('the confirmation workflow (workflows/target-confirm.ts), started on its own', () => {
  it('runs nothing for a target that is gone or paused by now', async () => {
    const candidateScanId = newPublicId();
    expect(await runConfirmation({ targetId: 10, candidateScanId, keys: ['mobile.lcp'] })).toEqual({
      dispatched: false,
    });
    const calls = dispatchCalls.filter((c) => c.targetId === 10);
    expect(calls).toEqual([
      { targetId: 10, publicId: expect.stringMatching(PUBLIC_ID_PATTERN), attempt: 1, trigger: 'confirmation' },
    ]);
    expect(calls[0]!.publicId).not.toBe(candidateScanId);
    expect(stubs.callsOf(calls[0]!.publicId)).toEqual([]);
    expect(confirmationsOf(candidateScanId)).toEqual([]);
  });

  it('judges nothing and sends nothing when its scan did not finish', async () => {
    dispatchScripts.set(11, (_attempt, publicId) => dispatched(publicId));
    scanScripts.set(11, { scanPage: async () => ({ status: 'failed', code: 'http_error' }) });
    const candidateScanId = newPublicId();
    const emailsBefore = emailAttempts.length;
    const outcome = await runConfirmation({ targetId: 11, candidateScanId, keys: ['score'] });
    const [call] = dispatchCalls.filter((c) => c.targetId === 11);
    expect(outcome).toEqual({
      dispatched: true,
      scanId: call!.publicId,
      outcome: { status: 'failed', code: 'http_error' },
      evaluation: null,
    });
    expect(stubs.callsOf(call!.publicId).map((c) => c.what)).toEqual(['request', 'running', 'attempt']);
    expect(confirmationsOf(candidateScanId)).toEqual([]);
    expect(emailAttempts.length).toBe(emailsBefore);
  });

  it('runs one more scan of the target at once as an ordinary scan, then judges the two together, retried from 1 s on while Postgres is away', async () => {
    dispatchScripts.set(12, (_attempt, publicId) => dispatched(publicId));
    // An alert raised whose e-mail is not due (its owner wants none): nothing to send.
    const judged: ConfirmationEvaluation = {
      outcome: 'evaluated',
      changes: [{ alertId: 121, type: 'metric_regression', change: 'raised' }],
      emails: [],
      confirmed: ['mobile.lcp'],
    };
    confirm = async (_input, attempt) => {
      if (attempt < 4) throw new Error('Postgres away');
      return judged;
    };
    try {
      const candidateScanId = newPublicId();
      const keys: TargetConfirmInput['keys'] = ['mobile.lcp', 'score'];
      const outcome = await runConfirmation({ targetId: 12, candidateScanId, keys });
      const [call, ...more] = dispatchCalls.filter((c) => c.targetId === 12);
      expect(more).toEqual([]);
      expect(call).toMatchObject({ trigger: 'confirmation' });
      const scanId = call!.publicId;
      expect(outcome).toEqual({ dispatched: true, scanId, outcome: { status: 'finished' }, evaluation: judged });

      // The scan runs as any scan of the target does: its own scan workflow, its search attributes and summary.
      const described = await bed.env.client.workflow.getHandle(scanWorkflowId(scanId)).describe();
      expect(described.type).toBe('scanWorkflow');
      expect(described.typedSearchAttributes.get(ScanIdAttribute)).toBe(scanId);
      expect(described.typedSearchAttributes.get(HostAttribute)).toBe('shop.example');
      expect(described.typedSearchAttributes.get(TargetIdAttribute)).toBe('12');
      expect(await described.staticSummary()).toBe(
        scanSummary({ host: 'shop.example', region: 'eu', publicId: scanId, targetId: 12 }),
      );
      const scanCalls = stubs.callsOf(scanId);
      expect(scanCalls.map((c) => c.what)).toEqual(['request', 'running', 'attempt']);

      // Judged once the scan has finished, the two scans together, every attempt with the same input.
      const attempts = confirmationsOf(candidateScanId);
      expect(attempts.map(inputOf)).toEqual(
        [1, 2, 3, 4].map(() => ({ candidateScanId, confirmationScanId: scanId, keys })),
      );
      expect(attempts[0]!.atMs).toBeGreaterThanOrEqual(scanCalls.at(-1)!.atMs);
      const spans = gaps(attempts.map((c) => c.atMs));
      console.log(`confirmation judgement retry gaps: ${spans.join(', ')} ms`);
      spans.forEach((gap, i) => {
        expect(gap).toBeGreaterThanOrEqual(SECOND * 2 ** i);
        expect(gap).toBeLessThan(SECOND * 2 ** i + PROCESSING_MS);
      });
      const judging = await bed.scheduledActivity(
        targetConfirmWorkflowId(12, candidateScanId),
        'confirmTargetRegressions',
      );
      expect(durationMs(judging.scheduleToCloseTimeout)).toBe(6 * HOUR);
      expect(durationMs(judging.retryPolicy?.maximumInterval)).toBe(MINUTE);
    } finally {
      confirm = defaultConfirm;
    }
  });

  it('fails, sending nothing, when its scans cannot be judged', async () => {
    dispatchScripts.set(13, (_attempt, publicId) => dispatched(publicId));
    confirm = async () => {
      throw ApplicationFailure.nonRetryable('the candidate scan is gone', 'ScanNotFound');
    };
    try {
      const candidateScanId = newPublicId();
      const emailsBefore = emailAttempts.length;
      await expect(runConfirmation({ targetId: 13, candidateScanId, keys: ['ttfb'] })).rejects.toBeInstanceOf(
        WorkflowFailedError,
      );
      expect(confirmationsOf(candidateScanId)).toHaveLength(1);
      expect(emailAttempts.length).toBe(emailsBefore);
    } finally {
      confirm = defaultConfirm;
    }
  });
});

describe('the alerts of a finished target scan (workflows/target-alerts.ts), on their own', () => {
  it('retry an evaluation that fails (Postgres away) from 1 s on, doubling, at most a minute apart, within 6 hours', async () => {
    const scanId = newPublicId();
    let failUntil = Infinity;
    evaluate = async (_scanPublicId, attempt) => {
      if (attempt === 1) failUntil = (await bed.now()) + 10 * MINUTE;
      if ((await bed.now()) < failUntil) throw new Error('Postgres away');
      return evaluation([]);
    };
    try {
      const workflowId = `target-alerts-outage-${scanId}`;
      const result = await bed.env.client.workflow.execute('targetAlertsWorkflow', {
        taskQueue: MAIN_QUEUE,
        workflowId,
        args: [{ scanPublicId: scanId }],
      });
      expect(result).toEqual(evaluation([]));
      const spans = gaps(evaluations.filter((e) => e.scanPublicId === scanId).map((e) => e.atMs));
      console.log(`alert evaluation retry gaps: ${spans.join(', ')} ms`);
      // 1, 2, 4, 8, 16, 32 s, then a minute apart until the outage is over.
      expect(spans.length).toBeGreaterThan(10);
      spans.forEach((gap, i) => {
        const wait = Math.min(SECOND * 2 ** i, MINUTE);
        expect(gap).toBeGreaterThanOrEqual(wait);
        expect(gap).toBeLessThan(wait + PROCESSING_MS);
      });
      const scheduled = await bed.scheduledActivity(workflowId, 'evaluateTargetAlerts');
      expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(6 * HOUR);
    } finally {
      evaluate = async () => evaluation([]);
    }
  });

  it('end with no evaluation, starting nothing, when the evaluation fails for good', async () => {
    const scanId = newPublicId();
    evaluate = async () => {
      throw ApplicationFailure.nonRetryable('alert rules broke');
    };
    try {
      const emailsBefore = emailAttempts.length;
      const dispatchesBefore = dispatchCalls.length;
      expect(await runAlerts(scanId)).toBeNull();
      expect(evaluations.filter((e) => e.scanPublicId === scanId)).toHaveLength(1);
      expect(emailAttempts.length).toBe(emailsBefore);
      expect(dispatchCalls.length).toBe(dispatchesBefore);
    } finally {
      evaluate = async () => evaluation([]);
    }
  });
});

/*
 * The tests from here on start workflows that outlive the one that started them (ParentClosePolicy ABANDON).
 * Once such a workflow ends after its parent has closed, the test server stops skipping time for the rest of
 * the file (docs/testing.md): every test that waits in skipped time comes before, and of these tests only the
 * first waits (before its e-mail has ended).
 */
describe('workflows started on their own (ParentClosePolicy ABANDON)', () => {
  it("starts each alert e-mail due as a workflow of its own, which retries from 30 s on and does not hold up the target's run", async () => {
    dispatchScripts.set(4, (_attempt, publicId) => dispatched(publicId));
    evaluate = async () => evaluation([{ alertId: 41, change: 'raised' }]);
    sendEmail = async (attempt) => {
      if (attempt < 3) throw new Error('SMTP server away');
      return 'sent';
    };
    try {
      const { outcome, closedAtMs } = await runTarget(4);
      expect(outcome.dispatched).toBe(true);

      const email = bed.env.client.workflow.getHandle(alertEmailWorkflowId(MAIN_QUEUE, 41, 'raised'));
      expect(await email.result()).toBe('sent');
      const times = emailAttempts.filter((a) => a.alertId === 41).map((a) => a.atMs);
      expect(times).toHaveLength(3);
      const [first, second] = [times[1]! - times[0]!, times[2]! - times[1]!];
      console.log(`alert e-mail retry gaps on the server's clock: ${first} ms, ${second} ms`);
      expect(first).toBeGreaterThanOrEqual(30 * SECOND);
      expect(first).toBeLessThan(30 * SECOND + PROCESSING_MS);
      expect(second).toBeGreaterThanOrEqual(60 * SECOND);
      expect(second).toBeLessThan(60 * SECOND + PROCESSING_MS);
      // The target's run had ended before the e-mail's first retry (parent close policy ABANDON).
      expect(closedAtMs).toBeLessThan(times[1]!);
    } finally {
      evaluate = async () => evaluation([]);
      sendEmail = async () => 'sent';
    }
  });

  it("the confirmation starts the e-mails of what it raised, after judging, with the confirmation's e-mail retry", async () => {
    dispatchScripts.set(15, (_attempt, publicId) => dispatched(publicId));
    const raised: ConfirmationEvaluation = {
      outcome: 'evaluated',
      changes: [{ alertId: 151, type: 'metric_regression', change: 'raised' }],
      emails: [{ alertId: 151, change: 'raised' }],
      confirmed: ['desktop.lcp'],
    };
    confirm = async () => raised;
    try {
      const candidateScanId = newPublicId();
      const outcome = await runConfirmation({
        targetId: 15,
        candidateScanId,
        keys: ['desktop.lcp'],
        emailRetry: EMAIL_RETRY,
      });
      expect(outcome).toMatchObject({ dispatched: true, outcome: { status: 'finished' }, evaluation: raised });
      const email = alertEmailWorkflowId(MAIN_QUEUE, 151, 'raised');
      expect(await bed.env.client.workflow.getHandle(email).result()).toBe('sent');
      const [sent] = emailAttempts.filter((a) => a.alertId === 151);
      expect(sent!.atMs).toBeGreaterThanOrEqual(confirmationsOf(candidateScanId)[0]!.atMs);
      expect(await emailRetryOf(email)).toEqual({ initialMs: 10 * SECOND, maximumMs: MINUTE, giveUpMs: HOUR });
    } finally {
      confirm = defaultConfirm;
    }
  });

  it('the alerts start the e-mails due and the confirmation, each once, with the e-mail retry given: a second evaluation of the scan while they run starts neither again', async () => {
    const scanId = newPublicId();
    // The confirmation's scan waits for a slot of a region whose dispatcher never grants one (until the test does).
    dispatchScripts.set(14, (_attempt, publicId) => dispatched(publicId, 'stalled'));
    scanScripts.set(14, { region: 'stalled' });
    const due: AlertEvaluation = {
      ...evaluation([{ alertId: 141, change: 'raised' }]),
      confirmation: { targetId: 14, host: 'shop.example', keys: ['desktop.tbt'] },
    };
    evaluate = async () => due;
    // The e-mail is held in its first attempt (the SMTP server slow) until the test lets it go.
    let smtpAnswers!: () => void;
    const answered = new Promise<void>((resolve) => (smtpAnswers = resolve));
    sendEmail = async (_attempt, alertId) => {
      if (alertId === 141) await answered;
      return 'sent';
    };
    confirm = async (input) => ({
      outcome: 'evaluated',
      changes: [],
      emails: [{ alertId: 142, change: 'raised' }],
      confirmed: input.keys,
    });
    try {
      expect(await runAlerts(scanId, EMAIL_RETRY)).toEqual(due);
      const confirmation = bed.env.client.workflow.getHandle(targetConfirmWorkflowId(14, scanId));
      const email = bed.env.client.workflow.getHandle(alertEmailWorkflowId(MAIN_QUEUE, 141, 'raised'));
      const [confirmationRun, emailRun] = await Promise.all([confirmation.describe(), email.describe()]);
      expect(confirmationRun.type).toBe('targetConfirmWorkflow');
      expect(confirmationRun.status.name).toBe('RUNNING');
      expect(confirmationRun.typedSearchAttributes.get(ScanIdAttribute)).toBe(scanId);
      expect(confirmationRun.typedSearchAttributes.get(HostAttribute)).toBe('shop.example');
      expect(confirmationRun.typedSearchAttributes.get(TargetIdAttribute)).toBe('14');
      expect(emailRun.status.name).toBe('RUNNING');

      // Evaluated again (an activity retried after its transaction committed): the same e-mail and confirmation
      // are due while both still run; the evaluation neither fails nor starts either a second time.
      expect(await runAlerts(scanId, EMAIL_RETRY)).toEqual(due);
      expect((await confirmation.describe()).runId).toBe(confirmationRun.runId);
      expect((await email.describe()).runId).toBe(emailRun.runId);
      const [call, ...more] = dispatchCalls.filter((c) => c.targetId === 14);
      expect(more).toEqual([]);
      expect(emailAttempts.filter((a) => a.alertId === 141)).toHaveLength(1);

      // The e-mail sent and the confirmation's scan granted its slot: both end; the confirmation judged the keys
      // the evaluation gave and sent its own e-mail with the retry given.
      smtpAnswers();
      expect(await email.result()).toBe('sent');
      await bed.env.client.workflow.getHandle(scanWorkflowId(call!.publicId)).signal(SCAN_SLOT_SIGNALS.granted);
      expect(await confirmation.result()).toMatchObject({
        dispatched: true,
        scanId: call!.publicId,
        outcome: { status: 'finished' },
      });
      expect(confirmationsOf(scanId).map(inputOf)).toEqual([
        { candidateScanId: scanId, confirmationScanId: call!.publicId, keys: ['desktop.tbt'] },
      ]);
      const email142 = alertEmailWorkflowId(MAIN_QUEUE, 142, 'raised');
      expect(await bed.env.client.workflow.getHandle(email142).result()).toBe('sent');
      for (const id of [alertEmailWorkflowId(MAIN_QUEUE, 141, 'raised'), email142])
        expect(await emailRetryOf(id)).toEqual({ initialMs: 10 * SECOND, maximumMs: MINUTE, giveUpMs: HOUR });
    } finally {
      smtpAnswers();
      evaluate = async () => evaluation([]);
      sendEmail = async () => 'sent';
      confirm = defaultConfirm;
    }
  });

  it('a scan with regression candidates starts their confirmation as a workflow of its own: one more scan of the target at once, judged with the first, then the e-mails of what it raised', async () => {
    dispatchScripts.set(6, (_attempt, publicId) => dispatched(publicId));
    evaluate = async (scanPublicId) => ({
      ...evaluation([]),
      ...(evaluated.filter((id) => id === scanPublicId).length === 1
        ? { confirmation: { targetId: 6, host: 'shop.example', keys: ['mobile.lcp' as const] } }
        : {}),
    });
    try {
      const { outcome, closedAtMs } = await runTarget(6);
      if (!outcome.dispatched) throw new Error('not dispatched');
      const handle = bed.env.client.workflow.getHandle(targetConfirmWorkflowId(6, outcome.scanId));
      const confirmed = (await handle.result()) as TargetConfirmOutcome;
      const described = await handle.describe();
      expect(described.type).toBe('targetConfirmWorkflow');
      expect(described.typedSearchAttributes.get(TargetIdAttribute)).toBe('6');
      expect(described.typedSearchAttributes.get(ScanIdAttribute)).toBe(outcome.scanId);
      // The target's run did not wait for it (ParentClosePolicy ABANDON).
      expect(closedAtMs).toBeLessThanOrEqual(described.closeTime!.getTime());

      if (!confirmed.dispatched) throw new Error('confirmation not dispatched');
      expect(confirmed.scanId).not.toBe(outcome.scanId);
      expect(dispatchCalls.filter((c) => c.targetId === 6).map((c) => c.trigger ?? 'schedule')).toEqual([
        'schedule',
        'confirmation',
      ]);
      const child = await bed.env.client.workflow.getHandle(scanWorkflowId(confirmed.scanId)).describe();
      expect(child.type).toBe('scanWorkflow');
      expect(child.typedSearchAttributes.get(TargetIdAttribute)).toBe('6');
      expect(
        confirmations
          .filter((c) => c.candidateScanId === outcome.scanId)
          .map(({ candidateScanId, confirmationScanId, keys }) => ({ candidateScanId, confirmationScanId, keys })),
      ).toEqual([{ candidateScanId: outcome.scanId, confirmationScanId: confirmed.scanId, keys: ['mobile.lcp'] }]);
      // The confirmation scan is judged with the first, never evaluated on its own.
      expect(evaluated).not.toContain(confirmed.scanId);
      expect(await bed.env.client.workflow.getHandle(alertEmailWorkflowId(MAIN_QUEUE, 61, 'raised')).result()).toBe(
        'sent',
      );
    } finally {
      evaluate = async () => evaluation([]);
    }
  });

  it('a scan evaluated again after its confirmation has ended does not start the confirmation a second time', async () => {
    const scanId = newPublicId();
    dispatchScripts.set(16, (_attempt, publicId) => dispatched(publicId));
    const due: AlertEvaluation = {
      ...evaluation([]),
      confirmation: { targetId: 16, host: 'shop.example', keys: ['mobile.lcp'] },
    };
    evaluate = async () => due;
    // Not confirmed: no alert was raised, so evaluating the scan again makes the same candidates.
    confirm = async () => ({ outcome: 'evaluated', changes: [], emails: [], confirmed: [] });
    try {
      expect(await runAlerts(scanId)).toEqual(due);
      const confirmation = bed.env.client.workflow.getHandle(targetConfirmWorkflowId(16, scanId));
      expect(await confirmation.result()).toMatchObject({ dispatched: true, outcome: { status: 'finished' } });
      const ended = await confirmation.describe();
      expect(ended.status.name).toBe('COMPLETED');

      // Evaluated again (by a targetAlertsWorkflow of its own, or a reset of the target's run): the evaluation
      // ends as the first did, and the confirmation that ended is not run again.
      expect(await runAlerts(scanId)).toEqual(due);
      const latest = await confirmation.describe();
      expect(latest.runId).toBe(ended.runId);
      expect(latest.status.name).toBe('COMPLETED');
      expect(dispatchCalls.filter((c) => c.targetId === 16).map((c) => c.trigger)).toEqual(['confirmation']);
      expect(confirmationsOf(scanId)).toHaveLength(1);
    } finally {
      evaluate = async () => evaluation([]);
      confirm = defaultConfirm;
    }
  });
});
