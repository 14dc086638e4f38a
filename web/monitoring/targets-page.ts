import { formatDate, formatDateTime } from '../../core/i18n/dates.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';
import { sparkline } from '../charts/sparkline.ts';
import { chronological } from '../charts/series.ts';
import { html, type SafeHtml } from '../html.ts';
import { layout } from '../layout.ts';
import { LABELS, type Notice } from './labels.ts';
import {
  MONITORING_PATHS as P,
  type FieldErrors,
  type HistoryScan,
  type SignedInPage,
  type TargetSummary,
} from './model.ts';
import { planLink } from '../plan/link.ts';
import { field, formError, formFields, noticeBox, scoreBadge, thresholdFields } from './parts.ts';

/** One target in the list. */
export interface TargetRow extends TargetSummary {
  /** Its last finished scans (up to 30, any order): the sparkline and the latest score come from them. */
  history: readonly HistoryScan[];
  openAlerts: number;
}

/** The add form's values as typed (strings, so that a rejected value comes back as it was). */
export interface TargetFormValues {
  url: string;
  region: string;
  warning: string;
  critical: string;
}

export interface TargetsPageModel extends SignedInPage {
  targets: readonly TargetRow[];
  /** The regions a target may be scanned from (config.regions) and the one preselected. */
  regions: readonly string[];
  defaultRegion: string;
  /** Defaults for a new target's overall thresholds (core/monitoring/thresholds.ts DEFAULT_THRESHOLDS.overall). */
  defaultThresholds: ScoreThreshold;
  /** How many targets the plan keeps; null when unlimited. At the limit the add form gives way to a message. */
  limit: { max: number; planLabel: string } | null;
  /** After a rejected add: the values typed and the errors by field (url, region, warning, critical, form). */
  add?: { values: TargetFormValues; errors: FieldErrors };
  /** After a rejected threshold edit: which target, the values typed and the errors (warning, critical, form). */
  edit?: { targetId: number; values: { warning: string; critical: string }; errors: FieldErrors };
  /** What the last action did (after its redirect). */
  notice?: Notice;
}

export function targetsPage(model: TargetsPageModel): string {
  const t = LABELS[model.locale];
  const atLimit = model.limit !== null && model.targets.length >= model.limit.max;
  const body = html`
    <h1>${t.targetsTitle}</h1><p class="lead">${t.targetsIntro}</p>
    ${noticeBox(model.notice, model.locale)}
    <section aria-labelledby="targets-heading"><h2 id="targets-heading">${t.yourTargets}</h2>
      ${model.targets.length === 0 ? html`<p id="no-targets">${t.noTargets}</p>` : html`<ul class="cards" id="targets">${model.targets.map((target) => targetItem(target, model))}</ul>`}
    </section>
    <section aria-labelledby="add-heading" id="add-target"><h2 id="add-heading">${t.addTarget}</h2>
      ${
        model.limit?.max === 0
          ? html`<p class="error" id="limit-reached">${t.notOnPlan(model.limit.planLabel)} ${planLink(model.locale)}</p>`
          : html`${model.limit ? html`<p id="target-limit">${t.limit(model.targets.length, model.limit.max, model.limit.planLabel)}</p>` : html``}
          ${atLimit ? html`<p class="error" id="limit-reached">${t.limitReached} ${planLink(model.locale)}</p>` : addForm(model)}`
      }
    </section>`;
  return layout(t.targetsTitle, body, { ...model.chrome, current: 'targets', sheets: ['monitoring'] });
}

const thresholdsOf = (target: TargetSummary): ScoreThreshold => target.thresholds.overall;

