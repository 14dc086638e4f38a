import type { ScheduleOptions } from '@temporalio/client';
import { flowScheduleId, mainTaskQueue, TargetIdAttribute, targetScheduleId } from '../temporal.ts';

/**
 * The rules of a target's daily Temporal Schedule, in one place: when it starts, what it runs, and what
 * happens to runs that overlap or were missed. infra/temporal-client.ts applies them.
 */

const SECONDS_PER_DAY = 86_400;
/**
 * Start times are spread over the day by Fibonacci hashing of the target id: second of day = id × K mod 86,400,
 * with K ≈ 86,400 / φ and coprime to 86,400. Consecutive ids land about 0.618 days apart and fill the gaps
 * evenly (three-distance theorem): among any 1,000 consecutive ids, two start times are at least 65 s apart,
 * so no minute holds more than one of them (test/unit/target-schedule.test.ts); any 86,400 consecutive ids
 * take every second once. No random jitter on top: it would only make that bound a probability.
 */
const SPREAD_MULTIPLIER = 53_399n;

/** Second of the UTC day (0–86,399) at which the target's daily scan starts; deterministic. */
export function dailyStartSecond(targetId: number): number {
  return Number((BigInt(targetId) * SPREAD_MULTIPLIER) % BigInt(SECONDS_PER_DAY));
}

export function dailyStartTime(targetId: number): { hour: number; minute: number; second: number } {
  const s = dailyStartSecond(targetId);
  return { hour: Math.floor(s / 3600), minute: Math.floor((s % 3600) / 60), second: s % 60 };
}

/**
 * When the target's schedule starts its next scan after `now`: the next instant whose UTC second of day is the
 * target's start second (the calendar of targetScheduleOptions). Null for a paused target, whose schedule is
 * paused with it.
 */
export function nextScheduledScan(target: { id: number; isActive: boolean }, now: Date): Date | null {
  if (!target.isActive) return null;
  const dayStart = Math.floor(now.getTime() / (SECONDS_PER_DAY * 1000)) * SECONDS_PER_DAY * 1000;
  const today = dayStart + dailyStartSecond(target.id) * 1000;
  return new Date(today > now.getTime() ? today : today + SECONDS_PER_DAY * 1000);
}

/**
 * A run missed while Temporal was down is still taken if it is less than this late. Under a day, so after any
 * outage at most one missed run of a daily schedule qualifies: one catch-up run, never a burst; a later one
 * is dropped and the next day's runs as usual.
 */
export const TARGET_CATCHUP_WINDOW = '12 hours';

/** How often the reconciler compares target rows with their schedules (and once at every worker start). */
export const TARGET_RECONCILE_EVERY = '10 minutes';

/**
 * A schedule without a row younger than this may belong to a target being created right now (its row is
 * committed only after the schedule exists), so the reconciler leaves it alone until it is older.
 */
export const ORPHAN_SCHEDULE_GRACE_MS = 10 * 60_000;

/** What the target scan workflow is started with. */
export interface TargetScanInput {
  targetId: number;
  /**
   * Set by a "Run now" (services/target-runs.ts), which has stored the queued scan under this id already; a
   * scheduled run has none and picks its own.
   */
  scanId?: string;
}

/**
 * A target's schedule: daily at its spread start time (UTC), starting `targetScanWorkflow` on the main queue.
 * Overlap SKIP: a day's run is skipped while the previous one still runs (its scan may wait for a slot).
 * Paused exactly when the target is. `TargetId` is set on the schedule and on the workflows it starts.
 */
export function targetScheduleOptions(prefix: string, target: { id: number; isActive: boolean }) {
  const scheduleId = targetScheduleId(prefix, target.id);
  const targetIdAttribute = [{ key: TargetIdAttribute, value: String(target.id) }];
  return {
    scheduleId,
    spec: { calendars: [{ ...dailyStartTime(target.id), comment: 'daily; start time spread by target id' }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: 'targetScanWorkflow',
      args: [{ targetId: target.id } satisfies TargetScanInput],
      taskQueue: mainTaskQueue(prefix),
      // Temporal appends the scheduled time, so each day's run has an id of its own.
      workflowId: scheduleId,
      staticSummary: `Daily scan of target ${target.id}`,
      typedSearchAttributes: targetIdAttribute,
    },
    policies: { overlap: 'SKIP', catchupWindow: TARGET_CATCHUP_WINDOW, pauseOnFailure: false },
    typedSearchAttributes: targetIdAttribute,
    state: { paused: !target.isActive, note: target.isActive ? 'active' : 'paused by its owner' },
  } satisfies ScheduleOptions;
}

/** What a monitored flow's schedule starts `flowScheduleWorkflow` with: the flow's row id, nothing else (no secret, no step). */
export interface FlowScheduleInput {
  flowId: number;
}

/**
 * A monitored user flow's schedule: daily at the start time the targets' rule gives the flow's id (UTC),
 * starting `flowScheduleWorkflow` on the main queue, which stores a run with trigger `schedule` and runs it as
 * `flowRunWorkflow` (workflows/flow-schedule.ts). Overlap SKIP and the catch-up window as for targets; a run
 * still queued or running from another trigger is skipped by the workflow. A flow not monitored has no schedule
 * (never a paused one).
 */
export function flowScheduleOptions(prefix: string, flow: { id: number }) {
  const scheduleId = flowScheduleId(prefix, flow.id);
  return {
    scheduleId,
    spec: { calendars: [{ ...dailyStartTime(flow.id), comment: 'daily; start time spread by flow id' }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType: 'flowScheduleWorkflow',
      args: [{ flowId: flow.id } satisfies FlowScheduleInput],
      taskQueue: mainTaskQueue(prefix),
      workflowId: scheduleId,
      staticSummary: `Daily run of user flow ${flow.id}`,
    },
    policies: { overlap: 'SKIP', catchupWindow: TARGET_CATCHUP_WINDOW, pauseOnFailure: false },
    state: { paused: false, note: 'monitored' },
  } satisfies ScheduleOptions;
}
