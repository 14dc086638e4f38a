/**
 * Between the worker (process-flow-runner.ts) and a flow's runner process (flow-runner-process.ts): the same
 * arguments, environment and stdin as a scan's runner (activities/lighthouse/protocol.ts), FlowRunInput on
 * stdin (the secrets travel there, never in argv or the environment), FlowRunnerMessage lines on stdout.
 */
import type { FlowRunOutcome } from '../../core/flows/flow.ts';
import { RunnerProtocolError } from '../lighthouse/protocol.ts';
import type { LifetimeMessage } from '../lighthouse/runner-processes.ts';

export type FlowRunnerMessage =
  | LifetimeMessage
  /** A step's screenshot (JPEG), named as the outcome refers to it. */
  | { kind: 'image'; name: string; base64: string }
  /** The last message: per measured step, or the failing step. */
  | { kind: 'flow_outcome'; outcome: FlowRunOutcome };

/** Screenshot names: the run id and a step index, nothing else (so never a secret). */
export const stepImageName = (runId: string, index: number, failure = false): string =>
  `flow-${runId}-step-${index}${failure ? '-failure' : ''}.jpg`;
export const RUN_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
const IMAGE_NAME = /^flow-[A-Za-z0-9_-]{1,64}-step-\d{1,4}(-failure)?\.jpg$/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** One stdout line as a message, or a RunnerProtocolError; the outcome's insides are the runner's own work. */
export function parseFlowRunnerMessage(line: string): FlowRunnerMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RunnerProtocolError('the flow runner wrote a line that is not JSON');
  }
  const m = isObject(value) ? value : {};
  const valid =
    (m.kind === 'progress' && typeof m.step === 'string') ||
    (m.kind === 'browser' && Number.isSafeInteger(m.pid) && (m.pid as number) > 0) ||
    (m.kind === 'image' && typeof m.name === 'string' && IMAGE_NAME.test(m.name) && typeof m.base64 === 'string') ||
    (m.kind === 'flow_outcome' &&
      isObject(m.outcome) &&
      Array.isArray(m.outcome.steps) &&
      (m.outcome.failure === null || isObject(m.outcome.failure)));
  if (!valid)
    throw new RunnerProtocolError(
      `the flow runner wrote a message the worker does not know (${String(m.kind).slice(0, 40)})`,
    );
  return m as FlowRunnerMessage;
}
