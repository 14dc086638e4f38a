import { flowBudgetProblems, type FlowBudgetProblem, type FlowBudgets } from '../core/flows/flow-budgets.ts';
import { checkSteps, MAX_FLOW_NAME_CHARS } from '../core/flows/definition.ts';
import type { FlowStep } from '../core/flows/flow.ts';
import { importRecording, RecordingInvalid } from '../core/flows/recorder.ts';
import { encryptFlowSecret } from '../core/flows/secrets.ts';
import { newPublicId } from '../core/ids.ts';
import {
  cheapestPlanAllowingFlowSteps,
  cheapestPlanWith,
  cheapestPlanWithMoreFlows,
  cheapestPlanWithMoreTargets,
  hasFeature,
  type Plan,
} from '../core/plans.ts';
import type { FormFactor } from '../core/scan/observation.ts';
import { flowRunWorkflowId } from '../core/temporal.ts';
import type { Flow, FlowSecretInfo, FlowStore } from '../db/store/flows.ts';
import { checkScanTarget } from '../infra/scan-target.ts';
import { createFlowSchedule, deleteFlowSchedule, terminateIfRunning } from '../infra/temporal-client.ts';
import { invalid, type FlowFailureOutcome, type FlowServiceDeps, type Owner } from './flow-service.ts';
import { secretProblems, type SecretInput } from './flow-secrets.ts';
import { scheduleCall, ScheduleCallFailed } from './schedule-call.ts';

export type { FlowFailureOutcome, FlowServiceDeps, Owner } from './flow-service.ts';
export { deleteFlowSecret, secretValueProblem, setFlowSecret, type SecretInput } from './flow-secrets.ts';
export {
  flowHistory,
  startFlowRun,
  stepSeries,
  type FlowHistoryPoint,
  type FlowStepSeries,
  type RunOutcome,
} from './flow-runs.ts';

/** A new flow: its steps, or a Chrome DevTools Recorder export to import them from (not both). */
export interface FlowInput {
  name?: string;
  form_factor: FormFactor;
  steps?: FlowStep[];
  recording?: unknown;
  secrets?: Record<string, SecretInput>;
  /** Run daily on a schedule of its own; counts against the plan's target limit. Default false. */
  monitored?: boolean;
  /** Step budgets (core/flows/flow-budgets.ts). Default `{}`. */
  budgets?: FlowBudgets;
}

export interface FlowUpdate {
  name?: string;
  form_factor?: FormFactor;
  steps?: FlowStep[];
  monitored?: boolean;
  /** Replaces the budgets as a whole (`{}` removes them all). */
  budgets?: FlowBudgets;
}

export type FlowOutcome =
  { kind: 'ok'; flow: Flow; secrets: FlowSecretInfo[]; warnings: string[] } | FlowFailureOutcome;

/** Every budget that does not fit, each under its field (the web form shows them all at once); null when none. */
const budgetsInvalid = (problems: FlowBudgetProblem[]): FlowFailureOutcome | null =>
  problems.length
    ? { kind: 'invalid', errors: Object.fromEntries(problems.map(({ field, message }) => [field, [message]])) }
    : null;

/**
 * A change that may create or delete the flow's schedule, as targets do it (services/targets.ts): under the
 * owner's flow and target locks in one transaction, the row first, then Temporal, committed only when Temporal
 * took the change. A failed Temporal call rolls back (`schedule_unavailable`); a commit failing after Temporal
 * took the change is undone in Temporal where possible, and otherwise repaired by the reconciler.
 */
async function changeWithSchedule<T extends { kind: string }>(
  deps: FlowServiceDeps,
  ownerId: number,
  change: (locked: FlowStore, undo: (action: () => Promise<void>) => void) => Promise<T | FlowFailureOutcome>,
): Promise<T | FlowFailureOutcome> {
  let undoAction: (() => Promise<void>) | null = null;
  try {
    return await deps.flows.underMonitoringLock(ownerId, (locked) =>
      change(locked, (action) => void (undoAction = action)),
    );
  } catch (error) {
    if (error instanceof ScheduleCallFailed) return { kind: 'not_started', cause: error.cause, schedule: true };
    const undo = undoAction as (() => Promise<void>) | null;
    if (undo) await undo().catch(() => undefined);
    throw error;
  }
}

