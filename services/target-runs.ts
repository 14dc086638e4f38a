import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import { newPublicId } from '../core/ids.ts';
import type { Plan } from '../core/plans.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import type { Scan } from '../core/scan/scan.ts';
import { TargetGoneError, type ScanStore } from '../db/store/scans.ts';
import type { TargetStore } from '../db/store/targets.ts';
import type { Config } from '../infra/config.ts';
import { startTargetRunNowWorkflow } from '../infra/temporal-client.ts';
import { HOUR_MS, hourlyLimitReached, markFailed } from './scans.ts';

export interface TargetRunDeps {
  scans: ScanStore;
  targets: TargetStore;
  temporal: Client;
  config: Pick<Config, 'temporal'>;
  clock: Clock;
}

export type TargetRunOutcome =
  /** `joined`: a scan of the target was queued or running already, and is the answer (no second one). */
  | { kind: 'ok'; scan: Scan; joined: boolean }
  | { kind: 'not_found' }
  | { kind: 'hourly_limit'; limit: number; resetAt: Date }
  /** Temporal did not take the workflow; the scan is stored as failed (`not_started`) and does not count. */
  | { kind: 'not_started'; cause: unknown };

/**
 * A target's "Run now" (web and API): a scan of the target now, recorded as the target's scan like a
 * scheduled one (`target_id`, the plan's `scheduledRuns`, never a reused result, `last_dispatched_at`), run by
 * the same target scan workflow so its alerts are judged too. Paused targets may be run now; their schedule
 * stays paused. Unlike a scheduled scan it counts against the plan's hourly scan limit, decided under the
 * account's scan lock as POST /scans is. A scan of the target still queued or running is the answer instead of
 * a second one (a double click, or a run now while the day's scan runs). `rescanOf`: the target's scan whose
 * report's "Scan again" asked for the run, which the new scan's report is compared with.
 */
export async function runTargetNow(
  deps: TargetRunDeps,
  owner: { id: number; plan: Plan },
  targetId: number,
  { rescanOf }: { rescanOf?: string } = {},
): Promise<TargetRunOutcome> {
  const target = await deps.targets.findOwned(owner.id, targetId);
  if (!target) return { kind: 'not_found' };
  const now = deps.clock();
  const stored = await deps.scans
    .underOwnerLock(owner.id, async (locked): Promise<TargetRunOutcome | { kind: 'created'; scan: Scan }> => {
      const running = await locked.latestInFlightOfTarget(target.id);
      if (running) return { kind: 'ok', scan: running, joined: true };
      const limit = hourlyLimitReached(await locked.requestTimesSince(owner.id, hourBefore(now)), owner.plan);
      if (limit) return limit;
      const scan = await locked.insert({
        publicId: newPublicId(now),
        userId: owner.id,
        url: target.url,
        host: target.host,
        region: target.region,
        isPublic: false,
        runs: owner.plan.scheduledRuns,
        authType: null,
        authSecret: null,
        cacheKey: null,
        requestedAt: now,
        targetId: target.id,
        ...(rescanOf ? { rescanOf } : {}),
      });
      return { kind: 'created', scan };
    })
    .catch((error: unknown): TargetRunOutcome => {
      // Deleted between the lookup above and the insert: as if it had been gone already.
      if (error instanceof TargetGoneError) return { kind: 'not_found' };
      throw error;
    });
  if (stored.kind !== 'created') return stored;
  try {
    await startTargetRunNowWorkflow(deps.temporal, deps.config.temporal.taskQueuePrefix, {
      targetId: target.id,
      scanId: stored.scan.publicId,
    });
  } catch (error) {
    await markFailed(
      deps.scans,
      stored.scan.publicId,
      'not_started',
      FAILURE_DETAILS.workflowNotStarted(error instanceof Error ? error.message : String(error)),
      deps.clock(),
    );
    return { kind: 'not_started', cause: error };
  }
  return { kind: 'ok', scan: stored.scan, joined: false };
}

const hourBefore = (now: Date) => new Date(now.getTime() - HOUR_MS);
