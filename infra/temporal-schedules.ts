import type { Duration } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import { flowScheduleOptions, TARGET_RECONCILE_EVERY, targetScheduleOptions } from '../core/monitoring/schedule.ts';
import { RUM_ALERT_CHECK_EVERY_MINUTES } from '../core/rum/alert-check.ts';
import { RECONCILE_EVERY } from '../core/scan/lifecycle.ts';
import {
  flowIdOfSchedule,
  flowScheduleId,
  rumAlertCheckScheduleId,
  mainTaskQueue,
  scanReconcilerScheduleId,
  targetIdOfSchedule,
  targetReconcilerScheduleId,
  targetScheduleId,
} from '../core/temporal.ts';
import { withinDeadline } from './temporal-connection.ts';

/** Every Temporal Schedule we keep: the reconcilers', the live-data alert check's, each target's and each monitored flow's. */

/** The reconciler's schedule: created on first start, brought up to date on every later one. */
export const ensureReconcilerSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(client, prefix, scanReconcilerScheduleId(prefix), 'reconcileScansWorkflow', RECONCILE_EVERY);

/** The target reconciler's schedule (workflows/reconcile.ts), created or brought up to date like the scan reconciler's. */
export const ensureTargetReconcilerSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(
    client,
    prefix,
    targetReconcilerScheduleId(prefix),
    'reconcileTargetsWorkflow',
    TARGET_RECONCILE_EVERY,
  );

/** The live-data alert check's schedule: every 5 minutes, overlap SKIP (workflows/rum-alerts.ts). */
export const ensureRumAlertCheckSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(
    client,
    prefix,
    rumAlertCheckScheduleId(prefix),
    'rumAlertCheckWorkflow',
    `${RUM_ALERT_CHECK_EVERY_MINUTES} minutes`,
  );

