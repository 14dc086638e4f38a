import type { ScanOutcome } from '../../../activities/scan.ts';
import { newPublicId } from '../../../core/ids.ts';
import {
  SCAN_ATTEMPTS,
  scanActivityTimeoutMs,
  scanRunLimitMs,
  SLOT_REQUEST_REPEAT,
} from '../../../core/scan/lifecycle.ts';
import type { SlotsView } from '../../../core/scan/slots.ts';
import {
  SCAN_SLOT_SIGNALS,
  mainTaskQueue,
  scanDispatcherWorkflowId,
  scanTaskQueue,
  scanWorkflowId,
} from '../../../core/temporal.ts';
import { requestScanSlot, startScanWorkflow } from '../../../infra/temporal-client.ts';
import { crash, scanStubs, type ScanCall, type ScriptedScan } from './scan-stubs.ts';
import { slotsQuery } from '../../../workflows/scan-dispatch.ts';
import { durationMs, gaps, heartbeatUntil, waitFor, workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * workflows/scan.ts with its region's real dispatcher (workflows/scan-dispatch.ts) and stubbed activities, on
 * the time-skipping test server: the Lighthouse activity's retries and limits, the slot's release, the wait for a
 * slot; then the dispatcher's own decisions (holder check, undeliverable grants, idle exit, repeated grants,
 * continue-as-new).
 */
const PREFIX = 'unit-scan';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
/** What a step may come later than its wait: the worker's own processing (tens of ms here), which passes on the server's clock too; under the smallest difference between a right and a wrong wait. */
const PROCESSING_MS = SECOND;

let bed: WorkflowTestbed;
let stubs: ReturnType<typeof scanStubs>;

beforeAll(async () => {
  bed = await workflowTestbed();
  stubs = scanStubs(bed, PREFIX);
  await bed.worker(mainTaskQueue(PREFIX), stubs.main);
  await stubs.serveRegions(['eu', 'stalled', 'east', 'west', 'north', 'south', 'cont']);
}, 60_000);
afterAll(() => bed?.teardown());

async function startScan(script: Partial<ScriptedScan> & Pick<ScriptedScan, 'scanPage'>): Promise<string> {
  const publicId = newPublicId();
  stubs.scans.set(publicId, { region: 'eu', accountId: 1, runs: 1, ...script });
  await startScanWorkflow(bed.env.client, PREFIX, { publicId, host: 'example.com', region: script.region ?? 'eu' });
  return publicId;
}

const outcomeOf = (publicId: string): Promise<ScanOutcome> =>
  bed.env.client.workflow.getHandle(scanWorkflowId(publicId)).result();

it('retries a crashed Lighthouse attempt after 5 s, then 10 s, and ends with the attempt that succeeds', async () => {
  const publicId = await startScan({
    scanPage: async (attempt) => (attempt < 3 ? crash(attempt) : { status: 'finished' }),
  });

  expect(await outcomeOf(publicId)).toEqual({ status: 'finished' });
  const attempts = stubs.callsOf(publicId).filter((c) => c.what === 'attempt');
  expect(attempts.map((c) => c.attempt)).toEqual([1, 2, 3]);
  const [first, second] = gaps(attempts.map((c) => c.atMs));
  console.log(`retry gaps on the server's clock: ${first} ms, ${second} ms`);
  expect(first).toBeGreaterThanOrEqual(5 * SECOND);
  expect(first).toBeLessThan(5 * SECOND + PROCESSING_MS);
  expect(second).toBeGreaterThanOrEqual(10 * SECOND);
  expect(second).toBeLessThan(10 * SECOND + PROCESSING_MS);
  expect(stubs.callsOf(publicId).map((c) => c.what)).toEqual(['request', 'running', 'attempt', 'attempt', 'attempt']);
});

