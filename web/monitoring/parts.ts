import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';
import { scoreStatus } from '../charts/series.ts';
import { html, SafeHtml } from '../html.ts';
import { FLOW_PATHS } from '../flows/model.ts';
import { LABELS, type Notice } from './labels.ts';
import { MONITORING_PATHS as P, type AlertRow, type FieldErrors } from './model.ts';

/** The two hidden fields of every form that posts: the CSRF token and the page to come back to. */
export const formFields = (csrf: string, next: string) =>
  html`<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${next}">`;

/** A labelled input with its error right after it, tied to it by aria-describedby. */
export function field(options: {
  id: string;
  name: string;
  label: string;
  errors: FieldErrors;
  input: (attributes: SafeHtml) => SafeHtml;
}): SafeHtml {
  const error = options.errors[options.name];
  const errorId = `${options.id}-error`;
  const attributes = error ? new SafeHtml(`aria-invalid="true" aria-describedby="${errorId}"`) : new SafeHtml('');
  return html`<div class="field"><label for="${options.id}">${options.label}</label>${options.input(attributes)}${error ? html`<p class="error field-error" id="${errorId}">${error}</p>` : html``}</div>`;
}

/** The warning and critical threshold inputs (ids `${prefix}-warning`, `${prefix}-critical`) and their hint. */
export function thresholdFields(
  prefix: string,
  values: { warning: string; critical: string },
  errors: FieldErrors,
  locale: Locale,
): SafeHtml {
  const t = LABELS[locale];
  const number = (name: 'warning' | 'critical', label: string) =>
    field({
      id: `${prefix}-${name}`,
      name,
      label,
      errors,
      input: (attributes) =>
        html`<input id="${prefix}-${name}" name="${name}" type="number" min="0" max="100" step="1" required value="${values[name]}" ${attributes}>`,
    });
  return html`<div class="field-row">${number('warning', t.warningBelow)}${number('critical', t.criticalBelow)}</div><p class="hint">${t.thresholdsHint}</p>`;
}

export const formError = (errors: FieldErrors) =>
  errors.form ? html`<p class="error form-error" role="alert">${errors.form}</p>` : html``;

export const noticeBox = (notice: Notice | undefined, locale: Locale) =>
  notice ? html`<p class="notice" role="status" id="notice">${LABELS[locale].notices[notice]}</p>` : html``;

/** A score in its status colour against the thresholds (the number itself always says it, colour only adds). */
export const scoreBadge = (score: number, thresholds: ScoreThreshold | undefined, size: 'large' | 'small' = 'large') =>
  html`<b class="score-badge ${size} score-${scoreStatus(score, thresholds)}">${score}</b>`;

/** One alert: severity, title, message, where and when, its state, links, and the read/dismiss buttons. */
export function alertItem(
  alert: AlertRow,
  /** `onTargetPage`: the alert is shown on its own target's page, which needs no link to itself. */
  options: { locale: Locale; csrf: string; next: string; headingLevel?: 2 | 3; onTargetPage?: boolean },
): SafeHtml {
  const t = LABELS[options.locale];
  const heading = new SafeHtml(`h${options.headingLevel ?? 3}`);
  const state = alert.isDismissed
    ? t.stateDismissed
    : alert.resolvedAt
      ? t.stateResolved(formatDateTime(alert.resolvedAt, options.locale))
      : t.stateOpen;
  const stateClass = alert.isDismissed ? 'dismissed' : alert.resolvedAt ? 'resolved' : 'open';
  return html`<li class="alert alert-${alert.severity} ${alert.isRead ? 'read' : 'unread'}" id="alert-${alert.id}" data-alert-id="${alert.id}">
    <div class="alert-head"><span class="badge badge-${alert.severity}">${t.severities[alert.severity]}</span>${alert.isRead ? html`` : html`<span class="badge badge-new">${t.unreadBadge}</span>`}
      <span class="alert-state state-${stateClass}">${state}</span></div>
    <${heading} class="alert-title">${alert.title}</${heading}>
    <p class="alert-message">${alert.message}</p>
    <p class="alert-meta"><span class="url">${alert.url}</span> · ${alert.region} · <time datetime="${alert.createdAt.toISOString()}">${t.raised(formatDateTime(alert.createdAt, options.locale))}</time></p>
    <div class="actions">${alert.flowPublicId ? html`<a href="${FLOW_PATHS.run(alert.flowPublicId, alert.scanPublicId)}">${t.viewFlowRun}</a>` : html`<a href="${P.report(alert.scanPublicId)}">${t.viewScan}</a>`}${alert.targetId === null || options.onTargetPage ? html`` : html`<a href="${P.target(alert.targetId)}">${t.viewTarget}</a>`}
      ${alert.isRead ? html`` : html`<form class="inline" method="post" action="${P.markAlertRead(alert.id)}">${formFields(options.csrf, options.next)}<button type="submit" class="mark-read">${t.markRead}</button></form>`}
      ${alert.isDismissed || alert.resolvedAt ? html`` : html`<form class="inline" method="post" action="${P.dismissAlert(alert.id)}">${formFields(options.csrf, options.next)}<button type="submit" class="dismiss">${t.dismiss}</button></form>`}
      ${alert.isDismissed && (alert.targetId !== null || alert.flowPublicId || alert.resolvedAt) ? html`<form class="inline" method="post" action="${P.undismissAlert(alert.id)}">${formFields(options.csrf, options.next)}<button type="submit" class="undismiss">${t.undismiss}</button></form>` : html``}
    </div></li>`;
}
