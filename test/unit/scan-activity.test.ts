import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createScanActivities, type ScanOutcome } from '../../activities/scan.ts';
import type { RunnerResult, ScanRunInput, ScanRunner } from '../../activities/scan-runner.ts';
import { newPublicId } from '../../core/ids.ts';
import type { Scan } from '../../core/scan/scan.ts';
import type { LighthouseReportStore } from '../../db/store/lighthouse-reports.ts';
import type { ScanStore } from '../../db/store/scans.ts';
import type { WebhookStore } from '../../db/store/webhooks.ts';
import { loadConfig } from '../../infra/config.ts';
import { createLogger } from '../../infra/logger.ts';
import { localAssetStore } from '../../services/assets.ts';
import { cleanObservation } from './observation-builder.ts';

/**
 * The scan activity (activities/scan.ts, scanPage) on @temporalio/testing's MockActivityEnvironment, with
 * stand-in runners, for what is the activity's own doing: it heartbeats while its runner is quiet for longer
 * than the heartbeat timeout, aborts an attempt whose runner hangs past its time (even one that ignores the
 * signal), and tells its runner to stop when the activity is cancelled. Heartbeats and cancellation go through
 * the environment; jest's fake clock (timers and performance.now) lets a runner be quiet for 22 s in no time.
 * The scans' rows are a stand-in store in memory (the stored state is not the subject here), the images go to
 * the real asset store in a temporary folder. What needs Temporal's retry policy or Postgres (a crash retried
 * until scan_error, a runner process writing garbage, a page failure recorded once, the stored observation) is
 * in test/scans/scan-activity.test.ts, on the real Temporal server and Postgres.
 */
const { jest } = import.meta as ImportMeta & { jest: typeof globalThis.jest };

/** Longer than the scan activity's heartbeat timeout, so a run may outlast it (as the worker's tests set it). */
const ATTEMPT_LIMIT_MS = 25_000;
/** The Lighthouse activity's heartbeat timeout (workflows/scan.ts; test/unit/workflows/scan-workflow.test.ts reads it from the history). */
const HEARTBEAT_TIMEOUT_MS = 20_000;
const PAST_HEARTBEAT_TIMEOUT_MS = 22_000;
const IMAGE = Buffer.from('a JPEG, as far as the activity cares');

interface Call {
  input: ScanRunInput;
  signal: AbortSignal;
}
const calls: Call[] = [];
const callsFor = (path: string) => calls.filter((c) => new URL(c.input.url).pathname === path);
const never = new Promise<never>(() => undefined);

const observed = (url: string): RunnerResult => ({
  kind: 'observation',
  observation: cleanObservation({ requestedUrl: url, finalUrl: url }),
  images: [
    { name: 'desktop-final.jpg', bytes: IMAGE },
    { name: 'mobile-final.jpg', bytes: IMAGE },
  ],
});

