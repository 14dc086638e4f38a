import { createHash } from 'node:crypto';
import { scanFailureView } from '../core/i18n/failures.ts';
import { localiseFinding } from '../core/i18n/findings.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from '../core/i18n/locale.ts';
import type { Page } from '../core/pagination.ts';
import { FORM_FACTORS, type FormFactor } from '../core/scan/observation.ts';
import type { FormFactorMetrics } from '../core/scan/result.ts';
import type { Scan, ScanStatus } from '../core/scan/scan.ts';
import { SCORE_KEYS, scoreLabel } from '../core/scoring/categories.ts';
import { html, SafeHtml } from './html.ts';
import { layout, scorePill, type Chrome } from './layout.ts';
import { t } from './text.ts';

export type FormErrors = Record<string, string>;

/** What the URL box shows: the values to keep, the regions to offer, and errors next to their fields. */
export interface UrlBox {
  /** Set for a signed-in user: the box posts the scan; without it, the box asks to sign in first. */
  csrf?: string;
  regions: string[];
  values: { url?: string; region?: string; isPublic?: boolean };
  errors?: FormErrors;
}

const fieldError = (errors: FormErrors | undefined, name: string) =>
  errors?.[name] ? html`<p class="error" id="${name}-error">${errors[name]}</p>` : html``;

const described = (errors: FormErrors | undefined, name: string) => (errors?.[name] ? new SafeHtml(` aria-invalid="true" aria-describedby="${name}-error"`) : '');

export function urlBox(locale: Locale, box: UrlBox): SafeHtml {
  const text = t(locale);
  const signedIn = Boolean(box.csrf);
  const region = box.values.region ?? box.regions[0];
  return html`<form method="${signedIn ? 'post' : 'get'}" action="${signedIn ? '/scans' : '/scans/new'}" id="scan-form" class="url-box">
    ${signedIn ? html`<input type="hidden" name="_csrf" value="${box.csrf!}">` : ''}
    ${fieldError(box.errors, 'form')}
    <label for="scan-url">${text.urlLabel}</label>
    <div class="url-row"><input id="scan-url" name="url" type="url" inputmode="url" autocomplete="url" required maxlength="2048"
      placeholder="${text.urlPlaceholder}" value="${box.values.url ?? ''}"${described(box.errors, 'url')}>
    <button type="submit" id="scan-submit">${text.scanButton}</button></div>
    ${fieldError(box.errors, 'url')}
    ${signedIn
      ? html`<div class="options">${box.regions.length > 1
          ? html`<span><label for="scan-region">${text.regionLabel}</label><select id="scan-region" name="region">${box.regions.map(
              (code) => html`<option value="${code}" ${code === region ? new SafeHtml('selected') : ''}>${code}</option>`,
            )}</select></span>`
          : html`<input type="hidden" name="region" value="${region ?? ''}">`}
        <span class="check"><input id="scan-public" name="public" type="checkbox" value="1" ${box.values.isPublic ? new SafeHtml('checked') : ''}>
          <label for="scan-public">${text.publicLabel}</label></span></div>${fieldError(box.errors, 'region')}`
      : ''}
  </form>`;
}

export function homePage(chrome: Chrome, box: UrlBox, notice?: string): string {
  const text = t(chrome.locale);
  return layout(
    text.homeTitle,
    html`<h1>${text.homeTitle}</h1>
      <section class="hero"><p>${text.homeIntro}</p>${notice ? html`<p class="notice" id="sign-in-notice">${notice}</p>` : ''}${urlBox(chrome.locale, box)}
        <ul>${text.homePoints.map((point) => html`<li>${point}</li>`)}</ul>
        <p><a class="button" href="/signup">${text.signUp}</a> <a class="button secondary" href="/login">${text.signIn}</a></p></section>`,
    { ...chrome, sheets: ['scan-box'] },
  );
}

const when = (date: Date | null, locale: Locale) =>
  date ? date.toLocaleString(locale === 'de' ? 'de-DE' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) + ' UTC' : '—';

const statusText = (status: ScanStatus, locale: Locale) => t(locale).status[status] ?? status;

