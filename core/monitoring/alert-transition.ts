import type { AlertDetails, AlertResolution, AlertSeverity, AlertType } from './alert.ts';

/** What an alert rule is given and what it decides, shared by the rules of each alert type (core/monitoring/*-rules.ts). */

/** An alert of the target that is not resolved yet (dismissed or not). */
export interface UnresolvedAlert {
  id: number;
  type: AlertType;
  severity: AlertSeverity;
  details: AlertDetails;
  createdAt: Date;
}

export type AlertTransition =
  | { change: 'raised'; type: AlertType; severity: AlertSeverity; details: AlertDetails }
  | { change: 'escalated'; alertId: number; type: AlertType; severity: 'critical'; details: AlertDetails }
  | { change: 'resolved'; alertId: number; type: AlertType; resolution: AlertResolution };
