/**
 * How long a scan may take, in one place for the workflow, the reconciler and the docs.
 * The workflow gives the Lighthouse activity RUN_LIMIT, retries included; when no worker serves the region
 * within it, or every attempt fails, the workflow records `scan_error`. A scan still queued or running
 * STALE_AFTER_MS after it was requested has outlived that limit, which only happens when its workflow
 * ended without reaching its failure path (an operator terminated it, it timed out, the database was down
 * while it tried): the reconciler, every RECONCILE_EVERY, records those as failed.
 */
export const SCAN_RUN_LIMIT = '15 minutes';
export const STALE_SCAN_AFTER_MS = 30 * 60_000;
export const RECONCILE_EVERY = '10 minutes';
