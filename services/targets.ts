import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { ScanTarget, ScanTargetChanges } from '../core/monitoring/target.ts';
import { DEFAULT_BUDGETS, type Budgets } from '../core/monitoring/budgets.ts';
import { DEFAULT_THRESHOLDS, thresholdErrors, type Thresholds } from '../core/monitoring/thresholds.ts';
import { cheapestPlanWithMoreTargets, type Plan } from '../core/plans.ts';
import { checkScanTarget } from '../infra/scan-target.ts';
import { createTargetSchedule, deleteTargetSchedule, setTargetSchedulePaused } from '../infra/temporal-client.ts';
import { normaliseScanUrl } from '../core/url.ts';
import { FAILURE_DETAILS } from '../core/scan/failures.ts';
import type { TargetStore } from '../db/store/targets.ts';
import { scheduleCall, ScheduleCallFailed } from './schedule-call.ts';

/**
 * Monitored targets and their Temporal Schedules, changed together. Each operation runs in one Postgres
 * transaction under the owner's target lock: the row is written, then Temporal is called, and the
 * transaction commits only when Temporal has taken the change. So a failed Temporal call (an outage: the
 * calls give up after 5 s) rolls the row back and the caller gets `schedule_unavailable` (503), with row and
 * schedule as they were. The one gap left is a commit that fails after Temporal took the change (Postgres
 * gone at that instant): then the change is taken back in Temporal at once where possible, and otherwise the
 * reconciler (activities/targets.ts) repairs it within minutes, the row being the truth.
 */

export interface TargetServiceDeps {
  targets: TargetStore;
  temporal: Client;
  config: Pick<Config, 'outboundAllowLoopback' | 'regions' | 'temporal'>;
  clock: Clock;
}

/** A new target as asked for (the API's body, already checked against its schema). */
export interface TargetInput {
  url: string;
  region?: string;
  thresholds?: Thresholds;
  /** Performance budgets (core/monitoring/budgets.ts); none when absent. */
  budgets?: Budgets;
  is_active?: boolean;
}

/** A change as asked for; `thresholds` replaces the target's thresholds as a whole. */
export interface TargetUpdate {
  is_active?: boolean;
  thresholds?: Thresholds;
  /** Replaces the target's budgets as a whole (`{}`: none). */
  budgets?: Budgets;
  region?: string;
}

export type TargetOutcome =
  | { kind: 'ok'; target: ScanTarget }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_found' }
  /** The plan keeps no more targets; `upgrade`: the cheapest plan that keeps more (none above Agency). */
  | { kind: 'plan_limit'; limit: number; plan: Plan; upgrade: Plan | undefined }
  /** Temporal did not take the schedule change; nothing was changed. */
  | { kind: 'schedule_unavailable'; cause: unknown };

interface Owner {
  id: number;
  plan: Plan;
}

/**
 * Runs a change under the owner's lock. `undo` is what takes a Temporal change back when the transaction
 * fails after Temporal took it; best effort, the reconciler covers the rest.
 */
async function changeWithSchedule(
  deps: TargetServiceDeps,
  ownerId: number,
  change: (locked: TargetStore, undo: (action: () => Promise<void>) => void) => Promise<TargetOutcome>,
): Promise<TargetOutcome> {
  let undoAction: (() => Promise<void>) | null = null;
  try {
    return await deps.targets.underOwnerLock(ownerId, (locked) =>
      change(locked, (action) => void (undoAction = action)),
    );
  } catch (error) {
    if (error instanceof ScheduleCallFailed) return { kind: 'schedule_unavailable', cause: error.cause };
    const undo = undoAction as (() => Promise<void>) | null;
    if (undo) await undo().catch(() => undefined);
    throw error;
  }
}

const invalid = (field: string, message: string): TargetOutcome => ({
  kind: 'invalid',
  errors: { [field]: [message] },
});
const duplicate = (region: string): TargetOutcome =>
  invalid('url', `You already monitor this URL in region ${region}.`);

function thresholdProblems(thresholds: Thresholds | undefined): TargetOutcome | null {
  const errors = thresholds ? thresholdErrors(thresholds) : {};
  return Object.keys(errors).length ? { kind: 'invalid', errors } : null;
}

