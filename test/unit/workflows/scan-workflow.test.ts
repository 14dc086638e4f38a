import { Context } from '@temporalio/activity';
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
import { startScanWorkflow } from '../../../infra/temporal-client.ts';
import { crash, scanStubs, type ScriptedScan } from './scan-stubs.ts';
import { slotsQuery } from '../../../workflows/scan-dispatch.ts';
import { workflowTestbed, type WorkflowTestbed } from './time-skipping.ts';

/**
 * workflows/scan.ts with its region's real dispatcher (workflows/scan-dispatch.ts) and stubbed activities, on
 * the time-skipping test server: the Lighthouse activity's retries and limits, the slot's release, the wait for a slot.
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
  await stubs.serveRegions(['eu', 'stalled']);
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
const gaps = (times: number[]) => times.slice(1).map((t, i) => t - times[i]!);

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

/** A protobuf Duration (seconds may be a Long) in ms. */
const durationMs = (
  d: { seconds?: { toString(): string } | number | null; nanos?: number | null } | null | undefined,
): number => Number(String(d?.seconds ?? 0)) * SECOND + (d?.nanos ?? 0) / 1e6;

// The test server does not skip time while an activity task waits for a worker, so the run limit itself is
// checked as the workflow hands it to the server: the Lighthouse activity's timeouts and retries in its history.
it.each([1, 3])(
  "gives the Lighthouse activity of a scan of %i run(s) its run limit, attempt limit, heartbeat timeout and retries, on the region's queue",
  async (runs) => {
    const publicId = await startScan({ runs, scanPage: async () => ({ status: 'finished' }) });
    expect(await outcomeOf(publicId)).toEqual({ status: 'finished' });

    const { events } = await bed.env.client.workflow.getHandle(scanWorkflowId(publicId)).fetchHistory();
    const scheduled = (events ?? [])
      .map((e) => e.activityTaskScheduledEventAttributes)
      .find((a) => a?.activityType?.name === 'scanPage')!;
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

/**
 * Waits for `done` while heartbeating, as the real Lighthouse activity does: the test server's clock runs in
 * real time while the test polls, so a silent wait longer than the heartbeat timeout would fail the attempt.
 */
async function heartbeatUntil(done: Promise<void>): Promise<void> {
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), SECOND);
  try {
    await done;
  } finally {
    clearInterval(beat);
  }
}

async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; !(await condition()); i++) {
    if (i > 200) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