/** Where a scan in a list leads: its progress while it runs, its report once it has ended. */
export const scanHref = (scan: Scan): string => (scan.status === 'queued' || scan.status === 'running' ? `/scans/${scan.publicId}` : `/reports/${scan.publicId}`);

function scanRows(scans: Scan[], locale: Locale, selectable: boolean): SafeHtml {
  const text = t(locale);
  return html`<table class="scans stack"><thead><tr>${selectable ? html`<th scope="col"><span class="visually-hidden">${text.colSelect}</span></th>` : ''}<th scope="col">${text.colUrl}</th><th scope="col">${text.colScore}</th>
    <th scope="col">${text.colStatus}</th><th scope="col">${text.colRegion}</th><th scope="col">${text.colRequested}</th></tr></thead><tbody>${scans.map(
      (scan) => html`<tr data-scan-id="${scan.publicId}">${selectable
          ? html`<td class="select">${scan.status === 'finished'
              ? html`<input type="checkbox" name="scan" value="${scan.publicId}" id="pick-${scan.publicId}" aria-label="${text.colSelect}: ${scan.url}">`
              : ''}</td>`
          : ''}
        <td class="url wide"><a href="${scanHref(scan)}">${scan.url}</a></td><td>${scorePill(scan.result?.scores.overall)}</td>
        <td class="status">${statusText(scan.status, locale)}</td><td data-label="${text.regionColumn}">${scan.region}</td><td class="when">${when(scan.requestedAt, locale)}</td></tr>`,
    )}</tbody></table>`;
}

export interface DashboardInput {
  chrome: Chrome;
  box: UrlBox;
  latestScans: Scan[];
  usage: { used: number; limit: number | null; hasApi: boolean };
  /** Sections other features add (targets, alerts, live data), already rendered. */
  sections?: SafeHtml[];
}

export function dashboardPage(input: DashboardInput): string {
  const { chrome, usage } = input;
  const text = t(chrome.locale);
  return layout(
    text.dashboardTitle,
    html`<h1>${text.dashboardTitle}</h1>
      <section id="scan-box">${urlBox(chrome.locale, input.box)}</section>
      <section id="latest-scans"><h2>${text.latestScans}</h2>${input.latestScans.length
        ? html`${scanRows(input.latestScans, chrome.locale, false)}<p><a href="/scans">${text.allScans}</a></p>`
        : html`<p>${text.noScans}</p>`}</section>
      ${input.sections ?? []}
      <section id="api-usage"><h2>${text.apiUsage}</h2><p>${usage.hasApi
        ? text.apiUsed(usage.used, usage.limit === null ? text.unlimited : String(usage.limit))
        : text.noApi} <a href="/account/api">${text.navSettings}</a></p></section>`,
    { ...chrome, sheets: ['scan-box', 'scan-list'] },
  );
}

export interface ScanListInput {
  chrome: Chrome;
  page: Page<Scan>;
  filters: { domain?: string; status?: ScanStatus };
  errors?: FormErrors;
}

const STATUSES: ScanStatus[] = ['queued', 'running', 'finished', 'failed'];

export function scanListPage({ chrome, page, filters, errors }: ScanListInput): string {
  const text = t(chrome.locale);
  const { current_page: current, last_page: last } = page.meta;
  const link = (p: number) => {
    const query = new URLSearchParams();
    if (filters.domain) query.set('domain', filters.domain);
    if (filters.status) query.set('status', filters.status);
    query.set('page', String(p));
    return `/scans?${query}`;
  };
  return layout(
    text.scansTitle,
    html`<h1>${text.scansTitle}</h1>
      <section><form method="get" action="/scans" class="filters" id="scan-filters">
        <span><label for="filter-domain">${text.filterUrl}</label><input id="filter-domain" name="domain" type="text" maxlength="2048" value="${filters.domain ?? ''}"></span>
        <span><label for="filter-status">${text.filterStatus}</label><select id="filter-status" name="status"><option value="">${text.anyStatus}</option>${STATUSES.map(
          (s) => html`<option value="${s}" ${filters.status === s ? new SafeHtml('selected') : ''}>${statusText(s, chrome.locale)}</option>`,
        )}</select></span>
        <button type="submit">${text.filter}</button></form>${fieldError(errors, 'filters')}</section>
      <section><form method="get" action="/compare" id="compare-form">
        ${page.items.length ? scanRows(page.items, chrome.locale, true) : html`<p>${text.noScans}</p>`}
        <p class="muted">${text.compareHint}</p><button type="submit" id="compare-submit">${text.compare}</button></form>
        <nav class="pager" aria-label="${text.pageOf(current, last)}">${current > 1 ? html`<a href="${link(current - 1)}" rel="prev">${text.previous}</a>` : ''}
          <span>${text.pageOf(current, last)}</span>${current < last ? html`<a href="${link(current + 1)}" rel="next">${text.next}</a>` : ''}</nav></section>`,
    { ...chrome, sheets: ['scan-list'] },
  );
}

