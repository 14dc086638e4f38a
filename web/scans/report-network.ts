import { formatBytes, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { type ByteBreakdown, DETAIL_LIMITS } from '../../core/scan/details.ts';
import { FORM_FACTORS } from '../../core/scan/observation.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { html, type SafeHtml } from '../html.ts';
import { type GlanceText, glanceText } from './labels.ts';
import { shortUrl, waterfall } from './report-waterfall.ts';
import { waterfallText } from './waterfall-labels.ts';

/**
 * The report's requests section, server-rendered without scripts: per form factor, the request waterfall
 * (report-waterfall.ts) and the JavaScript and image bytes, script by script and image by image, largest first.
 */

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
  const phased = FORM_FACTORS.some((f) => network[f].requests.some((r) => r.phases));
  return html`<section id="network" class="network"><h2>${t.network}</h2><p class="note">${t.networkNote(DETAIL_LIMITS.waterfall)}${
    phased ? html` ${waterfallText(locale).phasesNote}` : html``
  }</p>${FORM_FACTORS.map((f) => {
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
  })}</section>`;
}
