import { ALERT_SEVERITIES, ALERT_STATUS_FILTERS, type AlertSeverity } from '../../core/monitoring/alert.ts';
import type { PageMeta } from '../../core/pagination.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { LABELS, type Notice } from './labels.ts';
import { MONITORING_PATHS as P, type AlertRow, type FieldErrors, type SignedInPage } from './model.ts';
import { alertItem, field, formFields, noticeBox } from './parts.ts';

export const DEFAULT_ALERTS_PER_PAGE = 20;

/** The API's status filters and the web area's own `dismissed`. */
export const WEB_ALERT_STATUS_FILTERS = [...ALERT_STATUS_FILTERS, 'dismissed'] as const;
export type WebAlertStatusFilter = (typeof WEB_ALERT_STATUS_FILTERS)[number];

export interface AlertFilters {
  status: WebAlertStatusFilter | null;
  severity: AlertSeverity | null;
}

export interface AlertsPageModel extends SignedInPage {
  /** This page of the user's alerts, filtered. */
  alerts: readonly AlertRow[];
  filters: AlertFilters;
  /** The list's pagination, as the stores return it (core/pagination.ts). */
  meta: PageMeta;
  /** All the user's unread alerts, whatever the filter: "mark all as read" shows when there are any. */
  unreadCount: number;
  /**
   * Filters that were not valid (status, severity, page): the message shows next to the field and the page is
   * answered with 422. `filters` then holds the valid ones only.
   */
  errors?: FieldErrors;
  notice?: Notice;
}

/** The query string of the alerts list for these filters and page (defaults left out). */
export function alertsQuery(filters: AlertFilters, page: number, perPage = DEFAULT_ALERTS_PER_PAGE): string {
  const query = new URLSearchParams();
  if (filters.status) query.set('status', filters.status);
  if (filters.severity) query.set('severity', filters.severity);
  if (perPage !== DEFAULT_ALERTS_PER_PAGE) query.set('limit', String(perPage));
  if (page > 1) query.set('page', String(page));
  const text = query.toString();
  return text ? `?${text}` : '';
}

export function alertsPage(model: AlertsPageModel): string {
  const t = LABELS[model.locale];
  const errors = model.errors ?? {};
  const { meta } = model;
  const here = `${P.alerts}${alertsQuery(model.filters, meta.current_page, meta.per_page)}`;
  const filtered = model.filters.status !== null || model.filters.severity !== null;
  const select = <V extends string>(
    name: string,
    options: readonly V[],
    labels: Record<V, string>,
    selected: V | null,
  ) =>
    field({
      id: `filter-${name}`,
      name,
      label: name === 'status' ? t.status : t.severity,
      errors,
      input: (a) =>
        html`<select id="filter-${name}" name="${name}" ${a}><option value="">${t.all}</option>${options.map(
          (value) =>
            html`<option value="${value}"${value === selected ? html` selected` : html``}>${labels[value]}</option>`,
        )}</select>`,
    });
  const body = html`
    <h1>${t.alertsTitle}</h1>
    ${noticeBox(model.notice, model.locale)}
    <section aria-labelledby="filters-heading"><h2 id="filters-heading" class="filters-heading">${t.filters}</h2>
      <form method="get" action="${P.alerts}" class="filters" id="alert-filters">
        ${select('status', WEB_ALERT_STATUS_FILTERS, t.statusFilters, model.filters.status)}
        ${select('severity', ALERT_SEVERITIES, t.severities, model.filters.severity)}
        ${meta.per_page !== DEFAULT_ALERTS_PER_PAGE ? html`<input type="hidden" name="limit" value="${meta.per_page}">` : html``}
        <button type="submit" id="apply-filters">${t.filter}</button>
      </form>${errors.page ? html`<p class="error field-error" id="filter-page-error">${errors.page}</p>` : html``}</section>
    <section aria-labelledby="alerts-heading"><h2 id="alerts-heading">${t.alertCount(meta.total)}</h2>
      <div class="list-head"><p id="unread-count">${t.unreadCount(model.unreadCount)}</p>
        ${
          model.unreadCount > 0
            ? html`<form class="inline" method="post" action="${P.markAllAlertsRead}">${formFields(model.csrf, here)}<button type="submit" id="mark-all-read">${t.markAllRead}</button></form>`
            : html``
        }</div>
      ${
        model.alerts.length === 0
          ? html`<p id="no-alerts">${filtered ? t.noAlertsFiltered : t.noAlerts}</p>`
          : html`<ul class="cards" id="alerts">${model.alerts.map((alert) => alertItem(alert, { locale: model.locale, csrf: model.csrf, next: here }))}</ul>`
      }
      ${pagination(model)}
    </section>`;
  return layout(t.alertsTitle, body, { ...model.chrome, current: 'alerts', sheets: ['monitoring'] });
}

function pagination(model: AlertsPageModel): SafeHtml {
  const t = LABELS[model.locale];
  const { current_page: current, last_page: last, per_page: perPage } = model.meta;
  if (last <= 1 && current <= 1) return html``;
  const link = (page: number, label: string, rel: 'prev' | 'next') =>
    page >= 1 && page <= last
      ? html`<a rel="${rel}" href="${P.alerts}${alertsQuery(model.filters, page, perPage)}">${label}</a>`
      : html`<span class="disabled">${label}</span>`;
  return html`<nav class="pagination" aria-label="${t.pages}">${link(Math.min(current - 1, last), t.previous, 'prev')}<span aria-current="page">${t.pageOf(current, last)}</span>${link(current + 1, t.next, 'next')}</nav>`;
}
