/**
 * The runners a worker composes (worker/main.ts; the tests' in-process workers take theirs from here too): each
 * scan's and each user flow's run in a runner process of its own, Lighthouse in Chromium; or, with
 * SCAN_RUNNER=replay (accepted with APP_ENV=test only, infra/config/worker.ts), runner scripts that replay
 * recorded runs of the fixture pages and flows in the same runner processes, for tests whose subject is not
 * Lighthouse (docs/testing.md, "Real Lighthouse or a recorded run").
 */
import { resolve } from 'node:path';
import type { FlowRunner } from '../activities/flows/flow-runner.ts';
import { createProcessFlowRunner } from '../activities/flows/process-flow-runner.ts';
import { processRunner } from '../activities/lighthouse/process-runner.ts';
import type { ScanRunner } from '../activities/scan-runner.ts';
import { PROJECT_ROOT, type Config } from '../infra/config.ts';

export const REPLAY_RUNNER_SCRIPT = resolve(PROJECT_ROOT, 'fixtures/replay-runner.ts');
export const FLOW_REPLAY_RUNNER_SCRIPT = resolve(PROJECT_ROOT, 'fixtures/flow-replay-runner.ts');

type RunnerSettings = Pick<Config, 'chromiumPath' | 'outboundAllowLoopback' | 'scanUser'> & {
  worker: Pick<Config['worker'], 'scanRunner'>;
};

const processSettings = (config: RunnerSettings) => ({
  chromiumPath: config.chromiumPath,
  allowLoopback: config.outboundAllowLoopback,
  scanUser: config.scanUser,
});

/** Throws when a root worker's SCAN_USER cannot run the runner, so the worker does not start. */
export function scanRunnerFor(config: RunnerSettings): ScanRunner & { close(): void } {
  return processRunner({
    ...processSettings(config),
    ...(config.worker.scanRunner === 'replay' ? { script: REPLAY_RUNNER_SCRIPT } : {}),
  });
}

export function flowRunnerFor(config: RunnerSettings): FlowRunner & { close(): void } {
  return createProcessFlowRunner({
    ...processSettings(config),
    ...(config.worker.scanRunner === 'replay' ? { script: FLOW_REPLAY_RUNNER_SCRIPT } : {}),
  });
}
