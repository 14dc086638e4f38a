import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';
import { ORPHAN_SCHEDULE_GRACE_MS } from '../core/monitoring/schedule.ts';
import { planFor } from '../core/plans.ts';
import { scanTaskQueue } from '../core/temporal.ts';
import {
  createTargetSchedule,
  deleteTargetSchedule,
  describeTargetSchedule,
  listTargetSchedules,
  setTargetSchedulePaused,
} from '../infra/temporal-client.ts';
import type { ScanStore } from '../db/store/scans.ts';
import type { TargetStore } from '../db/store/targets.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import { markFailed } from '../services/scans.ts';
import type { UserStore } from '../db/store/users.ts';
import type { WorkerMetrics } from '../infra/worker-metrics.ts';

export interface TargetActivityDeps {
  targets: TargetStore;
  scans: ScanStore;
  users: UserStore;
  temporal: () => Client;
  config: Pick<Config, 'temporal'>;
  clock: Clock;
  log: Logger;
  metrics?: Pick<WorkerMetrics, 'targetRunDispatched' | 'targetRunSkipped'>;
}

export interface DispatchInput {
  targetId: number;
  /** Chosen by the workflow, so a retried dispatch finds the scan it stored before instead of storing another. */
  publicId: string;
  /** `confirmation`: the scan that confirms a regression candidate (workflows/target-confirm.ts). */
  trigger?: 'confirmation';
}

/** What the workflow needs to run the dispatched scan as a child, with the search attributes of any scan. */
export interface DispatchedTargetScan {
  publicId: string;
  host: string;
  scanTaskQueue: string;
  /** For the child workflow's summary. */
  region: string;
}

export interface TargetReconcileReport {
  targets: number;
  schedules: number;
  created: number[];
  paused: number[];
  resumed: number[];
  deleted: number[];
}

/** Activities of monitored targets: dispatching a scheduled scan, and keeping schedules in step with the rows. */
export function createTargetActivities(deps: TargetActivityDeps) {
  const { targets, log } = deps;
  const prefix = deps.config.temporal.taskQueuePrefix;

  /** Brings one target's schedule in line with its row, under the row's lock (a request changing it waits, or we do). */
  async function repair(targetId: number): Promise<'created' | 'paused' | 'resumed' | null> {
    return targets.withTargetLocked(targetId, async (target) => {
      if (!target) return null; // deleted meanwhile; its schedule is an orphan for the next pass
      const schedule = await describeTargetSchedule(deps.temporal(), prefix, targetId);
      if (!schedule) {
        await createTargetSchedule(deps.temporal(), prefix, target);
        return 'created';
      }
      if (schedule.state.paused === !target.isActive) return null;
      await setTargetSchedulePaused(deps.temporal(), prefix, target);
      return target.isActive ? 'resumed' : 'paused';
    });
  }

  /** Deletes a schedule whose target does not exist, unless it is young enough to belong to a creation in progress. */
  async function removeOrphan(targetId: number): Promise<boolean> {
    const schedule = await describeTargetSchedule(deps.temporal(), prefix, targetId);
    if (!schedule || (await targets.find(targetId))) return false;
    if (deps.clock().getTime() - schedule.info.createdAt.getTime() < ORPHAN_SCHEDULE_GRACE_MS) return false;
    await deleteTargetSchedule(deps.temporal(), prefix, targetId);
    return true;
  }

  return {
    /**
     * Stores the scheduled scan of an active target (`target_id` set, the plan's `scheduledRuns` page loads,
     * never a reused result) and sets the target's `last_dispatched_at`. Null for a target that is gone or
     * paused (its schedule fired before a change reached it): then nothing runs. A "Run now" scan was stored
     * by the request (services/target-runs.ts) and is found as it is, paused target or not; when its target was
     * deleted meanwhile, it is failed `not_started` (nothing else would end it).
     */
    async dispatchTargetScan(input: DispatchInput): Promise<DispatchedTargetScan | null> {
      const target = await targets.find(input.targetId);
      const owner = target && (await deps.users.findById(target.userId));
      const scan =
        owner &&
        (await targets.dispatchScan(input.targetId, {
          publicId: input.publicId,
          requestedAt: deps.clock(),
          runs: planFor(owner.plan).scheduledRuns,
          ...(input.trigger ? { trigger: input.trigger } : {}),
        }));
      if (!scan) {
        // A run now's scan was stored by the request; with its target gone it never starts, so it ends here.
        const stored = await deps.scans.find(input.publicId);
        if (stored?.status === 'queued')
          await markFailed(
            deps.scans,
            input.publicId,
            'not_started',
            FAILURE_DETAILS.targetDeletedBeforeStart(),
            deps.clock(),
          );
        log.warn(
          { targetId: input.targetId, exists: Boolean(target) },
          'scheduled scan not dispatched: the target is gone or paused',
        );
        deps.metrics?.targetRunSkipped('inactive');
        return null;
      }
      deps.metrics?.targetRunDispatched();
      log.info(
        { targetId: input.targetId, scanId: scan.publicId, trigger: scan.trigger },
        scan.trigger === 'run_now'
          ? 'run-now scan dispatched'
          : scan.trigger === 'confirmation'
            ? 'confirmation scan dispatched'
            : 'scheduled scan dispatched',
      );
      return {
        publicId: scan.publicId,
        host: scan.host,
        scanTaskQueue: scanTaskQueue(prefix, scan.region),
        region: scan.region,
      };
    },

    /**
     * Compares every target row with the target schedules in Temporal and repairs drift both ways: a missing
     * schedule is created, one whose paused state differs from the row is set to the row's, and one without
     * a row is deleted. The row is the truth. Running it again changes nothing.
     */
    async reconcileTargetSchedules(): Promise<TargetReconcileReport> {
      const rows = await targets.scheduleStates();
      const schedules = await listTargetSchedules(deps.temporal(), prefix);
      const report: TargetReconcileReport = {
        targets: rows.length,
        schedules: schedules.size,
        created: [],
        paused: [],
        resumed: [],
        deleted: [],
      };
      for (const row of rows) {
        const listed = schedules.get(row.id);
        // The list lags behind; repair() describes the schedule before it changes anything.
        if (listed && listed.paused === !row.isActive) continue;
        const repaired = await repair(row.id);
        if (repaired) report[repaired].push(row.id);
      }
      const known = new Set(rows.map((row) => row.id));
      for (const targetId of schedules.keys()) {
        if (!known.has(targetId) && (await removeOrphan(targetId))) report.deleted.push(targetId);
      }
      if (report.created.length + report.paused.length + report.resumed.length + report.deleted.length > 0) {
        log.warn(
          { created: report.created, paused: report.paused, resumed: report.resumed, deleted: report.deleted },
          'target schedules repaired by the reconciler',
        );
      }
      return report;
    },
  };
}

export type TargetActivities = ReturnType<typeof createTargetActivities>;
