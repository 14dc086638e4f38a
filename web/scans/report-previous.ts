import { formatDateTime } from '../../core/i18n/dates.ts';
import { formatMs, type Locale } from '../../core/i18n/locale.ts';
import { changeSentence } from '../../core/i18n/scan-changes.ts';
import { scanCompareUrl, scanReportUrl, scanShareUrl } from '../../core/links.ts';
import type { RowKey } from '../../core/scan/compare.ts';
import { FORM_FACTORS } from '../../core/scan/form-factor.ts';
import type { MetricChange } from '../../core/scan/previous.ts';
import { scoreLabel } from '../../core/scoring/categories.ts';
import type { PreviousScanEntry } from '../../db/store/scans.ts';
import type { ComparisonViewer, ScanComparison } from '../../services/scan-comparison.ts';
import { html, type SafeHtml } from '../html.ts';
import { delta, METRICS, TTFB_LABEL } from './compare-page.ts';
import { scanText, verdictText } from './labels.ts';

/**
 * The top of a finished scan's report: how it compares with the previous scan of the page
 * (services/scan-comparison.ts), in one sentence and a table of the overall score, each form factor's timing
 * metrics and TTFB, each change with the compare page's verdict and the rule that decided; the rest (category
 * scores, requests, bytes, filmstrips, findings) is on the full comparison the owner's part links to.
 */

const LABELS = {
  en: {
    title: 'Compared with the previous scan',
    previous: 'The previous scan',
    compare: 'The full comparison',
    metric: 'Metric',
    formFactor: { desktop: 'Desktop', mobile: 'Mobile' },
  },
  de: {
    title: 'Im Vergleich mit dem vorigen Scan',
    previous: 'Der vorige Scan',
    compare: 'Der vollständige Vergleich',
    metric: 'Messwert',
    formFactor: { desktop: 'Desktop', mobile: 'Mobil' },
  },
} as const;

export interface PreviousPart {
  comparison: ScanComparison;
  /** This scan: its id for the comparison's link, its scoring version (a different one on the previous scan is said). */
  scan: { publicId: string; scoringVersion: number };
  viewer: ComparisonViewer;
  locale: Locale;
}

/**
 * The previous scan's report as the viewer may open it (the owner's report, a public report, the share page),
 * and the full comparison, which only the owner can open (the compare page is the owner's).
 */
export function previousLinks(
  viewer: ComparisonViewer,
  scanId: string,
  previous: Pick<PreviousScanEntry, 'publicId' | 'shareToken'>,
): { previous: string; compare: string | null } {
  // The web area's own paths: the links' builders with no base URL.
  if (viewer === 'share') return { previous: scanShareUrl('', previous.shareToken ?? ''), compare: null };
  return {
    previous: scanReportUrl('', previous.publicId),
    compare: viewer === 'owner' ? scanCompareUrl('', previous.publicId, scanId) : null,
  };
}

/** A change as a cell: both reported values, then the compare page's delta with its verdict and rule. */
function changeCell(change: MetricChange | undefined, format: (v: number) => string, locale: Locale): SafeHtml {
  if (!change) return html`<span class="muted">—</span>`;
  return html`<span class="values">${format(change.before)} → ${format(change.after)}</span> ${delta(change.decision, format, locale)}`;
}

export function previousSection({ comparison, scan, viewer, locale }: PreviousPart): SafeHtml {
  const t = LABELS[locale];
  const { previous, changes } = comparison;
  const links = previousLinks(viewer, scan.publicId, previous);
  const find = (key: RowKey) => changes.find((c) => c.key === key);
  const whole = (key: RowKey, label: string, format: (v: number) => string) => {
    const change = find(key);
    return change
      ? html`<tr data-row="${key}"><th scope="row" class="wide">${label}</th><td colspan="2">${changeCell(change, format, locale)}</td></tr>`
      : html``;
  };
  const perFormFactor = METRICS.filter(({ key }) => key !== 'request_count' && key !== 'total_bytes').map(
    ({ key, label, format }) => {
      const cells = FORM_FACTORS.map((factor) => find(`${factor}:${key}`));
      if (cells.every((c) => !c)) return html``;
      return html`<tr data-metric="${key}"><th scope="row" class="wide">${label(locale)}</th>${FORM_FACTORS.map(
        (factor, i) =>
          html`<td data-label="${t.formFactor[factor]}">${changeCell(cells[i], (v) => format(v, locale), locale)}</td>`,
      )}</tr>`;
    },
  );
  const when = formatDateTime(previous.finishedAt, locale);
  return html`<section id="previous" class="previous" aria-labelledby="previous-heading"><h2 id="previous-heading">${t.title}</h2>
    <p id="previous-summary">${changeSentence(changes, locale)}</p>
    <p id="previous-links">${t.previous}: <a id="previous-report" href="${links.previous}"><time datetime="${previous.finishedAt.toISOString()}">${when}</time></a>${
      links.compare ? html` · <a id="previous-compare" href="${links.compare}">${t.compare}</a>` : html``
    }</p>
    ${previous.result.scoringVersion !== scan.scoringVersion ? html`<p class="notice" id="previous-scoring-version" role="note">${scanText(locale).otherScoringVersion(previous.result.scoringVersion, scan.scoringVersion)}</p>` : html``}
    <table id="previous-changes" class="compare stack"><thead><tr><th scope="col">${t.metric}</th>${FORM_FACTORS.map((factor) => html`<th scope="col">${t.formFactor[factor]}</th>`)}</tr></thead>
      <tbody>${whole('score:overall', scoreLabel('overall', locale), String)}${perFormFactor}${whole('page:ttfb_ms', TTFB_LABEL, (v) => formatMs(v, locale))}</tbody></table>
    <p class="note">${verdictText(locale).rulesNote}</p></section>`;
}