it(`fails the scan with scan_error after ${SCAN_ATTEMPTS} crashed attempts, and its slot goes to the next scan`, async () => {
  let releaseFirst!: () => void;
  const firstMayFinish = new Promise<void>((resolve) => (releaseFirst = resolve));
  // Both scans share the region's single slot: the second runs only once the first has given its slot back.
  const failing = await startScan({
    scanPage: async (attempt) => (await heartbeatUntil(firstMayFinish), crash(attempt)),
  });
  // The next scan is started only once the first holds the slot: two scans started together race their slot
  // requests to the dispatcher, and the one whose request arrives first is rightly served first.
  let next: string;
  try {
    await waitFor(async () => stubs.callsOf(failing).some((c) => c.what === 'attempt'));
    next = await startScan({ accountId: 2, scanPage: async () => ({ status: 'finished' }) });
    const nextId = next;
    const nextRan = () => stubs.callsOf(nextId).some((c) => c.what === 'running');
    // Until its request has reached the dispatcher (queued, or wrongly granted), or it (wrongly) ran already.
    await waitFor(async () => {
      const { inFlight, waiting } = await slotsOf('eu');
      return nextRan() || (inFlight['2'] ?? 0) + (waiting['2'] ?? 0) > 0;
    });
    expect(nextRan()).toBe(false);
    expect(await slotsOf('eu')).toEqual({ capacity: 1, inFlight: { '1': 1 }, waiting: { '2': 1 } });
  } finally {
    releaseFirst(); // also when an expectation failed: a held activity would keep the workers from shutting down
  }

  expect(await outcomeOf(failing)).toEqual({ status: 'failed', code: 'scan_error' });
  expect(await outcomeOf(next)).toEqual({ status: 'finished' });
  const failed = stubs.callsOf(failing).find((c) => c.what === 'failed')!;
  expect(failed.code).toBe('scan_error');
  expect(failed.detail).toContain(`runner crashed on attempt ${SCAN_ATTEMPTS}`);
  expect(stubs.callsOf(failing).filter((c) => c.what === 'attempt')).toHaveLength(SCAN_ATTEMPTS);
  const nextRunning = stubs.callsOf(next).find((c) => c.what === 'running')!;
  expect(stubs.calls.indexOf(nextRunning)).toBeGreaterThan(stubs.calls.indexOf(failed));
});

// The test server does not skip time while an activity task waits for a worker, so the run limit itself is
// checked as the workflow hands it to the server: the Lighthouse activity's timeouts and retries in its history.
it.each([1, 3])(
  "gives the Lighthouse activity of a scan of %i run(s) its run limit, attempt limit, heartbeat timeout and retries, on the region's queue",
  async (runs) => {
    const publicId = await startScan({ runs, scanPage: async () => ({ status: 'finished' }) });
    expect(await outcomeOf(publicId)).toEqual({ status: 'finished' });

    const scheduled = await bed.scheduledActivity(scanWorkflowId(publicId), 'scanPage');
    expect(scheduled.taskQueue?.name).toBe(scanTaskQueue(PREFIX, 'eu'));
    expect(durationMs(scheduled.scheduleToCloseTimeout)).toBe(scanRunLimitMs(runs));
    expect(durationMs(scheduled.startToCloseTimeout)).toBe(scanActivityTimeoutMs(runs));
    expect(durationMs(scheduled.heartbeatTimeout)).toBe(20 * SECOND);
    expect(scheduled.retryPolicy?.maximumAttempts).toBe(SCAN_ATTEMPTS);
    expect(durationMs(scheduled.retryPolicy?.initialInterval)).toBe(5 * SECOND);
    expect(scheduled.retryPolicy?.backoffCoefficient).toBe(2);
    console.log(
      `${runs} run(s): run limit ${scanRunLimitMs(runs) / MINUTE} min, attempt limit ${scanActivityTimeoutMs(runs) / MINUTE} min`,
    );
  },
);

