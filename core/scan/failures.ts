/**
 * Why a scan failed: a stable, machine-readable code in the failed shape of GET /scans/{id}. Users see the
 * code's own text (core/i18n/failures.ts), never the run's details, which go to the logs with the scan id.
 * Page failures are the site's answer and are not retried; `scan_error` is ours after retries ran out.
 */
export const FAILURE_CODES = ['dns_failed', 'connection_failed', 'http_error', 'timeout', 'no_paint', 'blocked_address', 'not_started', 'scan_error'] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];