/** The progress page's state, also what its live endpoint sends. */
export interface ProgressState {
  status: ScanStatus;
  /** What is happening now (`desktop`, `mobile`, or a run of several), while running. */
  step: string | null;
  message: string;
  reportUrl: string;
}

export function progressState(scan: Scan, locale: Locale): ProgressState {
  const text = t(locale);
  const step = scan.status === 'running' ? scan.progress : null;
  const message =
    scan.status === 'queued' ? text.progressQueued
    : scan.status === 'running' ? (step ? stepText(step, locale) : text.progressRunning)
    : scan.status === 'finished' ? text.progressFinished
    : scanFailureView(scan.failureCode, scan.failureHttpStatus, locale).message;
  return { status: scan.status, step, message, reportUrl: `/reports/${scan.publicId}` };
}

/** `desktop`, `mobile`, or `desktop 2/3` for a run of several, in words. */
function stepText(step: string, locale: Locale): string {
  const [factor = '', run] = step.split(' ');
  const label = t(locale).progressStep[factor] ?? t(locale).progressRunning;
  return run ? `${label} ${run}` : label;
}

export function progressPage(chrome: Chrome, scan: Scan, csrf: string): string {
  const text = t(chrome.locale);
  const state = progressState(scan, chrome.locale);
  const ended = scan.status === 'finished' || scan.status === 'failed';
  const failed = scan.status === 'failed';
  const order: ScanStatus[] = ['queued', 'running', 'finished'];
  const reached = failed ? 1 : order.indexOf(scan.status);
  const head = ended ? undefined : html`<noscript><meta http-equiv="refresh" content="3"></noscript><script src="${PROGRESS_SCRIPT_PATH}" defer></script>`;
  // A failed scan stopped where it was running: that step says so, and nothing after it is reached.
  const step = (s: ScanStatus, i: number) => {
    const now = i === reached;
    const state = i < reached ? 'done' : now ? (failed ? 'failed' : 'now') : '';
    return html`<li class="${state}" data-step="${s}"${now ? new SafeHtml(' aria-current="step"') : ''}>${statusText(now && failed ? 'failed' : s, chrome.locale)}</li>`;
  };
  const title = failed ? text.failedTitle : text.progressTitle;
  return layout(
    title,
    html`
      <h1>${title}</h1>
      <section id="progress" data-scan-id="${scan.publicId}" data-status="${scan.status}" data-events="/scans/${scan.publicId}/events" aria-live="polite">
        <p><strong class="url">${scan.url}</strong> · ${scan.region}</p>
        <ol class="steps">${order.map(step)}</ol>
        <p id="progress-message" class="${scan.status === 'failed' ? 'error' : ''}">${state.message}</p>
        ${scan.status === 'finished' ? html`<p><a class="button" href="${state.reportUrl}" id="open-report">${text.openReport}</a></p>` : ''}
        ${scan.status === 'failed'
          ? html`<form method="post" action="/scans" id="retry-form"><input type="hidden" name="_csrf" value="${csrf}"><input type="hidden" name="url" value="${scan.url}">
              <input type="hidden" name="region" value="${scan.region}">${scan.isPublic ? html`<input type="hidden" name="public" value="1">` : ''}<input type="hidden" name="force" value="1">
              <button type="submit" id="retry">${text.retry}</button></form>`
          : ''}
        ${ended ? '' : html`<noscript><p class="muted">${text.progressNoScript}</p></noscript>`}
      </section>`,
    { ...chrome, head, sheets: ['scan-progress'] },
  );
}

