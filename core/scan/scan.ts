import type { FailureCode } from './failures.ts';
import type { ScanResultRecord } from './result.ts';

export type ScanStatus = 'queued' | 'running' | 'finished' | 'failed';
export type AuthType = 'basic' | 'header';
/** Whether what was stored of an authenticated scan still holds its credentials in any encoding (core/redaction.ts). */
export type SecretCheck = 'clean' | 'found';

/**
 * What started a scan: `request` (POST /scans, from the API or the web form), `schedule` (a monitored target's
 * daily schedule), `run_now` (a target's "Run now") or `confirmation` (the scan a target's regression candidate
 * starts at once to confirm it: core/monitoring/regression-rules.ts). Scheduled and confirmation scans are the
 * ones the hourly scan limit leaves out; the lists label them apart from the on-demand ones.
 */
export const SCAN_TRIGGERS = ['request', 'schedule', 'run_now', 'confirmation'] as const;
export type ScanTrigger = (typeof SCAN_TRIGGERS)[number];

/** A scan as the rest of the code sees it (db/store/scans.ts maps it from and to its row). */
export interface Scan {
  publicId: string;
  userId: number;
  url: string;
  host: string;
  region: string;
  isPublic: boolean;
  status: ScanStatus;
  /** Page loads per form factor; the result is the median run (core/scan/median-run.ts). 1 for a single run. */
  runs: number;
  authType: AuthType | null;
  /** Encrypted credentials (core/scan/credentials.ts) while an authenticated scan is queued or running. */
  authSecret: string | null;
  /** An authenticated scan's check of what was stored of it; null for other scans and for one stored unchecked. */
  secretCheck: SecretCheck | null;
  shareToken: string | null;
  shareEnabled: boolean;
  requestedAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  failureCode: FailureCode | null;
  /** The main document's status of an `http_error`, the one failure detail users are shown. */
  failureHttpStatus: number | null;
  result: ScanResultRecord | null;
  /** The monitored target the scan is of (its schedule or its "Run now" started it); null for other scans. */
  targetId: number | null;
  trigger: ScanTrigger;
  /** While running: what the scan is doing (`desktop`, `mobile`, `desktop 2/3`), for the progress page. */
  progress: string | null;
}

/** What a new scan is stored with (one run unless it says otherwise); the rest starts empty. */
export type NewScan = Pick<
  Scan,
  'publicId' | 'userId' | 'url' | 'host' | 'region' | 'isPublic' | 'authType' | 'authSecret' | 'requestedAt'
> & {
  cacheKey: string | null;
  runs?: number;
  /** A target's "Run now" scan (`trigger` run_now); absent for a scan asked for through POST /scans. */
  targetId?: number;
  /** The owner's scan whose report's "Scan again" started this one: the scan its report is compared with. */
  rescanOf?: string;
};

/** How a scan failed: `detail` is for operators (never shown to users, who see the code's own text). */
export interface ScanFailure {
  code: FailureCode;
  detail: string;
  httpStatus: number | null;
}

export type ShareRefusal = 'credentials_found' | 'credentials_unchecked';

/**
 * Why a scan may not be shared, or null: an authenticated scan may be shared only when the worker found none of its
 * credentials, in any encoding, in what it stored of it; one stored without that check cannot be shown to be clean.
 */
export function shareRefusal(scan: Pick<Scan, 'authType' | 'secretCheck'>): ShareRefusal | null {
  if (scan.authType === null) return null;
  if (scan.secretCheck === 'found') return 'credentials_found';
  return scan.secretCheck === 'clean' ? null : 'credentials_unchecked';
}
