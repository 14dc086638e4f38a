/**
 * Which failures are the page's own (recorded once, not retried) and which are ours (thrown as plain errors:
 * the runner exits non-zero and Temporal retries). Every code here is a FailureCode, every detail text comes
 * from FAILURE_DETAILS (core/scan/failures.ts).
 */
import { checkScanTarget } from '../../infra/scan-target.ts';
import { FAILURE_DETAILS, type FailureCode } from '../../core/scan/failures.ts';
import type { EgressProxy } from './egress-proxy.ts';
import type { LighthouseResult } from './extract.ts';

/** Thrown inside the runner for a page failure; main() reports it as a `page_failure` message. */
export class PageFailureError extends Error {
  readonly code: FailureCode;
  readonly httpStatus: number | undefined;
  constructor(code: FailureCode, detail: string, httpStatus?: number) {
    super(detail);
    this.code = code;
    this.httpStatus = httpStatus;
  }
}

/** The scanned host itself, before Chromium starts: a private address or a name that does not resolve is the page's failure. */
export async function checkScannedHost(url: string, allowLoopback: boolean): Promise<void> {
  const verdict = await checkScanTarget(new URL(url).hostname, { allowLoopback });
  if (verdict.allowed) return;
  // A resolver failure of ours is retried (by Temporal); a name that does not exist is the page's failure.
  if (verdict.code === 'dns_failed' && verdict.temporary) throw new Error(verdict.reason);
  throw new PageFailureError(verdict.code, verdict.reason);
}

/** The page's own failures, by Lighthouse's runtime error; null for ours. */
function runtimeErrorCode(error: { code: string; message: string }): FailureCode | null {
  switch (error.code) {
    case 'ERRORED_DOCUMENT_REQUEST':
      return 'http_error';
    case 'FAILED_DOCUMENT_REQUEST':
      return /ERR_NAME_NOT_RESOLVED/.test(error.message) ? 'dns_failed' : 'connection_failed';
    case 'CHROME_INTERSTITIAL_ERROR':
      // What Chromium shows for a refused or reset connection (and for certificate errors).
      return 'connection_failed';
    case 'DNS_FAILURE':
      return 'dns_failed';
    case 'PAGE_HUNG':
    case 'NO_DOCUMENT_REQUEST':
      return 'timeout';
    case 'NO_FCP':
      return 'no_paint';
    default:
      return null;
  }
}

/**
 * Throws when a Lighthouse run did not measure the page: a PageFailureError for the page's failures, a plain
 * Error for ours. The egress proxy knows why a document request failed better than the browser's error page
 * does; credentials Chromium refused fail the scan at once (`scan_error`, no retry: it would refuse again).
 */
export function throwIfFailed(
  lhr: LighthouseResult,
  context: { proxy: EgressProxy; documentUrl: string | null; credentialsRefused: boolean },
): void {
  const error = lhr.runtimeError;
  if (!error) return;
  const refused = context.documentUrl ? context.proxy.failureFor(context.documentUrl) : undefined;
  if (refused) throw new PageFailureError(refused.code, refused.message);
  if (context.credentialsRefused) throw new PageFailureError('scan_error', FAILURE_DETAILS.credentialsRefused());
  const code = runtimeErrorCode(error);
  if (!code) throw new Error(FAILURE_DETAILS.lighthouse(error.code, error.message));
  const status = code === 'http_error' ? /status code: (\d{3})/i.exec(error.message)?.[1] : undefined;
  throw new PageFailureError(
    code,
    FAILURE_DETAILS.lighthouse(error.code, error.message),
    status ? Number(status) : undefined,
  );
}