/** Normalise the URL like scans do, check its address, check the plan's count and duplicates, store it with its schedule. */
export async function createTarget(deps: TargetServiceDeps, owner: Owner, input: TargetInput): Promise<TargetOutcome> {
  const { config, temporal } = deps;
  const prefix = config.temporal.taskQueuePrefix;
  const normalised = normaliseScanUrl(input.url);
  if (!normalised.ok) return invalid('url', normalised.error);
  // As for scans: IP literals are judged now, names when each scan runs, against the addresses then used.
  const address = await checkScanTarget(normalised.host, {
    allowLoopback: config.outboundAllowLoopback,
    resolveNames: false,
  });
  if (!address.allowed) return invalid('url', 'The url must point to a public address.');
  const problems = thresholdProblems(input.thresholds);
  if (problems) return problems;
  const region = input.region ?? config.regions.default;

  return changeWithSchedule(deps, owner.id, async (locked, undo) => {
    const count = await locked.countMonitored(owner.id);
    if (count >= owner.plan.maxTargets)
      return {
        kind: 'plan_limit',
        limit: owner.plan.maxTargets,
        plan: owner.plan,
        upgrade: cheapestPlanWithMoreTargets(count),
      };
    if (await locked.findByUrl(owner.id, normalised.url, region)) return duplicate(region);
    const target = await locked.insert({
      userId: owner.id,
      url: normalised.url,
      host: normalised.host,
      region,
      isActive: input.is_active ?? true,
      thresholds: input.thresholds ?? DEFAULT_THRESHOLDS,
      budgets: input.budgets ?? DEFAULT_BUDGETS,
      createdAt: deps.clock(),
    });
    await scheduleCall(() => createTargetSchedule(temporal, prefix, target));
    undo(() => deleteTargetSchedule(temporal, prefix, target.id));
    return { kind: 'ok', target };
  });
}

/** Pause or resume (the schedule follows), replace the thresholds, or move the target to another region. */
export async function updateTarget(
  deps: TargetServiceDeps,
  owner: Owner,
  id: number,
  update: TargetUpdate,
): Promise<TargetOutcome> {
  const { config, temporal } = deps;
  const problems = thresholdProblems(update.thresholds);
  if (problems) return problems;

  return changeWithSchedule(deps, owner.id, async (locked, undo) => {
    const target = await locked.findOwned(owner.id, id);
    if (!target) return { kind: 'not_found' };
    if (
      update.region !== undefined &&
      update.region !== target.region &&
      (await locked.findByUrl(owner.id, target.url, update.region))
    )
      return duplicate(update.region);
    const changes: ScanTargetChanges = {
      isActive: update.is_active,
      thresholds: update.thresholds,
      region: update.region,
      budgets: update.budgets,
    };
    const updated = (await locked.update(id, changes, deps.clock()))!;
    if (updated.isActive !== target.isActive) {
      await scheduleCall(() => setTargetSchedulePaused(temporal, config.temporal.taskQueuePrefix, updated));
      undo(() => setTargetSchedulePaused(temporal, config.temporal.taskQueuePrefix, target));
    }
    return { kind: 'ok', target: updated };
  });
}

/** Removes the target and its schedule. Its scans stay in the owner's list, without the link. */
export async function deleteTarget(deps: TargetServiceDeps, owner: Owner, id: number): Promise<TargetOutcome> {
  const { config, temporal } = deps;
  return changeWithSchedule(deps, owner.id, async (locked, undo) => {
    const target = await locked.findOwned(owner.id, id);
    if (!target) return { kind: 'not_found' };
    // A scan that has not started (a run now just asked for, one waiting for its slot) would outlive its target.
    const detail = FAILURE_DETAILS.targetDeletedBeforeStart();
    await locked.failQueuedScans(id, { code: 'not_started', detail, httpStatus: null }, deps.clock());
    await locked.delete(id, deps.clock());
    await scheduleCall(() => deleteTargetSchedule(temporal, config.temporal.taskQueuePrefix, id));
    undo(() => createTargetSchedule(temporal, config.temporal.taskQueuePrefix, target));
    return { kind: 'ok', target };
  });
}
