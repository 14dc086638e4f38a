/**
 * The real FlowRunner: each run of a flow in a runner process of its own (flow-runner-process.ts), started,
 * sandboxed and ended as a scan's runner is (activities/lighthouse/runner-processes.ts). The outcome and any
 * error are scrubbed of the flow's secrets here too, whatever the runner did.
 */
import { fileURLToPath } from 'node:url';
import type { FlowRunInput, FlowRunOutcome } from '../../core/flows/flow.ts';
import { scrubFlowSecrets } from '../../core/flows/secret-scrub.ts';
import { RunnerProtocolError } from '../lighthouse/protocol.ts';
import { runnerProcesses, type RunnerProcessConfig } from '../lighthouse/runner-processes.ts';
import type { ScanImage } from '../scan-runner.ts';
import { parseFlowRunnerMessage, type FlowRunnerMessage } from './flow-protocol.ts';
import type { FlowRunner, FlowRunnerResult } from './flow-runner.ts';

export const FLOW_RUNNER_SCRIPT = fileURLToPath(new URL('./flow-runner-process.ts', import.meta.url));
/** A screenshot per measured step and one of a failing step: as many as a long flow has steps. */
const MAX_IMAGES = 101;

type FlowMessage = Exclude<FlowRunnerMessage, { kind: 'progress' } | { kind: 'browser' }>;

function flowReader(): (message: FlowMessage) => FlowRunnerResult | null {
  const images: ScanImage[] = [];
  return (message) => {
    if (message.kind === 'image') {
      if (images.length >= MAX_IMAGES)
        throw new RunnerProtocolError(`the flow runner sent more than ${MAX_IMAGES} images`);
      images.push({ name: message.name, bytes: Buffer.from(message.base64, 'base64') });
      return null;
    }
    const outcome: FlowRunOutcome = message.outcome;
    return { outcome, images };
  };
}

export function createProcessFlowRunner(
  config: RunnerProcessConfig & { script?: string },
): FlowRunner & { close(): void } {
  const processes = runnerProcesses<FlowRunInput, FlowMessage, FlowRunnerResult>(config, {
    script: config.script ?? FLOW_RUNNER_SCRIPT,
    parseMessage: parseFlowRunnerMessage,
    newReader: flowReader,
    label: 'Flow runner',
    startWithWorker: false,
  });
  return {
    async run(input, options) {
      try {
        const { outcome, images } = await processes.run(input, options);
        return { outcome: scrubFlowSecrets(outcome, input.secrets), images };
      } catch (error) {
        if (options.signal.aborted) throw error; // the activity's own reason, as it gave it
        const message = error instanceof Error ? error.message : String(error);
        // Not the original as cause: its message and stack may hold a secret.
        // eslint-disable-next-line preserve-caught-error
        throw new Error(scrubFlowSecrets(message, input.secrets));
      }
    },
    close: () => processes.close(),
  };
}
