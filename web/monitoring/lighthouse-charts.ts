import { formatDate } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { Budgets } from '../../core/monitoring/budgets.ts';
import type { LabHistoryItem } from '../../core/monitoring/lab-history.ts';
import {
  LIGHTHOUSE_CATEGORY_KEYS,
  lighthouseCategoryLabel,
  type LighthouseCategoryKey,
} from '../../core/scan/lighthouse-categories.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import type { ScorePoint } from '../charts/series.ts';
import { sparkline } from '../charts/sparkline.ts';
import { html, type SafeHtml } from '../html.ts';
import { scorePill } from '../layout.ts';

/**
 * The target page's history of Lighthouse's own category scores (core/scan/lighthouse-categories.ts), from the
 * target store's `labHistory`: per category and form factor the latest score, a small line of the last scans
 * (the targets list's score line, web/charts/sparkline.ts) with the target's minimum for it dashed, and the
 * trend in words. Shown once a scan of the target has them.
 */
const LABELS = {
  en: {
    heading: 'Lighthouse’s scores',
    intro:
      'Lighthouse’s own category scores of each scan’s median run, as its report shows them, over the last scans; a dashed line is the target’s minimum for it.',
    category: 'Category',
    mobile: 'Mobile',
    desktop: 'Desktop',
    none: 'no score yet',
    one: (name: string, score: number, date: string) => `${name}: ${score} from one scan on ${date}`,
    steady: (name: string, score: number, n: number) => `${name}: steady at ${score} over ${n} scans`,
    trend: (name: string, first: number, last: number, n: number, low: number, high: number) =>
      `${name}: from ${first} to ${last} over ${n} scans, lowest ${low}, highest ${high}`,
    budget: (minimum: number) => `, minimum ${minimum}`,
  },
  de: {
    heading: 'Scores von Lighthouse',
    intro:
      'Die eigenen Kategorie-Scores von Lighthouse für den mittleren Lauf jedes Scans, wie sein Bericht sie zeigt, über die letzten Scans; eine gestrichelte Linie ist der Mindestwert des Ziels.',
    category: 'Kategorie',
    mobile: 'Mobil',
    desktop: 'Desktop',
    none: 'noch kein Score',
    one: (name: string, score: number, date: string) => `${name}: ${score} aus einem Scan am ${date}`,
    steady: (name: string, score: number, n: number) => `${name}: konstant bei ${score} in ${n} Scans`,
    trend: (name: string, first: number, last: number, n: number, low: number, high: number) =>
      `${name}: von ${first} auf ${last} in ${n} Scans, niedrigster ${low}, höchster ${high}`,
    budget: (minimum: number) => `, Mindestwert ${minimum}`,
  },
} as const satisfies Record<Locale, unknown>;

const MOBILE_FIRST: FormFactor[] = ['mobile', 'desktop'];

/** One category's scores on one form factor, oldest first; a scan without them is left out. */
export function lighthouseSeries(
  items: readonly LabHistoryItem[],
  category: LighthouseCategoryKey,
  factor: FormFactor,
): Array<ScorePoint & { score: number }> {
  return items
    .map((item) => ({ at: item.finishedAt, score: item.lighthouse?.[factor]?.[category] ?? null }))
    .filter((p): p is { at: Date; score: number } => p.score !== null && !Number.isNaN(p.at.getTime()))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** A series in words: its latest, first, lowest and highest score, and the minimum when one is set. */
export function describeLighthouseSeries(
  name: string,
  points: ReadonlyArray<ScorePoint & { score: number }>,
  locale: Locale,
  minimum?: number,
): string {
  const t = LABELS[locale];
  const scores = points.map((p) => p.score);
  const budget = minimum === undefined ? '' : t.budget(minimum);
  if (scores.length === 0) return `${name}: ${t.none}`;
  if (scores.length === 1) return t.one(name, scores[0]!, formatDate(points[0]!.at, locale)) + budget;
  const [low, high] = [Math.min(...scores), Math.max(...scores)];
  return (
    (low === high
      ? t.steady(name, low, scores.length)
      : t.trend(name, scores[0]!, scores.at(-1)!, scores.length, low, high)) + budget
  );
}

export function lighthouseChartsSection(
  items: readonly LabHistoryItem[],
  locale: Locale,
  budgets: Pick<Budgets, 'lighthouse'> = {},
): SafeHtml {
  if (!items.some((item) => item.lighthouse?.mobile || item.lighthouse?.desktop)) return html``;
  const t = LABELS[locale];
  const rows = LIGHTHOUSE_CATEGORY_KEYS.map((category) => {
    const name = lighthouseCategoryLabel(category, locale);
    return html`<tr data-category="${category}"><th scope="row">${name}</th>${MOBILE_FIRST.map((factor) => {
      const points = lighthouseSeries(items, category, factor);
      const minimum = budgets.lighthouse?.[factor]?.[category];
      const words = describeLighthouseSeries(`${name} (${t[factor]})`, points, locale, minimum);
      // The minimum is drawn where the line draws a warning threshold, and a latest score under it in its colour.
      const thresholds = minimum === undefined ? undefined : { warning: minimum, critical: minimum };
      const chart = points.length ? sparkline(points, { locale, thresholds, label: words }) : html``;
      return html`<td data-form-factor="${factor}" data-latest="${points.at(-1)?.score ?? ''}">${scorePill(points.at(-1)?.score)} ${chart}<p class="hint">${words}</p></td>`;
    })}</tr>`;
  });
  return html`<section aria-labelledby="lighthouse-history-heading" id="lighthouse-history"><h2 id="lighthouse-history-heading">${t.heading}</h2><p class="hint">${t.intro}</p>
    <div class="lighthouse-scroll" tabindex="0" role="group" aria-labelledby="lighthouse-history-heading"><table class="lighthouse-history"><thead><tr><th scope="col">${t.category}</th><th scope="col">${t.mobile}</th><th scope="col">${t.desktop}</th></tr></thead>
    <tbody>${rows}</tbody></table></div></section>`;
}
