import { isoTimestamp } from '../clock.ts';
import { failedStep } from '../flows/definition.ts';
import type { FailedStep, FlowDefinition, FlowStepResult, LighthouseStepMode } from '../flows/flow.ts';
import { flowRunUrl } from '../links.ts';

/**
 * The extension events of user flow runs (docs/webhooks.md#user-flows). The spec's scan.completed is not used
 * for them: its score, score_speed, score_images, score_caching and score_tech are this service's own
 * categories, which a flow's Lighthouse steps do not have, so any value there would mean something else. A
 * run's end is told in events of its own, whose shared fields keep the spec's names where the meaning is the
 * same (`url`), and which the owner switches on or off in the notification settings like every event.
 */
export interface FlowRef {
  id: string;
  name: string;
  run_id: string;
  trigger: 'api' | 'web' | 'schedule';
}

export interface FlowStepPayload {
  index: number;
  mode: LighthouseStepMode;
  name: string;
  url: string;
  metrics: FlowStepResult['metrics'];
  scores: FlowStepResult['scores'];
}

export interface FlowCompletedPayload {
  event: 'flow.completed';
  /** The page the first navigation step measured. */
  url: string;
  flow: FlowRef;
  steps: FlowStepPayload[];
  run_url: string;
  finished_at: string;
}

export interface FlowFailedPayload {
  event: 'flow.failed';
  /** The URL the flow starts on (its first navigation step's). */
  url: string;
  flow: FlowRef;
  /** Where the run stopped: the step (null for a run that failed outside any step), in words, and why. */
  failed_step: FailedStep;
  /** The steps measured before it stopped. */
  steps: FlowStepPayload[];
  run_url: string;
  finished_at: string;
}

/** What the payloads are built from: the ended run as stored. */
export interface EndedFlowRun {
  flowPublicId: string;
  flowName: string;
  runPublicId: string;
  trigger: FlowRef['trigger'];
  definition: FlowDefinition;
  finishedAt: Date;
  steps: readonly FlowStepResult[];
  failure: Omit<FailedStep, 'step'> | null;
}

const stepPayload = (step: FlowStepResult): FlowStepPayload => ({
  index: step.index,
  mode: step.mode,
  name: step.name,
  url: step.url,
  metrics: step.metrics,
  scores: step.scores,
});

const firstNavigation = (definition: FlowDefinition): string => {
  const first = definition.steps.find((step) => step.type === 'navigate');
  return first?.type === 'navigate' ? first.url : '';
};

/** flow.completed for a finished run, flow.failed for a failed one. */
export function flowRunPayload(run: EndedFlowRun, baseUrl: string): FlowCompletedPayload | FlowFailedPayload {
  const common = {
    flow: { id: run.flowPublicId, name: run.flowName, run_id: run.runPublicId, trigger: run.trigger },
    steps: run.steps.map(stepPayload),
    run_url: flowRunUrl(baseUrl, run.flowPublicId, run.runPublicId),
    finished_at: isoTimestamp(run.finishedAt),
  };
  if (!run.failure) {
    const measured = run.steps.find((step) => step.mode === 'navigation');
    return { event: 'flow.completed', url: measured?.url ?? firstNavigation(run.definition), ...common };
  }
  return {
    event: 'flow.failed',
    url: firstNavigation(run.definition),
    ...common,
    failed_step: failedStep(run.failure, run.definition),
  };
}
