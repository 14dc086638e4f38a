import { type Box, type Diagnostics, type FindingItem } from '../../core/scan/details.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import type { Finding } from '../../core/scoring/types.ts';
import { html, type SafeHtml } from '../html.ts';
import { itemNotes } from './report-item-notes.ts';

/**
 * The report's actionable parts: what each finding points at (its items and Lighthouse's estimated savings)
 * and the diagnostics section (the LCP element and its phases, layout shifts, render-blocking requests,
 * third parties, main-thread work), each form factor in turn.
 */
const LABELS = {
  en: {
    desktop: 'Desktop',
    mobile: 'Mobile',
    seenOn: 'Seen on',
    measured: 'Measured',
    savings: 'Estimated savings',
    wasted: 'could be saved',
    transfer: 'transferred',
    mainThread: 'main thread',
    mainThreadHeading: 'Main thread',
    diagnostics: 'What slows the page',
    lcp: 'Largest Contentful Paint element',
    noLcp: 'Lighthouse named no LCP element.',
    phase: 'Phase',
    duration: 'Duration',
    ttfb: 'Time to first byte',
    loadDelay: 'Load delay',
    loadTime: 'Load time',
    renderDelay: 'Render delay',
    shifts: 'Elements that shifted',
    causedBy: 'caused by',
    element: 'Element',
    score: 'Shift score',
    share: 'Share of CLS',
    noShifts: 'No layout shifts.',
    blocking: 'Render-blocking requests',
    url: 'URL',
    size: 'Size',
    delay: 'Delay',
    noBlocking: 'No render-blocking requests.',
    thirdParties: 'Third parties',
    entity: 'Entity',
    unknownEntity: 'not a known third party',
    noThirdParties: 'No third-party requests.',
    work: 'Main-thread work',
    category: 'Category',
    time: 'Time',
    boxNote: 'The outlined box marks the LCP element on the screenshot (when it is within the first screen).',
    phasesNote: 'Phases of the real, unthrottled load; the LCP metric above is simulated.',
  },
  de: {
    desktop: 'Desktop',
    mobile: 'Mobil',
    seenOn: 'Gesehen auf',
    measured: 'Gemessen',
    savings: 'Geschätzte Einsparung',
    wasted: 'einsparbar',
    transfer: 'übertragen',
    mainThread: 'Hauptthread',
    mainThreadHeading: 'Hauptthread',
    diagnostics: 'Was die Seite bremst',
    lcp: 'Element des Largest Contentful Paint',
    noLcp: 'Lighthouse hat kein LCP-Element genannt.',
    phase: 'Phase',
    duration: 'Dauer',
    ttfb: 'Zeit bis zum ersten Byte',
    loadDelay: 'Ladeverzögerung',
    loadTime: 'Ladezeit',
    renderDelay: 'Renderverzögerung',
    shifts: 'Verschobene Elemente',
    causedBy: 'verursacht durch',
    element: 'Element',
    score: 'Verschiebungswert',
    share: 'Anteil am CLS',
    noShifts: 'Keine Layoutverschiebungen.',
    blocking: 'Render-blockierende Anfragen',
    url: 'URL',
    size: 'Größe',
    delay: 'Verzögerung',
    noBlocking: 'Keine render-blockierenden Anfragen.',
    thirdParties: 'Drittanbieter',
    entity: 'Anbieter',
    unknownEntity: 'kein bekannter Drittanbieter',
    noThirdParties: 'Keine Anfragen an Drittanbieter.',
    work: 'Arbeit im Hauptthread',
    category: 'Kategorie',
    time: 'Zeit',
    boxNote: 'Der umrandete Bereich markiert das LCP-Element im Screenshot (wenn es im ersten Bildschirm liegt).',
    phasesNote: 'Phasen des echten, ungedrosselten Ladens; der LCP-Messwert oben ist simuliert.',
  },
} as const;

/** The viewports Lighthouse emulates (its desktop config and default phone): the screenshots' CSS pixel size. */
export const VIEWPORT = { desktop: { width: 1350, height: 940 }, mobile: { width: 412, height: 823 } } as const;

