/**
 * Why a scan failed: a stable, machine-readable code in the failed shape of GET /scans/{id}. Users see the
 * code's own text (core/i18n/failures.ts), never the run's details, which go to the logs with the scan id.
 * Page failures are the site's answer and are not retried; `scan_error` is ours after retries ran out (or a run
 * whose workflow is gone); `not_started` a scan that never ran (Temporal did not take it, its target was deleted
 * first, its workflow vanished before it got a slot).
 */
export const FAILURE_CODES = [
  'dns_failed',
  'connection_failed',
  'http_error',
  'timeout',
  'no_paint',
  'blocked_address',
  'not_started',
  'scan_error',
] as const;

export type FailureCode = (typeof FAILURE_CODES)[number];

/**
 * What operators read about a failure the runner found (logged with the scan id, kept in the row's
 * `failure_message`, never shown to users). English, and free to name hosts, addresses and Lighthouse's codes.
 */
export const FAILURE_DETAILS = {
  unresolvedHost: (host: string, cause?: string) =>
    `The host name ${host} could not be resolved${cause ? ` (${cause})` : ''}.`,
  noAddresses: (host: string) => `The host name ${host} has no addresses.`,
  connectionFailed: (target: string, reason: string) => `The connection to ${target} failed (${reason}).`,
  tunnelPortRefused: (port: number, allowed: readonly number[]) =>
    `Port ${port} is not allowed for HTTPS (only ${allowed.join(', ')}).`,
  credentialsRefused: () => 'The credentials could not be added to the requests for the page.',
  lighthouse: (code: string, message: string) => `Lighthouse ${code}: ${message.slice(0, 500)}`,
  blockedAddress: (host: string, address: string) => `${host} resolves to ${address}, a private or special-use address`,
  /** A scan attempt's time ran out (the attempt fails and Temporal retries it). */
  runTimedOut: (limitMs: number) => `the Lighthouse run did not finish within ${limitMs / 1000} s`,
  /** `not_started`: the scan was stored but its workflow could not be started. */
  workflowNotStarted: (cause: string) => `Temporal did not start the workflow: ${cause}`,
  /** `not_started`: the scan's target was deleted before the scan got to run. */
  targetDeletedBeforeStart: () => 'Its target was deleted before the scan started.',
  /**
   * From the reconciler, for a scan left queued (`not_started`) or running (`scan_error`) whose workflow is gone;
   * `why` is one of the two below.
   */
  stoppedByReconciler: (why: string) => `The scan was stopped by the reconciler: ${why}.`,
  workflowEndedWithoutResult: (status: string) => `its workflow ended (${status}) without recording a result`,
  noWorkflow: () => 'no workflow exists for it',
} as const;
