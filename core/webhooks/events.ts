import type { FailedStep } from '../flows/flow.ts';
import type { RegressionFacts } from '../monitoring/alert.ts';
/**
 * The events outgoing webhooks report (spec: Events) and `ping`, the settings page's test event. The rum.*
 * events are raised by the live-data alert check (services/rum-alert-check.ts); flow.completed and flow.failed
 * are extensions, raised when a user flow run ends (core/webhooks/flow-payloads.ts).
 */
import type { BudgetPayloadFields } from './budget-payload.ts';
import type { FlowCompletedPayload, FlowFailedPayload } from './flow-payloads.ts';
export const WEBHOOK_EVENTS = [
  'alert.triggered',
  'alert.resolved',
  'scan.completed',
  'rum.alert.triggered',
  'rum.alert.resolved',
  'flow.completed',
  'flow.failed',
] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];
export type DeliveryEvent = WebhookEvent | 'ping';

export const isWebhookEvent = (value: string): value is WebhookEvent =>
  (WEBHOOK_EVENTS as readonly string[]).includes(value);

export interface AlertEventPayload {
  event: 'alert.triggered' | 'alert.resolved';
  alert_id: number;
  type: string;
  severity: 'critical' | 'warning';
  title: string;
  message: string;
  target_url: string;
  host: string;
  region: string;
  scan_public_id: string;
  created_at: string;
  /** Only in alert.resolved. */
  resolved_at?: string;
  /** Extensions of metric_over_budget alerts (core/webhooks/budget-payload.ts). */
  budget?: BudgetPayloadFields['budget'];
  over_budget?: BudgetPayloadFields['over_budget'];
  /** Extension, a flow's alert: the flow (then `target_url` is its first navigation's URL, `scan_public_id` a flow run's id). */
  flow?: { id: string; name: string };
  /** Extension, flow_failed only: where the run stopped (the flow.failed event's `failed_step`). */
  failed_step?: FailedStep;
  /**
   * Extension, only for a confirmed regression (score_regression, metric_regression): the metric, the page's
   * path, the baseline and current medians, the Hodges–Lehmann shift and the p-value (core/monitoring/alert.ts).
   */
  regression?: RegressionFacts;
}

export interface ScanCompletedPayload {
  event: 'scan.completed';
  url: string;
  score: number;
  score_speed: number;
  score_images: number;
  score_caching: number;
  score_tech: number;
  lcp_ms: number;
  ttfb_ms: number;
  cls: number;
  tbt_ms: number;
  scan_url: string;
  scanned_at: string;
}

export interface RumAlertPayload {
  event: 'rum.alert.triggered' | 'rum.alert.resolved';
  alert_name: string;
  domain: string;
  metric: string;
  p75: number;
  threshold: number;
  unit: string;
  samples: number;
  window_minutes: number;
  triggered_at?: string;
  resolved_at?: string;
  rum_dashboard_url: string;
}

export interface PingPayload {
  event: 'ping';
  message: string;
  sent_at: string;
}

export type WebhookPayload =
  AlertEventPayload | ScanCompletedPayload | RumAlertPayload | FlowCompletedPayload | FlowFailedPayload | PingPayload;
