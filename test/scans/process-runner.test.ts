import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import { runnerEnvironment } from '../../activities/lighthouse/protocol.ts';
import type { RunnerResult } from '../../activities/scan-runner.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { lookupUser, runnerIdentity } from '../../infra/scan-user.ts';
import { isAlive, waitUntil } from '../../stack/proc.ts';
import { childPids } from '../harness/processes.ts';

/**
 * The process runner with a stand-in runner script (fixtures/fake-runner.ts) for what a real
 * Lighthouse run rarely does: print garbage, crash, exit without a result, hang. Every way it ends, the
 * runner's process group and its "browser's" are gone and the work folder is removed.
 */
const SCAN_USER = 'webperf-scan';
const runner = processRunner({
  chromiumPath: '/nonexistent/chromium',
  allowLoopback: false,
  scanUser: SCAN_USER,
  script: resolve(PROJECT_ROOT, 'fixtures/fake-runner.ts'),
});
afterAll(() => runner.close());

interface Started {
  pid: number;
  uid: number;
  env: string[];
  workDir: string;
  cwd: string;
}

async function run(
  path: string,
  signal = new AbortController().signal,
): Promise<{ outcome: PromiseSettledResult<RunnerResult>; started: Started; steps: string[] }> {
  const steps: string[] = [];
  const outcome = (
    await Promise.allSettled([
      runner.run(
        {
          publicId: 'fakerunnertest000000000000',
          url: `https://fake.example${path}`,
          credentials: null,
          formFactors: ['desktop', 'mobile'],
        },
        { onProgress: (step) => steps.push(step), signal },
      ),
    ])
  )[0]!;
  const started = JSON.parse(steps[0] ?? 'null') as Started;
  return { outcome, started, steps: steps.slice(1) };
}

const rejection = (outcome: PromiseSettledResult<RunnerResult>): string =>
  outcome.status === 'rejected'
    ? String((outcome.reason as Error).message)
    : `resolved ${JSON.stringify(outcome.value)}`;

it('runs the runner as the scan user (when root) with only the minimal environment, in a work folder it removes', async () => {
  const { outcome, started } = await run('/observation');
  expect(outcome.status).toBe('fulfilled');
  expect(started.env).toEqual(Object.keys(runnerEnvironment(started.workDir)).sort());
  expect(started.cwd).toBe(started.workDir);
  const identity = runnerIdentity(SCAN_USER);
  expect(started.uid).toBe(identity ? lookupUser(SCAN_USER)!.uid : process.getuid!());
  expect(existsSync(started.workDir)).toBe(false);
});

it('resolves with the observation and its images, or with the page failure', async () => {
  const observed = await run('/observation');
  expect(observed.outcome).toEqual({
    status: 'fulfilled',
    value: {
      kind: 'observation',
      observation: { requestedUrl: 'https://fake.example/observation', finalUrl: 'https://fake.example/observation' },
      images: [{ name: 'desktop-final.jpg', bytes: Buffer.from('jpeg bytes') }],
      reports: [{ formFactor: 'desktop', gzip: expect.any(Buffer), jsonBytes: 22 }],
    },
  });
  const { reports } = (observed.outcome as PromiseFulfilledResult<Extract<RunnerResult, { kind: 'observation' }>>)
    .value;
  expect(gunzipSync(reports![0]!.gzip).toString()).toBe('{"lighthouseVersion":1}');
  // A result is whole; a runner that crashed after it (tidying up) still measured the page.
  expect((await run('/result-then-crash')).outcome).toMatchObject({
    status: 'fulfilled',
    value: { kind: 'observation' },
  });
  const failed = await run('/page-failure');
  expect(failed.outcome).toEqual({
    status: 'fulfilled',
    value: {
      kind: 'page_failure',
      failure: { code: 'http_error', detail: 'Lighthouse ERRORED_DOCUMENT_REQUEST: status code: 503', httpStatus: 503 },
    },
  });
});

it('rejects output that is not the protocol: a line that is not JSON, a message it does not know', async () => {
  const garbage = await run('/garbage');
  expect(rejection(garbage.outcome)).toBe('the runner wrote a line that is not JSON');
  expect(existsSync(garbage.started.workDir)).toBe(false);
  expect(rejection((await run('/unknown-message')).outcome)).toMatch(/message the worker does not know \(verdict\)/);
});

it('rejects a Lighthouse result that is not gzip, or a second one of a form factor', async () => {
  expect(rejection((await run('/report-not-gzip')).outcome)).toBe(
    'the runner sent a mobile Lighthouse result that is not gzip or too large',
  );
  expect(rejection((await run('/report-twice')).outcome)).toBe('the runner sent a second mobile Lighthouse result');
});

it('rejects a crash with the end of its stderr, and an exit without a result', async () => {
  const crash = await run('/crash');
  expect(rejection(crash.outcome)).toBe(
    'Lighthouse runner exited with 3 and no result: Error: the browser went away |     at runner.ts:1:1',
  );
  expect(existsSync(crash.started.workDir)).toBe(false);
  expect(rejection((await run('/no-result')).outcome)).toMatch(/^Lighthouse runner exited with 0 and no result/);
});

