import { formatDayMonth, formatDayTime } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { ScoreThreshold } from '../../core/monitoring/thresholds.ts';
import { html, SafeHtml } from '../html.ts';
import {
  CHART_COLOURS as C,
  chartTexts,
  chronological,
  clampScore,
  describeHistory,
  pointLabel,
  runSpread,
  versionChanges,
  scoreStatus,
  type ScorePoint,
  type ScoreStatus,
} from './series.ts';

/**
 * A score-history chart as inline SVG, server-rendered, no script. The plot is drawn in a 1000 × 100 box
 * (x: time, oldest left; y: 100 − score) stretched to the width of the page at a fixed height
 * (preserveAspectRatio="none"; strokes and dots keep their size through vector-effect="non-scaling-stroke",
 * a dot being a zero-length round-capped stroke). The axis and threshold labels are HTML next to the SVG, so
 * they stay readable from 360 px to desktop width instead of shrinking with a viewBox.
 *
 * The SVG is role="group", not "img": its points are links to the scans' reports, and the children of an img
 * are hidden from assistive technology. It is named by its <title> and described by its <desc>, the trend in
 * words (also shown under the chart).
 */
export const VIEW_WIDTH = 1000;
export const VIEW_HEIGHT = 100;

/** A time step this many times longer than the usual one is drawn dashed: no scans then (a pause, an outage). */
const GAP_FACTOR = 2.5;

export interface PlottedPoint {
  x: number;
  y: number;
  score: number;
  status: ScoreStatus;
  label: string;
  href?: string;
  /** The runs' lowest and highest score as y coordinates (top < bottom), when the scan had several runs. */
  spread: { top: number; bottom: number } | null;
}

export interface ChartGeometry {
  points: PlottedPoint[];
  /** Polylines through consecutive scored points; `gap` ones span an unusually long time without scans. */
  segments: Array<{ d: string; gap: boolean }>;
  thresholds: Array<{ kind: 'warning' | 'critical'; value: number; y: number }>;
  ticks: TimeTicks;
  /** Between two points scored by different scoring versions: a mark halfway, and no line across it. */
  versionChanges: Array<{ x: number; version: number }>;
}

const round = (n: number) => Math.round(n * 100) / 100;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

export function chartGeometry(
  input: readonly ScorePoint[],
  locale: Locale,
  thresholds?: ScoreThreshold,
): ChartGeometry {
  const sorted = chronological(input);
  const t0 = sorted[0]?.at.getTime() ?? 0;
  const span = sorted.length ? sorted.at(-1)!.at.getTime() - t0 : 0;
  const xOf = (at: Date) => (span === 0 ? VIEW_WIDTH / 2 : round(((at.getTime() - t0) / span) * VIEW_WIDTH));
  const yOf = (score: number) => round(VIEW_HEIGHT - clampScore(score));

  const points: PlottedPoint[] = [];
  for (const p of sorted) {
    if (p.score === null) continue;
    const spread = runSpread(p);
    points.push({
      x: xOf(p.at),
      y: yOf(p.score),
      score: p.score,
      status: scoreStatus(p.score, thresholds),
      label: pointLabel({ ...p, score: p.score }, locale),
      href: p.href,
      spread: spread ? { top: yOf(spread.max), bottom: yOf(spread.min) } : null,
    });
  }

  // Steps between neighbours with a score; a scan without one breaks the line.
  const steps: Array<{ from: ScorePoint; to: ScorePoint }> = [];
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i - 1]!.score !== null && sorted[i]!.score !== null)
      steps.push({ from: sorted[i - 1]!, to: sorted[i]! });
  }
  const usual = steps.length ? median(steps.map((s) => s.to.at.getTime() - s.from.at.getTime())) : 0;
  const isGap = (s: (typeof steps)[number]) =>
    usual > 0 && s.to.at.getTime() - s.from.at.getTime() > GAP_FACTOR * usual;
  const changes = versionChanges(sorted);
  const changesBefore = new Set(changes.map((c) => c.after));
  const segments: ChartGeometry['segments'] = [];
  let current: string[] = [];
  let previous: ScorePoint | null = null;
  const flush = () => {
    if (current.length > 1) segments.push({ d: current.join(' '), gap: false });
    current = [];
  };
  for (const p of sorted) {
    if (p.score === null) {
      flush();
      previous = null;
      continue;
    }
    const here = `${xOf(p.at)},${yOf(p.score)}`;
    if (changesBefore.has(p)) flush();
    else if (previous && isGap({ from: previous, to: p })) {
      flush();
      segments.push({ d: `M${xOf(previous.at)},${yOf(previous.score!)} L${here}`, gap: true });
    }
    current.push(current.length ? `L${here}` : `M${here}`);
    previous = p;
  }
  flush();

  const lines: ChartGeometry['thresholds'] = thresholds
    ? [
        { kind: 'warning', value: thresholds.warning, y: yOf(thresholds.warning) },
        { kind: 'critical', value: thresholds.critical, y: yOf(thresholds.critical) },
      ]
    : [];

  return {
    points,
    segments,
    thresholds: lines,
    ticks: timeTicks(sorted, span, locale),
    versionChanges: changes.map((c) => ({
      x: round((xOf(c.before.at) + xOf(c.after.at)) / 2),
      version: c.after.scoringVersion!,
    })),
  };
}

