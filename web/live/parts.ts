import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { RATINGS, type Rating } from '../../core/rum/metrics.ts';
import { METRIC_CHART_STYLE } from '../charts/metric-history.ts';
import { html, SafeHtml } from '../html.ts';
import { MONITORING_STYLE } from '../monitoring/parts.ts';
import { percent, RATING_COLOURS as R } from './format.ts';
import { LIVE_LABELS } from './labels.ts';

export const hiddenCsrf = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** A rating in words with its colour (the words carry the meaning; the colour only adds). */
export const ratingBadge = (rating: Rating, locale: Locale) => html`<span class="rating rating-${rating}">${LIVE_LABELS[locale].ratings[rating]}</span>`;

/**
 * The share of good / needs-improvement / poor page views as one stacked bar, each part as wide as its share,
 * with the numbers written out beside it (a list, so screen readers get them without the bar).
 */
export function ratingBar(shares: Readonly<Record<Rating, number>>, locale: Locale, id: string): SafeHtml {
  const t = LIVE_LABELS[locale];
  const total = RATINGS.reduce((sum, rating) => sum + shares[rating], 0);
  if (total === 0) return html`<p class="muted rating-bar-empty" id="${id}">${t.noValue}</p>`;
  return html`<div class="rating-bar-wrap" id="${id}">
    <div class="rating-bar" aria-hidden="true">${RATINGS.map((rating) =>
      shares[rating] > 0 ? html`<span class="part part-${rating}" style="width:${((shares[rating] / total) * 100).toFixed(2)}%"></span>` : html``,
    )}</div>
    <ul class="rating-shares">${RATINGS.map(
      (rating) => html`<li class="share share-${rating}" data-rating="${rating}" data-count="${shares[rating]}"><span class="key key-${rating}" aria-hidden="true"></span>${t.shareOf(t.ratings[rating], percent(shares[rating], total, locale), formatNumber(shares[rating], locale))}</li>`,
    )}</ul></div>`;
}

/** The live-data pages' stylesheet: the monitoring pages' (buttons, details, charts) and their own. */
export const LIVE_STYLE = new SafeHtml(`${MONITORING_STYLE.value}<style>${METRIC_CHART_STYLE.value}
  .rating { font-weight: 700; } .rating-good { color: ${R.good.text}; } .rating-needs-improvement { color: ${R['needs-improvement'].text}; } .rating-poor { color: ${R.poor.text}; }
  .rating-bar { display: flex; height: .9rem; border-radius: 4px; overflow: hidden; background: #eaeef2; }
  .rating-bar .part { display: block; height: 100%; }
  .part-good, .key-good { background: ${R.good.fill}; } .part-needs-improvement, .key-needs-improvement { background: ${R['needs-improvement'].fill}; } .part-poor, .key-poor { background: ${R.poor.fill}; }
  .rating-bar .part + .part { border-left: 2px solid #fff; }
  .rating-shares { list-style: none; display: flex; flex-wrap: wrap; gap: .1rem 1rem; padding: 0; margin: .35rem 0 0; font-size: .85rem; }
  .rating-shares li { display: flex; align-items: center; gap: .35rem; }
  .key { display: inline-block; width: .75rem; height: .75rem; border-radius: 2px; }
  .snippet { width: 100%; font: .85rem/1.4 ui-monospace, monospace; padding: .5rem; border: 1px solid #8c959f; border-radius: 6px; background: #f6f8fa; resize: vertical; }
  .snippet-row { margin-bottom: .75rem; } .snippet-row .copy { margin: .35rem 0 0; } .snippet-row .copy[hidden] { display: none; }
  .snippet-row label { margin-top: 0; }
  .site { padding: 1rem 0; border-top: 1px solid #eaeef2; } .site:first-child { border-top: 0; padding-top: 0; }
  .site h3 { margin: 0 0 .15rem; } .site-meta { margin: 0 0 .5rem; color: ${'#57606a'}; font-size: .9rem; }
  .metric-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(8.5rem, 1fr)); gap: .75rem; list-style: none; padding: 0; margin: 0; }
  .metric-card { min-width: 0; overflow-wrap: anywhere; hyphens: auto; border: 1px solid #d0d7de; border-top-width: 4px; border-radius: 6px; padding: .6rem .75rem; }
  .metric-card.card-good { border-top-color: ${R.good.fill}; } .metric-card.card-needs-improvement { border-top-color: ${R['needs-improvement'].fill}; } .metric-card.card-poor { border-top-color: ${R.poor.fill}; }
  .metric-card h3 { margin: 0; font-size: 1rem; } .metric-card .name { display: block; font-size: .8rem; color: #57606a; font-weight: 400; }
  .metric-card .value { display: block; font-size: 1.6rem; font-weight: 700; line-height: 1.2; margin: .25rem 0 .1rem; }
  .metric-card p { margin: 0; font-size: .85rem; } .metric-card .rule { color: #57606a; }
  .verdict { display: inline-block; font-size: 1.15rem; font-weight: 700; padding: .15rem .6rem; border-radius: 6px; border: 2px solid; }
  .verdict-pass { color: ${R.good.text}; border-color: ${R.good.fill}; } .verdict-fail { color: ${R.poor.text}; border-color: ${R.poor.fill}; } .verdict-none { color: #57606a; border-color: #8c959f; }
  .filter-links { display: flex; flex-wrap: wrap; gap: .35rem; list-style: none; padding: 0; margin: .25rem 0 .5rem; }
  .filter-links a { display: inline-block; padding: .3rem .7rem; border: 1px solid #d0d7de; border-radius: 999px; text-decoration: none; font-size: .9rem; }
  .filter-links a[aria-current=true] { background: #0b3d91; border-color: #0b3d91; color: #fff; font-weight: 600; }
  .filter-group { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0 .75rem; } .filter-group h3 { margin: 0; font-size: .95rem; min-width: 4.5rem; }
  .shares-list { list-style: none; padding: 0; margin: 0; } .shares-list > li { padding: .5rem 0; border-top: 1px solid #eaeef2; } .shares-list > li:first-child { border-top: 0; }
  .shares-list h3 { margin: 0 0 .3rem; font-size: .95rem; }
  .charts { display: grid; grid-template-columns: minmax(0, 1fr); gap: 1rem 1.5rem; }
  @media (min-width: 56rem) { .charts { grid-template-columns: repeat(2, minmax(0, 1fr)); } }
  .charts h3 { margin: 0 0 .25rem; font-size: 1rem; }
  td.num, th.num { text-align: right; white-space: nowrap; }
  td.attribution code { overflow-wrap: anywhere; font-size: .85rem; }
  .usage-bar { height: .6rem; border-radius: 4px; background: #eaeef2; overflow: hidden; max-width: 28rem; margin: .35rem 0; }
  .usage-bar span { display: block; height: 100%; background: #0b3d91; }
  .steps { margin: .25rem 0 .75rem; }
  @media (max-width: 40rem) { table.stack td.num { text-align: left; } }
</style>`);
