import { newPublicId } from '../core/ids.ts';
import { RUN_FAILURE_MESSAGES, referencedSecrets, startOrigin } from '../core/flows/flow.ts';
import type { Flow, FlowHistoryRow, FlowRun, FlowRunTrigger } from '../db/store/flows.ts';
import { startFlowRunWorkflow } from '../infra/temporal-client.ts';
import type { FlowFailureOutcome, FlowServiceDeps, Owner } from './flow-service.ts';

/** A run asked for: the new one (`created`), or the one still queued or running. */
export type RunOutcome = { kind: 'ok'; run: FlowRun; created: boolean } | FlowFailureOutcome;

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
