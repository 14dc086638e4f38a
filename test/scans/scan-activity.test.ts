import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import type { RunnerResult, ScanRunInput, ScanRunner } from '../../activities/scan-runner.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { scanWorkflowId } from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { waitForScan } from '../harness/scans.ts';
import { cleanObservation } from '../unit/observation-builder.ts';

/**
 * The scan activity with stand-in runners, on the real Temporal dev server and Postgres, for what needs
 * Temporal's retry policy or the stored rows: a runner that crashes (Temporal retries, the last failure is a
 * scan_error), a runner process that writes garbage (the real process runner with a fake runner script, the
 * same), a page failure (recorded once, never retried), and an observation stored. What is the activity's own
 * doing (heartbeats while the runner is quiet, an attempt aborted at its limit, a cancelled scan telling its
 * runner to stop) is tested on Temporal's mock activity environment in test/unit/scan-activity.test.ts.
 * The end-to-end tests (scan-flow, failure-messages, ...) run real Chromium.
 */
const IMAGE = Buffer.from('a JPEG, as far as the activity cares');

interface Call {
  input: ScanRunInput;
  signal: AbortSignal;
}
const calls: Call[] = [];
const callsFor = (path: string) => calls.filter((c) => new URL(c.input.url).pathname === path);

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

/** What each path does. */
const behaviours: Record<string, (input: ScanRunInput, signal: AbortSignal) => Promise<RunnerResult>> = {
  '/observation': async (input) => observed(input.url),
  '/page-failure': async () => ({
    kind: 'page_failure',
    failure: { code: 'http_error', detail: 'Lighthouse ERRORED_DOCUMENT_REQUEST: status code: 503', httpStatus: 503 },
  }),
  '/crash': async () => {
    throw new Error('Lighthouse runner exited with SIGSEGV and no result');
  },
  '/garbage': (input, signal) => fakeProcess.run(input, { onProgress: () => undefined, signal }),
};

const standIn: ScanRunner = {
  run(input, { signal }) {
    calls.push({ input, signal });
    const path = new URL(input.url).pathname;
    return behaviours[path]!(input, signal);
  },
};

let api: TestApi;
let worker: InProcessWorker;
let token: string;
let assetsDir: string;
/**
 * The scans that wait on Temporal's retry backoffs, submitted together before the tests so that their waits
 * overlap; each test checks its own. The region has a slot for each of them and the account (Agency) may have
 * them all in flight.
 */
const TIMED = ['/crash', '/garbage'] as const;
const submitted: Partial<Record<(typeof TIMED)[number], string>> = {};

beforeAll(async () => {
  assetsDir = mkdtempSync(join(tmpdir(), 'webperf-assets-'));
  api = await startTestApi({ env: { ASSETS_DIR: assetsDir, SCAN_REGION_SLOTS: '4' } });
  worker = await startInProcessWorker(api, { runner: standIn, scanSlots: 4 });
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
