import { isoTimestamp } from '../clock.ts';
import { alertText } from '../i18n/alerts.ts';
import type { Locale } from '../i18n/locale.ts';
import { liveDashboardUrl, scanReportUrl } from '../links.ts';
import { roundMetric, unitLabel, type RumMetric } from '../rum/metrics.ts';
import type { Alert } from '../monitoring/alert.ts';
import { budgetPayloadFields } from './budget-payload.ts';
import type { ScanResultRecord } from '../scan/result.ts';
import type { AlertEventPayload, PingPayload, RumAlertPayload, ScanCompletedPayload } from './events.ts';

/**
 * The spec's payloads (Events → Payloads), built when the event happens and stored with the delivery, so
 * every attempt and resend sends the same body. Titles and messages are in the owner's language.
 */
export function alertPayload(
  alert: Alert,
  event: 'alert.triggered' | 'alert.resolved',
  locale: Locale,
): AlertEventPayload {
  const { title, message } = alertText(alert, locale);
  return {
    event,
    alert_id: alert.id,
    type: alert.type,
    severity: alert.severity,
    title,
    message,
    target_url: alert.url,
    host: alert.host,
    region: alert.region,
    scan_public_id:
      event === 'alert.resolved' ? (alert.resolvedScanPublicId ?? alert.scanPublicId) : alert.scanPublicId,
    created_at: isoTimestamp(alert.createdAt),
    ...(event === 'alert.resolved' && alert.resolvedAt ? { resolved_at: isoTimestamp(alert.resolvedAt) } : {}),
    ...budgetPayloadFields(alert),
    ...(alert.details.flow ? { flow: { id: alert.details.flow.id, name: alert.details.flow.name } } : {}),
    ...(alert.details.failedStep ? { failed_step: alert.details.failedStep } : {}),
    ...(alert.details.regression ? { regression: alert.details.regression } : {}),
  };
}

/**
 * A finished scan. The page metrics (lcp_ms, cls, tbt_ms) are the mobile ones: the spec has one value of each,
 * and mobile is the stricter test that search engines rank by.
 */
export function scanCompletedPayload(
  scan: { publicId: string; url: string; finishedAt: Date },
  result: ScanResultRecord,
  baseUrl: string,
): ScanCompletedPayload {
  const mobile = result.metrics.mobile;
  return {
    event: 'scan.completed',
    url: scan.url,
    score: result.scores.overall,
    score_speed: result.scores.speed,
    score_images: result.scores.images,
    score_caching: result.scores.caching,
    score_tech: result.scores.technical,
    lcp_ms: Math.round(mobile.lcp_ms),
    ttfb_ms: Math.round(result.ttfbMs),
    cls: mobile.cls,
    tbt_ms: Math.round(mobile.tbt_ms),
    scan_url: scanReportUrl(baseUrl, scan.publicId),
    scanned_at: isoTimestamp(scan.finishedAt),
  };
}

/** What a live-data alert's event reports (services/rum-alert-check.ts fills it from the check's reading). */
export interface RumAlertNotice {
  alertName: string;
  domain: string;
  siteId: number;
  metric: RumMetric;
  p75: number;
  threshold: number;
  samples: number;
  windowMinutes: number;
  /** When it triggered or resolved (ISO 8601, as isoTimestamp writes it: notices travel through Temporal as JSON). */
  at: string;
}

/** rum.alert.triggered / rum.alert.resolved: p75 rounded as the API reports it, the unit as metrics.ts names it. */
export function rumAlertPayload(
  notice: RumAlertNotice,
  event: 'rum.alert.triggered' | 'rum.alert.resolved',
  baseUrl: string,
): RumAlertPayload {
  return {
    event,
    alert_name: notice.alertName,
    domain: notice.domain,
    metric: notice.metric,
    p75: roundMetric(notice.metric, notice.p75),
    threshold: notice.threshold,
    unit: unitLabel(notice.metric),
    samples: notice.samples,
    window_minutes: notice.windowMinutes,
    ...(event === 'rum.alert.triggered' ? { triggered_at: notice.at } : { resolved_at: notice.at }),
    rum_dashboard_url: liveDashboardUrl(baseUrl, notice.siteId),
  };
}

export const pingPayload = (at: Date): PingPayload => ({
  event: 'ping',
  message: 'Test event from the notification settings.',
  sent_at: isoTimestamp(at),
});
