import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { type ByteBreakdown, DETAIL_LIMITS, type NetworkBreakdown } from '../../core/scan/details.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { html, type SafeHtml } from '../html.ts';
import { type GlanceText, glanceText } from './labels.ts';

/**
 * The report's requests section, server-rendered without scripts: per form factor, a waterfall of the requests
 * Lighthouse recorded (a table whose rows carry the start, duration and size as text and a bar drawn with CSS)
 * and the JavaScript and image bytes, script by script and image by image, largest first.
 */

/** Characters of a URL shown in a row; the whole URL is the title. */
const SHOWN_URL = 60;

/** A URL as a row shows it: the path (and query) on the page's own origin, else host and path; long ones cut in the middle. */
export function shortUrl(url: string, pageUrl: string): string {
  let shown = url;
  try {
    const parsed = new URL(url);
    const page = new URL(pageUrl);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:')
      shown =
        parsed.origin === page.origin
          ? `${parsed.pathname}${parsed.search}`
          : `${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    // not a URL we can parse: shown as it is
  }
  const chars = [...shown];
  return chars.length <= SHOWN_URL
    ? shown
    : `${chars.slice(0, SHOWN_URL - 20).join('')}…${chars.slice(chars.length - 19).join('')}`;
}

/** Position and width of a request's bar in percent of the time axis (at least a sliver, so short requests show). */
export function barGeometry(startMs: number, endMs: number, axisMs: number): { left: number; width: number } {
  const axis = Math.max(1, axisMs);
  const left = Math.min(100, Math.max(0, (startMs / axis) * 100));
  const width = Math.min(100 - left, Math.max(0.3, ((endMs - startMs) / axis) * 100));
  return { left: Math.round(left * 100) / 100, width: Math.round(width * 100) / 100 };
}

const TYPE_CLASSES = new Set(['document', 'stylesheet', 'script', 'image', 'font', 'fetch', 'xhr', 'media']);
const typeClass = (type: string) => {
  const lower = type.toLowerCase();
  return TYPE_CLASSES.has(lower) ? `wf-${lower === 'xhr' ? 'fetch' : lower}` : 'wf-other';
};

function waterfall(n: NetworkBreakdown, factor: FormFactor, pageUrl: string, t: GlanceText, locale: Locale): SafeHtml {
  const axis = Math.max(1, ...n.requests.map((r) => r.end_ms));
  const end = formatMs(axis, locale);
  const bytes = n.requests.reduce((sum, r) => sum + r.transfer_bytes, 0);
  const summary = t.networkSummary(
    n.request_count,
    formatNumber(n.request_count, locale),
    formatBytes(bytes, locale),
    end,
  );
  const rows = n.requests.map((r, i) => {
    const bar = barGeometry(r.start_ms, r.end_ms, axis);
    return html`<tr><td class="num">${i + 1}</td><td class="wf-url"><span title="${r.url}">${shortUrl(r.url, pageUrl)}</span>${
      r.status >= 400 || r.status === 0 ? html` <span class="wf-status">(${r.status || t.noResponse})</span>` : html``
    }</td><td>${t.types[r.type] ?? r.type}</td><td class="num">${formatBytes(r.transfer_bytes, locale)}</td><td class="num">${formatMs(r.start_ms, locale)}</td><td class="num">${formatMs(r.end_ms - r.start_ms, locale)}</td><td class="wf-bar"><span class="wf-track" aria-hidden="true"><span class="wf-req ${typeClass(r.type)}" style="margin-left:${bar.left}%;width:${bar.width}%"></span></span></td></tr>`;
  });
  return html`<p class="wf-summary">${summary}${
    n.request_count > n.requests.length
      ? html` <strong>${t.networkCapped(n.requests.length, n.request_count)}</strong>`
      : html``
  }</p><div class="table-wrap" tabindex="0" role="region" aria-label="${t.waterfall(t.factors[factor])}"><table class="waterfall" id="waterfall-${factor}"><thead><tr><th scope="col" class="num">${t.number}</th><th scope="col">${t.url}</th><th scope="col">${t.type}</th><th scope="col" class="num">${t.size}</th><th scope="col" class="num">${t.start}</th><th scope="col" class="num">${t.duration}</th><th scope="col" class="wf-bar">${t.timeline(end)}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

function bytesTable(
  b: ByteBreakdown,
  kind: 'scripts' | 'images',
  id: string,
  pageUrl: string,
  t: GlanceText,
  locale: Locale,
): SafeHtml {
  const heading = t[kind](b.count, formatNumber(b.count, locale), formatBytes(b.transfer_bytes, locale));
  if (b.items.length === 0)
    return html`<h4>${heading}</h4><p id="${id}">${kind === 'scripts' ? t.noScripts : t.noImages}</p>`;
  const withUnused = kind === 'scripts' && b.items.some((i) => i.unused_bytes !== undefined);
  const rows = b.items.map((item) => {
    const share = b.transfer_bytes > 0 ? (item.transfer_bytes / b.transfer_bytes) * 100 : 0;
    return html`<tr><td class="wf-url"><span title="${item.url}">${shortUrl(item.url, pageUrl)}</span></td><td class="num">${formatBytes(item.transfer_bytes, locale)}</td><td class="num">${formatBytes(item.resource_bytes, locale)}</td>${
      withUnused
        ? html`<td class="num">${item.unused_bytes === undefined ? '—' : formatBytes(item.unused_bytes, locale)}</td>`
        : html``
    }<td class="num share">${formatNumber(share, locale)} %<span class="share-track" aria-hidden="true"><span class="share-bar" style="width:${Math.round(share * 10) / 10}%"></span></span></td></tr>`;
  });
  const more = b.count > b.items.length ? ` (${t.largest(b.items.length)})` : '';
  return html`<h4>${heading}${more}</h4><div class="table-wrap" tabindex="0" role="region" aria-label="${t.bytesList(heading)}"><table class="bytes" id="${id}"><thead><tr><th scope="col">${t.url}</th><th scope="col" class="num">${t.size}</th><th scope="col" class="num">${t.decoded}</th>${
    withUnused ? html`<th scope="col" class="num">${t.unused}</th>` : html``
  }<th scope="col" class="num">${t.share}</th></tr></thead><tbody>${rows}</tbody></table></div>`;
}

/** The requests section; nothing for results stored before scans kept their requests. */
export function networkSection(r: ScanResultRecord, locale: Locale): SafeHtml {
  if (!r.network) return html``;
  const network = r.network;
  const t = glanceText(locale);
  return html`<section id="network" class="network"><h2>${t.network}</h2><p class="note">${t.networkNote(DETAIL_LIMITS.waterfall)}</p>${FORM_FACTORS.map(
    (f) => {
      const n = network[f];
      return html`<h3>${t.factors[f]}</h3><div id="network-${f}">${waterfall(n, f, r.finalUrl, t, locale)}
      ${bytesTable(n.scripts, 'scripts', `scripts-${f}`, r.finalUrl, t, locale)}${bytesTable(
        n.images,
        'images',
        `images-${f}`,
        r.finalUrl,
        t,
        locale,
      )}</div>`;
    },
  )}</section>`;
}
