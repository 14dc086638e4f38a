import { existsSync, readFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { isAlive, waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { childPids, startReady, type RunningService } from '../harness/processes.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/** Kill -9 the worker in the middle of a scan, start another: the scan still finishes, exactly once. */
let stack: ScanStack;
let sites: FixtureSites;
let replacement: RunningService | null = null;

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack();
}, 120_000);
afterAll(async () => {
  await replacement?.stop();
  await stack.close();
  await sites.close();
});

it('finishes a scan whose worker was killed mid-run, once, on the restarted worker', async () => {
  const { token } = await createTestUser(stack.api, 'pro');
  const created = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `${sites.origin}/slow/?crash=1` },
  });
  expect(created.status).toBe(202);
  const id = (created.body.data as { id: string }).id;

  const workerPid = stack.worker.child.pid!;
  let runners: number[] = [];
  await waitUntil(
    'a Lighthouse runner under the worker',
    async () => (runners = childPids(workerPid, 'lighthouse/runner.ts')).length > 0,
    60_000,
    100,
  );
  let browsers: number[] = [];
  await waitUntil(
    "the runner's Chromium",
    async () => (browsers = runners.flatMap((pid) => childPids(pid, 'chromium'))).length > 0,
    60_000,
    100,
  );
  const profiles = browsers.map(
    (pid) =>
      /--user-data-dir=(\/\S+?)\/user-data/.exec(
        readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' '),
      )?.[1],
  );
  expect(profiles.every((p) => p && existsSync(p))).toBe(true);
  await new Promise((r) => setTimeout(r, 2500)); // well inside the Lighthouse run
  expect((await call(stack.api, `/scans/${id}`, { token })).body.data).toMatchObject({ status: 'running' });

  stack.worker.child.kill('SIGKILL');
  // The orphaned runner notices its parent is gone and takes its Chromium with it.
  await waitUntil('the orphaned runner to exit', async () => runners.every((pid) => !isAlive(pid)), 15_000, 200);
  await waitUntil(
    "the orphaned runner's Chromium to exit",
    async () => browsers.every((pid) => !isAlive(pid)),
    15_000,
    200,
  );
  expect(profiles.filter((p) => existsSync(p!))).toEqual([]);

  replacement = await startReady('worker', stack.workerEnv);
  const scan = await waitForScan(stack.api, token, id);
  expect(scan.status).toBe('finished');
  expect(await stack.api.db.knex('scans').where({ public_id: id })).toHaveLength(1);

  const connection = await Connection.connect({ address: stack.api.config.temporal.address });
  try {
    const handle = new Client({ connection, namespace: stack.api.config.temporal.namespace }).workflow.getHandle(
      `scan-${id}`,
    );
    // The row says finished as soon as the activity stored the result; the workflow completes just after.
    expect(await handle.result()).toEqual({ status: 'finished' });
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const scheduled = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'scanPage');
    expect(scheduled).toHaveLength(1);
    const started = events.find(
      (e) =>
        e.activityTaskStartedEventAttributes &&
        Number(e.activityTaskStartedEventAttributes.scheduledEventId) === Number(scheduled[0]!.eventId),
    );
    expect(started?.activityTaskStartedEventAttributes?.attempt).toBeGreaterThanOrEqual(2);
    expect(
      events.filter(
        (e) =>
          e.activityTaskCompletedEventAttributes &&
          Number(e.activityTaskCompletedEventAttributes.scheduledEventId) === Number(scheduled[0]!.eventId),
      ),
    ).toHaveLength(1);
    expect(events.some((e) => e.workflowExecutionCompletedEventAttributes)).toBe(true);
  } finally {
    await connection.close();
  }
}, 300_000);
