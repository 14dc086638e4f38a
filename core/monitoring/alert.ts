export const ALERT_TYPES = ['score_below_threshold', 'score_regression'] as const;
export type AlertType = (typeof ALERT_TYPES)[number];

export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** The spec's `GET /alerts?status=` values: open = neither resolved nor dismissed. */
export const ALERT_STATUS_FILTERS = ['open', 'resolved', 'unread'] as const;
export type AlertStatusFilter = (typeof ALERT_STATUS_FILTERS)[number];

/**
 * What an alert's title and message are rendered from, in the reader's language (core/monitoring/alerts.ts):
 * the score that crossed, the threshold or the baseline it was compared with.
 */
export interface AlertDetails {
  /** `overall` or a category. */
  score: string;
  value: number;
  /** score_below_threshold: the threshold crossed; score_regression: the baseline median. */
  reference: number;
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
  scanPublicId: string;
  isRead: boolean;
  isDismissed: boolean;
  createdAt: Date;
  updatedAt: Date;
  resolvedAt: Date | null;
  dismissedAt: Date | null;
  raisedEmailedAt: Date | null;
  resolvedEmailedAt: Date | null;
}