it(`waits queued while no slot is granted, repeating its request every ${SLOT_REQUEST_REPEAT}, and runs once granted`, async () => {
  const publicId = await startScan({ region: 'stalled', scanPage: async () => ({ status: 'finished' }) });
  await bed.env.sleep('25 minutes');
  const requests = stubs.callsOf(publicId).filter((c) => c.what === 'request');
  expect(requests).toHaveLength(3);
  expect(stubs.callsOf(publicId).some((c) => c.what === 'running')).toBe(false);
  for (const gap of gaps(requests.map((c) => c.atMs))) {
    expect(gap).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(gap).toBeLessThan(10 * MINUTE + PROCESSING_MS);
  }
  await bed.env.client.workflow.getHandle(scanWorkflowId(publicId)).signal(SCAN_SLOT_SIGNALS.granted);
  // The release goes to a dispatcher that does not exist: that must not fail the scan.
  expect(await outcomeOf(publicId)).toEqual({ status: 'finished' });
  expect(stubs.callsOf(publicId).map((c) => c.what)).toEqual(['request', 'request', 'request', 'running', 'attempt']);
});

/** The region's dispatcher's slots, as its query reports them. */
const slotsOf = (region: string): Promise<SlotsView> =>
  bed.env.client.workflow.getHandle(scanDispatcherWorkflowId(PREFIX, region)).query(slotsQuery);

