/**
 * A user flow: a named journey through a site (sign in, search, add to cart) measured step by step with
 * Lighthouse's user-flow API in one browser session. The API, the web area's editor, the Recorder import,
 * the workflow and the runner all speak these types.
 *
 * Steps are actions and measurement markers, run in order:
 * - `navigate` loads a URL as a Lighthouse navigation step (the scan's metrics and scores);
 * - `start_timespan` opens a timespan step: the actions after it, up to the next marker, `navigate`,
 *   `end_timespan` or the end of the flow, are measured as one interaction window (INP, CLS, TBT);
 * - `snapshot` audits the page as it stands;
 * - `click`, `type`, `select`, `wait_for_selector`, `wait_for_navigation` act on the page and are not measured
 *   on their own.
 * Values typed into forms are literals or a named secret of the flow (`secret`); a secret is typed only on
 * the origin the flow starts on, or on the origin the step names in `secret_origin`.
 */
import { LIGHTHOUSE_CATEGORY_KEYS, type LighthouseCategoryKey } from '../scan/lighthouse-categories.ts';
import type { FormFactor } from '../scan/observation.ts';

export type FlowStep =
  | { type: 'navigate'; url: string; name?: string }
  | { type: 'start_timespan'; name: string }
  | { type: 'end_timespan' }
  | { type: 'snapshot'; name: string }
  | { type: 'click'; selector: string }
  | { type: 'type'; selector: string; text: string }
  | { type: 'type'; selector: string; secret: string; secret_origin?: string }
  | { type: 'select'; selector: string; value: string }
  | { type: 'wait_for_selector'; selector: string }
  | { type: 'wait_for_navigation' };

export type FlowStepType = FlowStep['type'];

/** Every step type, in the order the editor offers them; the API's schema and the editor both read it. */
export const FLOW_STEP_TYPES = [
  'navigate',
  'start_timespan',
  'end_timespan',
  'snapshot',
  'click',
  'type',
  'select',
  'wait_for_selector',
  'wait_for_navigation',
] as const satisfies readonly FlowStepType[];

export const MEASURED_STEP_TYPES = ['navigate', 'start_timespan', 'snapshot'] as const;
export type MeasuredStepType = (typeof MEASURED_STEP_TYPES)[number];
/** What a measured step is in Lighthouse's terms. */
export type LighthouseStepMode = 'navigation' | 'timespan' | 'snapshot';

export interface FlowDefinition {
  name: string;
  form_factor: FormFactor;
  steps: FlowStep[];
}

/** Secrets by name: a password, or the base32 seed of a TOTP (RFC 6238, 6 digits, 30 s) typed as its current code. */
export type FlowSecretKind = 'password' | 'totp';
export interface FlowSecretValue {
  kind: FlowSecretKind;
  value: string;
}

/** The runner's input: the definition, the flow's secrets decrypted (only inside the runner process). */
export interface FlowRunInput {
  runId: string;
  definition: FlowDefinition;
  secrets: Record<string, FlowSecretValue>;
}

/** The category scores a measured step may have (FlowStepResult's `scores`); a flow step's budget may set a minimum for each. */
export const FLOW_SCORE_KEYS = LIGHTHOUSE_CATEGORY_KEYS;
export type FlowScoreKey = LighthouseCategoryKey;

/** One measured step's result. `index` is the step's position in `definition.steps`. */
export interface FlowStepResult {
  index: number;
  mode: LighthouseStepMode;
  name: string;
  /** The page's URL when the step ended (query kept, no credentials in it). */
  url: string;
  /** Category scores 0..100 where Lighthouse computed them for this mode (a timespan has performance only as a fraction of passed audits, so null). */
  scores: {
    performance: number | null;
    accessibility: number | null;
    best_practices: number | null;
    seo: number | null;
  };
  /** Metrics the mode has: navigation LCP/FCP/TBT/CLS/SI/TTFB; timespan INP/CLS/TBT; snapshot none. ms, CLS unitless; null when not measured. */
  metrics: {
    lcp_ms?: number | null;
    fcp_ms?: number | null;
    tbt_ms?: number | null;
    cls?: number | null;
    speed_index_ms?: number | null;
    ttfb_ms?: number | null;
    inp_ms?: number | null;
  };
  /** Failed or improvable audits with their items, as the report shows them (id, title, score, display value, up to 10 items). */
  findings: FlowFinding[];
  /** Asset name of the screenshot at the end of the step (`flow-<runId>-step-<index>.jpg`-style; never derived from a secret). */
  screenshot: string | null;
}

