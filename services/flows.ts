import { flowBudgetProblems, type FlowBudgetProblem, type FlowBudgets } from '../core/flows/flow-budgets.ts';
import type { Client } from '@temporalio/client';
import type { Clock } from '../core/clock.ts';
import { checkSteps, MAX_FLOW_NAME_CHARS } from '../core/flows/definition.ts';
import {
  referencedSecrets,
  RUN_FAILURE_MESSAGES,
  startOrigin,
  type FlowSecretKind,
  type FlowStep,
} from '../core/flows/flow.ts';
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
import type { Flow, FlowHistoryRow, FlowRun, FlowRunTrigger, FlowSecretInfo, FlowStore } from '../db/store/flows.ts';
import type { Config } from '../infra/config.ts';
import { checkScanTarget } from '../infra/scan-target.ts';
import {
  createFlowSchedule,
  deleteFlowSchedule,
  startFlowRunWorkflow,
  terminateIfRunning,
} from '../infra/temporal-client.ts';
import type { AssetStore } from './assets.ts';
import { scheduleCall, ScheduleCallFailed } from './schedule-call.ts';

/**
 * User flows as the API manages them (docs/flows.md): definitions checked and normalised, the plan's feature
 * and limits, secrets encrypted on the way in and never given out, and runs queued with their workflow.
 */
export interface FlowServiceDeps {
  flows: FlowStore;
  temporal: Client;
  config: Pick<Config, 'keys' | 'regions' | 'temporal' | 'outboundAllowLoopback'>;
  clock: Clock;
  assets: AssetStore;
}

export interface Owner {
  id: number;
  plan: Plan;
}

export interface SecretInput {
  kind: FlowSecretKind;
  value: string;
}

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

export type FlowFailureOutcome =
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_found' }
  | { kind: 'plan_required'; plan: Plan; needed: Plan }
  /**
   * The plan keeps no more flows, or (`limited: 'targets'`) monitoring one more would pass the plan's target
   * limit, which monitored flows count against.
   */
  | { kind: 'flow_limit'; plan: Plan; limit: number; upgrade: Plan | undefined; limited?: 'targets' }
  | { kind: 'step_limit'; plan: Plan; limit: number; steps: number; upgrade: Plan | undefined }
  /** Temporal did not take the start, stop or (`schedule`) the schedule change; nothing was changed. */
  | { kind: 'not_started'; cause: unknown; schedule?: true };

export type FlowOutcome =
  { kind: 'ok'; flow: Flow; secrets: FlowSecretInfo[]; warnings: string[] } | FlowFailureOutcome;

export type RunOutcome = { kind: 'ok'; run: FlowRun; created: boolean } | FlowFailureOutcome;

const invalid = (field: string, message: string): FlowFailureOutcome => ({
  kind: 'invalid',
  errors: { [field]: [message] },
});

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

function secretProblems(secrets: Record<string, SecretInput>): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const [name, secret] of Object.entries(secrets)) {
    const problem = secretValueProblem(secret);
    if (problem) errors[`secrets.${name}.value`] = [problem];
  }
  return errors;
}

/** A TOTP seed is base32 (RFC 4648, spaces and padding allowed) of at least 80 bits; a password anything not empty. */
export function secretValueProblem(secret: SecretInput): string | null {
  if (secret.kind !== 'totp') return null;
  const seed = secret.value.replace(/[\s=]/g, '');
  return /^[A-Za-z2-7]{16,}$/.test(seed)
    ? null
    : 'A TOTP secret must be the base32 seed (at least 16 characters A–Z, 2–7).';
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

export async function setFlowSecret(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  name: string,
  secret: SecretInput,
): Promise<{ kind: 'ok'; flow: Flow; secrets: FlowSecretInfo[]; created: boolean } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  const problem = secretValueProblem(secret);
  if (problem) return invalid('value', problem);
  const created = await deps.flows.putSecret(
    flow.id,
    { name, kind: secret.kind, valueEncrypted: encryptFlowSecret(deps.config.keys, flow.publicId, name, secret.value) },
    deps.clock(),
  );
  return { kind: 'ok', flow, secrets: await deps.flows.secrets(flow.id), created };
}

export async function deleteFlowSecret(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  name: string,
): Promise<{ kind: 'ok' } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  return (await deps.flows.deleteSecret(flow.id, name)) ? { kind: 'ok' } : { kind: 'not_found' };
}