/** Progressive enhancement of the progress page: follows the scan's events and opens the report when it is done. */
export const PROGRESS_SCRIPT = `(() => {
  const box = document.getElementById('progress');
  if (!box || !window.EventSource) return;
  const message = document.getElementById('progress-message');
  const order = ['queued', 'running', 'finished'];
  const source = new EventSource(box.dataset.events);
  source.addEventListener('progress', (event) => {
    const state = JSON.parse(event.data);
    message.textContent = state.message;
    box.dataset.status = state.status;
    const reached = state.status === 'failed' ? 1 : order.indexOf(state.status);
    box.querySelectorAll('.steps li').forEach((li, i) => {
      li.className = i < reached ? 'done' : i === reached ? 'now' : '';
      if (i === reached) li.setAttribute('aria-current', 'step'); else li.removeAttribute('aria-current');
    });
    if (state.status === 'finished') { source.close(); window.location.assign(state.reportUrl); }
    if (state.status === 'failed') { source.close(); window.location.reload(); }
  });
})();
`;

/** The script's address carries a hash of its content, so browsers may keep it for a year and still get a changed one at once. */
export const PROGRESS_SCRIPT_VERSION = createHash('sha256').update(PROGRESS_SCRIPT).digest('hex').slice(0, 12);
export const PROGRESS_SCRIPT_PATH = `/static/progress.js?v=${PROGRESS_SCRIPT_VERSION}`;

export interface CompareInput {
  chrome: Chrome;
  before: Scan;
  after: Scan;
  imageUrl: (scan: Scan, asset: string) => string;
}

type MetricKey = keyof FormFactorMetrics;
// The metrics keep Lighthouse's English names in every language, as Lighthouse's own German report does.
const METRICS: Array<{ key: MetricKey; label: (locale: Locale) => string; format: (v: number, locale: Locale) => string }> = [
  { key: 'fcp_ms', label: () => 'First Contentful Paint', format: formatMs },
  { key: 'lcp_ms', label: () => 'Largest Contentful Paint', format: formatMs },
  { key: 'cls', label: () => 'Cumulative Layout Shift', format: (v, locale) => formatNumber(v, locale, 3) },
  { key: 'tbt_ms', label: () => 'Total Blocking Time', format: formatMs },
  { key: 'request_count', label: (locale) => t(locale).requests, format: (v) => String(v) },
  { key: 'total_bytes', label: (locale) => t(locale).bytes, format: formatBytes },
];

/** A change in words and sign: for scores higher is better, for metrics lower is. */
function delta(change: number, higherIsBetter: boolean, format: (v: number) => string, locale: Locale): SafeHtml {
  const text = t(locale);
  if (change === 0) return html`<span class="same">±0</span>`;
  const good = higherIsBetter ? change > 0 : change < 0;
  return html`<span class="${good ? 'better' : 'worse'}" data-change="${good ? 'better' : 'worse'}">${change > 0 ? '+' : '−'}${format(Math.abs(change))} <span class="verdict">(${good ? text.better : text.worse})</span></span>`;
}

