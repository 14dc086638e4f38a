import type { RumAlertNotice } from '../webhooks/payloads.ts';
import type { Transition } from './alert-check.ts';

/** What one live-data alert check (services/rum-alert-check.ts) hands to its workflow (workflows/rum-alerts.ts). */

/** An e-mail to send about a transition (workflows/rum-alerts.ts starts one workflow per job). */
export interface RumAlertEmailJob {
  alertId: number;
  change: Transition;
  /** triggered_at or resolved_at of the row, in ms: the occurrence the e-mail is about. */
  occurrenceMs: number;
  notice: RumAlertNotice;
}

export interface RumAlertCheckResult {
  /** Configurations judged (active sites of owners whose plan has live data). */
  configurations: number;
  /** ClickHouse queries made: one per distinct window length. */
  queries: number;
  /** Configurations recorded; the rest were changed meanwhile or checked less than MIN_CHECK_GAP_MS ago. */
  recorded: number;
  transitions: Array<{ alertId: number; change: Transition }>;
  emails: RumAlertEmailJob[];
}