type Labels = (typeof LABELS)[Locale];

function itemLine(item: FindingItem, t: Labels, locale: Locale): SafeHtml {
  const numbers = [
    item.wasted_bytes !== undefined ? `${formatBytes(item.wasted_bytes, locale)} ${t.wasted}` : null,
    item.wasted_ms !== undefined && item.wasted_ms > 0 ? formatMs(item.wasted_ms, locale) : null,
    item.transfer_bytes !== undefined ? `${formatBytes(item.transfer_bytes, locale)} ${t.transfer}` : null,
    item.main_thread_ms !== undefined ? `${formatMs(item.main_thread_ms, locale)} ${t.mainThread}` : null,
  ].filter((n): n is string => n !== null);
  const notes = itemNotes(item, locale);
  return html`<li>${item.url ? html`<code class="item-url">${item.url}</code>` : html``}${item.selector ? html` <code class="item-selector">${item.selector}</code>` : html``}${
    item.snippet && !item.url ? html`<br><code class="item-snippet">${item.snippet}</code>` : html``
  }${notes.length ? html` <span class="item-notes">(${notes.join('; ')})</span>` : html``}${numbers.length ? html` — ${numbers.join(', ')}` : html``}</li>`;
}

/** Where a finding was seen, its values and savings per form factor, and its items. */
export function findingEvidence(finding: Finding, locale: Locale, formatValue: (value: number) => string): SafeHtml {
  const t = LABELS[locale];
  const factors = finding.form_factors ?? [];
  const values = finding.values;
  const savings = FORM_FACTORS.flatMap((f) => {
    const s = finding.savings?.[f];
    if (!s || (!s.ms && !s.bytes)) return [];
    return [
      `${t[f]}: ${[s.ms ? formatMs(s.ms, locale) : null, s.bytes ? formatBytes(s.bytes, locale) : null].filter(Boolean).join(', ')}`,
    ];
  });
  return html`${
    factors.length
      ? html`<p class="seen-on">${t.seenOn}: ${factors.map((f) => t[f]).join(', ')}${
          values
            ? html` · ${t.measured}: ${FORM_FACTORS.filter((f) => values[f] !== undefined)
                .map((f) => `${t[f]} ${formatValue(values[f]!)}`)
                .join(', ')}`
            : html``
        }</p>`
      : html``
  }${savings.length ? html`<p class="savings">${t.savings}: ${savings.join(' · ')}</p>` : html``}${
    finding.items?.length
      ? html`<ul class="items">${finding.items.map((item) => itemLine(item, t, locale))}</ul>`
      : html``
  }`;
}

const pct = (part: number, whole: number) => `${Math.max(0, Math.min(100, (part / whole) * 100)).toFixed(2)}%`;

/** The box drawn over the screenshot, in percent of the viewport; nothing when it lies below the first screen. */
function boxOverlay(box: Box | null, factor: FormFactor): SafeHtml {
  const view = VIEWPORT[factor];
  if (!box || box.top >= view.height || box.left >= view.width) return html``;
  const height = Math.min(box.height, view.height - box.top);
  const width = Math.min(box.width, view.width - box.left);
  return html`<span class="lcp-box" id="lcp-box-${factor}" style="left:${pct(box.left, view.width)};top:${pct(box.top, view.height)};width:${pct(width, view.width)};height:${pct(height, view.height)}"></span>`;
}

