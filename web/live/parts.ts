import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { RATINGS, type Rating } from '../../core/rum/metrics.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { percent } from './format.ts';
import { LIVE_LABELS } from './labels.ts';

export const hiddenCsrf = (csrf: string) => html`<input type="hidden" name="_csrf" value="${csrf}">`;

/** A rating in words with its colour (the words carry the meaning; the colour only adds). */
export const ratingBadge = (rating: Rating, locale: Locale) =>
  html`<span class="rating rating-${rating}">${LIVE_LABELS[locale].ratings[rating]}</span>`;

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
      shares[rating] > 0
        ? html`<span class="part part-${rating}" style="width:${((shares[rating] / total) * 100).toFixed(2)}%"></span>`
        : html``,
    )}</div>
    <ul class="rating-shares">${RATINGS.map(
      (rating) =>
        html`<li class="share share-${rating}" data-rating="${rating}" data-count="${shares[rating]}"><span class="key key-${rating}" aria-hidden="true"></span>${t.shareOf(t.ratings[rating], percent(shares[rating], total, locale), formatNumber(shares[rating], locale))}</li>`,
    )}</ul></div>`;
}
