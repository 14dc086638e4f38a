import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import type { RunnerResult, ScanRunInput, ScanRunner } from '../../activities/scan-runner.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { scanWorkflowId } from '../../core/temporal.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { waitForScan } from '../harness/scans.ts';
import { cleanObservation } from '../unit/observation-builder.ts';

/**
 * The scan activity with stand-in runners, on the real Temporal dev server and Postgres, for what a real
 * browser rarely does: a runner that crashes (Temporal retries, the last failure is a scan_error), hangs
 * past the heartbeat timeout (the worker heartbeats meanwhile; at the attempt's limit the attempt is aborted
 * and retried; a cancelled scan tells its runner to stop), or writes garbage (the
 * real process runner with a fake runner script), and a page failure (recorded once, never retried).
 * The end-to-end tests (scan-flow, failure-messages, ...) run real Chromium.
 */
/** Longer than the scan activity's heartbeat timeout (20 s, workflows/scan.ts), so a run may outlast it. */
const ATTEMPT_LIMIT_MS = 25_000;
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
const fakeProcess = processRunner({
  chromiumPath: '/nonexistent/chromium',
  allowLoopback: false,
  scanUser: 'webperf-scan',
  script: resolve(PROJECT_ROOT, 'fixtures/fake-runner.ts'),
});

/** What each path does; `attempt` counts from 1. */
const behaviours: Record<string, (input: ScanRunInput, signal: AbortSignal, attempt: number) => Promise<RunnerResult>> =
  {
    '/observation': async (input) => observed(input.url),
    '/page-failure': async () => ({
      kind: 'page_failure',
      failure: { code: 'http_error', detail: 'Lighthouse ERRORED_DOCUMENT_REQUEST: status code: 503', httpStatus: 503 },
    }),
    // Reports no progress for longer than the heartbeat timeout: the worker heartbeats for it meanwhile.
    '/slow': async (input) => {
      await new Promise((done) => setTimeout(done, PAST_HEARTBEAT_TIMEOUT_MS));
      return observed(input.url);
    },
    '/crash': async () => {
      throw new Error('Lighthouse runner exited with SIGSEGV and no result');
    },
    // Ignores its signal altogether: the activity must not wait for it.
    '/hang-once': async (input, _signal, attempt) => (attempt === 1 ? never : observed(input.url)),
    '/hang': (_input, signal) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason as Error))),
    '/garbage': (input, signal) => fakeProcess.run(input, { onProgress: () => undefined, signal }),
  };

const standIn: ScanRunner = {
  run(input, { signal }) {
    calls.push({ input, signal });
    const path = new URL(input.url).pathname;
    return behaviours[path]!(input, signal, callsFor(path).length);
  },
};

let api: TestApi;
let worker: InProcessWorker;
let token: string;
let assetsDir: string;
/**
 * The scans that wait on Temporal's timers (retry backoffs, the heartbeat timeout, the attempt limit), submitted
 * together before the tests so that their waits overlap; each test checks its own. The region has a slot for
 * each of them and the account (Agency) may have them all in flight.
 */
const TIMED = ['/crash', '/slow', '/hang-once', '/garbage'] as const;
const submitted: Partial<Record<(typeof TIMED)[number], string>> = {};

beforeAll(async () => {
  assetsDir = mkdtempSync(join(tmpdir(), 'webperf-assets-'));
  api = await startTestApi({ env: { ASSETS_DIR: assetsDir, SCAN_REGION_SLOTS: '6' } });
  worker = await startInProcessWorker(api, { runner: standIn, attemptLimitMs: ATTEMPT_LIMIT_MS, scanSlots: 6 });
  ({ token } = await createTestUser(api, 'agency'));
  for (const path of TIMED) submitted[path] = await submit(path);
}, 60_000);
afterAll(async () => {
  fakeProcess.close();
  await worker?.close();
  await api?.close();
  rmSync(assetsDir, { recursive: true, force: true });
});

async function submit(path: string): Promise<string> {
  const created = await call(api, '/scans', {
    token,
    method: 'POST',
    body: { url: `https://stand-in.example${path}` },
  });
  expect(created.status).toBe(202);
  return (created.body.data as { id: string }).id;
}