function lcpPart(
  d: Diagnostics,
  factor: FormFactor,
  screenshotUrl: string | null,
  t: Labels,
  locale: Locale,
): SafeHtml {
  const { element, phases } = d.lcp;
  const rows: Array<[string, number | null]> = phases
    ? [
        [t.ttfb, phases.ttfb_ms],
        [t.loadDelay, phases.load_delay_ms],
        [t.loadTime, phases.load_time_ms],
        [t.renderDelay, phases.render_delay_ms],
      ]
    : [];
  return html`<h4>${t.lcp}</h4>${element ? html`<p><code class="lcp-selector">${element.selector}</code><br><code>${element.snippet}</code></p>` : html`<p>${t.noLcp}</p>`}${
    element && screenshotUrl
      ? html`<figure class="lcp-shot"><img src="${screenshotUrl}" alt="${t[factor]}: ${element.label || element.selector}" width="${VIEWPORT[factor].width}" height="${VIEWPORT[factor].height}">${boxOverlay(element.box, factor)}</figure><p class="note">${t.boxNote}</p>`
      : html``
  }${
    rows.length
      ? html`<div class="table-wrap"><table class="lcp-phases"><thead><tr><th>${t.phase}</th><th class="num">${t.duration}</th></tr></thead><tbody>${rows
          .filter(([, ms]) => ms !== null)
          .map(
            ([label, ms]) => html`<tr><td>${label}</td><td class="num">${formatMs(ms!, locale)}</td></tr>`,
          )}</tbody></table></div><p class="note">${t.phasesNote}</p>`
      : html``
  }`;
}

function table(head: SafeHtml, rows: SafeHtml[], empty: string, id: string): SafeHtml {
  return rows.length
    ? html`<div class="table-wrap"><table id="${id}"><thead>${head}</thead><tbody>${rows}</tbody></table></div>`
    : html`<p id="${id}">${empty}</p>`;
}

export function diagnosticsSection(r: ScanResultRecord, locale: Locale, imageUrl: (name: string) => string): SafeHtml {
  if (!r.diagnostics) return html``;
  const t = LABELS[locale];
  const diagnostics = r.diagnostics;
  return html`<section id="diagnostics" class="diag"><h2>${t.diagnostics}</h2>${FORM_FACTORS.map((f) => {
    const d = diagnostics[f];
    const shot = r.screenshots[f];
    return html`<h3>${t[f]}</h3><div id="diagnostics-${f}">${lcpPart(d, f, shot ? imageUrl(shot) : null, t, locale)}
      <h4>${t.shifts}</h4>${table(
        html`<tr><th>${t.element}</th><th class="num">${t.score}</th><th class="num">${t.share}</th></tr>`,
        d.layout_shifts.map(
          (s) =>
            html`<tr><td><code>${s.element.selector}</code>${s.culprits?.length ? html`<br>${t.causedBy}: ${s.culprits.map((c) => html`<code>${c.element?.selector ?? c.url ?? ''}</code> (${itemNotes({ cause: c.cause }, locale).join('')})`)}` : s.causes.length ? html`<br>${s.causes.join('; ')}` : html``}</td><td class="num">${formatNumber(s.score, locale, 3)}</td><td class="num">${formatNumber(s.share * 100, locale)} %</td></tr>`,
        ),
        t.noShifts,
        `shifts-${f}`,
      )}
      <h4>${t.blocking}</h4>${table(
        html`<tr><th>${t.url}</th><th class="num">${t.size}</th><th class="num">${t.delay}</th></tr>`,
        d.render_blocking.map(
          (b) =>
            html`<tr><td><code>${b.url}</code></td><td class="num">${formatBytes(b.transfer_bytes, locale)}</td><td class="num">${formatMs(b.wasted_ms, locale)}</td></tr>`,
        ),
        t.noBlocking,
        `blocking-${f}`,
      )}
      <h4>${t.thirdParties}</h4>${table(
        html`<tr><th>${t.entity}</th><th class="num">${t.size}</th><th class="num">${t.mainThreadHeading}</th></tr>`,
        d.third_parties.map(
          (p) =>
            html`<tr><td>${p.entity}${p.recognized ? html`` : html` <span class="note">(${t.unknownEntity})</span>`}</td><td class="num">${formatBytes(p.transfer_bytes, locale)}</td><td class="num">${formatMs(p.main_thread_ms, locale)}</td></tr>`,
        ),
        t.noThirdParties,
        `third-parties-${f}`,
      )}
      <h4>${t.work}</h4>${table(
        html`<tr><th>${t.category}</th><th class="num">${t.time}</th></tr>`,
        d.main_thread.map((w) => html`<tr><td>${w.label}</td><td class="num">${formatMs(w.ms, locale)}</td></tr>`),
        '—',
        `main-thread-${f}`,
      )}</div>`;
  })}</section>`;
}