export function comparePage({ chrome, before, after, imageUrl }: CompareInput): string {
  const text = t(chrome.locale);
  const { locale } = chrome;
  const a = before.result!;
  const b = after.result!;
  const head = html`<thead><tr><th scope="col"><span class="visually-hidden">${text.metricsTitle}</span></th><th scope="col">${text.before}</th><th scope="col">${text.after}</th><th scope="col">${text.difference}</th></tr></thead>`;
  const scoreRows = SCORE_KEYS.map(
    (key) => html`<tr data-score="${key}"><th scope="row" class="wide">${scoreLabel(key, locale)}</th><td data-label="${text.before}">${scorePill(a.scores[key])}</td><td data-label="${text.after}">${scorePill(b.scores[key])}</td>
      <td>${delta(b.scores[key] - a.scores[key], true, String, locale)}</td></tr>`,
  );
  const metricTables = FORM_FACTORS.map(
    (factor) => html`<h3>${text.progressStep[factor]}</h3><table id="metrics-${factor}" class="compare stack">${head}
      <tbody>${METRICS.map(({ key, label, format }) => {
        const x = a.metrics[factor][key];
        const y = b.metrics[factor][key];
        return html`<tr data-metric="${key}"><th scope="row" class="wide">${label(locale)}</th><td data-label="${text.before}">${format(x, locale)}</td><td data-label="${text.after}">${format(y, locale)}</td><td>${delta(y - x, false, (v) => format(v, locale), locale)}</td></tr>`;
      })}</tbody></table>`,
  );
  const filmstrips = FORM_FACTORS.map((factor) => filmstripPair(factor, before, after, imageUrl, locale));
  const codes = (scan: Scan) => new Set(scan.result!.findings.map((f) => f.code));
  const [beforeCodes, afterCodes] = [codes(before), codes(after)];
  const listFindings = (scan: Scan, keep: (code: string) => boolean, id: string) => {
    const seen = new Set<string>();
    const found = scan.result!.findings.filter((f) => keep(f.code) && !seen.has(f.code) && seen.add(f.code)).map((f) => localiseFinding(f, locale));
    return found.length ? html`<ul id="${id}">${found.map((f) => html`<li data-code="${f.code}"><strong>${f.title}</strong>: ${f.message}</li>`)}</ul>` : html`<p id="${id}">${text.none}</p>`;
  };
  const which = (scan: Scan, label: string) =>
    html`<li><strong>${label}:</strong> <a href="/reports/${scan.publicId}" aria-label="${text.openReportOf(label)}, ${when(scan.finishedAt, locale)}">${when(scan.finishedAt, locale)}</a> · <span class="url">${scan.url}</span></li>`;
  return layout(
    text.compareTitle,
    html`
      <h1>${text.compareTitle}</h1>
      <section><h2>${text.compareScans}</h2><ul class="pair">${which(before, text.before)}${which(after, text.after)}</ul>
        <table id="compare-scores" class="compare stack">${head}<tbody>${scoreRows}</tbody></table></section>
      <section><h2>${text.metricsTitle}</h2>${metricTables}</section>
      <section><h2>${text.filmstripTitle}</h2>${filmstrips}</section>
      <section><h2>${text.appeared}</h2>${listFindings(after, (code) => !beforeCodes.has(code), 'findings-appeared')}
        <h2>${text.disappeared}</h2>${listFindings(before, (code) => !afterCodes.has(code), 'findings-disappeared')}</section>`,
    { ...chrome, sheets: ['scan-compare'] },
  );
}

/** Both scans' frames of one form factor on one time axis (the longer load sets its length); scrolls sideways on a phone. */
function filmstripPair(factor: FormFactor, before: Scan, after: Scan, imageUrl: CompareInput['imageUrl'], locale: Locale): SafeHtml {
  const text = t(locale);
  const frames = (scan: Scan) => scan.result!.filmstrip[factor];
  const end = Math.max(1, ...[before, after].flatMap((scan) => frames(scan).map((f) => f.ms)));
  const size = factor === 'desktop' ? 'width="1350" height="940"' : 'width="412" height="823"';
  const strip = (scan: Scan, label: string) => html`<p>${label}</p><div class="strip" data-factor="${factor}" data-scan-id="${scan.publicId}">${frames(scan).map(
    (frame) => html`<figure class="${frame.event ?? ''}" style="left: ${((frame.ms / end) * 92 + 4).toFixed(2)}%" data-ms="${frame.ms}"><img src="${imageUrl(scan, frame.asset)}" alt="${label}, ${formatMs(frame.ms, locale)}" ${new SafeHtml(size)} loading="lazy"><figcaption>${formatMs(frame.ms, locale)}</figcaption></figure>`,
  )}</div>`;
  const title = text.progressStep[factor] ?? factor;
  return html`<h3>${title}</h3><div class="strips" tabindex="0" role="group" aria-label="${text.stripLabel(title)}">${strip(before, text.before)}${strip(after, text.after)}</div>`;
}

