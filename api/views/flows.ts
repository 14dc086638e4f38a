import { isoTimestamp } from '../../core/clock.ts';
import { failedStep } from '../../core/flows/definition.ts';
import { referencedSecrets, type FlowStepResult } from '../../core/flows/flow.ts';
import type { Keyring } from '../../core/keys.ts';
import type { Flow, FlowRun, FlowSecretInfo } from '../../db/store/flows.ts';
import { flowRunImageUrl } from '../../services/assets.ts';
import type { FlowStepSeries } from '../../services/flows.ts';

export interface FlowViewContext {
  baseUrl: string;
  keys: Keyring;
  now: Date;
}

const maybeTime = (time: Date | null) => (time ? isoTimestamp(time) : null);

/** A flow with its secrets' names and kinds (never their values) and those its steps need but lack. */
export function flowView(flow: Flow, secrets: FlowSecretInfo[]) {
  const set = new Set(secrets.map((secret) => secret.name));
  return {
    id: flow.publicId,
    name: flow.name,
    form_factor: flow.formFactor,
    steps: flow.steps,
    secrets: secrets.map((secret) => ({
      name: secret.name,
      kind: secret.kind,
      updated_at: isoTimestamp(secret.updatedAt),
    })),
    missing_secrets: referencedSecrets({ name: flow.name, form_factor: flow.formFactor, steps: flow.steps }).filter(
      (name) => !set.has(name),
    ),
    monitored: flow.monitored,
    budgets: flow.budgets,
    created_at: isoTimestamp(flow.createdAt),
    updated_at: isoTimestamp(flow.updatedAt),
  };
}

export function stepSeriesView(series: FlowStepSeries) {
  return {
    index: series.index,
    mode: series.mode,
    name: series.name,
    points: series.points.map((point) => ({ ...point, at: isoTimestamp(point.at) })),
  };
}

export function runSummaryView(run: FlowRun) {
  return {
    id: run.publicId,
    flow_id: run.flowPublicId,
    status: run.status,
    trigger: run.trigger,
    region: run.region,
    requested_at: isoTimestamp(run.requestedAt),
    started_at: maybeTime(run.startedAt),
    finished_at: maybeTime(run.finishedAt),
  };
}

/** A run's images are private, signed for the owner like a private scan's (they sit under the run's id). */
function imageUrl(run: FlowRun, name: string | null, ctx: FlowViewContext): string | null {
  return name ? flowRunImageUrl(ctx.baseUrl, ctx.keys, run.publicId, name, ctx.now) : null;
}

export function runDetailView(run: FlowRun, steps: FlowStepResult[], ctx: FlowViewContext) {
  const failure = run.failure;
  return {
    ...runSummaryView(run),
    lighthouse_version: run.lighthouseVersion,
    chromium_version: run.chromiumVersion,
    steps: steps.map((step) => ({
      index: step.index,
      mode: step.mode,
      name: step.name,
      url: step.url,
      scores: step.scores,
      metrics: step.metrics,
      findings: step.findings,
      screenshot_url: imageUrl(run, step.screenshot, ctx),
    })),
    failure: failure && {
      step_index: failure.index,
      step_type: failure.step_type,
      step: failedStep(failure, run.definition).step,
      code: failure.code,
      message: failure.message,
      screenshot_url: imageUrl(run, failure.screenshot, ctx),
    },
  };
}