it('on abort kills the hanging runner and its browser group, removes the work folder, and rejects with the reason', async () => {
  const abort = new AbortController();
  const steps: string[] = [];
  const running = runner.run(
    {
      publicId: 'fakerunnertest000000000000',
      url: 'https://fake.example/hang',
      credentials: null,
      formFactors: ['desktop', 'mobile'],
    },
    { onProgress: (step) => steps.push(step), signal: abort.signal },
  );
  await waitUntil('the fake browser to start', async () => steps.some((s) => s.startsWith('sleeping:')), 30_000, 50);
  const browserPid = Number(steps.find((s) => s.startsWith('sleeping:'))!.split(':')[1]);
  const { workDir } = JSON.parse(steps[0]!) as Started;
  expect(isAlive(browserPid)).toBe(true);
  abort.abort(new Error('the Lighthouse run did not finish in time'));
  await expect(running).rejects.toThrow('the Lighthouse run did not finish in time');
  await waitUntil('the fake browser to be killed', async () => !isAlive(browserPid), 5000, 50);
  expect(existsSync(workDir)).toBe(false);
});

it('does not start a runner for an attempt already aborted', async () => {
  const abort = new AbortController();
  abort.abort(new Error('cancelled'));
  await expect(
    runner.run(
      {
        publicId: 'fakerunnertest000000000000',
        url: 'https://fake.example/observation',
        credentials: null,
        formFactors: ['desktop', 'mobile'],
      },
      { onProgress: () => undefined, signal: abort.signal },
    ),
  ).rejects.toThrow('cancelled');
});

/**
 * Runner processes of `script` started by `parent`, with their work folder (their one argument; which also
 * tells them from the worker's `node --check` of the script).
 */
function runnersOf(parent: number, script: string): { pid: number; workDir: string }[] {
  const pids = childPids(parent, `${script.replaceAll('.', '\\.')} /`);
  // The runner's arguments: the script, its work folder, its launch settings.
  const argsOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  return pids.map((pid) => {
    const args = argsOf(pid);
    return { pid, workDir: args[args.findIndex((arg) => arg.endsWith(script)) + 1]! };
  });
}

it('starts the next runner ahead of its scan, a new process for every scan, and close() ends the waiting one', async () => {
  const waiting = () => runnersOf(process.pid, 'fake-runner.ts');
  await waitUntil('a runner waiting for its scan', async () => waiting().length === 1, 10_000, 50);
  const [ahead] = waiting();
  expect(existsSync(ahead!.workDir)).toBe(true);
  const first = await run('/observation');
  expect(first.started.pid).toBe(ahead!.pid);
  expect(first.started.workDir).toBe(ahead!.workDir);
  const second = await run('/observation');
  expect(second.started.pid).not.toBe(first.started.pid);
  expect(second.started.workDir).not.toBe(first.started.workDir);

  const before = new Set(waiting().map((r) => r.pid));
  const other = processRunner({
    chromiumPath: '/nonexistent/chromium',
    allowLoopback: false,
    scanUser: SCAN_USER,
    script: resolve(PROJECT_ROOT, 'fixtures/fake-runner.ts'),
  });
  let next: { pid: number; workDir: string } | undefined;
  await waitUntil(
    "the other runner's waiting one",
    async () => (next = waiting().find((r) => !before.has(r.pid))) !== undefined,
    10_000,
    50,
  );
  other.close();
  await waitUntil('the waiting runner to be killed', async () => !isAlive(next!.pid), 5000, 50);
  expect(existsSync(next!.workDir)).toBe(false);
});

it('a waiting runner whose worker died exits and removes its work folder', async () => {
  // A stand-in worker holding a real runner (runner.ts) that waits for its scan; killed with SIGKILL.
  const code = `import { processRunner } from ${JSON.stringify(resolve(PROJECT_ROOT, 'activities/lighthouse/process-runner.ts'))};
processRunner({ chromiumPath: '/nonexistent/chromium', allowLoopback: false, scanUser: ${JSON.stringify(SCAN_USER)} });
setInterval(() => undefined, 60_000);`;
  const worker = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'ignore' });
  try {
    let waiting: { pid: number; workDir: string }[] = [];
    await waitUntil(
      'the waiting runner',
      async () => (waiting = runnersOf(worker.pid!, 'lighthouse/runner.ts')).length === 1,
      30_000,
      50,
    );
    expect(existsSync(waiting[0]!.workDir)).toBe(true);
    worker.kill('SIGKILL');
    await waitUntil('the waiting runner to exit', async () => !isAlive(waiting[0]!.pid), 15_000, 100);
    await waitUntil('its work folder to be removed', async () => !existsSync(waiting[0]!.workDir), 5000, 100);
  } finally {
    worker.kill('SIGKILL');
  }
});
