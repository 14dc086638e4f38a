/**
 * How long a flow run may take. Deterministic constants, shared by the workflow (its timeouts) and the activity
 * (its own deadline, so the runner is aborted before Temporal gives up on the attempt).
 */

/** Attempts of a crashed or hung run; a step's own failure is recorded once and never retried. */
export const FLOW_RUN_ATTEMPTS = 2;
const BASE_MS = 60_000;
const PER_STEP_MS = 30_000;
const MARGIN_MS = 30_000;

/** One attempt: a minute for the browser, half a minute per step (a navigation with its audit takes most). */
export const flowAttemptLimitMs = (steps: number): number => BASE_MS + steps * PER_STEP_MS;
export const flowActivityTimeoutMs = (steps: number): number => flowAttemptLimitMs(steps) + MARGIN_MS;
/** Every attempt, and time for a worker of the region to pick the run up. */
export const flowRunLimitMs = (steps: number): number => FLOW_RUN_ATTEMPTS * flowActivityTimeoutMs(steps) + 5 * 60_000;
