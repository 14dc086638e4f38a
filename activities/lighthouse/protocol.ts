/**
 * Between the worker (process-runner.ts) and the runner process (runner.ts): the runner's work folder and
 * RunnerLaunch (JSON) as its arguments, RunnerInput as JSON on its stdin, RunnerMessage lines on its stdout,
 * and its whole environment.
 */
import type { ScanCredentials } from '../../core/scan/credentials.ts';
import { FAILURE_CODES, type FailureCode } from '../../core/scan/failures.ts';
import { FORM_FACTORS, type FormFactor, type RunObservation } from '../../core/scan/observation.ts';

/** What the runner needs before its scan comes (it launches Chromium ahead): its second argument, as JSON. Nothing secret. */
export interface RunnerLaunch {
  chromiumPath: string;
  allowLoopback: boolean;
}

export function parseRunnerLaunch(argument: string | undefined): RunnerLaunch {
  const value = JSON.parse(argument ?? 'null') as Partial<RunnerLaunch> | null;
  if (typeof value?.chromiumPath !== 'string' || typeof value.allowLoopback !== 'boolean')
    throw new Error('usage: runner.ts WORK_FOLDER LAUNCH_JSON (the worker starts it; see process-runner.ts)');
  return { chromiumPath: value.chromiumPath, allowLoopback: value.allowLoopback };
}

/** What the worker writes to the runner's stdin (credentials travel here, never in argv or the environment). */
export interface RunnerInput {
  publicId: string;
  url: string;
  credentials: ScanCredentials | null;
  /** Loaded in this order, in one Chromium; the observation has exactly these. */
  formFactors: FormFactor[];
}

/** One JSON object per line on the runner's stdout. */
export type RunnerMessage =
  | { kind: 'progress'; step: string }
  /** Chromium runs in a process group of its own (puppeteer detaches it); the parent kills that group too. */
  | { kind: 'browser'; pid: number }
  /** A screenshot or filmstrip frame; the worker stores it (the runner's user cannot write the asset store). */
  | { kind: 'image'; name: string; base64: string }
  /** A form factor's whole Lighthouse result, scrubbed of the credentials and gzip-compressed (activities/lighthouse/report.ts). */
  | { kind: 'report'; formFactor: FormFactor; base64: string; jsonBytes: number }
  | { kind: 'observation'; observation: RunObservation }
  /** `detail` is for the logs; `httpStatus` is the main document's status of an http_error. */
  | { kind: 'page_failure'; code: FailureCode; detail: string; httpStatus?: number };

/**
 * The largest compressed Lighthouse result a runner hands back; a larger one is not sent and the scan keeps
 * none for that form factor (a performance-only result of a large page compresses to well under 1 MB).
 */
export const MAX_REPORT_BYTES = 8 * 1024 * 1024;

export class RunnerProtocolError extends Error {}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One stdout line as a message, or a RunnerProtocolError. The shape is checked as far as the worker relies
 * on it; the observation's insides are the runner's own work (core/scan/observation.ts).
 */
export function parseRunnerMessage(line: string): RunnerMessage {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    throw new RunnerProtocolError('the runner wrote a line that is not JSON');
  }
  const m = isObject(value) ? value : {};
  const valid =
    (m.kind === 'progress' && typeof m.step === 'string') ||
    (m.kind === 'browser' && Number.isSafeInteger(m.pid) && (m.pid as number) > 0) ||
    (m.kind === 'image' && typeof m.name === 'string' && typeof m.base64 === 'string') ||
    (m.kind === 'report' &&
      (FORM_FACTORS as readonly unknown[]).includes(m.formFactor) &&
      typeof m.base64 === 'string' &&
      Number.isSafeInteger(m.jsonBytes) &&
      (m.jsonBytes as number) > 0) ||
    (m.kind === 'observation' && isObject(m.observation)) ||
    (m.kind === 'page_failure' &&
      (FAILURE_CODES as readonly unknown[]).includes(m.code) &&
      typeof m.detail === 'string' &&
      (m.httpStatus === undefined || Number.isSafeInteger(m.httpStatus)));
  if (!valid)
    throw new RunnerProtocolError(
      `the runner wrote a message the worker does not know (${String(m.kind).slice(0, 40)})`,
    );
  return m as RunnerMessage;
}

export const sendMessage = (message: RunnerMessage): void => void process.stdout.write(`${JSON.stringify(message)}\n`);

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment of the runner and its Chromium: nothing of the worker's (which holds the
 * service's configuration and secrets). Inputs arrive on stdin.
 */
export function runnerEnvironment(workDir: string): Record<string, string> {
  return { PATH: SYSTEM_PATH, HOME: workDir, TMPDIR: workDir, LANG: 'C.UTF-8' };
}
