/**
 * Why a scan failed: a stable, machine-readable code in the failed shape of GET /scans/{id}. Users see the
 * code's own text (core/i18n/failures.ts), never the run's details, which go to the logs with the scan id.
 * Page failures are the site's answer and are not retried; `scan_error` is ours after retries ran out.
 */
export const FAILURE_CODES = ['dns_failed', 'connection_failed', 'http_error', 'timeout', 'no_paint', 'blocked_address', 'not_started', 'scan_error'] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

/**
 * What operators read about a failure the runner found (logged with the scan id, kept in the row's
 * `failure_message`, never shown to users). English, and free to name hosts, addresses and Lighthouse's codes.
 */
export const FAILURE_DETAILS = {
  unresolvedHost: (host: string, cause?: string) => `The host name ${host} could not be resolved${cause ? ` (${cause})` : ''}.`,
  noAddresses: (host: string) => `The host name ${host} has no addresses.`,
  connectionFailed: (target: string, reason: string) => `The connection to ${target} failed (${reason}).`,
  tunnelPortRefused: (port: number, allowed: readonly number[]) => `Port ${port} is not allowed for HTTPS (only ${allowed.join(', ')}).`,
  credentialsRefused: () => 'The credentials could not be added to the requests for the page.',
  lighthouse: (code: string, message: string) => `Lighthouse ${code}: ${message.slice(0, 500)}`,
} as const;