export type TimeTicks = Array<{ x: number; label: string }>;

/** Dates under the plot: oldest, middle and newest (one when all scans share a moment; times when they share a day or two). */
export function timeTicks(sorted: ReadonlyArray<{ at: Date }>, span: number, locale: Locale): TimeTicks {
  if (!sorted.length) return [];
  const t0 = sorted[0]!.at.getTime();
  const format = span < 2 * 86_400_000 ? formatDayTime : formatDayMonth;
  if (span === 0) return [{ x: VIEW_WIDTH / 2, label: format(sorted[0]!.at, locale) }];
  const ticks = [0, 0.5, 1].map((f) => ({ x: f * VIEW_WIDTH, label: format(new Date(t0 + f * span), locale) }));
  return ticks.filter((tick, i) => i === 0 || tick.label !== ticks[i - 1]!.label);
}

/** The date labels under a chart (hidden from screen readers: the chart's description says the same). */
export const timeAxis = (ticks: TimeTicks): SafeHtml =>
  html`<div class="chart-x" aria-hidden="true">${ticks.map((tick) => html`<span class="${tick.x === 0 ? 'first' : tick.x === VIEW_WIDTH ? 'last' : ''}" style="left:${tick.x / 10}%">${tick.label}</span>`)}</div>`;

const LEGEND = {
  en: {
    score: 'Overall score',
    spread: 'Spread of the runs (lowest to highest)',
    warning: 'Warning',
    critical: 'Critical',
    gap: 'No scans in between',
    version: 'Scoring changed: scores on either side are different measures',
  },
  de: {
    score: 'Gesamtwert',
    spread: 'Streuung der Läufe (niedrigster bis höchster)',
    warning: 'Warnung',
    critical: 'Kritisch',
    gap: 'Dazwischen keine Scans',
    version: 'Bewertung geändert: die Werte beiderseits sind verschiedene Maße',
  },
} as const;

const dot = (x: number, y: number) => `M${x},${y}h0`;
const GRID = [0, 25, 50, 75, 100];
const DASH: Record<'warning' | 'critical', string> = { warning: '6 4', critical: '2 3' };

export interface ScoreHistoryOptions {
  locale: Locale;
  thresholds?: ScoreThreshold;
  /** Prefix of the ids inside the chart, unique on the page. */
  id?: string;
}

