import { formatDateTime } from '../../core/i18n/dates.ts';
import { scoreHistoryChart } from '../charts/score-history.ts';
import { chronological, runSpread } from '../charts/series.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { LABELS, type Notice } from './labels.ts';
import {
  MONITORING_PATHS as P,
  type AlertRow,
  type FieldErrors,
  type HistoryScan,
  type SignedInPage,
  type TargetSummary,
} from './model.ts';
import { alertItem, formError, formFields, noticeBox, scoreBadge, thresholdFields } from './parts.ts';
import { budgetsSection, type BudgetEdit } from './target-budgets.ts';

export interface TargetPageModel extends SignedInPage {
  target: TargetSummary;
  /** The last 30 finished scans (any order): the chart and the table. */
  scans: readonly HistoryScan[];
  /** Its alerts neither resolved nor dismissed. */
  openAlerts: readonly AlertRow[];
  /** Its latest resolved or dismissed alerts (a handful, newest first). */
  recentAlerts: readonly AlertRow[];
  /** After a rejected threshold edit posted from this page: the values typed and the errors (warning, critical, form). */
  edit?: { values: { warning: string; critical: string }; errors: FieldErrors };
  notice?: Notice;
  /** Why a Run now was refused (the hourly scan limit, the scheduler away), shown above the buttons. */
  runError?: string;
  /** The lab-metric charts section (web/monitoring/lab-charts.ts), already rendered; left out, not shown. */
  labCharts?: SafeHtml;
  /** After a rejected budgets save: the values typed and the errors (web/monitoring/target-budgets.ts). */
  budgetEdit?: BudgetEdit;
}