/** Null when the owner may monitor one more thing (targets and monitored flows share `maxTargets`). */
async function targetRoom(locked: FlowStore, owner: Owner): Promise<FlowFailureOutcome | null> {
  const count = await locked.countMonitoredTargets(owner.id);
  return count < owner.plan.maxTargets
    ? null
    : {
        kind: 'flow_limit',
        limited: 'targets',
        plan: owner.plan,
        limit: owner.plan.maxTargets,
        upgrade: cheapestPlanWithMoreTargets(count),
      };
}

/** The flows feature of the plan: checked first by every route (a 403 before validation, like live data). */
export function flowsAllowed(plan: Plan): FlowFailureOutcome | null {
  return hasFeature(plan, 'flows') ? null : { kind: 'plan_required', plan, needed: cheapestPlanWith('flows') };
}

/** The steps checked, normalised, their addresses judged, against the plan's step limit. */
async function acceptedSteps(
  deps: FlowServiceDeps,
  owner: Owner,
  steps: FlowStep[],
): Promise<{ kind: 'ok'; steps: FlowStep[] } | FlowFailureOutcome> {
  if (steps.length > owner.plan.maxFlowSteps)
    return {
      kind: 'step_limit',
      plan: owner.plan,
      limit: owner.plan.maxFlowSteps,
      steps: steps.length,
      upgrade: cheapestPlanAllowingFlowSteps(steps.length),
    };
  const checked = checkSteps(steps);
  if (!checked.ok) return { kind: 'invalid', errors: checked.errors };
  // As for scans: IP literals are judged now, names when the flow runs, against the addresses then used.
  for (const [i, step] of checked.steps.entries()) {
    if (step.type !== 'navigate') continue;
    const verdict = await checkScanTarget(new URL(step.url).hostname, {
      allowLoopback: deps.config.outboundAllowLoopback,
      resolveNames: false,
    });
    if (!verdict.allowed) return invalid(`steps.${i}.url`, 'The url must point to a public address.');
  }
  return { kind: 'ok', steps: checked.steps };
}

export async function createFlow(deps: FlowServiceDeps, owner: Owner, input: FlowInput): Promise<FlowOutcome> {
  const gated = flowsAllowed(owner.plan);
  if (gated) return gated;
  if ((input.steps === undefined) === (input.recording === undefined))
    return invalid('steps', 'Send either steps or recording (a Chrome DevTools Recorder export), not both.');
  let steps = input.steps ?? [];
  let warnings: string[] = [];
  let name = input.name;
  if (input.recording !== undefined) {
    try {
      const imported = importRecording(input.recording);
      ({ steps, warnings } = imported);
      name ??= imported.title.trim().slice(0, MAX_FLOW_NAME_CHARS);
    } catch (error) {
      if (error instanceof RecordingInvalid) return invalid('recording', error.message);
      throw error;
    }
  }
  if (!name) return invalid('name', 'The name field is required.');
  const accepted = await acceptedSteps(deps, owner, steps);
  if (accepted.kind !== 'ok') return accepted;
  const secretErrors = secretProblems(input.secrets ?? {});
  if (Object.keys(secretErrors).length) return { kind: 'invalid', errors: secretErrors };
  const budgets = input.budgets ?? {};
  const budgetProblem = budgetsInvalid(flowBudgetProblems({ steps: accepted.steps }, budgets));
  if (budgetProblem) return budgetProblem;

  const monitored = input.monitored ?? false;
  const prefix = deps.config.temporal.taskQueuePrefix;
  return changeWithSchedule(deps, owner.id, async (locked, undo) => {
    const count = await locked.countOwned(owner.id);
    if (count >= owner.plan.maxFlows)
      return {
        kind: 'flow_limit',
        plan: owner.plan,
        limit: owner.plan.maxFlows,
        upgrade: cheapestPlanWithMoreFlows(count),
      } as const;
    const room = monitored ? await targetRoom(locked, owner) : null;
    if (room) return room;
    const now = deps.clock();
    const flow = await locked.insert({
      publicId: newPublicId(now),
      userId: owner.id,
      name: name,
      formFactor: input.form_factor,
      steps: accepted.steps,
      monitored,
      budgets,
      createdAt: now,
    });
    for (const [secretName, secret] of Object.entries(input.secrets ?? {}))
      await locked.putSecret(
        flow.id,
        {
          name: secretName,
          kind: secret.kind,
          valueEncrypted: encryptFlowSecret(deps.config.keys, flow.publicId, secretName, secret.value),
        },
        now,
      );
    if (monitored) {
      await scheduleCall(() => createFlowSchedule(deps.temporal, prefix, flow));
      undo(() => deleteFlowSchedule(deps.temporal, prefix, flow.id));
    }
    return { kind: 'ok', flow, secrets: await locked.secrets(flow.id), warnings } as const;
  });
}