function targetItem(target: TargetRow, model: TargetsPageModel): SafeHtml {
  const t = LABELS[model.locale];
  const history = chronological(target.history.map((scan) => ({ ...scan, href: P.report(scan.scanId) })));
  const latest = [...history].reverse().find((scan) => scan.score !== null);
  const thresholds = thresholdsOf(target);
  const next = P.targets;
  const editing = model.edit?.targetId === target.id ? model.edit : undefined;
  // The buttons repeat on every target; each is described by its target's URL for screen readers.
  const state = target.isActive
    ? html`<span class="state state-active">${t.active}</span>`
    : html`<span class="state state-paused">${t.paused}</span>`;
  return html`<li class="target" id="target-${target.id}" data-target-id="${target.id}">
    <div class="target-head"><h3><a class="url" id="target-${target.id}-url" href="${P.target(target.id)}">${target.url}</a></h3>
      <p class="target-meta">${t.region} ${target.region} · ${t.schedules[target.schedule] ?? target.schedule} · ${state} · ${t.thresholds}: ${t.thresholdsText(thresholds.warning, thresholds.critical)}${target.nextScanAt ? html` · <span class="next-scan">${t.nextScanShort(formatDateTime(target.nextScanAt, model.locale))}</span>` : html``}</p></div>
    <div class="target-score">${
      latest
        ? html`<a href="${latest.href}" class="latest" aria-label="${t.latestScore} ${latest.score}. ${t.latestReport(formatDate(latest.at, model.locale))}">${scoreBadge(latest.score!, thresholds)}</a>
          <span><span class="caption">${t.latestScore}</span><span class="caption">${formatDate(latest.at, model.locale)}</span></span>`
        : html`<span class="caption">${t.notScanned}</span>`
    }
      ${history.length ? sparkline(history, { locale: model.locale, thresholds }) : html``}</div>
    <div class="target-alerts ${target.openAlerts > 0 ? 'has-open' : ''}">${target.openAlerts > 0 ? html`<a href="${P.target(target.id)}#open-alerts">${t.openAlerts(target.openAlerts)}</a>` : t.openAlerts(0)}</div>
    <div class="target-actions actions">
      <form class="inline" method="post" action="${target.isActive ? P.pauseTarget(target.id) : P.resumeTarget(target.id)}">${formFields(model.csrf, next)}
        <button type="submit" class="${target.isActive ? 'pause' : 'resume'}" aria-describedby="target-${target.id}-url">${target.isActive ? t.pause : t.resume}</button></form>
      <details class="edit-thresholds"${editing ? html` open` : html``}><summary aria-describedby="target-${target.id}-url">${t.editThresholds}</summary>
        <form method="post" action="${P.targetThresholds(target.id)}">${formFields(model.csrf, next)}${formError(editing?.errors ?? {})}
          ${thresholdFields(`t${target.id}`, editing?.values ?? { warning: String(thresholds.warning), critical: String(thresholds.critical) }, editing?.errors ?? {}, model.locale)}
          <button type="submit" class="primary">${t.saveThresholds}</button></form></details>
      <details class="remove"><summary aria-describedby="target-${target.id}-url">${t.remove}</summary>
        <form method="post" action="${P.removeTarget(target.id)}">${formFields(model.csrf, next)}<p class="url">${t.removeQuestion(target.url)}</p>
          <button type="submit" class="danger">${t.removeConfirm}</button></form></details>
    </div></li>`;
}

function addForm(model: TargetsPageModel): SafeHtml {
  const t = LABELS[model.locale];
  const errors = model.add?.errors ?? {};
  const values = model.add?.values ?? {
    url: '',
    region: model.defaultRegion,
    warning: String(model.defaultThresholds.warning),
    critical: String(model.defaultThresholds.critical),
  };
  return html`<form method="post" action="${P.targets}" id="add-target-form">${formFields(model.csrf, P.targets)}${formError(errors)}
    ${field({ id: 'target-url', name: 'url', label: t.url, errors, input: (a) => html`<input id="target-url" name="url" type="text" inputmode="url" spellcheck="false" autocomplete="url" required maxlength="2048" placeholder="https://example.com/" value="${values.url}" ${a}>` })}
    ${field({
      id: 'target-region',
      name: 'region',
      label: t.region,
      errors,
      input: (a) =>
        html`<select id="target-region" name="region" ${a}>${model.regions.map((region) => html`<option value="${region}"${region === values.region ? html` selected` : html``}>${region}</option>`)}</select>`,
    })}
    ${thresholdFields('new', values, errors, model.locale)}
    <button type="submit" class="primary" id="add-target-button">${t.addButton}</button></form>`;
}