export function targetPage(model: TargetPageModel): string {
  const t = LABELS[model.locale];
  const { target, locale } = model;
  const thresholds = target.thresholds.overall;
  const points = model.scans.map((scan) => ({ ...scan, href: P.report(scan.scanId) }));
  const newestFirst = chronological(points).reverse();
  const next = P.target(target.id);
  const alerts = (list: readonly AlertRow[], id: string) =>
    list.length
      ? html`<ul class="cards" id="${id}">${list.map((alert) => alertItem(alert, { locale, csrf: model.csrf, next, onTargetPage: true }))}</ul>`
      : html`<p id="${id}">${t.none}</p>`;
  const body = html`
    <a class="back" href="${P.targets}">← ${t.allTargets}</a>
    <h1 class="url">${target.url}</h1>
    ${noticeBox(model.notice, locale)}
    <section aria-labelledby="facts-heading"><h2 id="facts-heading">${t.settings}</h2>
      <dl class="facts">
        <dt>${t.region}</dt><dd>${target.region}</dd>
        <dt>${t.schedule}</dt><dd>${t.schedules[target.schedule] ?? target.schedule} · ${target.isActive ? html`<span class="state state-active">${t.active}</span>` : html`<span class="state state-paused">${t.paused}</span>`}</dd>
        <dt>${t.thresholds}</dt><dd>${t.thresholdsText(thresholds.warning, thresholds.critical)}</dd>
        <dt>${t.lastDispatched}</dt><dd>${target.lastDispatchedAt ? formatDateTime(target.lastDispatchedAt, locale) : t.never}</dd>
        <dt>${t.nextScan}</dt><dd id="next-scan">${target.nextScanAt ? html`<time datetime="${target.nextScanAt.toISOString()}">${formatDateTime(target.nextScanAt, locale)}</time>` : t.nextScanPaused}</dd>
      </dl>
      ${formError(model.runError ? { form: model.runError } : {})}
      <div class="actions">
        <form class="inline" method="post" action="${P.runTarget(target.id)}" id="run-now-form">${formFields(model.csrf, next)}
          <button type="submit" class="primary" id="run-now" aria-describedby="run-now-hint">${t.runNow}</button></form>
        <form class="inline" method="post" action="${target.isActive ? P.pauseTarget(target.id) : P.resumeTarget(target.id)}">${formFields(model.csrf, next)}
          <button type="submit" class="${target.isActive ? 'pause' : 'resume'}">${target.isActive ? t.pause : t.resume}</button></form>
        <details class="edit-thresholds"${model.edit ? html` open` : html``}><summary>${t.editThresholds}</summary>
          <form method="post" action="${P.targetThresholds(target.id)}">${formFields(model.csrf, next)}${formError(model.edit?.errors ?? {})}
            ${thresholdFields('edit', model.edit?.values ?? { warning: String(thresholds.warning), critical: String(thresholds.critical) }, model.edit?.errors ?? {}, locale)}
            <button type="submit" class="primary">${t.saveThresholds}</button></form></details>
      </div>
      <p class="hint" id="run-now-hint">${t.runNowHint}</p>
    </section>
    ${budgetsSection({ target, locale, csrf: model.csrf, edit: model.budgetEdit })}
    <section aria-labelledby="history-heading"><h2 id="history-heading">${t.scoreHistory}</h2>
      ${scoreHistoryChart(points, { locale, thresholds, id: 'history-chart' })}</section>
    ${model.labCharts ?? ''}
    <section aria-labelledby="scans-heading"><h2 id="scans-heading">${t.lastScans}</h2>
      ${
        newestFirst.length === 0
          ? html`<p id="no-scans">${t.noScans}</p>`
          : html`<table class="scans-table stack" id="scans"><thead><tr><th scope="col">${t.scanned}</th><th scope="col">${t.score}</th><th scope="col">${t.runs}</th><th scope="col">${t.trigger}</th><th scope="col"><span class="visually-hidden">${t.compare}</span></th></tr></thead>
          <tbody>${newestFirst.map((scan, i) => scanRow(scan, newestFirst[i + 1], model))}</tbody></table>`
      }
    </section>
    <section aria-labelledby="open-alerts-heading" id="open-alerts"><h2 id="open-alerts-heading">${t.openAlertsTitle}</h2>${alerts(model.openAlerts, 'open-alerts-list')}</section>
    ${
      // "None" under recent alerts beside an open one reads as if nothing were wrong: the part shows only with alerts in it.
      model.recentAlerts.length
        ? html`<section aria-labelledby="recent-alerts-heading"><h2 id="recent-alerts-heading">${t.recentAlertsTitle}</h2>${alerts(model.recentAlerts, 'recent-alerts-list')}</section>`
        : html``
    }`;
  return layout(target.url, body, { ...model.chrome, current: 'targets', sheets: ['monitoring'] });
}

/** One scan of the history, with a link comparing it with the scan before it (the compare page, /compare). */
function scanRow(
  scan: HistoryScan & { href: string },
  before: HistoryScan | undefined,
  model: TargetPageModel,
): SafeHtml {
  const t = LABELS[model.locale];
  const spread = runSpread(scan);
  const when = formatDateTime(scan.at, model.locale);
  const compare = before
    ? `/compare?${new URLSearchParams([
        ['scan', before.scanId],
        ['scan', scan.scanId],
      ])}`
    : null;
  return html`<tr data-scan-id="${scan.scanId}"><td class="wide"><a href="${scan.href}">${when}</a></td>
    <td>${scan.score === null ? '—' : scoreBadge(scan.score, model.target.thresholds.overall, 'small')}</td>
    <td class="spread">${spread ? t.runSpread(spread.count, spread.min, spread.max) : t.oneRun}</td>
    <td class="trigger" data-label="${t.trigger}">${scan.trigger ? html`<span class="trigger-label trigger-${scan.trigger}">${t.triggers[scan.trigger] ?? scan.trigger}</span>` : ''}</td>
    <td>${compare ? html`<a class="compare" href="${compare}" aria-label="${t.compareWithBefore(when)}">${t.compare}</a>` : ''}</td></tr>`;
}