export interface FlowFinding {
  id: string;
  title: string;
  score: number | null;
  display_value: string | null;
  items: Array<Record<string, string | number | boolean | null>>;
}

/** Why a step stopped a run (a run that failed outside any step has a RUN_FAILURE_CODES code, db/store/flows.ts). */
export const FLOW_FAILURE_CODES = [
  'selector_not_found',
  'navigation_failed',
  'blocked_address',
  'secret_origin',
  'timeout',
  'step_error',
] as const;

/**
 * The message of a `blocked_address` failure, as a scan's is: it names neither the host nor the address it resolved
 * to. Run pages, webhooks and exports are read by people, and the address (or the name of a host a redirect led to)
 * would tell them about networks they may not reach.
 */
export const BLOCKED_ADDRESS_MESSAGE =
  'The host resolves to a private or special-use address, which flows may not reach.';

/**
 * Why a run failed outside any step: `run_error`, ours (the runner crashed on every attempt, or the run's workflow
 * vanished while it ran); `not_started`, it never ran (Temporal did not take it, or its workflow vanished before
 * it got a slot).
 */
export const RUN_FAILURE_CODES = ['run_error', 'not_started'] as const;
export type RunFailureCode = (typeof RUN_FAILURE_CODES)[number];

/** What users read about a run that failed outside any step. */
export const RUN_FAILURE_MESSAGES = {
  crashed: 'The run failed after several attempts.',
  notStarted: 'The run never started, so nothing was measured. It can be run again.',
  lost: 'The run stopped on our side before it ended.',
} as const;

/** A run that stopped: which step (any step, measured or not), why, and the page at that moment. */
export interface FlowFailure {
  index: number;
  step_type: FlowStepType;
  /** Plain text for people; never holds a secret's value (the runner replaces any occurrence). */
  message: string;
  code: (typeof FLOW_FAILURE_CODES)[number];
  screenshot: string | null;
}

/**
 * Where an ended run stopped, as people read it (the flow.failed webhook's `failed_step`, a flow_failed alert's):
 * the step's index and type (null: the run failed outside any step, `run_error` or `not_started`), the step in words, and why.
 */
export interface FailedStep {
  index: number | null;
  step_type: string | null;
  step: string;
  code: FlowFailure['code'] | RunFailureCode;
  message: string;
}

export interface FlowRunOutcome {
  steps: FlowStepResult[];
  failure: FlowFailure | null;
  lighthouseVersion: string;
  chromiumVersion: string;
}

/** The measured steps of a definition, in order, with their index and the name a report shows. */
export function measuredSteps(
  definition: FlowDefinition,
): Array<{ index: number; mode: LighthouseStepMode; name: string }> {
  const out: Array<{ index: number; mode: LighthouseStepMode; name: string }> = [];
  definition.steps.forEach((step, index) => {
    if (step.type === 'navigate') out.push({ index, mode: 'navigation', name: step.name ?? step.url });
    else if (step.type === 'start_timespan') out.push({ index, mode: 'timespan', name: step.name });
    else if (step.type === 'snapshot') out.push({ index, mode: 'snapshot', name: step.name });
  });
  return out;
}

/** The origin a flow starts on: its first navigation's. Secrets go to it only, unless a step names another. */
export function startOrigin(definition: FlowDefinition): string | null {
  const first = definition.steps.find((s) => s.type === 'navigate');
  return first && first.type === 'navigate' ? new URL(first.url).origin : null;
}

/** Secret names the steps refer to. */
export function referencedSecrets(definition: FlowDefinition): string[] {
  const names = new Set<string>();
  for (const step of definition.steps) if (step.type === 'type' && 'secret' in step) names.add(step.secret);
  return [...names];
}
