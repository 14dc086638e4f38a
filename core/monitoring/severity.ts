/** How bad an alert is; budgets and their breaches name it too, so it stands apart from the alert itself. */
export const ALERT_SEVERITIES = ['warning', 'critical'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

/** The order of severities: an unresolved alert only escalates to a higher one. */
export const SEVERITY_RANK: Record<AlertSeverity, number> = { warning: 1, critical: 2 };