/**
 * Queues a run of the flow in the default region and starts its workflow. Every secret the steps type must be
 * set (422 naming the first missing one). While a run of the flow is queued or running, that run is the
 * answer (no second one). When Temporal does not take the workflow the run is stored as failed (503).
 */
export async function startFlowRun(
  deps: FlowServiceDeps,
  owner: Owner,
  publicId: string,
  trigger: Exclude<FlowRunTrigger, 'schedule'> = 'api',
): Promise<RunOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  const inFlight = (await deps.flows.listRuns(flow.id, { limit: 1, page: 1 })).items.find(
    (run) => run.status === 'queued' || run.status === 'running',
  );
  if (inFlight) return { kind: 'ok', run: inFlight, created: false };
  const definition = { name: flow.name, form_factor: flow.formFactor, steps: flow.steps };
  const set = new Set((await deps.flows.secrets(flow.id)).map((secret) => secret.name));
  const missing = referencedSecrets(definition).filter((name) => !set.has(name));
  if (missing.length)
    return {
      kind: 'invalid',
      errors: {
        secrets: missing.map(
          (name) => `The secret "${name}" is not set; set it with PUT /flows/${flow.publicId}/secrets/${name}.`,
        ),
      },
    };
  const now = deps.clock();
  const run = await deps.flows.insertRun({
    publicId: newPublicId(now),
    flowId: flow.id,
    userId: owner.id,
    region: deps.config.regions.default,
    trigger,
    definition,
    requestedAt: now,
  });
  try {
    await startFlowRunWorkflow(deps.temporal, deps.config.temporal.taskQueuePrefix, {
      runId: run.publicId,
      userId: owner.id,
      host: new URL(startOrigin(definition) ?? 'http://unknown.invalid').hostname,
      region: run.region,
    });
  } catch (cause) {
    await deps.flows.failRun(
      run.publicId,
      { index: null, step_type: null, code: 'not_started', message: RUN_FAILURE_MESSAGES.notStarted, screenshot: null },
      deps.clock(),
    );
    return { kind: 'not_started', cause };
  }
  return { kind: 'ok', run, created: true };
}

/** One point of a step's series: a finished run's values for the step. */
export interface FlowHistoryPoint {
  run_id: string;
  at: Date;
  trigger: FlowRunTrigger;
  url: string;
  metrics: FlowHistoryRow['step']['metrics'];
  scores: FlowHistoryRow['step']['scores'];
}

/** A measured step over time. A step is known by index, mode and name together: renamed or moved, it is a new series. */
export interface FlowStepSeries {
  index: number;
  mode: FlowHistoryRow['step']['mode'];
  name: string;
  points: FlowHistoryPoint[];
}

/** The rows of finished runs grouped into one series per step (by index, then mode and name), each oldest first. */
export function stepSeries(rows: readonly FlowHistoryRow[]): FlowStepSeries[] {
  const byKey = new Map<string, FlowStepSeries>();
  const sorted = [...rows].sort((a, b) => a.finishedAt.getTime() - b.finishedAt.getTime());
  for (const row of sorted) {
    const { index, mode, name } = row.step;
    const key = JSON.stringify([index, mode, name]);
    let series = byKey.get(key);
    if (!series) byKey.set(key, (series = { index, mode, name, points: [] }));
    series.points.push({
      run_id: row.runId,
      at: row.finishedAt,
      trigger: row.trigger,
      url: row.step.url,
      metrics: row.step.metrics,
      scores: row.step.scores,
    });
  }
  return [...byKey.values()].sort(
    (a, b) =>
      a.index - b.index ||
      (a.points.at(-1)?.at.getTime() ?? 0) - (b.points.at(-1)?.at.getTime() ?? 0) ||
      a.name.localeCompare(b.name),
  );
}

/** The flow's step series over the last `days` days (finished runs only). */
export async function flowHistory(
  deps: Pick<FlowServiceDeps, 'flows' | 'clock'>,
  owner: Owner,
  publicId: string,
  days: number,
): Promise<{ kind: 'ok'; flow: Flow; series: FlowStepSeries[] } | FlowFailureOutcome> {
  const flow = await deps.flows.findOwned(owner.id, publicId);
  if (!flow) return { kind: 'not_found' };
  const since = new Date(deps.clock().getTime() - days * 86_400_000);
  return { kind: 'ok', flow, series: stepSeries(await deps.flows.history(flow.id, since)) };
}
