import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { type NetworkBreakdown, REQUEST_PHASES, type WaterfallRequest } from '../../core/scan/details.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import { html, type SafeHtml } from '../html.ts';
import type { GlanceText } from './labels.ts';
import { WATERFALL_FILTERS, type WaterfallFilter, type WaterfallText, waterfallText } from './waterfall-labels.ts';

/**
 * One form factor's request waterfall, server-rendered without scripts: a chart of the requests' bars split into
 * their phases (DNS, connect, TLS, waiting, download), drawn with CSS, with FCP and LCP as vertical lines; under
 * it a table with the same data as text (priority, initiator, render-blocking and third-party marks, start,
 * phases, duration), which is what assistive technology reads. A filter by type and mark narrows both: a radio
 * group whose checked value hides the other rows through CSS :has() (web/assets/site/10-waterfall.css), so it
 * needs no script and no reload; a browser without :has() shows every request.
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

const TYPE_GROUPS = WATERFALL_FILTERS.filter((f) => f !== 'blocking' && f !== 'third-party');

/** The filter group of a resource type: the kinds of WATERFALL_FILTERS, XHR with Fetch, anything unnamed as other. */
export function typeGroup(type: string): WaterfallFilter {
  const lower = type.toLowerCase();
  if (lower === 'xhr') return 'fetch';
  return (TYPE_GROUPS as readonly string[]).includes(lower) ? (lower as WaterfallFilter) : 'other';
}
/** The filters a request passes besides "all": its type's group and its marks. */
export function filtersOf(r: WaterfallRequest): WaterfallFilter[] {
  return [
    typeGroup(r.type),
    ...(r.render_blocking ? ['blocking' as const] : []),
    ...(r.third_party ? ['third-party' as const] : []),
  ];
}

/** A time as a percentage of the axis, for CSS. */
const percent = (ms: number, axisMs: number) => Math.round(Math.min(100, Math.max(0, (ms / axisMs) * 100)) * 100) / 100;

/** Where a request is in the chart and the table: its filters as data attributes, so a chosen filter hides the rest (CSS :has). */
const rowData = (r: WaterfallRequest) =>
  html` data-type="${typeGroup(r.type)}"${r.render_blocking ? html` data-blocking` : html``}${r.third_party ? html` data-third-party` : html``}`;

/** A request's bar: its phases as flex parts (the download in its type's colour), or one part without phases. */
function bar(r: WaterfallRequest, axisMs: number): SafeHtml {
  const geometry = barGeometry(r.start_ms, r.end_ms, axisMs);
  const group = typeGroup(r.type);
  const parts = r.phases
    ? REQUEST_PHASES.map((phase, i) => {
        const ms = r.phases![i];
        return ms ? html`<span class="wf-ph wf-ph-${phase}" style="flex-grow:${ms}"></span>` : html``;
      })
    : html``;
  const queued = r.queued_ms
    ? html`<span class="wf-queued" style="left:${percent(r.start_ms - r.queued_ms, axisMs)}%;width:${percent(r.queued_ms, axisMs)}%"></span>`
    : html``;
  return html`${queued}<span class="wf-req wf-${group}${r.phases ? ' wf-phased' : ''}" style="margin-left:${geometry.left}%;width:${geometry.width}%">${parts}</span>`;
}

/**
 * The chart: one row per request, its name and its bar on a time axis with FCP and LCP as vertical lines (CSS
 * custom properties the lanes draw). It repeats the table under it, so assistive technology reads the table.
 */
