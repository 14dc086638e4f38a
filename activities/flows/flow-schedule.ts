import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import { startOrigin } from '../../core/flows/flow.ts';
import { ORPHAN_SCHEDULE_GRACE_MS } from '../../core/monitoring/schedule.ts';
import { scanTaskQueue } from '../../core/temporal.ts';
import type { FlowStore } from '../../db/store/flows.ts';
import type { Config } from '../../infra/config.ts';
import type { Logger } from '../../infra/logger.ts';
import {
  createFlowSchedule,
  deleteFlowSchedule,
  describeFlowSchedule,
  listFlowSchedules,
} from '../../infra/temporal-client.ts';

export interface FlowScheduleActivityDeps {
  flows: FlowStore;
  temporal: () => Client;
  config: Pick<Config, 'temporal' | 'regions'>;
  clock: Clock;
  log: Logger;
}

/** What the schedule's workflow needs to run the stored run as an ordinary `flowRunWorkflow`. */
export interface DispatchedFlowRun {
  runId: string;
  userId: number;
  host: string;
  region: string;
  scanTaskQueue: string;
}

export interface FlowReconcileReport {
  monitored: number;
  schedules: number;
  created: number[];
  deleted: number[];
}

/** Activities of monitored flows: storing a scheduled run, and keeping the flows' schedules in step with the rows. */
export function createFlowScheduleActivities(deps: FlowScheduleActivityDeps) {
  const { flows, log } = deps;
  const prefix = deps.config.temporal.taskQueuePrefix;
  const dispatched = (run: {
    publicId: string;
    userId: number;
    region: string;
    definition: Parameters<typeof startOrigin>[0];
  }): DispatchedFlowRun => ({
    runId: run.publicId,
    userId: run.userId,
    host: new URL(startOrigin(run.definition) ?? 'http://unknown.invalid').hostname,
    region: run.region,
    scanTaskQueue: scanTaskQueue(prefix, run.region),
  });

  return {
    /**
     * Stores the scheduled run (trigger `schedule`, the default region) of a monitored flow under the id the
     * workflow chose, so a retry finds it instead of storing another. Null, logged, when the flow is gone or no
     * longer monitored, or when a run of it is still queued or running (from any trigger): a run is never queued
     * twice, the day's run is skipped.
     */
    async dispatchScheduledFlowRun(input: { flowId: number; runId: string }): Promise<DispatchedFlowRun | null> {
      const stored = await flows.findRun(input.runId);
      if (stored) return stored.status === 'queued' ? dispatched(stored) : null;
      const flow = await flows.findById(input.flowId);
      if (!flow?.monitored) {
        log.warn(
          { flowId: input.flowId, exists: Boolean(flow) },
          'scheduled flow run skipped: the flow is gone or not monitored',
        );
        return null;
      }
      return flows.underOwnerLock(flow.userId, async (locked) => {
        const inFlight = await locked.inFlightRun(flow.id);
        if (inFlight) {
          log.info(
            { flowId: flow.id, flowRunId: inFlight.publicId, status: inFlight.status },
            'scheduled flow run skipped: a run of the flow is still queued or running',
          );
          return null;
        }
        const run = await locked.insertRun({
          publicId: input.runId,
          flowId: flow.id,
          userId: flow.userId,
          region: deps.config.regions.default,
          trigger: 'schedule',
          definition: { name: flow.name, form_factor: flow.formFactor, steps: flow.steps },
          requestedAt: deps.clock(),
        });
        log.info({ flowId: flow.id, flowRunId: run.publicId }, 'scheduled flow run dispatched');
        return dispatched(run);
      });
    },

    /**
     * Compares the monitored flows with the flow schedules in Temporal: a missing schedule is created, one
     * without a monitored flow is deleted once older than the grace a creation in progress needs. The row is
     * the truth; running it again changes nothing.
     */
    async reconcileFlowSchedules(): Promise<FlowReconcileReport> {
      const monitored = await flows.monitoredIds();
      const listed = new Set(await listFlowSchedules(deps.temporal(), prefix));
      const report: FlowReconcileReport = {
        monitored: monitored.length,
        schedules: listed.size,
        created: [],
        deleted: [],
      };
      for (const id of monitored) {
        // The list lags behind: describe before creating.
        if (listed.has(id) || (await describeFlowSchedule(deps.temporal(), prefix, id))) continue;
        if (!(await flows.findById(id))?.monitored) continue;
        await createFlowSchedule(deps.temporal(), prefix, { id });
        report.created.push(id);
      }
      const wanted = new Set(monitored);
      for (const id of listed) {
        if (wanted.has(id)) continue;
        const schedule = await describeFlowSchedule(deps.temporal(), prefix, id);
        if (!schedule || (await flows.findById(id))?.monitored) continue;
        if (deps.clock().getTime() - schedule.info.createdAt.getTime() < ORPHAN_SCHEDULE_GRACE_MS) continue;
        await deleteFlowSchedule(deps.temporal(), prefix, id);
        report.deleted.push(id);
      }
      if (report.created.length + report.deleted.length > 0)
        log.warn({ created: report.created, deleted: report.deleted }, 'flow schedules repaired by the reconciler');
      return report;
    },
  };
}

export type FlowScheduleActivities = ReturnType<typeof createFlowScheduleActivities>;
