import type { FlowRunInput, FlowRunOutcome } from '../../core/flows/flow.ts';
import type { RunOptions, ScanImage } from '../scan-runner.ts';

/** What a flow run hands back: the outcome (per measured step, or the failing step) and its screenshots, by the names the outcome uses. */
export interface FlowRunnerResult {
  outcome: FlowRunOutcome;
  images: ScanImage[];
}

/**
 * One run of a flow in a Chromium with a fresh profile, its measured steps through Lighthouse's user-flow API
 * in one session. Resolves with the outcome, a failing step included (the flow's own failure, recorded once,
 * never retried); rejects when the run crashed or was aborted, which the activity throws on for Temporal to
 * retry. The worker wires the real one (activities/flows/process-flow-runner.ts).
 */
export interface FlowRunner {
  run(input: FlowRunInput, options: RunOptions): Promise<FlowRunnerResult>;
}
