import type { FailureCode } from '../../core/scan/failures.ts';
import type { ScanObservation } from '../../core/scan/observation.ts';
import type { ScanCredentials } from '../../services/scans.ts';

/** What the activity writes to the runner's stdin (credentials travel here, never in argv or the environment). */
export interface RunnerInput {
  publicId: string;
  url: string;
  chromiumPath: string;
  /** The runner's own folder (made by the activity, owned by the runner's user): Chromium's profile and temporary files. */
  workDir: string;
  allowLoopback: boolean;
  credentials: ScanCredentials | null;
}

/** One JSON object per line on the runner's stdout. */
export type RunnerMessage =
  | { kind: 'progress'; step: string }
  /** Chromium runs in a process group of its own (puppeteer detaches it); the parent kills that group too. */
  | { kind: 'browser'; pid: number }
  /** A screenshot or filmstrip frame; the activity stores it (the runner's user cannot write the asset store). */
  | { kind: 'image'; name: string; base64: string }
  | { kind: 'observation'; observation: ScanObservation }
  /** `detail` is for the logs; `httpStatus` is the main document's status of an http_error. */
  | { kind: 'page_failure'; code: FailureCode; detail: string; httpStatus?: number };

const SYSTEM_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

/**
 * The whole environment of the runner and its Chromium: nothing of the worker's (which holds the
 * service's configuration and secrets). Inputs arrive on stdin.
 */
export function runnerEnvironment(workDir: string): Record<string, string> {
  return { PATH: SYSTEM_PATH, HOME: workDir, TMPDIR: workDir, LANG: 'C.UTF-8' };
}
