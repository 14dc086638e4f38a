/**
 * Why a scan failed: a stable, machine-readable code in the failed shape of GET /scans/{id}, with a message.
 * Page failures are the site's answer and are not retried; `scan_error` is ours after retries ran out.
 */
export const FAILURE_CODES = {
  dns_failed: 'The host name could not be resolved.',
  connection_failed: 'The server refused or dropped the connection.',
  http_error: 'The page answered with an HTTP error status.',
  timeout: 'The page did not finish loading in time.',
  no_paint: 'The page loaded but painted no content.',
  blocked_address: 'The host resolves to a private or special-use address, which scans may not reach.',
  not_started: 'The scan could not be scheduled.',
  scan_error: 'The scan failed on our side after several attempts.',
} as const;

export type FailureCode = keyof typeof FAILURE_CODES;

export function isFailureCode(value: string): value is FailureCode {
  return value in FAILURE_CODES;
}

/** Thrown by the Lighthouse activity for failures of the page itself; the workflow does not retry these. */
export const PAGE_FAILURE_ERROR_TYPE = 'ScanPageFailure';