/** What each path does; `attempt` counts from 1. */
const behaviours: Record<string, (input: ScanRunInput, signal: AbortSignal, attempt: number) => Promise<RunnerResult>> =
  {
    // Reports no progress for longer than the heartbeat timeout: the activity heartbeats for it meanwhile.
    '/slow': async (input) => {
      await new Promise((done) => setTimeout(done, PAST_HEARTBEAT_TIMEOUT_MS));
      return observed(input.url);
    },
    // Ignores its signal altogether: the activity must not wait for it.
    '/hang-once': async (input, _signal, attempt) => (attempt === 1 ? never : observed(input.url)),
    '/hang': (_input, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
  };

const standIn: ScanRunner = {
  run(input, { signal }) {
    calls.push({ input, signal });
    const path = new URL(input.url).pathname;
    return behaviours[path]!(input, signal, callsFor(path).length);
  },
};

/** A store of which the activity uses only `methods` here; any other method throws, naming itself. */
function storeStandIn<T extends object>(name: string, methods: Partial<T>): T {
  return new Proxy(methods, {
    get(target, key) {
      if (key in target) return target[key as keyof typeof target];
      return () => {
        throw new Error(`${name}.${String(key)} is not used by the scan activity`);
      };
    },
  }) as T;
}

/** The scans' rows, by public id, with the state transitions of db/store/scans.ts (each from the expected state only). */
const rows = new Map<string, Scan>();
const inFlight = (scan: Scan | undefined): scan is Scan => scan?.status === 'queued' || scan?.status === 'running';
// The scan's owner gets no webhooks: the outbox is asked and writes nothing.
const webhooks = storeStandIn<WebhookStore>('webhooks', { enqueue: async () => undefined });
const scans = storeStandIn<ScanStore>('scans', {
  async find(publicId) {
    const scan = rows.get(publicId);
    return scan && { ...scan };
  },
  async recordProgress(publicId, step) {
    const scan = rows.get(publicId);
    if (scan?.status === 'running') scan.progress = step;
  },
  async markFinishedWithOutbox(publicId, result, now, outbox, secretCheck = null) {
    const scan = rows.get(publicId);
    if (!inFlight(scan)) return null;
    Object.assign(scan, { status: 'finished', result, finishedAt: now, authSecret: null, secretCheck, progress: null });
    return outbox({ ...scan }, webhooks);
  },
  async markFailed(publicId, failure, now) {
    const scan = rows.get(publicId);
    if (!inFlight(scan)) return false;
    Object.assign(scan, { status: 'failed', failureCode: failure.code, finishedAt: now, authSecret: null });
    return true;
  },
});
const lighthouseReports = storeStandIn<LighthouseReportStore>('lighthouseReports', {
  saveWhileInFlight: async (publicId, reports) => (inFlight(rows.get(publicId)) ? reports.length : 0),
});

let assetsDir: string;
let logs = '';
let scanPage: ReturnType<typeof createScanActivities>['scanPage'];

beforeAll(() => {
  assetsDir = mkdtempSync(join(tmpdir(), 'webperf-assets-'));
  const config = loadConfig({ APP_ENV: 'test', SECRET_KEY: Buffer.alloc(32, 7).toString('base64') });
  ({ scanPage } = createScanActivities({
    scans,
    lighthouseReports,
    config,
    assets: localAssetStore(assetsDir),
    clock: () => new Date(),
    log: createLogger({ logLevel: 'info' }, 'worker', { write: (line: string) => void (logs += line) }),
    runner: standIn,
    attemptLimitMs: ATTEMPT_LIMIT_MS,
  }));
});
afterAll(() => rmSync(assetsDir, { recursive: true, force: true }));

// Timers and performance.now() on jest's clock; promises, process.nextTick and setImmediate stay real.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] }));
afterEach(() => jest.useRealTimers());

/** A one-run scan of https://stand-in.example<path> as the Lighthouse activity finds it: running (markScanRunning came first). */
function running(path: string): string {
  const publicId = newPublicId();
  const url = `https://stand-in.example${path}`;
  const at = new Date();
  rows.set(publicId, {
    publicId,
    userId: 1,
    url,
    host: 'stand-in.example',
    region: 'local',
    isPublic: false,
    status: 'running',
    runs: 1,
    authType: null,
    authSecret: null,
    secretCheck: null,
    shareToken: null,
    shareEnabled: false,
    requestedAt: at,
    startedAt: at,
    finishedAt: null,
    failureCode: null,
    failureHttpStatus: null,
    result: null,
    targetId: null,
    progress: null,
    trigger: 'request',
  });
  return publicId;
}

/** One attempt of the activity in an environment of its own; its heartbeats are recorded with the fake clock's time. */
function attempt(publicId: string, number = 1) {
  // The SDK's own log of a failed attempt is left out: the activity's log (`logs`) is what the tests read.
  const env = new MockActivityEnvironment(
    { attempt: number, heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS },
    { logger: new DefaultLogger('ERROR') },
  );
  const heartbeats: Array<{ atMs: number; details: unknown }> = [];
  const started = Date.now();
  env.on('heartbeat', (details: unknown) => heartbeats.push({ atMs: Date.now() - started, details }));
  const outcome: Promise<ScanOutcome> = env.run(scanPage, publicId);
  // Settled or not, a rejection is looked at by the test: never an unhandled one meanwhile.
  outcome.catch(() => undefined);
  return { env, heartbeats, outcome };
}

/** Moves the fake clock on by `ms`, running every timer due and the promises they settle. */
const pass = (ms: number) => jest.advanceTimersByTimeAsync(ms);

it('keeps an attempt alive while its runner is quiet for longer than the heartbeat timeout', async () => {
  const id = running('/slow');
  const run = attempt(id);
  await pass(PAST_HEARTBEAT_TIMEOUT_MS);
  expect(await run.outcome).toEqual({ status: 'finished' });
  expect(callsFor('/slow')).toHaveLength(1);
  const quietEndedMs = PAST_HEARTBEAT_TIMEOUT_MS;
  // The runner said nothing for 22 s; the activity's own heartbeats came at most a heartbeat timeout apart.
  const times = [0, ...run.heartbeats.map((h) => h.atMs).filter((t) => t <= quietEndedMs), quietEndedMs];
  console.log(`heartbeats while the runner was quiet, on the fake clock: ${times.slice(1, -1).join(', ')} ms`);
  expect(times.length).toBeGreaterThan(2);
  const gaps = times.slice(1).map((t, i) => t - times[i]!);
  expect(Math.max(...gaps)).toBeLessThan(HEARTBEAT_TIMEOUT_MS);
  for (const { details } of run.heartbeats) expect(details).toEqual({ step: expect.any(String) });
  expect(rows.get(id)).toMatchObject({ status: 'finished' });
});

it('aborts an attempt whose runner hangs past its time, even one that ignores the signal, and retries it', async () => {
  const id = running('/hang-once');
  const first = attempt(id, 1);
  await pass(ATTEMPT_LIMIT_MS);
  // A plain error, as a crash throws: Temporal retries it under the activity's retry policy (workflows/scan.ts).
  await expect(first.outcome).rejects.toThrow(`the Lighthouse run did not finish within ${ATTEMPT_LIMIT_MS / 1000} s`);
  expect(rows.get(id)).toMatchObject({ status: 'running' });

  const second = attempt(id, 2);
  expect(await second.outcome).toEqual({ status: 'finished' });
  const [firstCall, secondCall] = callsFor('/hang-once');
  expect(firstCall!.signal.aborted).toBe(true);
  expect(String((firstCall!.signal.reason as Error).message)).toBe(
    `the Lighthouse run did not finish within ${ATTEMPT_LIMIT_MS / 1000} s`,
  );
  expect(secondCall!.signal.aborted).toBe(false);
  expect(rows.get(id)).toMatchObject({ status: 'finished' });
  const failed = logs
    .split('\n')
    .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes('scan attempt failed'));
  expect(failed).toHaveLength(1);
  expect(failed[0]).toContain('"attempt":1');
});

it('tells a hanging runner to stop when the scan is cancelled', async () => {
  const id = running('/hang');
  const run = attempt(id);
  await pass(0);
  expect(callsFor('/hang')).toHaveLength(1);
  expect(callsFor('/hang')[0]!.signal.aborted).toBe(false);
  // Temporal delivers a cancellation with the answer to a heartbeat; the environment delivers it here.
  run.env.cancel();
  await expect(run.outcome).rejects.toMatchObject({ name: 'CancelledFailure' });
  expect(callsFor('/hang')[0]!.signal.aborted).toBe(true);
  expect(callsFor('/hang')[0]!.signal.reason).toMatchObject({ name: 'CancelledFailure' });
  expect(callsFor('/hang')).toHaveLength(1);
});
