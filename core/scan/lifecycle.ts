/**
 * How long a scan may take, in one place for the workflow, the reconciler and the docs.
 * A scan first waits `queued` for a slot in its region (the region's dispatcher hands slots out fairly
 * between accounts, core/scan/slots.ts); that wait has no limit, since it only depends on how much other
 * work is ahead. Once it has a slot, the workflow gives the Lighthouse activity RUN_LIMIT, retries
 * included; when no worker serves the region within it, or every attempt fails, the workflow records
 * `scan_error`. The reconciler, every RECONCILE_EVERY, fails scans still queued or running STALE_AFTER_MS
 * after they were requested only when their workflow is gone (an operator terminated it, it timed out):
 * a scan whose workflow still runs is waiting its turn or inside RUN_LIMIT, and is left alone.
 */
export const SCAN_RUN_LIMIT = '15 minutes';
/** One Lighthouse attempt (both form factors); the activity's start-to-close timeout in workflows/scan.ts is a minute longer. */
export const LIGHTHOUSE_ATTEMPT_LIMIT_MS = 3 * 60_000;
export const STALE_SCAN_AFTER_MS = 30 * 60_000;
export const RECONCILE_EVERY = '10 minutes';

/** A waiting scan repeats its slot request this often, so a dispatcher that was terminated is started again. */
export const SLOT_REQUEST_REPEAT = '10 minutes';
/** How often a dispatcher holding slots asks Temporal whether their scan workflows still run (terminated ones never release). */
export const SLOT_HOLDER_CHECK_EVERY = '30 seconds';
/** A dispatcher with nothing waiting or in flight for this long ends; the next request starts it again. */
export const DISPATCHER_IDLE_EXIT = '10 minutes';