const row = async (id: string) =>
  (await api.db.knex('scans').where({ public_id: id }).first()) as Record<string, unknown>;
const workflowResult = (id: string) => api.temporal.workflow.getHandle(scanWorkflowId(id)).result();

it('stores the observation: images in the asset store, scores and findings in the row', async () => {
  const id = await submit('/observation');
  expect(await waitForScan(api, token, id)).toMatchObject({
    status: 'finished',
    result: { final_url: 'https://stand-in.example/observation' },
  });
  expect(callsFor('/observation')).toHaveLength(1);
  expect(readFileSync(join(assetsDir, id, 'mobile-final.jpg'))).toEqual(IMAGE);
  expect(await row(id)).toMatchObject({
    status: 'finished',
    auth_secret: null,
    result: expect.objectContaining({ scores: expect.any(Object) }),
  });
});

it('records a page failure once, without retrying it', async () => {
  const id = await submit('/page-failure');
  expect(await workflowResult(id)).toEqual({ status: 'failed', code: 'http_error' });
  expect(callsFor('/page-failure')).toHaveLength(1);
  expect(await row(id)).toMatchObject({
    status: 'failed',
    failure_code: 'http_error',
    failure_http_status: 503,
    failure_message: expect.stringContaining('ERRORED_DOCUMENT_REQUEST'),
  });
  expect((await call(api, `/scans/${id}`, { token })).body.data).toMatchObject({
    error: { code: 'http_error', message: 'The page answered with HTTP 503.' },
  });
});

it('retries a runner that crashes, and fails the scan with scan_error after the last attempt', async () => {
  const id = submitted['/crash']!;
  expect(await workflowResult(id)).toEqual({ status: 'failed', code: 'scan_error' });
  expect(callsFor('/crash')).toHaveLength(3);
  expect(await row(id)).toMatchObject({
    status: 'failed',
    failure_code: 'scan_error',
    failure_message: expect.stringContaining('SIGSEGV'),
  });
  const attempts = worker
    .logs()
    .split('\n')
    .filter((line) => line.includes(`"scanId":"${id}"`) && line.includes('scan attempt failed'));
  expect(attempts).toHaveLength(3);
}, 120_000);

it('keeps an attempt alive while its runner is quiet for longer than the heartbeat timeout', async () => {
  const id = submitted['/slow']!;
  expect(await workflowResult(id)).toEqual({ status: 'finished' });
  expect(callsFor('/slow')).toHaveLength(1);
}, 120_000);

it('aborts an attempt whose runner hangs past its time, even one that ignores the signal, and retries it', async () => {
  const id = submitted['/hang-once']!;
  expect(await workflowResult(id)).toEqual({ status: 'finished' });
  const [first, second] = callsFor('/hang-once');
  expect(first!.signal.aborted).toBe(true);
  expect(String((first!.signal.reason as Error).message)).toBe(
    `the Lighthouse run did not finish within ${ATTEMPT_LIMIT_MS / 1000} s`,
  );
  expect(second!.signal.aborted).toBe(false);
  expect(await row(id)).toMatchObject({ status: 'finished' });
}, 120_000);

it('tells a hanging runner to stop when the scan is cancelled', async () => {
  const id = await submit('/hang');
  await waitUntil('the runner to start', async () => callsFor('/hang').length > 0, 60_000, 100);
  await api.temporal.workflow.getHandle(scanWorkflowId(id)).cancel();
  // Cancellation reaches the activity with its next heartbeat.
  await waitUntil('the runner to be told to stop', async () => callsFor('/hang')[0]!.signal.aborted, 60_000, 100);
  expect(callsFor('/hang')[0]!.signal.reason).toMatchObject({ name: 'CancelledFailure' });
  expect(callsFor('/hang')).toHaveLength(1);
}, 120_000);

it('retries a runner process that writes garbage, then fails the scan with scan_error', async () => {
  const id = submitted['/garbage']!;
  expect(await workflowResult(id)).toEqual({ status: 'failed', code: 'scan_error' });
  expect(callsFor('/garbage')).toHaveLength(3);
  expect(await row(id)).toMatchObject({
    status: 'failed',
    failure_code: 'scan_error',
    failure_message: expect.stringContaining('not JSON'),
  });
}, 120_000);