describe('the region dispatcher (workflows/scan-dispatch.ts)', () => {
  /** A slot request as a scan of `accountId` makes it (the region's capacity and the account's cap: 1). */
  const request = (region: string, scanId: string, accountId: number) =>
    requestScanSlot(bed.env.client, PREFIX, region, { scanId, accountId, accountCap: 1, capacity: 1 });
  const dispatcher = (region: string) => bed.env.client.workflow.getHandle(scanDispatcherWorkflowId(PREFIX, region));
  const callOf = (publicId: string, what: ScanCall['what']) => stubs.callsOf(publicId).find((c) => c.what === what)!;
  const checksOf = (holder: string) => stubs.holderChecks.filter((c) => c.holders.includes(holder));
  const finished = async () => ({ status: 'finished' }) as const;

  it('takes back the slot of a scan whose workflow ended without releasing it at the next holder check, 30 s after the grant, and gives it to the next in line', async () => {
    // A scan whose release goes elsewhere (its own request went to a dispatcher that does not exist) holds the
    // region's only slot once the test's request for it is granted: it runs, ends, and never releases it here.
    const holder = await startScan({ region: 'stalled', scanPage: finished });
    const requestedAt = await bed.now();
    await request('west', holder, 1);
    // Started before any wait on a result (which skips time): it asks after the holder, and waits.
    const next = await startScan({ region: 'west', accountId: 2, scanPage: finished });
    expect(await outcomeOf(next)).toEqual({ status: 'finished' });
    expect(await outcomeOf(holder)).toEqual({ status: 'finished' });

    const [check, ...more] = checksOf(holder);
    expect(more).toEqual([]);
    expect(check!.ended).toEqual([holder]);
    console.log(
      `holder check ${check!.atMs - requestedAt} ms after the request; next scan running ${callOf(next, 'running').atMs - check!.atMs} ms after it`,
    );
    expect(check!.atMs - requestedAt).toBeGreaterThanOrEqual(30 * SECOND);
    expect(check!.atMs - requestedAt).toBeLessThan(30 * SECOND + PROCESSING_MS);
    expect(callOf(next, 'running').atMs).toBeGreaterThanOrEqual(check!.atMs);
    expect(callOf(next, 'running').atMs - check!.atMs).toBeLessThan(PROCESSING_MS);
    expect(await slotsOf('west')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });

  it('frees the slot of a scan whose workflow is gone at once, when its grant cannot be delivered', async () => {
    const gone = newPublicId();
    await request('north', gone, 1);
    const next = await startScan({ region: 'north', accountId: 2, scanPage: finished });
    expect(await outcomeOf(next)).toEqual({ status: 'finished' });
    // Not by a holder check: none ever saw the scan that was gone.
    expect(checksOf(gone)).toEqual([]);
    expect(callOf(next, 'running').atMs - callOf(next, 'request').atMs).toBeLessThan(PROCESSING_MS);
    expect(await slotsOf('north')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });

  it('ends 10 minutes after it was left with nothing to do; the next request starts it again', async () => {
    await request('east', newPublicId(), 1);
    const first = await dispatcher('east').describe();
    await dispatcher('east').result();
    const ended = await dispatcher('east').describe();
    const idleFor = ended.closeTime!.getTime() - first.startTime.getTime();
    console.log(`dispatcher ended ${idleFor} ms after it was started`);
    expect(idleFor).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(idleFor).toBeLessThan(10 * MINUTE + PROCESSING_MS);

    const next = await startScan({ region: 'east', scanPage: finished });
    expect(await outcomeOf(next)).toEqual({ status: 'finished' });
    expect((await dispatcher('east').describe()).runId).not.toBe(first.runId);
  });

  /** Skips 11 minutes of the server's clock; the dispatcher must have ended by then. Its close time. */
  async function endedIdle(region: string): Promise<number> {
    await bed.env.sleep('11 minutes');
    const ended = await dispatcher(region).describe();
    expect(ended.status.name).toBe('COMPLETED');
    return ended.closeTime!.getTime();
  }
  /** When the dispatcher last received a release (a slot given back, a request withdrawn), from its history. */
  async function lastReleaseAt(region: string): Promise<number> {
    const { events } = await dispatcher(region).fetchHistory();
    const release = (events ?? [])
      .filter((e) => e.workflowExecutionSignaledEventAttributes?.signalName === SCAN_SLOT_SIGNALS.release)
      .at(-1);
    if (!release) throw new Error(`the ${region} dispatcher received no release`);
    return Number(String(release.eventTime!.seconds)) * 1000 + (release.eventTime!.nanos ?? 0) / 1e6;
  }
  const expectIdleFor10Minutes = (idleFor: number, since: string) => {
    console.log(`dispatcher ended ${idleFor} ms after ${since}`);
    expect(idleFor).toBeGreaterThanOrEqual(10 * MINUTE);
    expect(idleFor).toBeLessThan(10 * MINUTE + PROCESSING_MS);
  };

  it('ends 10 minutes after its last slot was given back', async () => {
    const scan = await startScan({ region: 'south', scanPage: finished });
    expect(await outcomeOf(scan)).toEqual({ status: 'finished' });
    const closedAt = await endedIdle('south');
    expectIdleFor10Minutes(closedAt - (await lastReleaseAt('south')), 'the release');
  });

  it('ends 10 minutes after a holder check took back its last slot', async () => {
    // As in the holder check's test above: the slot's holder runs, ends, and never releases it here.
    const holder = await startScan({ region: 'stalled', scanPage: finished });
    await request('reclaim', holder, 1);
    expect(await outcomeOf(holder)).toEqual({ status: 'finished' });
    const closedAt = await endedIdle('reclaim');
    const [check, ...more] = checksOf(holder);
    expect(more).toEqual([]);
    expect(check!.ended).toEqual([holder]);
    expectIdleFor10Minutes(closedAt - check!.atMs, 'the holder check');
  });

  it('ends 10 minutes after its last slot was given back, a scan that withdrew its request meanwhile not holding it up', async () => {
    let done!: () => void;
    const mayFinish = new Promise<void>((resolve) => (done = resolve));
    const holder = await startScan({
      region: 'stalled',
      scanPage: async () => (await heartbeatUntil(mayFinish), { status: 'finished' }),
    });
    let waiter: string;
    try {
      await request('withdraw', holder, 1);
      await waitFor(async () => stubs.callsOf(holder).some((c) => c.what === 'attempt'));
      waiter = await startScan({ region: 'withdraw', accountId: 2, scanPage: finished });
      await waitFor(async () => (await slotsOf('withdraw')).waiting['2'] === 1);
      // Cancelled while it waits: its workflow withdraws the request.
      await bed.env.client.workflow.getHandle(scanWorkflowId(waiter)).cancel();
      await waitFor(async () => (await slotsOf('withdraw')).waiting['2'] === undefined);
      expect(await slotsOf('withdraw')).toEqual({ capacity: 1, inFlight: { '1': 1 }, waiting: {} });
      // The holder gives its slot back (its own release goes to the region it asked first).
      await dispatcher('withdraw').signal(SCAN_SLOT_SIGNALS.release, holder);
    } finally {
      done();
    }
    expect(await outcomeOf(holder)).toEqual({ status: 'finished' });
    const closedAt = await endedIdle('withdraw');
    expectIdleFor10Minutes(closedAt - (await lastReleaseAt('withdraw')), "the holder's release");
    expect(stubs.callsOf(waiter).map((c) => c.what)).toEqual(['request']);
  });

  it('sends the grant again to a scan holding a slot that asks again (its grant lost)', async () => {
    let done!: () => void;
    const mayFinish = new Promise<void>((resolve) => (done = resolve));
    const holder = await startScan({
      region: 'stalled',
      scanPage: async () => (await heartbeatUntil(mayFinish), { status: 'finished' }),
    });
    try {
      await request('regrant', holder, 1);
      await waitFor(async () => stubs.callsOf(holder).some((c) => c.what === 'attempt'));
      await request('regrant', holder, 1);
      await waitFor(async () => (await grantsTo(holder)) === 2);
      expect(await slotsOf('regrant')).toEqual({ capacity: 1, inFlight: { '1': 1 }, waiting: {} });
    } finally {
      done();
    }
    expect(await outcomeOf(holder)).toEqual({ status: 'finished' });
    expect(stubs.callsOf(holder).filter((c) => c.what === 'running')).toHaveLength(1);
  });

  it('continues as new when its history grows long, with the slots held and the scans waiting carried over, in their order', async () => {
    const handle = await bed.env.client.workflow.start('scanDispatcherWorkflow', {
      workflowId: scanDispatcherWorkflowId(PREFIX, 'cont'),
      taskQueue: mainTaskQueue(PREFIX),
      // Any history past a few events: every slot request makes the next run.
      args: [{ continueAfterEvents: 6 }],
    });
    let done!: () => void;
    const mayFinish = new Promise<void>((resolve) => (done = resolve));
    const first = await startScan({
      region: 'cont',
      scanPage: async () => (await heartbeatUntil(mayFinish), { status: 'finished' }),
    });
    let second: string;
    let third: string;
    try {
      await waitFor(async () => stubs.callsOf(first).some((c) => c.what === 'attempt'));
      second = await startScan({ region: 'cont', accountId: 2, scanPage: finished });
      await waitFor(async () => (await slotsOf('cont')).waiting['2'] === 1);
      const runWithSecond = (await dispatcher('cont').describe()).runId;
      third = await startScan({ region: 'cont', accountId: 3, scanPage: finished });
      await waitFor(async () => (await slotsOf('cont')).waiting['3'] === 1);
      await waitFor(async () => (await dispatcher('cont').describe()).runId !== runWithSecond);
      expect(runWithSecond).not.toBe(handle.firstExecutionRunId);
      expect(await slotsOf('cont')).toEqual({ capacity: 1, inFlight: { '1': 1 }, waiting: { '2': 1, '3': 1 } });
    } finally {
      done();
    }
    for (const scan of [first, second, third]) expect(await outcomeOf(scan)).toEqual({ status: 'finished' });
    expect(callOf(second, 'running').atMs).toBeLessThanOrEqual(callOf(third, 'running').atMs);
    expect(stubs.calls.indexOf(callOf(second, 'running'))).toBeLessThan(stubs.calls.indexOf(callOf(third, 'running')));
    expect(await slotsOf('cont')).toEqual({ capacity: 1, inFlight: {}, waiting: {} });
  });
});

/** How many grants a scan's workflow has been sent, from its history. */
async function grantsTo(publicId: string): Promise<number> {
  const { events } = await bed.env.client.workflow.getHandle(scanWorkflowId(publicId)).fetchHistory();
  return (events ?? []).filter(
    (e) => e.workflowExecutionSignaledEventAttributes?.signalName === SCAN_SLOT_SIGNALS.granted,
  ).length;
}
