import type { Locale } from '../../core/i18n/locale.ts';
import { LIGHTHOUSE_CATEGORY_KEYS, lighthouseCategoryLabel } from '../../core/scan/lighthouse-categories.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import type { ScanResultRecord } from '../../core/scan/result.ts';
import { decide, type Decision } from '../../core/verdicts/verdict.ts';
import { html, type SafeHtml } from '../html.ts';
import { scorePill } from '../layout.ts';
import { scanText } from './labels.ts';

/**
 * The compare page's part for Lighthouse's own category scores (core/scan/lighthouse-categories.ts): per form
 * factor, each category before and after, the change judged by the score's noise band (one value a side: the
 * stored result keeps the median run's scores only). Left out when either scan was stored before scans ran
 * the four categories.
 */
const LABELS = {
  en: {
    heading: 'Lighthouse’s scores',
    note: 'Lighthouse’s own category scores of each scan’s median run, as its report shows them; the scores above are ours.',
  },
  de: {
    heading: 'Scores von Lighthouse',
    note: 'Die eigenen Kategorie-Scores von Lighthouse für den mittleren Lauf jedes Scans, wie sein Bericht sie zeigt; die Scores oben sind unsere.',
  },
} as const satisfies Record<Locale, unknown>;

const MOBILE_FIRST: FormFactor[] = ['mobile', 'desktop'];

/** How the page draws a change with its verdict (compare-page.ts's `delta`). */
export type DeltaCell = (decision: Decision, format: (v: number) => string, locale: Locale) => SafeHtml;

export function lighthouseCompareSection(
  before: Pick<ScanResultRecord, 'lighthouse'>,
  after: Pick<ScanResultRecord, 'lighthouse'>,
  locale: Locale,
  delta: DeltaCell,
): SafeHtml {
  const [a, b] = [before.lighthouse, after.lighthouse];
  if (!a || !b) return html``;
  const t = LABELS[locale];
  const text = scanText(locale);
  const head = html`<thead><tr><th scope="col"><span class="visually-hidden">${t.heading}</span></th><th scope="col">${text.before}</th><th scope="col">${text.after}</th><th scope="col">${text.difference}</th></tr></thead>`;
  const tables = MOBILE_FIRST.map(
    (factor) =>
      html`<h3>${text.progressStep[factor]}</h3><table id="compare-lighthouse-${factor}" class="compare stack">${head}<tbody>${LIGHTHOUSE_CATEGORY_KEYS.map(
        (key) => {
          const [x, y] = [a.categories[factor][key], b.categories[factor][key]];
          const change =
            x === null || y === null
              ? html`<span class="same">—</span>`
              : delta(decide('score', [x], [y]), String, locale);
          return html`<tr data-category="${key}"><th scope="row" class="wide">${lighthouseCategoryLabel(key, locale)}</th><td data-label="${text.before}">${scorePill(x)}</td><td data-label="${text.after}">${scorePill(y)}</td><td>${change}</td></tr>`;
        },
      )}</tbody></table>`,
  );
  return html`<section id="compare-lighthouse"><h2>${t.heading}</h2><p class="muted">${t.note}</p>${tables}</section>`;
}
