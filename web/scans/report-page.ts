import { formatDateTime } from '../../core/i18n/dates.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { scanFailureView } from '../../core/i18n/failures.ts';
import { summarise } from '../../core/i18n/summaries.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import { SCORE_KEYS, scoreLabel } from '../../core/scoring/categories.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, type Chrome } from '../layout.ts';
import { glanceText, notApplicableText } from './labels.ts';
import { notApplicableCategories } from '../../core/scan/result.ts';
import { diagnosticsSection, VIEWPORT } from './report-details.ts';
import { findingsSection, fixFirstSection } from './report-findings.ts';
import { fieldSection } from './report-field.ts';
import type { FieldData } from '../../services/field-data.ts';
import { networkSection } from './report-network.ts';
import { ratedMetricRows } from './report-ratings.ts';
import { spreadSection } from './report-spread.ts';
import { lighthouseSection, type LighthouseLinks } from './report-lighthouse.ts';
import { lighthouseAuditsSection, lighthouseScoresPart } from './report-categories.ts';

const LABELS = {
  en: {
    report: 'Performance report',
    metrics: 'Metrics',
    metric: 'Metric',
    desktop: 'Desktop',
    mobile: 'Mobile',
    screenshots: 'Screenshots',
    filmstrip: 'Filmstrip',
    inProgress: 'This scan is still running; this page refreshes by itself.',
    failed: 'This scan failed.',
    scanned: 'Scanned',
    finalUrl: 'Final URL',
    status: 'HTTP status',
    requests: 'Requests',
    bytes: 'Transfer size',
    metricsNote: "Lighthouse's values with its simulated throttling (mobile: a mid-range phone on a slow 4G network).",
    filmstripNote:
      'Frames of the real, unthrottled page load; FCP and LCP mark when they happened in it, so they come earlier than the simulated metrics above.',
    signedInImages:
      'This scan signed in to the page: its credentials are redacted from the text of this report, but not from the screenshots and filmstrip frames, which show the page as a signed-in visitor saw it.',
  },
  de: {
    report: 'Performance-Bericht',
    metrics: 'Messwerte',
    metric: 'Messwert',
    desktop: 'Desktop',
    mobile: 'Mobil',
    screenshots: 'Screenshots',
    filmstrip: 'Filmstreifen',
    inProgress: 'Dieser Scan läuft noch; die Seite aktualisiert sich von selbst.',
    failed: 'Dieser Scan ist fehlgeschlagen.',
    scanned: 'Gescannt',
    finalUrl: 'Endgültige URL',
    status: 'HTTP-Status',
    requests: 'Anfragen',
    bytes: 'Übertragene Daten',
    metricsNote:
      'Werte von Lighthouse mit simulierter Drosselung (mobil: ein Mittelklasse-Smartphone in einem langsamen 4G-Netz).',
    filmstripNote:
      'Bilder des echten, ungedrosselten Seitenaufbaus; FCP und LCP markieren, wann sie dort eintraten, daher früher als in den simulierten Messwerten oben.',
    signedInImages:
      'Dieser Scan hat sich auf der Seite angemeldet: Seine Zugangsdaten sind aus dem Text dieses Berichts entfernt, aber nicht aus den Screenshots und Filmstreifen-Bildern, die die Seite so zeigen, wie ein angemeldeter Besucher sie sah.',
  },
} as const;

const scoreClass = (score: number) => (score >= 90 ? 'good' : score >= 50 ? 'average' : 'poor');

export interface ReportInput {
  scan: Scan;
  chrome: Chrome;
  imageUrl: (name: string) => string;
  /** The owner's live data for the page (web/scans/report-field.ts); absent on share pages and for other viewers. */
  field?: FieldData;
  /** The owner's parts under the heading of an ended scan (scan again, share); none on share pages. */
  ownerParts?: SafeHtml;
  /** Lighthouse's own report of the scan (web/scans/report-lighthouse.ts); left out, the part is not shown. */
  lighthouse?: LighthouseLinks;
  /** The comparison with the previous scan (web/scans/report-previous.ts), at the top; left out when there is none to show. */
  previous?: SafeHtml;
}

