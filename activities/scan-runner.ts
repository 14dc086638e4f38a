import type { ScanCredentials } from '../core/scan/credentials.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import type { LighthouseReport } from '../core/scan/lighthouse-report.ts';
import type { FormFactor, RunObservation } from '../core/scan/observation.ts';

/** What a runner needs to scan one page (the credentials already decrypted). */
export interface ScanRunInput {
  publicId: string;
  url: string;
  credentials: ScanCredentials | null;
  /** The form factors of this run, loaded in this order in one Chromium with a fresh profile. */
  formFactors: FormFactor[];
}

/** A screenshot or filmstrip frame (JPEG), under the name the observation refers to it by. */
export interface ScanImage {
  name: string;
  bytes: Buffer;
}

/** The page's own failure (the site's answer, not our fault): recorded once, never retried. `detail` is for operators. */
export interface PageFailure {
  code: FailureCode;
  detail: string;
  /** The main document's status of an `http_error`. */
  httpStatus: number | null;
}

export type RunnerResult =
  | {
      kind: 'observation';
      observation: RunObservation;
      images: ScanImage[];
      /** Each form factor's whole Lighthouse result; a stand-in runner may give none, and the scan then keeps none. */
      reports?: LighthouseReport[];
    }
  | { kind: 'page_failure'; failure: PageFailure };

export interface RunOptions {
  /** Called as the run moves on (a form factor starts). */
  onProgress(step: string): void;
  /** Aborted when the activity is cancelled or its time is up: the runner stops everything it started and rejects. */
  signal: AbortSignal;
}

/**
 * One run: Lighthouse on one page, for the form factors asked (desktop then mobile for a whole run), in a
 * Chromium with a fresh profile. Resolves with the observation and its images, or with
 * the page's failure; rejects when the run crashed, was aborted, or answered something that is neither,
 * which the scan activity throws on for Temporal to retry. The worker wires the real one
 * (activities/lighthouse/process-runner.ts); tests hand the activity stand-ins.
 */
export interface ScanRunner {
  run(input: ScanRunInput, options: RunOptions): Promise<RunnerResult>;
}
