import type { ScoreKey } from '../scoring/categories.ts';
import type { FailedStep } from '../flows/flow.ts';
import type { BudgetBreach } from './budgets.ts';
import type { AlertSeverity } from './severity.ts';

export const ALERT_TYPES = [
  'score_below_threshold',
  'score_regression',
  'metric_over_budget',
  'metric_regression',
  'flow_failed',
] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export { ALERT_SEVERITIES, type AlertSeverity } from './severity.ts';

/** The spec's `GET /alerts?status=` values: open = neither resolved nor dismissed. */
export const ALERT_STATUS_FILTERS = ['open', 'resolved', 'unread'] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

/** What happened to an alert, and so which e-mail tells its owner: each is sent at most once per alert. */
export const ALERT_CHANGES = ['raised', 'escalated', 'resolved'] as const;
export type AlertChange = (typeof ALERT_CHANGES)[number];

/** One score below its warning threshold. */
export interface ScoreCrossing {
  score: ScoreKey;
  value: number;
  /** The threshold crossed: the critical one for severity critical, else the warning one. */
  threshold: number;
  severity: AlertSeverity;
}

/**
 * How an alert was resolved: `recovered` (the score is back), or, for a regression, `settled` (the score
 * stayed at its new level for a whole baseline window, so that level is now the baseline).
 */
export interface AlertResolution {
  kind: 'recovered' | 'settled';
  /** The score at resolution. */
  value: number;
}

/**
 * What an alert's title and message are rendered from, in the reader's language (core/i18n/alerts.ts):
 * the score that crossed, the threshold or the baseline it was compared with. They describe the scan that
 * raised the alert, or the one that escalated it (`Alert.scanPublicId`).
 */
export interface AlertDetails {
  /** `overall` or a category; a regression is always about `overall`. */
  score: ScoreKey;
  value: number;
  /** score_below_threshold: the threshold crossed; score_regression: the baseline median. */
  reference: number;
  /** score_below_threshold: every score below its warning threshold, worst first (the first is the one named above). */
  crossings?: ScoreCrossing[];
  /** score_regression: how many previous scheduled scans the baseline median was taken from. */
  baselineScans?: number;
  /** metric_over_budget: the worst broken budget (`score`/`value`/`reference` describe it; core/monitoring/budget-rules.ts)... */
  budget?: BudgetBreach;
  /** ...and every broken budget, worst first. */
  overBudget?: BudgetBreach[];
  /** A flow's alert (metric_over_budget, its breaches naming their `step`; flow_failed): the flow's public id and name when raised. */
  flow?: { id: string; name: string };
  /** flow_failed: where the run that raised or escalated it stopped (core/monitoring/flow-failure-rules.ts). */
  failedStep?: FailedStep;
  resolution?: AlertResolution;
  /** score_regression and metric_regression raised by the confirmed rule (core/monitoring/regression-rules.ts). */
  regression?: RegressionFacts;
}

/**
 * What a confirmed regression was judged on (snake_case: the API and the webhook payload show it as it is).
 * `current` is the median of the scan that found it and its confirmation scan; `shift` the Hodges–Lehmann
 * estimate of current − baseline in the metric's unit, `p_value` the one-sided rank test's.
 */
export interface RegressionFacts {
  /** lcp, fcp, tbt, cls (per form factor), ttfb, or score (the overall score). */
  metric: 'lcp' | 'fcp' | 'si' | 'tbt' | 'cls' | 'ttfb' | 'score' | 'requests' | 'bytes';
  form_factor: 'desktop' | 'mobile' | null;
  baseline: number;
  current: number;
  shift: number;
  p_value: number;
  baseline_scans: number;
  /** The page's path (and query), so two targets on one host are told apart. */
  path: string;
  /** The confirmation scan that agreed. */
  confirmation_scan_id: string;
  /** Other metrics confirmed at the same time (as `mobile.tbt`, `ttfb`). */
  also?: string[];
}

/** An alert as the rest of the code sees it (db/store/alerts.ts maps the row). */
export interface Alert {
  id: number;
  userId: number;
  targetId: number | null;
  type: AlertType;
  severity: AlertSeverity;
  details: AlertDetails;
  url: string;
  host: string;
  region: string;
  /** The scan the title and message describe: the one that raised the alert, then the one that escalated it. */
  scanPublicId: string;
  resolvedScanPublicId: string | null;
  isRead: boolean;
  isDismissed: boolean;
  createdAt: Date;
  updatedAt: Date;
  escalatedAt: Date | null;
  resolvedAt: Date | null;
  dismissedAt: Date | null;
  raisedEmailedAt: Date | null;
  escalatedEmailedAt: Date | null;
  resolvedEmailedAt: Date | null;
}
