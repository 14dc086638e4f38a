import { localiseFinding } from '../../core/i18n/findings.ts';
import { formatBytes, formatMs, formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import { notApplicableCategories, type ScanResultRecord } from '../../core/scan/result.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { SCORE_KEYS, type ScoreCategory, type ScoreKey, scoreLabel } from '../../core/scoring/categories.ts';
import { html, SafeHtml } from '../html.ts';
import { layout, scorePill, type Chrome } from '../layout.ts';
import { ALPHA, type Decision } from '../../core/verdicts/verdict.ts';
import {
  compareVerdicts,
  judgedChange,
  medianValue,
  type MetricField,
  type VerdictResult,
} from '../../core/scan/compare.ts';
import { notApplicableText, scanText, verdictText } from './labels.ts';
import { when } from './scan-table.ts';

export interface CompareInput {
  chrome: Chrome;
  before: Scan;
  after: Scan;
  imageUrl: (scan: Scan, asset: string) => string;
  /** The account's latest finished scans of the compared address, oldest first; empty when the addresses differ. */
  history?: readonly VerdictResult[];
}

// The metrics keep Lighthouse's English names in every language, as Lighthouse's own German report does.
export const METRICS: Array<{
  key: MetricField;
  label: (locale: Locale) => string;
  format: (v: number, locale: Locale) => string;
}> = [
  { key: 'fcp_ms', label: () => 'First Contentful Paint', format: formatMs },
  { key: 'lcp_ms', label: () => 'Largest Contentful Paint', format: formatMs },
  { key: 'cls', label: () => 'Cumulative Layout Shift', format: (v, locale) => formatNumber(v, locale, 3) },
  { key: 'tbt_ms', label: () => 'Total Blocking Time', format: formatMs },
  { key: 'si_ms', label: () => 'Speed Index', format: formatMs },
  { key: 'request_count', label: (locale) => scanText(locale).requests, format: (v) => String(v) },
  { key: 'total_bytes', label: (locale) => scanText(locale).bytes, format: formatBytes },
];

/** TTFB's row: measured once per scan (the desktop median run's page facts), under Lighthouse's English name too. */
export const TTFB_LABEL = 'Time to First Byte';

// A shape beside the word, so the verdict does not rest on colour alone.
const SHAPES: Record<Decision['verdict'], string> = { better: '✓', worse: '✗', no_significant_change: '≈' };

export const signed = (value: number, format: (v: number) => string): string =>
  value === 0 ? '±0' : `${value > 0 ? '+' : '−'}${format(Math.abs(value))}`;

/** Which rule decided, with its numbers. */
function ruleText(decision: Decision, format: (v: number) => string, locale: Locale): string {
  const words = verdictText(locale);
  if (decision.rule === 'noise_band')
    return decision.source.kind === 'history'
      ? words.bandLearned(format(decision.band), decision.source.scans)
      : words.bandDefault(format(decision.band));
  const p = decision.p < 0.001 ? `p < ${formatNumber(0.001, locale, 3)}` : `p = ${formatNumber(decision.p, locale, 3)}`;
  const underFloor = decision.p <= ALPHA && Math.abs(decision.shift) < decision.floor;
  return `${words.rankTest(p, signed(decision.shift, format), words.runs(decision.before.n, decision.after.n))}${underFloor ? words.underFloor(format(decision.floor)) : ''}`;
}

/**
 * The change the verdict judged (core/scan/compare.ts `judgedChange`: the rank test's shift or the noise band's
 * difference, so the sign shown is the verdict's) with the verdict in words and shape and the rule that decided
 * (the flow compare page's and the report's comparison with the previous scan too).
 */
export function delta(decision: Decision, format: (v: number) => string, locale: Locale): SafeHtml {
  const { verdict } = decision;
  const change = judgedChange(decision);
  const kind = verdict === 'no_significant_change' ? 'same' : verdict;
  return html`<span class="${kind}" data-change="${verdict}">${signed(change, format)} <span class="verdict"><span aria-hidden="true">${SHAPES[verdict]}</span> ${verdictText(locale).verdict[verdict]}</span></span> <small class="muted rule" data-rule="${decision.rule}">${ruleText(decision, format, locale)}</small>`;
}

export function comparePage({ chrome, before, after, imageUrl, history = [] }: CompareInput): string {
  const text = scanText(chrome.locale);
  const { locale } = chrome;
  const a = before.result!;
  const b = after.result!;
  const verdicts = compareVerdicts(a, b, SCORE_KEYS, history);
  const head = html`<thead><tr><th scope="col"><span class="visually-hidden">${text.metricsTitle}</span></th><th scope="col">${text.before}</th><th scope="col">${text.after}</th><th scope="col">${text.difference}</th></tr></thead>`;
  // A category with nothing to judge (WordPress: "not detected") reads so, and has no difference.
  const missing = (key: ScoreKey, scan: ScanResultRecord): key is ScoreCategory =>
    key !== 'overall' && notApplicableCategories(scan).includes(key);
  const cell = (key: ScoreKey, scan: ScanResultRecord) =>
    missing(key, scan)
      ? html`<span class="muted">${notApplicableText(key, locale)}</span>`
      : scorePill(scan.scores[key]);
  const scoreRows = SCORE_KEYS.map(
    (
      key,
    ) => html`<tr data-score="${key}"><th scope="row" class="wide">${scoreLabel(key, locale)}</th><td data-label="${text.before}">${cell(key, a)}</td><td data-label="${text.after}">${cell(key, b)}</td>
      <td>${missing(key, a) || missing(key, b) ? html`<span class="same">—</span>` : delta(verdicts.get(`score:${key}`)!, String, locale)}</td></tr>`,
  );
  const metricTables = FORM_FACTORS.map(
    (factor) => html`<h3>${text.progressStep[factor]}</h3><table id="metrics-${factor}" class="compare stack">${head}
      <tbody>${METRICS.map(({ key, label, format }) => {
        const x = medianValue(a, factor, key);
        const y = medianValue(b, factor, key);
        const decision = verdicts.get(`${factor}:${key}`);
        if (x === null || y === null || !decision) return '';
        return html`<tr data-metric="${key}"><th scope="row" class="wide">${label(locale)}</th><td data-label="${text.before}">${format(x, locale)}</td><td data-label="${text.after}">${format(y, locale)}</td><td>${delta(decision, (v) => format(v, locale), locale)}</td></tr>`;
      })}</tbody></table>`,
  );
  // TTFB is measured once per scan (the desktop median run's page facts), so it has a table of its own.
  const ttfb = verdicts.get('page:ttfb_ms');
  const pageTable = ttfb
    ? html`<h3>${text.compareWholePage}</h3><table id="metrics-page" class="compare stack">${head}<tbody><tr data-metric="ttfb_ms"><th scope="row" class="wide">${TTFB_LABEL}</th><td data-label="${text.before}">${formatMs(a.ttfbMs, locale)}</td><td data-label="${text.after}">${formatMs(b.ttfbMs, locale)}</td><td>${delta(ttfb, (v) => formatMs(v, locale), locale)}</td></tr></tbody></table>`
    : '';
  const filmstrips = FORM_FACTORS.map((factor) => filmstripPair(factor, before, after, imageUrl, locale));
  const codes = (scan: Scan) => new Set(scan.result!.findings.map((f) => f.code));
  const [beforeCodes, afterCodes] = [codes(before), codes(after)];
  const listFindings = (scan: Scan, keep: (code: string) => boolean, id: string) => {
    const seen = new Set<string>();
    const found = scan
      .result!.findings.filter((f) => keep(f.code) && !seen.has(f.code) && seen.add(f.code))
      .map((f) => localiseFinding(f, locale));
    return found.length
      ? html`<ul id="${id}">${found.map((f) => html`<li data-code="${f.code}"><strong>${f.title}</strong>: ${f.message}</li>`)}</ul>`
      : html`<p id="${id}">${text.none}</p>`;
  };
  const which = (scan: Scan, label: string) =>
    html`<li><strong>${label}:</strong> <a href="/reports/${scan.publicId}" aria-label="${text.openReportOf(label)}, ${when(scan.finishedAt, locale)}">${when(scan.finishedAt, locale)}</a> · <span class="url">${scan.url}</span></li>`;
  return layout(
    text.compareTitle,
    html`
      <h1>${text.compareTitle}</h1>
      <section><h2>${text.compareScans}</h2><ul class="pair">${which(before, text.before)}${which(after, text.after)}</ul>
        ${a.scoringVersion !== b.scoringVersion ? html`<p class="notice" id="scoring-version-changed" role="note">${text.otherScoringVersion(a.scoringVersion, b.scoringVersion)}</p>` : ''}
        <p class="muted" id="verdict-rules">${verdictText(locale).rulesNote}</p>
        <table id="compare-scores" class="compare stack">${head}<tbody>${scoreRows}</tbody></table></section>
      <section><h2>${text.metricsTitle}</h2>${metricTables}${pageTable}</section>
      <section><h2>${text.filmstripTitle}</h2>${filmstrips}</section>
      <section><h2>${text.appeared}</h2>${listFindings(after, (code) => !beforeCodes.has(code), 'findings-appeared')}
        <h2>${text.disappeared}</h2>${listFindings(before, (code) => !afterCodes.has(code), 'findings-disappeared')}</section>`,
    { ...chrome, sheets: ['scan-compare'] },
  );
}

/** Both scans' frames of one form factor on one time axis (the longer load sets its length); scrolls sideways on a phone. */
function filmstripPair(
  factor: FormFactor,
  before: Scan,
  after: Scan,
  imageUrl: CompareInput['imageUrl'],
  locale: Locale,
): SafeHtml {
  const text = scanText(locale);
  const frames = (scan: Scan) => scan.result!.filmstrip[factor];
  const end = Math.max(1, ...[before, after].flatMap((scan) => frames(scan).map((f) => f.ms)));
  const size = factor === 'desktop' ? 'width="1350" height="940"' : 'width="412" height="823"';
  const strip = (scan: Scan, label: string) =>
    html`<p>${label}</p><div class="strip" data-factor="${factor}" data-scan-id="${scan.publicId}">${frames(scan).map(
      (frame) =>
        html`<figure class="${frame.event ?? ''}" style="left: ${((frame.ms / end) * 92 + 4).toFixed(2)}%" data-ms="${frame.ms}"><img src="${imageUrl(scan, frame.asset)}" alt="${label}, ${formatMs(frame.ms, locale)}" ${new SafeHtml(size)} loading="lazy"><figcaption>${formatMs(frame.ms, locale)}</figcaption></figure>`,
    )}</div>`;
  const title = text.progressStep[factor] ?? factor;
  return html`<h3>${title}</h3><div class="strips" tabindex="0" role="group" aria-label="${text.stripLabel(title)}">${strip(before, text.before)}${strip(after, text.after)}</div>`;
}