export function reportPage({ scan, chrome, imageUrl, field, ownerParts, lighthouse, previous }: ReportInput): string {
  const locale: Locale = chrome.locale;
  const t = LABELS[locale];
  const header = html`<h1>${t.report}</h1><p><strong class="url">${scan.url}</strong> · ${scan.region}${scan.finishedAt ? html` · ${t.scanned} <time datetime="${scan.finishedAt.toISOString()}">${formatDateTime(scan.finishedAt, locale)}</time>` : html``}</p>`;
  if (scan.status === 'queued' || scan.status === 'running') {
    return layout(t.report, html`${header}<section id="in-progress"><p>${t.inProgress}</p></section>`, {
      ...chrome,
      head: new SafeHtml('<meta http-equiv="refresh" content="5">'),
    });
  }
  if (scan.status === 'failed' || !scan.result) {
    const failure = scanFailureView(scan.failureCode, scan.failureHttpStatus, locale);
    return layout(
      t.report,
      html`${header}${ownerParts ?? ''}<section id="failed"><p class="error">${t.failed}</p><p><code>${failure.code}</code>: ${failure.message}</p></section>`,
      chrome,
    );
  }
  const r = scan.result;
  const summary = summarise(r.scores, r.findings, locale);
  const notApplicable = notApplicableCategories(r);
  const scores = SCORE_KEYS.map((key) => {
    // A category with nothing to judge says so in words (WordPress: "not detected"); the API keeps its 100.
    if (key !== 'overall' && notApplicable.includes(key))
      return html`<div class="score not-detected" data-score="${key}"><b aria-hidden="true">–</b>${scoreLabel(key, locale)}: ${notApplicableText(key, locale)}</div>`;
    return html`<div class="score ${scoreClass(r.scores[key])}" data-score="${key}"><b>${r.scores[key]}</b>${scoreLabel(key, locale)}</div>`;
  });
  const metricRows: Array<[string, (f: 'desktop' | 'mobile') => string]> = [
    [t.requests, (f) => formatNumber(r.metrics[f].request_count, locale)],
    [t.bytes, (f) => formatBytes(r.metrics[f].total_bytes, locale)],
  ];
  const body = html`${header}${previous ?? ''}${ownerParts ?? ''}
    <section><div class="scores" id="scores">${scores}</div>${lighthouseScoresPart(r.lighthouse, locale)}<p id="summary">${summary.long}</p>
      <p>${t.finalUrl}: <span class="url">${r.finalUrl}</span> · ${t.status}: ${r.httpStatus} · TTFB: ${formatMs(r.ttfbMs, locale)}</p></section>
    ${fixFirstSection(r, locale)}
    <section><h2>${t.metrics}</h2><table id="metrics"><thead><tr><th>${t.metric}</th><th>${t.desktop}</th><th>${t.mobile}</th></tr></thead>
      <tbody>${ratedMetricRows(r.metrics, locale)}${metricRows.map(([label, value]) => html`<tr><td>${label}</td><td>${value('desktop')}</td><td>${value('mobile')}</td></tr>`)}</tbody></table>
      <p class="note">${t.metricsNote} ${glanceText(locale).ratingNote}</p></section>
    ${spreadSection(r, locale)}
    ${fieldSection(field, r.metrics, locale)}
    ${lighthouseSection(lighthouse, locale)}
    <section><h2>${t.screenshots}</h2>${scan.authType ? html`<p class="note" id="signed-in-images">${t.signedInImages}</p>` : html``}<div class="shots">${FORM_FACTORS.map(
      (f) =>
        r.screenshots[f]
          ? html`<figure><img id="screenshot-${f}" src="${imageUrl(r.screenshots[f]!)}" alt="${t[f]}" width="${VIEWPORT[f].width}" height="${VIEWPORT[f].height}"><figcaption>${t[f]}</figcaption></figure>`
          : html``,
    )}</div></section>
    <section><h2>${t.filmstrip}</h2><p class="note">${t.filmstripNote}</p>${FORM_FACTORS.map(
      (f) =>
        html`<h3>${t[f]}</h3><div class="filmstrip" id="filmstrip-${f}">${r.filmstrip[f].map(
          (frame) =>
            html`<div class="frame ${frame.event ?? ''}"><img src="${imageUrl(frame.asset)}" alt="${t[f]}, ${frame.ms} ms" width="${VIEWPORT[f].width}" height="${VIEWPORT[f].height}"><div>${frame.ms} ms</div>${frame.event ? html`<div class="marker">${frame.event.toUpperCase()}</div>` : html``}</div>`,
        )}</div>`,
    )}</section>
    ${diagnosticsSection(r, locale, imageUrl)}
    ${networkSection(r, locale)}
    ${findingsSection(r, locale)}
    ${lighthouseAuditsSection(r.lighthouse, locale)}`;
  return layout(t.report, body, { ...chrome, sheets: previous ? ['report', 'scan-compare'] : ['report'] });
}
