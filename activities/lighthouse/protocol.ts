import type { FailureCode } from '../../core/scan/failures.ts';
import type { ScanObservation } from '../../core/scan/observation.ts';
import type { ScanCredentials } from '../../services/scans.ts';

/** What the activity writes to the runner's stdin (credentials travel here, never in argv or the environment). */
export interface RunnerInput {
  publicId: string;
  url: string;
  chromiumPath: string;
  assetsDir: string;
  allowLoopback: boolean;
  credentials: ScanCredentials | null;
}

/** One JSON object per line on the runner's stdout. */
export type RunnerMessage =
  | { kind: 'progress'; step: string }
  /** Chromium runs in a process group of its own (puppeteer detaches it); the parent kills that group too. */
  | { kind: 'browser'; pid: number; profile: string }
  | { kind: 'observation'; observation: ScanObservation }
  /** `detail` is for the logs; `httpStatus` is the main document's status of an http_error. */
  | { kind: 'page_failure'; code: FailureCode; detail: string; httpStatus?: number };
