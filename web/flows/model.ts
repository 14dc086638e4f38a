import type { FlowDefinition, FlowSecretKind, FlowStepResult, LighthouseStepMode } from '../../core/flows/flow.ts';
import type { StoredFlowFailure } from '../../db/store/flows.ts';
import type { Chrome } from '../layout.ts';

/**
 * What the flow pages need, as plain objects close to what a flow store returns: the shared flow types of
 * core/flows/flow.ts as they are, timestamps as ISO 8601 strings, ids as the store's public ids. The routes
 * fill these in; the views only render them.
 */

/** What every flow page gets. */
export interface FlowPageBase {
  /** The page's frame (web/layout.ts); `chrome.locale` is the page's language. */
  chrome: Chrome;
  /** The visitor's CSRF token (web/session.ts csrfToken), put in every form that posts. */
  csrf: string;
}

export type FlowRunStatus = 'queued' | 'running' | 'finished' | 'failed';

/** A run as a history row or the list's "last run". */
export interface FlowRunSummary {
  /** The run's public id; its report is FLOW_PATHS.run(flowId, id). */
  id: string;
  status: FlowRunStatus;
  /** When it was asked for (the store's requestedAt). */
  requestedAt: string;
  /** When it ended (finished or failed); null while queued or running. */
  finishedAt: string | null;
}

/** One run with everything its report shows. */
export interface FlowRun extends FlowRunSummary {
  /** The definition as it was run (the flow may have been edited since): step numbers and names come from it. */
  definition: FlowDefinition;
  /** The measured steps' results in step order (FlowRunOutcome.steps); empty while queued or running. */
  steps: FlowStepResult[];
  /**
   * Where and why a failed run stopped (FlowRunOutcome.failure), or a run failure with no step (`not_started`:
   * it never ran; `run_error`: it crashed on every attempt or its workflow was lost); null otherwise.
   */
  failure: StoredFlowFailure | null;
  /** FlowRunOutcome's versions; null before the run ended. */
  lighthouseVersion: string | null;
  chromiumVersion: string | null;
}

/** A flow as the list shows it. */
export interface FlowSummary {
  /** The flow's public id; its page is FLOW_PATHS.flow(id). */
  id: string;
  definition: FlowDefinition;
  /** Its newest run, or null when it never ran. */
  lastRun: FlowRunSummary | null;
}

/** A stored secret of a flow as the pages may know it: never its value. */
export interface FlowSecretSummary {
  name: string;
  kind: FlowSecretKind;
  /** When it was last set. */
  updatedAt: string;
}

/**
 * The account's allowance (core/plans.ts `maxFlows`, `maxFlowSteps`; -1 is unlimited). `maxFlows` 0: the plan
 * has no flows, and the list says which plan has them (`upgradeLabel`, the cheapest plan with the feature).
 */
export interface FlowAllowance {
  planLabel: string;
  maxFlows: number;
  maxFlowSteps: number;
  upgradeLabel?: string;
}

/**
 * One error of a form, beside the field it belongs to: a code the pages word in their language (labels.ts
 * `errors`), with the limit where the wording names one, or a message already in the page's language (a
 * service's answer the pages have no code for).
 */
export type FlowFormError = { code: FlowFormErrorCode; limit?: number } | { message: string };

export type FlowFormErrorCode =
  | 'required'
  | 'too_long'
  | 'url'
  | 'form_factor'
  | 'step_type'
  | 'first_navigate'
  | 'no_steps'
  | 'too_many_steps'
  | 'text_or_secret'
  | 'text_and_secret'
  | 'secret_name'
  | 'secret_origin'
  | 'secret_kind'
  | 'totp_seed'
  | 'secret_unknown'
  | 'recording_json'
  | 'recording_text'
  | 'recording_empty'
  | 'public_address'
  | 'end_timespan'
  | 'budget_number';

/**
 * Errors by field name. Step fields are named like the API's error pointers, `steps/3/selector`; `steps` is
 * the list as a whole, `form` the form as a whole (above it).
 */
export type FlowFormErrors = Record<string, FlowFormError>;

/** The measured step of a run's definition that a report row shows (core/flows/flow.ts measuredSteps). */
export interface MeasuredStep {
  index: number;
  mode: LighthouseStepMode;
  name: string;
}

/**
 * Where the pages link and post. Every POST carries `_csrf`. The editor's one form posts every button to
 * `save` (new flow: `create`) with `_action` saying which was pressed (web/flows/form.ts editorAction).
 */
export const FLOW_PATHS = {
  flows: '/flows',
  newFlow: '/flows/new',
  create: '/flows',
  importRecording: '/flows/import',
  flow: (id: string) => `/flows/${encodeURIComponent(id)}`,
  save: (id: string) => `/flows/${encodeURIComponent(id)}`,
  runNow: (id: string) => `/flows/${encodeURIComponent(id)}/run`,
  /** Posts `monitored=true` or `monitored=false`. */
  monitoring: (id: string) => `/flows/${encodeURIComponent(id)}/monitoring`,
  remove: (id: string) => `/flows/${encodeURIComponent(id)}/delete`,
  secrets: (id: string) => `/flows/${encodeURIComponent(id)}/secrets`,
  /** The budgets page; its form posts to the same path. */
  budgets: (id: string) => `/flows/${encodeURIComponent(id)}/budgets`,
  deleteSecret: (id: string, name: string) =>
    `/flows/${encodeURIComponent(id)}/secrets/${encodeURIComponent(name)}/delete`,
  run: (id: string, runId: string) => `/flows/${encodeURIComponent(id)}/runs/${encodeURIComponent(runId)}`,
  compare: (id: string, before: string, after: string) =>
    `/flows/${encodeURIComponent(id)}/compare?${new URLSearchParams([
      ['run', before],
      ['run', after],
    ])}`,
} as const;