export function scoreHistoryChart(
  points: readonly ScorePoint[],
  { locale, thresholds, id = 'score-history' }: ScoreHistoryOptions,
): SafeHtml {
  const t = chartTexts(locale);
  const legend = LEGEND[locale];
  const summary = describeHistory(points, locale, thresholds);
  const g = chartGeometry(points, locale, thresholds);
  if (g.points.length === 0) {
    return html`<figure class="chart chart-empty" id="${id}"><p class="chart-none">${summary}</p></figure>`;
  }
  const hasSpread = g.points.some((p) => p.spread);
  const hasGap = g.segments.some((s) => s.gap);
  const svg = html`<svg class="chart-svg" viewBox="0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}" preserveAspectRatio="none" overflow="visible" role="group" aria-labelledby="${id}-title" aria-describedby="${id}-desc">
    <title id="${id}-title">${t.title}</title><desc id="${id}-desc">${summary}</desc>
    <g class="chart-grid" aria-hidden="true">${GRID.map((v) => html`<line x1="0" x2="${VIEW_WIDTH}" y1="${VIEW_HEIGHT - v}" y2="${VIEW_HEIGHT - v}" stroke="${C.grid}" stroke-width="1" vector-effect="non-scaling-stroke"/>`)}</g>
    <g class="chart-thresholds" aria-hidden="true">${g.thresholds.map(
      (line) =>
        html`<line class="threshold threshold-${line.kind}" data-value="${line.value}" x1="0" x2="${VIEW_WIDTH}" y1="${line.y}" y2="${line.y}" stroke="${C[line.kind]}" stroke-width="1.5" stroke-dasharray="${DASH[line.kind]}" vector-effect="non-scaling-stroke"/>`,
    )}</g>
    <g class="chart-versions" aria-hidden="true">${g.versionChanges.map(
      (change) =>
        html`<line class="version-change" data-version="${change.version}" x1="${change.x}" x2="${change.x}" y1="0" y2="${VIEW_HEIGHT}" stroke="${C.line}" stroke-width="1.5" stroke-dasharray="1 4" vector-effect="non-scaling-stroke"/>`,
    )}</g>
    <g class="chart-spread" aria-hidden="true">${g.points.map((p) =>
      p.spread
        ? html`<line class="spread" x1="${p.x}" x2="${p.x}" y1="${p.spread.top}" y2="${p.spread.bottom}" stroke="${C.spread}" stroke-width="7" stroke-linecap="round" vector-effect="non-scaling-stroke"/>`
        : html``,
    )}</g>
    <g class="chart-line" aria-hidden="true" fill="none" stroke="${C.line}" stroke-width="2.5" stroke-linejoin="round">${g.segments.map(
      (s) =>
        s.gap
          ? html`<path class="gap" d="${s.d}" stroke-dasharray="2 5" vector-effect="non-scaling-stroke"/>`
          : html`<path d="${s.d}" vector-effect="non-scaling-stroke"/>`,
    )}</g>
    <g class="chart-points">${g.points.map((p) => pointMark(p))}</g>
  </svg>`;
  return html`<figure class="chart" id="${id}">
    <div class="chart-frame">
      <div class="chart-y" aria-hidden="true">${GRID.map((v) => html`<span style="top:${VIEW_HEIGHT - v}%">${v}</span>`)}</div>
      <div class="chart-plot">${svg}${g.thresholds.map(
        (line) =>
          html`<span class="threshold-label threshold-label-${line.kind}" aria-hidden="true" style="top:${line.y}%">${legend[line.kind]} ${line.value}</span>`,
      )}${g.versionChanges.map(
        (change) =>
          html`<span class="version-label" aria-hidden="true" style="left:${change.x / 10}%">${t.versionMark(change.version)}</span>`,
      )}</div>
      ${timeAxis(g.ticks)}
    </div>
    <figcaption><ul class="chart-legend">
      <li><svg width="22" height="10" aria-hidden="true"><path d="M1,5H21" stroke="${C.line}" stroke-width="2.5"/><path d="M11,5h0" stroke="${C.line}" stroke-width="8" stroke-linecap="round"/></svg>${legend.score}</li>
      ${hasSpread ? html`<li><svg width="10" height="16" aria-hidden="true"><path d="M5,4V12" stroke="${C.spread}" stroke-width="7" stroke-linecap="round"/></svg>${legend.spread}</li>` : html``}
      ${hasGap ? html`<li><svg width="22" height="10" aria-hidden="true"><path d="M1,5H21" stroke="${C.line}" stroke-width="2.5" stroke-dasharray="2 5"/></svg>${legend.gap}</li>` : html``}
      ${g.versionChanges.length ? html`<li><svg width="10" height="16" aria-hidden="true"><path d="M5,1V15" stroke="${C.line}" stroke-width="1.5" stroke-dasharray="1 4"/></svg>${legend.version}</li>` : html``}
    </ul><p class="chart-summary">${summary}</p></figcaption>
  </figure>`;
}

/** A point: a dot in its status colour, inside a link to its report with a wide, invisible hit area. */
function pointMark(p: PlottedPoint): SafeHtml {
  const marks = new SafeHtml(
    `<path class="dot dot-${p.status}" d="${dot(p.x, p.y)}" stroke="${C[p.status]}" stroke-width="8" stroke-linecap="round" vector-effect="non-scaling-stroke"/>`,
  );
  if (!p.href)
    return html`<g class="point" data-x="${p.x}" data-y="${p.y}" data-score="${p.score}"><title>${p.label}</title>${marks}</g>`;
  return html`<a class="point" href="${p.href}" data-x="${p.x}" data-y="${p.y}" data-score="${p.score}"><title>${p.label}</title>
    <path class="hit" d="${dot(p.x, p.y)}" stroke="transparent" stroke-width="24" stroke-linecap="round" vector-effect="non-scaling-stroke"/>${marks}</a>`;
}
