import { formatDateTime } from '../../core/i18n/dates.ts';
import { RUM_ALERT_MODES, type RumAlert } from '../../core/rum/alert-check.ts';
import { RUM_METRICS } from '../../core/rum/metrics.ts';
import { html, SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import type { SignedInPage } from '../monitoring/model.ts';
import { ALERT_LABELS } from './alert-labels.ts';
import { formatMetric } from './format.ts';
import { LIVE_PATHS as P } from './model.ts';
import { hiddenCsrf } from './parts.ts';

/** The add form's values as typed (strings, so a refused value comes back as it was). */
export interface AlertFormValues {
  title: string;
  mode: string;
  metric: string;
  threshold: string;
  window_minutes: string;
  min_samples: string;
  consecutive_threshold: string;
}

export const DEFAULT_ALERT_FORM: AlertFormValues = {
  title: '',
  mode: 'auto',
  metric: 'LCP',
  threshold: '',
  window_minutes: '60',
  min_samples: '20',
  consecutive_threshold: '3',
};

export interface AlertsPageModel extends SignedInPage {
  site: { id: number; domain: string };
  alerts: readonly RumAlert[];
  values?: AlertFormValues;
  /** By field (title, mode, metric, threshold, window_minutes, min_samples, consecutive_threshold, form). */
  errors?: Record<string, string>;
  notice?: string;
}

export function alertsPage(model: AlertsPageModel): string {
  const t = ALERT_LABELS[model.locale];
  const locale = model.locale;
  const when = (date: Date) => formatDateTime(date, locale);
  const item = (alert: RumAlert) => {
    const rule =
      alert.mode === 'auto'
        ? t.autoRule
        : t.manualRule(alert.metric!, formatMetric(alert.metric!, alert.threshold!, locale));
    const last =
      alert.lastCheckedAt && alert.lastMetric && alert.lastP75 !== null
        ? t.lastCheck(
            formatMetric(alert.lastMetric, alert.lastP75, locale),
            alert.lastMetric,
            alert.lastSamples ?? 0,
            when(alert.lastCheckedAt),
          )
        : t.notChecked;
    return html`<li class="alert rum-alert" id="rum-alert-${alert.id}" data-status="${alert.status}">
      <div class="alert-head"><span class="badge ${alert.status === 'triggered' ? 'badge-critical' : 'badge-new'}">${t.statuses[alert.status]}</span> <span class="alert-state">${t.modes[alert.mode]}</span></div>
      <h3 class="alert-title" id="rum-alert-${alert.id}-title">${alert.title}</h3>
      <p class="alert-message">${rule} ${t.window(alert.windowMinutes)}; ${t.conditions(alert.minSamples, alert.consecutiveThreshold)}.</p>
      <p class="alert-meta">${last}${alert.triggeredAt && alert.triggeredMetric ? html` ${t.triggeredAt(when(alert.triggeredAt), alert.triggeredMetric)}` : html``}${
        alert.emailedAt ? html` ${t.emailedAt(when(alert.emailedAt))}` : html``
      }${alert.resolvedAt ? html` ${t.resolvedAt(when(alert.resolvedAt))}` : html``}</p>
      <div class="actions"><details class="remove"><summary aria-describedby="rum-alert-${alert.id}-title">${t.remove}</summary>
        <form method="post" action="${P.alert(model.site.id, alert.id)}/delete">${hiddenCsrf(model.csrf)}<p>${t.removeQuestion(alert.title)}</p>
          <button type="submit" class="danger confirm-delete">${t.removeConfirm}</button></form></details></div></li>`;
  };
  const notice = model.notice ? html`<p class="notice" role="status" id="notice">${model.notice}</p>` : html``;
  return layout(
    t.title(model.site.domain),
    html`<a class="back" href="${P.dashboard(model.site.id)}">${t.backToDashboard}</a>
      <h1>${t.title(model.site.domain)}</h1><p class="lead">${t.intro}</p>${notice}
      <section aria-labelledby="alerts-heading"><h2 id="alerts-heading">${t.yours}</h2>
        ${model.alerts.length ? html`<ul class="cards" id="rum-alerts">${model.alerts.map(item)}</ul>` : html`<p id="no-alerts">${t.none}</p>`}</section>
      <section aria-labelledby="add-alert-heading" id="add-alert"><h2 id="add-alert-heading">${t.add}</h2>${addForm(model)}</section>`,
    { ...model.chrome, current: 'live', sheets: ['monitoring', 'live'] },
  );
}

function addForm(model: AlertsPageModel): SafeHtml {
  const t = ALERT_LABELS[model.locale];
  const values = model.values ?? DEFAULT_ALERT_FORM;
  const errors = model.errors ?? {};
  const described = (name: string) =>
    errors[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="alert-${name}-error"`) : new SafeHtml('');
  const error = (name: string) =>
    errors[name] ? html`<p class="error field-error" id="alert-${name}-error">${errors[name]}</p>` : html``;
  const number = (
    name: 'window_minutes' | 'min_samples' | 'consecutive_threshold',
    label: string,
    min: number,
    max: number,
  ) =>
    html`<div class="field"><label for="alert-${name}">${label}</label><input id="alert-${name}" name="${name}" type="number" min="${min}" max="${max}" step="1" required value="${values[name]}"${described(name)}>${error(name)}</div>`;
  const selected = (on: boolean) => (on ? new SafeHtml(' selected') : '');
  return html`<form method="post" action="${P.alerts(model.site.id)}" id="add-alert-form">${hiddenCsrf(model.csrf)}
    ${errors.form ? html`<p class="error form-error" role="alert">${errors.form}</p>` : html``}
    <div class="field"><label for="alert-title">${t.fieldTitle}</label><input id="alert-title" name="title" type="text" required maxlength="200" value="${values.title}"${described('title')}>${error('title')}</div>
    <div class="field"><label for="alert-mode">${t.fieldMode}</label><select id="alert-mode" name="mode"${described('mode')}>${RUM_ALERT_MODES.map(
      (mode) => html`<option value="${mode}"${selected(values.mode === mode)}>${t.modes[mode]}</option>`,
    )}</select>${error('mode')}</div>
    <div class="field-row">
      <div class="field"><label for="alert-metric">${t.fieldMetric}</label><select id="alert-metric" name="metric"${described('metric')}>${RUM_METRICS.map(
        (metric) => html`<option value="${metric}"${selected(values.metric === metric)}>${metric}</option>`,
      )}</select>${error('metric')}</div>
      <div class="field"><label for="alert-threshold">${t.fieldThreshold}</label><input id="alert-threshold" name="threshold" type="number" min="0" step="any" value="${values.threshold}"${described('threshold')}>${error('threshold')}</div>
    </div>
    <div class="field-row">${number('window_minutes', t.fieldWindow, 5, 1440)}${number('min_samples', t.fieldSamples, 1, 100_000)}${number('consecutive_threshold', t.fieldChecks, 1, 12)}</div>
    <button type="submit" class="primary" id="add-alert-button">${t.addButton}</button></form>`;
}
