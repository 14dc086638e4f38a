/**
 * How long a scan may take, in one place for the workflow, the reconciler and the docs.
 * A scan first waits `queued` for a slot in its region (the region's dispatcher hands slots out fairly
 * between accounts, core/scan/slots.ts); that wait has no limit, since it only depends on how much other
 * work is ahead. Once it has a slot, the workflow gives the Lighthouse activity its run limit, retries
 * included; when no worker serves the region within it, or every attempt fails, the workflow records
 * `scan_error`. The reconciler, every RECONCILE_EVERY, fails scans (and flow runs) still queued or running
 * a grace period after they were requested only when no workflow of theirs runs (an operator terminated it,
 * it timed out, it was never started): a scan whose workflow still runs is waiting its turn or inside its
 * run limit, and is left alone, however old.
 *
 * A scan of N runs (median of runs) loads the page N times per form factor, one run after the other in
 * one activity attempt, so every limit grows with N; a one-run scan has the limits scans always had
 * (3-minute attempt, 4-minute activity, 15 minutes in all, stale after 30).
 */

/** The most runs a scan may have (the API's `runs`; plans allow fewer, core/plans.ts). */
export const MAX_RUNS = 5;

/** One run (desktop and mobile, overload repeats included) within an attempt. */
export const RUN_ATTEMPT_LIMIT_MS = 3 * 60_000;
/** How often Temporal runs the Lighthouse activity before the scan fails with `scan_error`. */
export const SCAN_ATTEMPTS = 3;
/** The activity's start-to-close timeout is this much longer than the attempt's own limit, which ends the runner first. */
const ACTIVITY_MARGIN_MS = 60_000;
/** Backoff between attempts (5 s, 10 s) and a wait for a worker of the region to take the task. */
const RUN_LIMIT_MARGIN_MS = 3 * 60_000;

/** One Lighthouse attempt of a scan of `runs` runs; `perRunMs` is shortened by tests. */
export const lighthouseAttemptLimitMs = (runs: number, perRunMs = RUN_ATTEMPT_LIMIT_MS): number => runs * perRunMs;
/** The Lighthouse activity's start-to-close timeout (workflows/scan.ts). */
export const scanActivityTimeoutMs = (runs: number): number => lighthouseAttemptLimitMs(runs) + ACTIVITY_MARGIN_MS;
/** The Lighthouse activity's schedule-to-close timeout: every attempt, retries and the wait for a worker. */
export const scanRunLimitMs = (runs: number): number =>
  SCAN_ATTEMPTS * scanActivityTimeoutMs(runs) + RUN_LIMIT_MARGIN_MS;

/**
 * The reconciler's grace (RECONCILE_GRACE_SECONDS): a scan or flow run is looked at only this long after it was
 * requested, since its row is written a moment before its workflow is started (by the API, or by the parent
 * workflow of a target's or flow's schedule). Age alone never fails anything: only a missing workflow does.
 */
export const RECONCILE_GRACE_DEFAULT_MS = 5 * 60_000;
/** The longest grace RECONCILE_GRACE_SECONDS may set: a day. */
export const RECONCILE_GRACE_MAX_SECONDS = 86_400;

/** A one-run scan's limits, as they were before scans had runs. */
export const LIGHTHOUSE_ATTEMPT_LIMIT_MS = lighthouseAttemptLimitMs(1);
export const RECONCILE_EVERY = '10 minutes';

/** A waiting scan repeats its slot request this often, so a dispatcher that was terminated is started again. */
export const SLOT_REQUEST_REPEAT = '10 minutes';
/** How often a dispatcher holding slots asks Temporal whether their scan workflows still run (terminated ones never release). */
export const SLOT_HOLDER_CHECK_EVERY = '30 seconds';
/** A dispatcher with nothing waiting or in flight for this long ends; the next request starts it again. */
export const DISPATCHER_IDLE_EXIT = '10 minutes';
