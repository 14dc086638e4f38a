import type { Client } from '@temporalio/client';
import {
  flowScheduleId,
  rumAlertCheckScheduleId,
  scanReconcilerScheduleId,
  targetReconcilerScheduleId,
  targetScheduleId,
} from '../../core/temporal.ts';
import { uniqueNameAge } from './isolated.ts';

/** Any test's task-queue prefix, uniqueName(<word>), which its schedule ids and task queues start with. */
const ANY_TEST_WORD = '[a-z]+';

async function terminateAll(client: Client, query: string, keep: (taskQueue: string) => boolean): Promise<number> {
  const running: Array<{ workflowId: string; runId: string }> = [];
  for await (const workflow of client.workflow.list({ query: `ExecutionStatus = 'Running' AND ${query}` }))
    if (keep(workflow.taskQueue)) running.push({ workflowId: workflow.workflowId, runId: workflow.runId });
  await Promise.all(
    running.map(({ workflowId, runId }) =>
      client.workflow
        .getHandle(workflowId, runId)
        .terminate('the test that started it has finished')
        .catch(() => undefined),
    ),
  );
  return running.length;
}

/**
 * Ends what a test left in the shared Temporal dev server under its task-queue prefix: its schedules (they would
 * go on starting workflows no worker serves: the reconcilers', the RUM alert check's, and one per target and per
 * flow, whose ids its database knows) and its running workflows (queued scans, webhook retries, alert checks:
 * their timers would go on firing). Left there, they cost the Temporal server CPU for the rest of the run and
 * every later one. Schedules are deleted by id, not listed: a listing of every schedule is slow on a busy server.
 */
export async function endTemporalLeftovers(
  client: Client,
  prefix: string,
  owned: { targetIds: readonly number[]; flowIds: readonly number[] },
): Promise<void> {
  const schedules = [
    scanReconcilerScheduleId(prefix),
    targetReconcilerScheduleId(prefix),
    rumAlertCheckScheduleId(prefix),
    ...owned.targetIds.map((id) => targetScheduleId(prefix, id)),
    ...owned.flowIds.map((id) => flowScheduleId(prefix, id)),
  ];
  await Promise.all(
    schedules.map((id) =>
      client.schedule
        .getHandle(id)
        .delete()
        .catch(() => undefined),
    ),
  );
  await terminateAll(client, `TaskQueue STARTS_WITH '${prefix}-'`, () => true);
}

/** What tests that began over `maxAgeMs` ago left (runs that were interrupted, or older code): schedules, workflows. */
export async function endStaleTemporalLeftovers(
  client: Client,
  maxAgeMs: number,
): Promise<{ schedules: number; workflows: number }> {
  const stale = (name: string) => (uniqueNameAge(name, ANY_TEST_WORD) ?? 0) > maxAgeMs;
  let schedules = 0;
  for await (const schedule of client.schedule.list())
    if (stale(schedule.scheduleId)) {
      schedules += 1;
      await client.schedule
        .getHandle(schedule.scheduleId)
        .delete()
        .catch(() => undefined);
    }
  const before = new Date(Date.now() - maxAgeMs).toISOString();
  const workflows = await terminateAll(client, `StartTime < '${before}'`, stale);
  return { schedules, workflows };
}
