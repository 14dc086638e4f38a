/**
 * The real ScanRunner: each run of a scan in a runner process of its own (runner.ts), started, sandboxed and
 * ended by runner-processes.ts. Here: what a scan runner's messages add up to.
 */
import { fileURLToPath } from 'node:url';
import type { LighthouseReport } from '../../core/scan/lighthouse-report.ts';
import type { RunnerResult, ScanImage, ScanRunInput, ScanRunner } from '../scan-runner.ts';
import {
  MAX_REPORT_BYTES,
  parseRunnerMessage,
  RunnerProtocolError,
  type RunnerInput,
  type RunnerMessage,
} from './protocol.ts';
import { runnerProcesses, type RunnerProcessConfig, type RunnerProtocol } from './runner-processes.ts';

export interface ProcessRunnerConfig extends RunnerProcessConfig {
  /** The runner script; tests give stand-ins that misbehave. */
  script?: string;
}

export const RUNNER_SCRIPT = fileURLToPath(new URL('./runner.ts', import.meta.url));
// What a runner may hand back: desktop and mobile, a final screenshot and up to ~10 frames each.
const MAX_IMAGES = 64;
const GZIP_MAGIC = Buffer.from([0x1f, 0x8b]);

type ScanMessage = Exclude<RunnerMessage, { kind: 'progress' } | { kind: 'browser' }>;

/** A run's images and reports as they come, the result once the observation or the page failure came. */
function scanReader(): (message: ScanMessage) => RunnerResult | null {
  const images: ScanImage[] = [];
  const reports: LighthouseReport[] = [];
  return (message) => {
    if (message.kind === 'image') {
      if (images.length >= MAX_IMAGES) throw new RunnerProtocolError(`the runner sent more than ${MAX_IMAGES} images`);
      images.push({ name: message.name, bytes: Buffer.from(message.base64, 'base64') });
      return null;
    }
    if (message.kind === 'report') {
      const gzip = Buffer.from(message.base64, 'base64');
      if (reports.some((r) => r.formFactor === message.formFactor))
        throw new RunnerProtocolError(`the runner sent a second ${message.formFactor} Lighthouse result`);
      if (gzip.length > MAX_REPORT_BYTES || !gzip.subarray(0, 2).equals(GZIP_MAGIC))
        throw new RunnerProtocolError(
          `the runner sent a ${message.formFactor} Lighthouse result that is not gzip or too large`,
        );
      reports.push({ formFactor: message.formFactor, gzip, jsonBytes: message.jsonBytes });
      return null;
    }
    if (message.kind === 'observation')
      return { kind: 'observation', observation: message.observation, images, reports };
    return {
      kind: 'page_failure',
      failure: { code: message.code, detail: message.detail, httpStatus: message.httpStatus ?? null },
    };
  };
}

/** The real runner: one process per run (a scan of N runs uses N), the next one started ahead. */
export function processRunner(config: ProcessRunnerConfig): ScanRunner & { close(): void } {
  const protocol: RunnerProtocol<ScanMessage, RunnerResult> = {
    script: config.script ?? RUNNER_SCRIPT,
    parseMessage: parseRunnerMessage,
    newReader: scanReader,
    label: 'Lighthouse runner',
  };
  const processes = runnerProcesses<RunnerInput, ScanMessage, RunnerResult>(config, protocol);
  return {
    run: (input: ScanRunInput, options) => processes.run(input satisfies RunnerInput, options),
    close: () => processes.close(),
  };
}
