import { formatDateTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';
import { CHART_STYLE } from '../charts/score-history.ts';
import { CHART_COLOURS as C, scoreStatus } from '../charts/series.ts';
import { html, SafeHtml } from '../html.ts';
import { LABELS, type Notice } from './labels.ts';
import { MONITORING_PATHS as P, type AlertRow, type FieldErrors } from './model.ts';

/** The two hidden fields of every form that posts: the CSRF token and the page to come back to. */
export const formFields = (csrf: string, next: string) => html`<input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="next" value="${next}">`;

/** A labelled input with its error right after it, tied to it by aria-describedby. */
export function field(options: { id: string; name: string; label: string; errors: FieldErrors; input: (attributes: SafeHtml) => SafeHtml }): SafeHtml {
  const error = options.errors[options.name];
  const errorId = `${options.id}-error`;
  const attributes = error ? new SafeHtml(`aria-invalid="true" aria-describedby="${errorId}"`) : new SafeHtml('');
  return html`<div class="field"><label for="${options.id}">${options.label}</label>${options.input(attributes)}${error ? html`<p class="error field-error" id="${errorId}">${error}</p>` : html``}</div>`;
}

/** The warning and critical threshold inputs (ids `${prefix}-warning`, `${prefix}-critical`) and their hint. */
export function thresholdFields(prefix: string, values: { warning: string; critical: string }, errors: FieldErrors, locale: Locale): SafeHtml {
  const t = LABELS[locale];
  const number = (name: 'warning' | 'critical', label: string) =>
    field({
      id: `${prefix}-${name}`,
      name,
      label,
      errors,
      input: (attributes) => html`<input id="${prefix}-${name}" name="${name}" type="number" min="0" max="100" step="1" required value="${values[name]}" ${attributes}>`,
    });
  return html`<div class="field-row">${number('warning', t.warningBelow)}${number('critical', t.criticalBelow)}</div><p class="hint">${t.thresholdsHint}</p>`;
}

export const formError = (errors: FieldErrors) => (errors.form ? html`<p class="error form-error" role="alert">${errors.form}</p>` : html``);

export const noticeBox = (notice: Notice | undefined, locale: Locale) =>
  notice ? html`<p class="notice" role="status" id="notice">${LABELS[locale].notices[notice]}</p>` : html``;

/** A score in its status colour against the thresholds (the number itself always says it, colour only adds). */
export const scoreBadge = (score: number, thresholds: ScoreThreshold | undefined, size: 'large' | 'small' = 'large') =>
  html`<b class="score-badge ${size} score-${scoreStatus(score, thresholds)}">${score}</b>`;

/** One alert: severity, title, message, where and when, its state, links, and the read/dismiss buttons. */
export function alertItem(alert: AlertRow, options: { locale: Locale; csrf: string; next: string; headingLevel?: 2 | 3 }): SafeHtml {
  const t = LABELS[options.locale];
  const heading = new SafeHtml(`h${options.headingLevel ?? 3}`);
  const state = alert.isDismissed ? t.stateDismissed : alert.resolvedAt ? t.stateResolved(formatDateTime(alert.resolvedAt, options.locale)) : t.stateOpen;
  const stateClass = alert.isDismissed ? 'dismissed' : alert.resolvedAt ? 'resolved' : 'open';
  return html`<li class="alert alert-${alert.severity} ${alert.isRead ? 'read' : 'unread'}" id="alert-${alert.id}" data-alert-id="${alert.id}">
    <div class="alert-head"><span class="badge badge-${alert.severity}">${t.severities[alert.severity]}</span>${alert.isRead ? html`` : html`<span class="badge badge-new">${t.unreadBadge}</span>`}
      <span class="alert-state state-${stateClass}">${state}</span></div>
    <${heading} class="alert-title">${alert.title}</${heading}>
    <p class="alert-message">${alert.message}</p>
    <p class="alert-meta"><span class="url">${alert.url}</span> · ${alert.region} · <time datetime="${alert.createdAt.toISOString()}">${t.raised(formatDateTime(alert.createdAt, options.locale))}</time></p>
    <div class="actions"><a href="${P.report(alert.scanPublicId)}">${t.viewScan}</a>${alert.targetId === null ? html`` : html`<a href="${P.target(alert.targetId)}">${t.viewTarget}</a>`}
      ${alert.isRead ? html`` : html`<form class="inline" method="post" action="${P.markAlertRead(alert.id)}">${formFields(options.csrf, options.next)}<button type="submit" class="mark-read">${t.markRead}</button></form>`}
      ${alert.isDismissed || alert.resolvedAt ? html`` : html`<form class="inline" method="post" action="${P.dismissAlert(alert.id)}">${formFields(options.csrf, options.next)}<button type="submit" class="dismiss">${t.dismiss}</button></form>`}
    </div></li>`;
}

/** The monitoring pages' stylesheet (on top of the layout's): cards, badges, forms, the charts. */
export const MONITORING_STYLE = new SafeHtml(`<style>${CHART_STYLE}
  h1 { margin: 0 0 .5rem; font-size: 1.6rem; } h2 { margin-top: 0; font-size: 1.25rem; } h3 { font-size: 1.05rem; }
  .lead { color: ${C.axis}; margin-top: 0; }
  .url { overflow-wrap: anywhere; }
  button { font: inherit; font-size: .9rem; border: 1px solid #8c959f; border-radius: 6px; background: #f6f8fa; color: #1b1f24; min-height: 2.25rem; }
  button.primary { background: #0b3d91; border-color: #0b3d91; color: #fff; }
  button.danger { background: #b3261e; border-color: #b3261e; color: #fff; }
  input[type=url], input[type=number], select { font: inherit; padding: .45rem; box-sizing: border-box; border: 1px solid #8c959f; border-radius: 6px; }
  input[type=url] { width: 100%; max-width: 32rem; } input[type=number] { width: 6rem; } select { min-width: 8rem; background: #fff; }
  input[aria-invalid=true] { border-color: #b3261e; border-width: 2px; }
  .field-error { margin: .25rem 0 0; font-size: .9rem; } .form-error { font-weight: 600; }
  .hint { color: ${C.axis}; font-size: .85rem; margin: .25rem 0 0; }
  .field-row { display: flex; flex-wrap: wrap; gap: 0 1.25rem; }
  .notice { margin: 0 0 1rem; }
  .cards { list-style: none; margin: 0; padding: 0; }
  .target { display: grid; grid-template-columns: minmax(0, 1fr); gap: .6rem 1rem; padding: 1rem 0; border-top: 1px solid #eaeef2; }
  .target:first-child { border-top: 0; padding-top: 0; }
  .target-head { grid-column: 1 / -1; } .target-head h3 { margin: 0 0 .15rem; }
  .target-meta { margin: 0; color: ${C.axis}; font-size: .9rem; }
  .target-score { display: flex; align-items: center; gap: .75rem; flex-wrap: wrap; }
  .target-score .caption { font-size: .8rem; color: ${C.axis}; display: block; }
  .target-alerts { font-size: .9rem; }
  .target-alerts.has-open { color: ${C.critical}; font-weight: 600; }
  .target-actions { grid-column: 1 / -1; }
  @media (min-width: 48rem) {
    .target { grid-template-columns: minmax(0, 1fr) auto auto; align-items: center; }
    .target-head { grid-column: 1; } .target-score { grid-column: 2; } .target-alerts { grid-column: 3; min-width: 9rem; text-align: right; }
    .target-actions { grid-column: 1 / -1; }
  }
  .actions { display: flex; flex-wrap: wrap; gap: .5rem .75rem; align-items: flex-start; }
  .actions > a { align-self: center; }
  .actions form button, .actions details > summary { margin: 0; }
  details > summary { cursor: pointer; display: inline-flex; align-items: center; min-height: 2.25rem; padding: 0 .9rem; border: 1px solid #8c959f; border-radius: 6px; background: #f6f8fa; font-size: .9rem; list-style: none; }
  details > summary::-webkit-details-marker { display: none; }
  details > summary::after { content: '▾'; margin-left: .4rem; }
  details[open] > summary::after { content: '▴'; }
  details[open] { flex-basis: 100%; }
  details > form, details > .confirm { margin-top: .5rem; padding: .75rem; border: 1px solid #d0d7de; border-radius: 6px; background: #f6f8fa; }
  .score-badge { display: inline-block; min-width: 2.6rem; text-align: center; font-size: 1.35rem; line-height: 2.4rem; border-radius: 6px; border: 2px solid; }
  .score-badge.small { min-width: 2rem; font-size: 1rem; line-height: 1.5rem; border-width: 1px; }
  .score-ok { color: #0a6b2d; border-color: #0a6b2d; } .score-warning { color: ${C.warning}; border-color: ${C.warning}; } .score-critical { color: ${C.critical}; border-color: ${C.critical}; }
  .state { font-weight: 600; } .state-active { color: #0a6b2d; } .state-paused { color: ${C.axis}; }
  .badge { display: inline-block; font-size: .75rem; font-weight: 700; text-transform: uppercase; letter-spacing: .03em; padding: .1rem .45rem; border-radius: 999px; margin-right: .35rem; border: 1px solid; }
  .badge-critical { color: #fff; background: ${C.critical}; border-color: ${C.critical}; }
  .badge-warning { color: #5c3300; background: #fff1d6; border-color: ${C.warning}; }
  .badge-new { color: #0b3d91; background: #e8f0fe; border-color: #0b3d91; }
  .alert { padding: .9rem 0; border-top: 1px solid #eaeef2; }
  .alert:first-child { border-top: 0; padding-top: 0; }
  .alert-head { display: flex; flex-wrap: wrap; align-items: center; gap: .25rem; }
  .alert-state { font-size: .85rem; color: ${C.axis}; } .alert-state.state-open { color: ${C.critical}; font-weight: 600; }
  .alert-title { margin: .35rem 0 .2rem; font-size: 1.05rem; } .alert.read .alert-title { font-weight: 600; }
  .alert-message { margin: 0 0 .25rem; } .alert-meta { margin: 0 0 .5rem; font-size: .85rem; color: ${C.axis}; }
  .filters { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; }
  .filters .field label { margin-top: 0; } .filters button { margin: 0; }
  .list-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: .5rem; margin-bottom: .75rem; }
  .list-head p { margin: 0; } .list-head form button { margin: 0; }
  .pagination { display: flex; flex-wrap: wrap; gap: .75rem; align-items: center; justify-content: center; margin-top: 1rem; }
  .pagination a, .pagination span.disabled { padding: .4rem .8rem; border: 1px solid #d0d7de; border-radius: 6px; text-decoration: none; }
  .pagination span.disabled { color: ${C.axis}; }
  .scans-table td:nth-child(2) { white-space: nowrap; }
  .facts { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; margin: 0; }
  .facts dt { color: ${C.axis}; } .facts dd { margin: 0; }
  @media (max-width: 30rem) { .facts { grid-template-columns: 1fr; } .facts dt { margin-top: .35rem; } }
  .back { display: inline-block; margin-bottom: .75rem; } .facts + .actions { margin-top: .75rem; }
</style>`);