function chart(n: NetworkBreakdown, pageUrl: string, axisMs: number, w: WaterfallText, locale: Locale): SafeHtml {
  const marks = [
    { key: 'fcp', ms: n.markers?.fcp_ms ?? null, label: w.fcpLine },
    { key: 'lcp', ms: n.markers?.lcp_ms ?? null, label: w.lcpLine },
  ].filter((m): m is { key: string; ms: number; label: string } => m.ms !== null && m.ms >= 0);
  const vars = marks.map((m) => `--${m.key}:${percent(m.ms, axisMs)}%`).join(';');
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (f) => html`<span class="wf-tick" style="left:${f * 100}%">${formatMs(Math.round(axisMs * f), locale)}</span>`,
  );
  const lines = marks.map(
    (m) =>
      html`<span class="wf-mark wf-mark-${m.key}${percent(m.ms, axisMs) > 50 ? ' wf-mark-left' : ''}" style="left:${percent(m.ms, axisMs)}%">${m.label} ${formatMs(m.ms, locale)}</span>`,
  );
  const rows = n.requests.map(
    (r) =>
      html`<li class="wf-row"${rowData(r)}><span class="wf-name">${
        r.render_blocking ? html`<b class="wf-flag wf-flag-blocking">⊘</b>` : html``
      }${r.third_party ? html`<b class="wf-flag wf-flag-third">3P</b>` : html``}${shortUrl(r.url, pageUrl)}</span><span class="wf-lane">${bar(r, axisMs)}</span></li>`,
  );
  return html`<div class="wf-chart" aria-hidden="true"${vars ? html` style="${vars}"` : html``}><div class="wf-row wf-axis"><span class="wf-name"></span><span class="wf-lane">${ticks}${lines}</span></div><ol class="wf-rows">${rows}</ol></div>`;
}

function legend(n: NetworkBreakdown, w: WaterfallText): SafeHtml {
  const phased = n.requests.some((r) => r.phases);
  const item = (swatch: string, label: string) =>
    html`<li><span class="wf-swatch ${swatch}" aria-hidden="true"></span>${label}</li>`;
  const groups = TYPE_GROUPS.filter((group) => n.requests.some((r) => typeGroup(r.type) === group));
  return html`<ul class="wf-legend" aria-label="${w.legend}">${groups.map((group) => item(`wf-type wf-${group}`, w.filters[group]))}${
    phased ? REQUEST_PHASES.map((phase) => item(`wf-ph-${phase}`, w.phases[phase])) : html``
  }${n.requests.some((r) => r.queued_ms) ? item('wf-swatch-queued', w.queuedLegend) : html``}${
    n.markers?.fcp_ms != null ? item('wf-swatch-fcp', w.fcpLine) : html``
  }${n.markers?.lcp_ms != null ? item('wf-swatch-lcp', w.lcpLine) : html``}${
    n.requests.some((r) => r.render_blocking)
      ? html`<li><b class="wf-flag wf-flag-blocking" aria-hidden="true">⊘</b>${w.blockingMark}</li>`
      : html``
  }${
    n.requests.some((r) => r.third_party)
      ? html`<li><b class="wf-flag wf-flag-third" aria-hidden="true">3P</b>${w.thirdPartyMark}</li>`
      : html``
  }</ul>`;
}