export async function getFlow(deps: FlowServiceDeps, owner: Owner, publicId: string): Promise<FlowOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  return { kind: 'ok', flow, secrets: await deps.flows.secrets(flow.id), warnings: [] };
}

export async function updateFlow(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  input: FlowUpdate,
): Promise<FlowOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  let steps: FlowStep[] | undefined;
  if (input.steps !== undefined) {
    const accepted = await acceptedSteps(deps, owner, input.steps);
    if (accepted.kind !== 'ok') return accepted;
    steps = accepted.steps;
  }
  // Budgets stay keyed to step indices: new steps must keep each budgeted index a measured step of its mode.
  if (steps !== undefined || input.budgets !== undefined) {
    const problem = budgetsInvalid(flowBudgetProblems({ steps: steps ?? flow.steps }, input.budgets ?? flow.budgets));
    if (problem) return problem;
  }
  const changes = { name: input.name, formFactor: input.form_factor, steps, budgets: input.budgets };
  if (input.monitored === undefined || input.monitored === flow.monitored) {
    const updated = await deps.flows.update(flow.id, changes, deps.clock());
    if (!updated) return { kind: 'not_found' };
    return { kind: 'ok', flow: updated, secrets: await deps.flows.secrets(flow.id), warnings: [] };
  }
  const monitored = input.monitored;
  const prefix = deps.config.temporal.taskQueuePrefix;
  return changeWithSchedule(deps, owner.id, async (locked, undo) => {
    if (monitored) {
      const room = await targetRoom(locked, owner);
      if (room) return room;
    }
    const updated = await locked.update(flow.id, { ...changes, monitored }, deps.clock());
    if (!updated) return { kind: 'not_found' } as const;
    if (monitored) {
      await scheduleCall(() => createFlowSchedule(deps.temporal, prefix, updated));
      undo(() => deleteFlowSchedule(deps.temporal, prefix, updated.id));
    } else {
      await scheduleCall(() => deleteFlowSchedule(deps.temporal, prefix, updated.id));
      undo(() => createFlowSchedule(deps.temporal, prefix, updated));
    }
    return { kind: 'ok', flow: updated, secrets: await locked.secrets(flow.id), warnings: [] } as const;
  });
}

/** The flow, its schedule, secrets, runs and their images; runs still in flight are stopped first. */
export async function deleteFlow(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
): Promise<{ kind: 'ok' } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  const runIds = await deps.flows.runIds(flow.id);
  try {
    for (const runId of runIds)
      await terminateIfRunning(deps.temporal, flowRunWorkflowId(runId), 'flow deleted by its owner');
  } catch (cause) {
    return { kind: 'not_started', cause };
  }
  // Before the row: a schedule left behind would be an orphan until the reconciler's grace has passed.
  if (flow.monitored)
    try {
      await deleteFlowSchedule(deps.temporal, deps.config.temporal.taskQueuePrefix, flow.id);
    } catch (cause) {
      return { kind: 'not_started', cause, schedule: true };
    }
  await deps.flows.delete(flow.id);
  // After the rows: a folder left behind (the store away) holds only images no page links any more.
  for (const runId of runIds) await deps.assets.remove(runId).catch(() => false);
  return { kind: 'ok' };
}