/** A schedule running `workflowType` on the main queue every `every`, skipping overlaps: created, or updated to this definition. */
async function ensureRecurringSchedule(
  client: Client,
  prefix: string,
  scheduleId: string,
  workflowType: string,
  every: Duration,
): Promise<{ scheduleId: string; created: boolean }> {
  const options = {
    scheduleId,
    spec: { intervals: [{ every }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType,
      taskQueue: mainTaskQueue(prefix),
      workflowId: `${scheduleId}-run`,
      staticSummary: `${workflowType}, every ${String(every)}`,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  } satisfies ScheduleOptions;
  try {
    await client.schedule.create(options);
    return { scheduleId, created: true };
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({
      ...previous,
      spec: options.spec,
      action: options.action,
      policies: { ...previous.policies, ...options.policies },
    }));
    return { scheduleId, created: false };
  }
}

/** Runs the target reconciler now (the worker does at start), unless a run is still going. */
export async function triggerTargetReconciler(client: Client, prefix: string): Promise<void> {
  await client.schedule.getHandle(targetReconcilerScheduleId(prefix)).trigger(ScheduleOverlapPolicy.SKIP);
}

// ---- target schedules (rules: core/monitoring/schedule.ts) ----

export interface TargetScheduleTarget {
  id: number;
  isActive: boolean;
}

/**
 * Creates the target's schedule, paused when the target is. Idempotent: a schedule already there (a retried
 * request, a reconciler run) is brought to the same definition and state.
 */
export async function createTargetSchedule(
  client: Client,
  prefix: string,
  target: TargetScheduleTarget,
): Promise<void> {
  await createOrUpdateSchedule(client, targetScheduleOptions(prefix, target));
}

/** Creates a schedule; one already there is brought to the options' definition and paused state. */
async function createOrUpdateSchedule(
  client: Client,
  options: ReturnType<typeof targetScheduleOptions> | ReturnType<typeof flowScheduleOptions>,
): Promise<void> {
  await withinDeadline(client, async () => {
    try {
      await client.schedule.create(options);
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(options.scheduleId).update((previous) => ({
        ...previous,
        spec: options.spec,
        action: options.action,
        policies: options.policies,
        state: { ...previous.state, paused: options.state.paused, note: options.state.note },
      }));
    }
  });
}

/** Pauses or resumes the target's schedule; one that is missing is created in the wanted state. */
export async function setTargetSchedulePaused(
  client: Client,
  prefix: string,
  target: TargetScheduleTarget,
): Promise<void> {
  const handle = client.schedule.getHandle(targetScheduleId(prefix, target.id));
  try {
    await withinDeadline(client, () =>
      target.isActive ? handle.unpause('resumed by its owner') : handle.pause('paused by its owner'),
    );
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
    await createTargetSchedule(client, prefix, target);
  }
}

/** Deletes a schedule; one that is already gone counts as deleted. */
async function deleteSchedule(client: Client, scheduleId: string): Promise<void> {
  try {
    await withinDeadline(client, () => client.schedule.getHandle(scheduleId).delete());
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

/** A schedule as Temporal has it, or null when there is none. */
async function describeSchedule(client: Client, scheduleId: string): Promise<ScheduleDescription | null> {
  try {
    return await withinDeadline(client, () => client.schedule.getHandle(scheduleId).describe());
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return null;
    throw error;
  }
}

/** Deletes the target's schedule; one that is already gone counts as deleted. */
export const deleteTargetSchedule = (client: Client, prefix: string, targetId: number): Promise<void> =>
  deleteSchedule(client, targetScheduleId(prefix, targetId));

/** The target's schedule as Temporal has it, or null when there is none. */
export const describeTargetSchedule = (
  client: Client,
  prefix: string,
  targetId: number,
): Promise<ScheduleDescription | null> => describeSchedule(client, targetScheduleId(prefix, targetId));

export async function listTargetSchedules(client: Client, prefix: string): Promise<Map<number, { paused: boolean }>> {
  const schedules = new Map<number, { paused: boolean }>();
  for await (const summary of client.schedule.list({ pageSize: 1000 })) {
    const targetId = targetIdOfSchedule(prefix, summary.scheduleId);
    if (targetId !== null) schedules.set(targetId, { paused: summary.state.paused });
  }
  return schedules;
}

/**
 * Deletes every target schedule of a task-queue prefix and its reconciler's schedule: the clean-up of a test
 * run or a benchmark, whose prefix is its own. Returns how many target schedules went.
 */
export async function deleteTargetSchedulesOf(client: Client, prefix: string): Promise<number> {
  await client.schedule
    .getHandle(targetReconcilerScheduleId(prefix))
    .delete()
    .catch(() => undefined);
  const ids = [...(await listTargetSchedules(client, prefix)).keys()];
  for (const id of ids) await deleteTargetSchedule(client, prefix, id);
  for (const id of await listFlowSchedules(client, prefix)) await deleteFlowSchedule(client, prefix, id);
  return ids.length;
}

// ---- monitored flows' schedules (rules: core/monitoring/schedule.ts flowScheduleOptions) ----

/** Creates the flow's schedule; one already there (a retried request, a reconciler run) is brought to the same definition. */
export async function createFlowSchedule(client: Client, prefix: string, flow: { id: number }): Promise<void> {
  await createOrUpdateSchedule(client, flowScheduleOptions(prefix, flow));
}

/** Deletes the flow's schedule; one that is already gone counts as deleted. */
export const deleteFlowSchedule = (client: Client, prefix: string, flowId: number): Promise<void> =>
  deleteSchedule(client, flowScheduleId(prefix, flowId));

/** The flow's schedule as Temporal has it, or null when there is none. */
export const describeFlowSchedule = (
  client: Client,
  prefix: string,
  flowId: number,
): Promise<ScheduleDescription | null> => describeSchedule(client, flowScheduleId(prefix, flowId));

/** The flow ids of every flow schedule of this prefix, from Temporal's (eventually consistent) schedule list. */
export async function listFlowSchedules(client: Client, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for await (const summary of client.schedule.list({ pageSize: 1000 })) {
    const flowId = flowIdOfSchedule(prefix, summary.scheduleId);
    if (flowId !== null) ids.push(flowId);
  }
  return ids;
}