/** The filters: a radio group whose checked value hides the other requests of chart and table, without scripts. */
function filters(n: NetworkBreakdown, factor: FormFactor, w: WaterfallText, locale: Locale): SafeHtml {
  const counts = new Map<WaterfallFilter, number>();
  for (const r of n.requests) for (const f of filtersOf(r)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const choice = (value: string, label: string, checked = false) => {
    const id = `wf-filter-${factor}-${value}`;
    return html`<span class="wf-choice"><input type="radio" name="wf-filter-${factor}" id="${id}" value="${value}"${
      checked ? html` checked` : html``
    }><label for="${id}">${label}</label></span>`;
  };
  return html`<fieldset class="wf-filter"><legend>${w.show}</legend>${choice('all', w.all(formatNumber(n.requests.length, locale)), true)}${WATERFALL_FILTERS.filter(
    (f) => counts.has(f),
  ).map((f) => choice(f, w.filterCount(w.filters[f], formatNumber(counts.get(f)!, locale))))}</fieldset>`;
}

/** A phase's cell: its length, or "none" for a phase that did not happen. */
function phaseCell(ms: number | null | undefined, w: WaterfallText, locale: Locale): SafeHtml {
  if (ms === undefined) return html`<td class="num"></td>`;
  return ms === null
    ? html`<td class="num wf-none">${w.none}</td>`
    : html`<td class="num">${formatMs(ms, locale)}</td>`;
}

/** The table under the chart: every request with its numbers as text, in the same order and under the same filters. */
function table(
  n: NetworkBreakdown,
  factor: FormFactor,
  pageUrl: string,
  t: GlanceText,
  w: WaterfallText,
  locale: Locale,
): SafeHtml {
  const phased = n.requests.some((r) => r.phases);
  const withPriority = n.requests.some((r) => r.priority);
  const withInitiator = n.requests.some((r) => r.initiator);
  const withQueued = n.requests.some((r) => r.queued_ms);
  const rows = n.requests.map((r, i) => {
    const initiator = r.initiator
      ? html`${w.initiators[r.initiator.kind]}${
          r.initiator.url
            ? html`: <span title="${r.initiator.url}">${shortUrl(r.initiator.url, pageUrl)}</span>`
            : html``
        }`
      : html``;
    return html`<tr${rowData(r)}><td class="num">${i + 1}</td><td class="wf-url"><span title="${r.url}">${shortUrl(r.url, pageUrl)}</span>${
      r.status >= 400 || r.status === 0 ? html` <span class="wf-status">(${r.status || t.noResponse})</span>` : html``
    }${r.render_blocking ? html` <span class="wf-tag">${w.renderBlocking}</span>` : html``}${
      r.third_party ? html` <span class="wf-tag">${w.thirdParty(r.third_party)}</span>` : html``
    }</td><td>${t.types[r.type] ?? r.type}</td>${withPriority ? html`<td>${r.priority ? w.priorities[r.priority] : ''}</td>` : html``}${
      withInitiator ? html`<td class="wf-initiator">${initiator}</td>` : html``
    }<td class="num">${formatBytes(r.transfer_bytes, locale)}</td><td class="num">${formatMs(r.start_ms, locale)}</td>${
      withQueued ? html`<td class="num">${r.queued_ms ? formatMs(r.queued_ms, locale) : ''}</td>` : html``
    }${phased ? REQUEST_PHASES.map((_, p) => phaseCell(r.phases?.[p], w, locale)) : html``}<td class="num">${formatMs(r.end_ms - r.start_ms, locale)}</td></tr>`;
  });
  const heads = [
    html`<th scope="col" class="num">${t.number}</th>`,
    html`<th scope="col">${t.url}</th>`,
    html`<th scope="col">${t.type}</th>`,
    withPriority ? html`<th scope="col">${w.priority}</th>` : html``,
    withInitiator ? html`<th scope="col">${w.initiator}</th>` : html``,
    html`<th scope="col" class="num">${t.size}</th>`,
    html`<th scope="col" class="num">${t.start}</th>`,
    withQueued ? html`<th scope="col" class="num">${w.queued}</th>` : html``,
    phased ? REQUEST_PHASES.map((phase) => html`<th scope="col" class="num">${w.phases[phase]}</th>`) : html``,
    html`<th scope="col" class="num">${t.duration}</th>`,
  ];
  return html`<div class="table-wrap" tabindex="0" role="region" aria-label="${t.waterfall(t.factors[factor])}"><table class="waterfall" id="waterfall-${factor}"><thead><tr>${heads}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function waterfall(
  n: NetworkBreakdown,
  factor: FormFactor,
  pageUrl: string,
  t: GlanceText,
  locale: Locale,
): SafeHtml {
  const w = waterfallText(locale);
  const markers = [n.markers?.fcp_ms ?? null, n.markers?.lcp_ms ?? null].filter((m): m is number => m !== null);
  const axis = Math.max(1, ...n.requests.map((r) => r.end_ms), ...markers);
  const bytes = n.requests.reduce((sum, r) => sum + r.transfer_bytes, 0);
  const summary = t.networkSummary(
    n.request_count,
    formatNumber(n.request_count, locale),
    formatBytes(bytes, locale),
    formatMs(Math.max(1, ...n.requests.map((r) => r.end_ms)), locale),
  );
  const moments = w.moments(
    n.markers?.fcp_ms == null ? null : formatMs(n.markers.fcp_ms, locale),
    n.markers?.lcp_ms == null ? null : formatMs(n.markers.lcp_ms, locale),
  );
  return html`<p class="wf-summary">${summary}${
    n.request_count > n.requests.length
      ? html` <strong>${t.networkCapped(n.requests.length, n.request_count)}</strong>`
      : html``
  }</p>${moments ? html`<p class="note wf-moments">${moments}</p>` : html``}<div class="wf-view">${filters(n, factor, w, locale)}${chart(
    n,
    pageUrl,
    axis,
    w,
    locale,
  )}${legend(n, w)}${table(n, factor, pageUrl, t, w, locale)}</div>`;
}
