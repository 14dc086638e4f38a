import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { AlertActivities } from '../../../activities/alerts.ts';
import type { DispatchedTargetScan, TargetActivities } from '../../../activities/targets.ts';
import { PUBLIC_ID_PATTERN } from '../../../core/ids.ts';
import {
  alertEmailWorkflowId,
  mainTaskQueue,
  scanTaskQueue,
  ScanIdAttribute,
  scanWorkflowId,
  TargetIdAttribute,
  targetConfirmWorkflowId,
} from '../../../core/temporal.ts';
import type { AlertEvaluation, ConfirmationInput } from '../../../core/monitoring/alert-evaluation.ts';
import type { TargetConfirmOutcome } from '../../../workflows/target-confirm.ts';
import type { TargetScanOutcome } from '../../../workflows/target-scan.ts';
import { crash, scanStubs } from './scan-stubs.ts';
import { workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * workflows/target-scan.ts (what a target's schedule starts) with its child scan workflow and the alert
 * evaluation after it, on the time-skipping test server with stubbed activities.
 */
const PREFIX = 'unit-target';
const MAIN_QUEUE = mainTaskQueue(PREFIX);
const SECOND = 1000;
const PROCESSING_MS = SECOND;

let bed: WorkflowTestbed;
let stubs: ReturnType<typeof scanStubs>;
/** Per target: the dispatch's answers per attempt (an Error is thrown), else the target is gone. */
const dispatchScripts = new Map<number, (attempt: number, publicId: string) => DispatchedTargetScan | null>();
const dispatchCalls: Array<{ targetId: number; publicId: string; attempt: number; trigger?: string }> = [];
const confirmations: ConfirmationInput[] = [];
let evaluate: (scanPublicId: string) => Promise<AlertEvaluation> = async () => evaluation([]);
const evaluated: string[] = [];
let sendEmail: (attempt: number) => Promise<'sent'> = async () => 'sent';
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
        });
      return dispatched;
    },
  };
  const alerts: Pick<AlertActivities, 'evaluateTargetAlerts' | 'sendAlertEmail' | 'confirmTargetRegressions'> = {
    async confirmTargetRegressions(input) {
      confirmations.push(input);
      return { outcome: 'evaluated', changes: [], emails: [{ alertId: 61, change: 'raised' }], confirmed: input.keys };
    },
    async evaluateTargetAlerts(scanPublicId) {
      evaluated.push(scanPublicId);
      return evaluate(scanPublicId);
    },
    async sendAlertEmail(alertId) {
      emailAttempts.push({ alertId, atMs: await bed.now() });
      return sendEmail(Context.current().info.attempt);
    },
  };
  await bed.worker(MAIN_QUEUE, { ...stubs.main, ...targets, ...alerts });
  await stubs.serveRegions(['eu']);
}, 60_000);
afterAll(() => bed?.teardown());

const dispatched = (publicId: string): DispatchedTargetScan => ({
  publicId,
  host: 'shop.example',
  region: 'eu',
  scanTaskQueue: scanTaskQueue(PREFIX, 'eu'),
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
    expect(confirmations).toEqual([
      { candidateScanId: outcome.scanId, confirmationScanId: confirmed.scanId, keys: ['mobile.lcp'] },
    ]);
    // The confirmation scan is judged with the first, never evaluated on its own.
    expect(evaluated).not.toContain(confirmed.scanId);
    expect(await bed.env.client.workflow.getHandle(alertEmailWorkflowId(MAIN_QUEUE, 61, 'raised')).result()).toBe(
      'sent',
    );
  } finally {
    evaluate = async () => evaluation([]);
  }
});
