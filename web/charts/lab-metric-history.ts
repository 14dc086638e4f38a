import { formatDate, formatDateTime } from '../../core/i18n/dates.ts';
import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import type { LabHistoryItem, LabMetric } from '../../core/monitoring/lab-history.ts';
import { METRIC_THRESHOLDS, rateValue, type MetricThreshold, type Rating } from '../../core/metric-thresholds.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import { html, type SafeHtml } from '../html.ts';
import { RATING_COLOURS } from '../live/format.ts';
import { niceCeiling } from './metric-history.ts';
import { timeAxis, timeTicks, VIEW_HEIGHT, VIEW_WIDTH, type TimeTicks } from './score-history.ts';
import { CHART_COLOURS as C } from './series.ts';

/**
 * One lab metric of a monitored target over its scans, for one form factor, as inline SVG drawn like the
 * score history (web/charts/score-history.ts: a 1000 × 100 plot stretched to the page's width, HTML axis
 * labels, points linking to the reports): the median run's value of each scan as the line, the lowest to
 * highest value of its runs as a whisker, the metric's good and poor ranges as bands behind (as the live-data
 * charts, web/charts/metric-history.ts), and an optional budget as a dashed line. Lighthouse changes how it
 * computes the metrics between major versions, so the line is not drawn across such a change, which is
 * marked (as the score chart marks a scoring-version change). The y axis starts at 0 and reaches a round
 * value above the poor threshold, the highest run and the budget.
 */
export interface LabPoint {
  scanId: string;
  at: Date;
  /** The median run's value (the report's); null when the scan has none (a break in the line). */
  value: number | null;
  /** The runs' lowest and highest value, when the scan ran more than once. */
  spread: { min: number; max: number; count: number } | null;
  /** Lighthouse's major version that measured it, when known. */
  lighthouseMajor: number | null;
}

/** What the chart draws: a target's lab metrics, and INP, which a user flow's timespan steps measure. */
export type ChartLabMetric = LabMetric | 'inp_ms';

const THRESHOLDS: Record<ChartLabMetric, MetricThreshold> = {
  inp_ms: METRIC_THRESHOLDS.INP,
  lcp_ms: METRIC_THRESHOLDS.LCP,
  cls: METRIC_THRESHOLDS.CLS,
  tbt_ms: METRIC_THRESHOLDS.TBT,
  fcp_ms: METRIC_THRESHOLDS.FCP,
  ttfb_ms: METRIC_THRESHOLDS.TTFB,
};

export const LAB_METRIC_NAMES: Record<ChartLabMetric, string> = {
  inp_ms: 'INP',
  lcp_ms: 'LCP',
  cls: 'CLS',
  tbt_ms: 'TBT',
  fcp_ms: 'FCP',
  ttfb_ms: 'TTFB',
};

/** The series of one metric and form factor from a target's lab history (any order in, oldest first out). TTFB has no runs. */
export function labSeries(items: readonly LabHistoryItem[], metric: LabMetric, factor: FormFactor): LabPoint[] {
  return [...items]
    .filter((item) => !Number.isNaN(item.finishedAt.getTime()))
    .sort((a, b) => a.finishedAt.getTime() - b.finishedAt.getTime())
    .map((item) => {
      const major = Number.parseInt(item.lighthouseVersion ?? '', 10);
      const base = { scanId: item.scanId, at: item.finishedAt, lighthouseMajor: Number.isNaN(major) ? null : major };
      if (metric === 'ttfb_ms') return { ...base, value: item.ttfbMs, spread: null };
      const runs = item.runs[factor].map((run) => run[metric]).filter((v) => Number.isFinite(v));
      return {
        ...base,
        value: item.metrics[factor]?.[metric] ?? null,
        spread: runs.length > 1 ? { min: Math.min(...runs), max: Math.max(...runs), count: runs.length } : null,
      };
    });
}

/** A value in the metric's unit: whole milliseconds, CLS to three decimals. */
export function labValue(metric: ChartLabMetric, value: number, locale: Locale): string {
  return metric === 'cls' ? formatNumber(value, locale, 3) : `${formatNumber(value, locale)} ms`;
}

/** An axis label: seconds once a value reaches one, so the labels stay short. */
function axisValue(metric: ChartLabMetric, value: number, locale: Locale): string {
  if (metric === 'cls') return formatNumber(value, locale, 2);
  return value >= 1000 ? `${formatNumber(value / 1000, locale, 2)} s` : `${formatNumber(value, locale)} ms`;
}

export interface LabPlotted {
  x: number;
  y: number;
  point: LabPoint & { value: number };
  rating: Rating;
  /** The whisker's ends as y coordinates (top < bottom). */
  whisker: { top: number; bottom: number } | null;
}

export interface LabChartGeometry {
  top: number;
  points: LabPlotted[];
  /** Polylines through consecutive points with a value and the same Lighthouse major version. */
  segments: string[];
  bands: Record<Rating, { y: number; height: number }>;
  grid: Array<{ value: number; y: number }>;
  ticks: TimeTicks;
  /** Halfway between two points measured by different Lighthouse major versions. */
  versionChanges: Array<{ x: number; version: number }>;
  budget: { value: number; y: number } | null;
}

const round = (n: number) => Math.round(n * 100) / 100;

export function labChartGeometry(
  metric: ChartLabMetric,
  series: readonly LabPoint[],
  locale: Locale,
  budget?: number,
): LabChartGeometry {
  const sorted = [...series].sort((a, b) => a.at.getTime() - b.at.getTime());
  const valued = sorted.filter((p): p is LabPoint & { value: number } => p.value !== null && Number.isFinite(p.value));
  const threshold = THRESHOLDS[metric];
  const highest = valued.flatMap((p) => [p.value, p.spread?.max ?? p.value]);
  const top = niceCeiling(
    Math.max(threshold.poor * 1.2, ...highest.map((v) => v * 1.05), budget !== undefined ? budget * 1.05 : 0),
  );
  const t0 = sorted[0]?.at.getTime() ?? 0;
  const span = sorted.length ? sorted.at(-1)!.at.getTime() - t0 : 0;
  const xOf = (at: Date) => (span === 0 ? VIEW_WIDTH / 2 : round(((at.getTime() - t0) / span) * VIEW_WIDTH));
  const yOf = (value: number) => round(VIEW_HEIGHT - (Math.min(Math.max(value, 0), top) / top) * VIEW_HEIGHT);

  const points = valued.map((p) => ({
    x: xOf(p.at),
    y: yOf(p.value),
    point: p,
    rating: rateValue(threshold, p.value),
    whisker: p.spread ? { top: yOf(p.spread.max), bottom: yOf(p.spread.min) } : null,
  }));

  const segments: string[] = [];
  const versionChanges: LabChartGeometry['versionChanges'] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length > 1) segments.push(current.join(' '));
    current = [];
  };
  let previous: LabPoint | null = null;
  for (const p of sorted) {
    if (p.value === null || !Number.isFinite(p.value)) {
      flush();
      continue;
    }
    if (
      previous &&
      previous.lighthouseMajor !== null &&
      p.lighthouseMajor !== null &&
      previous.lighthouseMajor !== p.lighthouseMajor
    ) {
      flush();
      versionChanges.push({ x: round((xOf(previous.at) + xOf(p.at)) / 2), version: p.lighthouseMajor });
    }
    const here = `${xOf(p.at)},${yOf(p.value)}`;
    current.push(current.length ? `L${here}` : `M${here}`);
    previous = p;
  }
  flush();

  const goodY = yOf(threshold.good);
  const poorY = yOf(threshold.poor);
  return {
    top,
    points,
    segments,
    bands: {
      good: { y: goodY, height: round(VIEW_HEIGHT - goodY) },
      'needs-improvement': { y: poorY, height: round(goodY - poorY) },
      poor: { y: 0, height: poorY },
    },
    grid: [0, 0.5, 1].map((f) => ({ value: top * f, y: round(100 - f * 100) })),
    ticks: timeTicks(sorted, span, locale),
    versionChanges,
    budget: budget !== undefined && Number.isFinite(budget) ? { value: budget, y: yOf(budget) } : null,
  };
}

const TEXTS = {
  en: {
    factors: { desktop: 'desktop', mobile: 'mobile' } as Record<FormFactor, string>,
    title: (metric: string, factor: string) => `${metric} on ${factor}: median run of each scan`,
    titleOnce: (metric: string) => `${metric}: each scan`,
    none: 'No scans with this metric yet.',
    one: (value: string, date: string) => `One scan: ${value} on ${date}.`,
    trend: (first: string, last: string, n: number, range: string, low: string, high: string) =>
      `From ${first} to ${last} over ${n} scans (${range}); lowest ${low}, highest ${high}.`,
    widest: (width: string, date: string) => `Widest spread of the runs: ${width} on ${date}.`,
    overBudget: (count: number, budget: string) => `${count} over the budget of ${budget}.`,
    lighthouse: (version: number, date: string) =>
      `Lighthouse ${version} measured from ${date} on: values before it are another measure.`,
    point: (date: string, value: string) => `${date}: ${value}`,
    runs: (count: number, min: string, max: string) => `${count} runs: ${min}–${max}`,
    legendLine: 'Median run',
    legendSpread: 'Runs, lowest to highest',
    good: 'Good range',
    poor: 'Poor range',
    budget: 'Budget',
    versionMark: (version: number) => `Lighthouse ${version}`,
  },
  de: {
    factors: { desktop: 'Desktop', mobile: 'mobil' } as Record<FormFactor, string>,
    title: (metric: string, factor: string) => `${metric} (${factor}): mittlerer Lauf jedes Scans`,
    titleOnce: (metric: string) => `${metric}: jeder Scan`,
    none: 'Noch keine Scans mit diesem Messwert.',
    one: (value: string, date: string) => `Ein Scan: ${value} am ${date}.`,
    trend: (first: string, last: string, n: number, range: string, low: string, high: string) =>
      `Von ${first} auf ${last} in ${n} Scans (${range}); niedrigster ${low}, höchster ${high}.`,
    widest: (width: string, date: string) => `Größte Streuung der Läufe: ${width} am ${date}.`,
    overBudget: (count: number, budget: string) => `${count} über dem Budget von ${budget}.`,
    lighthouse: (version: number, date: string) =>
      `Ab ${date} misst Lighthouse ${version}: die Werte davor sind ein anderes Maß.`,
    point: (date: string, value: string) => `${date}: ${value}`,
    runs: (count: number, min: string, max: string) => `${count} Läufe: ${min}–${max}`,
    legendLine: 'Mittlerer Lauf (Median)',
    legendSpread: 'Läufe, niedrigster bis höchster',
    good: 'Guter Bereich',
    poor: 'Schlechter Bereich',
    budget: 'Budget',
    versionMark: (version: number) => `Lighthouse ${version}`,
  },
} as const;

export const labChartTexts = (locale: Locale) => TEXTS[locale];

/** The series in words: first and last, lowest and highest, the widest spread, budget overruns, a Lighthouse change. */
export function describeLabHistory(
  metric: ChartLabMetric,
  series: readonly LabPoint[],
  locale: Locale,
  budget?: number,
): string {
  const t = TEXTS[locale];
  const v = (n: number) => labValue(metric, n, locale);
  const valued = [...series]
    .filter((p): p is LabPoint & { value: number } => p.value !== null && Number.isFinite(p.value))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
  if (valued.length === 0) return t.none;
  const parts: string[] = [];
  if (valued.length === 1) parts.push(t.one(v(valued[0]!.value), formatDate(valued[0]!.at, locale)));
  else {
    const values = valued.map((p) => p.value);
    parts.push(
      t.trend(
        v(values[0]!),
        v(values.at(-1)!),
        valued.length,
        `${formatDate(valued[0]!.at, locale)} – ${formatDate(valued.at(-1)!.at, locale)}`,
        v(Math.min(...values)),
        v(Math.max(...values)),
      ),
    );
  }
  const widest = valued
    .filter((p) => p.spread && p.spread.max > p.spread.min)
    .sort((a, b) => b.spread!.max - b.spread!.min - (a.spread!.max - a.spread!.min))[0];
  if (widest) parts.push(t.widest(v(widest.spread!.max - widest.spread!.min), formatDate(widest.at, locale)));
  if (budget !== undefined) parts.push(t.overBudget(valued.filter((p) => p.value > budget).length, v(budget)));
  for (let i = 1; i < valued.length; i++) {
    const [a, b] = [valued[i - 1]!.lighthouseMajor, valued[i]!.lighthouseMajor];
    if (a !== null && b !== null && a !== b) parts.push(t.lighthouse(b, formatDate(valued[i]!.at, locale)));
  }
  return parts.join(' ');
}

export interface LabChartOptions {
  locale: Locale;
  /** Unique on the page. */
  id: string;
  /** The form factor the series is of; none for TTFB, measured once per scan. */
  factor?: FormFactor;
  /** A budget for the metric, drawn as a dashed line. */
  budget?: number;
  /** Where a point links (a scan's report). */
  href?: (scanId: string) => string;
  /** The chart's title and its summary in words, for series that are not a target's scans (a user flow's runs). */
  words?: { title: string; summary: string };
}

export function labMetricChart(
  metric: ChartLabMetric,
  series: readonly LabPoint[],
  { locale, id, factor, budget, href, words }: LabChartOptions,
): SafeHtml {
  const t = TEXTS[locale];
  const name = LAB_METRIC_NAMES[metric];
  const title = words?.title ?? (factor ? t.title(name, t.factors[factor]) : t.titleOnce(name));
  const summary = words?.summary ?? describeLabHistory(metric, series, locale, budget);
  const g = labChartGeometry(metric, series, locale, budget);
  if (g.points.length === 0)
    return html`<figure class="chart chart-empty lab-chart" id="${id}"><p class="chart-none">${summary}</p></figure>`;
  const v = (n: number) => labValue(metric, n, locale);
  const band = (rating: Rating) =>
    html`<rect class="band band-${rating}" x="0" width="${VIEW_WIDTH}" y="${g.bands[rating].y}" height="${g.bands[rating].height}" fill="${RATING_COLOURS[rating].band}"/>`;
  const label = (p: LabPlotted) => {
    const base = t.point(formatDateTime(p.point.at, locale), v(p.point.value));
    const s = p.point.spread;
    return s ? `${base} (${t.runs(s.count, v(s.min), v(s.max))})` : base;
  };
  const mark = (p: LabPlotted) => {
    const dot = html`<path class="dot dot-${p.rating}" d="M${p.x},${p.y}h0" stroke="${RATING_COLOURS[p.rating].fill}" stroke-width="8" stroke-linecap="round" vector-effect="non-scaling-stroke"/>`;
    const data = html`data-scan-id="${p.point.scanId}" data-value="${p.point.value}" data-min="${p.point.spread?.min ?? ''}" data-max="${p.point.spread?.max ?? ''}" data-x="${p.x}" data-y="${p.y}"`;
    return href
      ? html`<a class="point" href="${href(p.point.scanId)}" ${data}><title>${label(p)}</title><path class="hit" d="M${p.x},${p.y}h0" stroke="transparent" stroke-width="24" stroke-linecap="round" vector-effect="non-scaling-stroke"/>${dot}</a>`
      : html`<g class="point" ${data}><title>${label(p)}</title>${dot}</g>`;
  };
  const hasSpread = g.points.some((p) => p.whisker);
  const svg = html`<svg class="chart-svg" viewBox="0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}" preserveAspectRatio="none" overflow="visible" role="group" aria-labelledby="${id}-title" aria-describedby="${id}-desc">
    <title id="${id}-title">${title}</title><desc id="${id}-desc">${summary}</desc>
    <g class="chart-bands" aria-hidden="true">${band('good')}${band('needs-improvement')}${band('poor')}</g>
    ${g.budget ? html`<line class="budget" aria-hidden="true" data-value="${g.budget.value}" x1="0" x2="${VIEW_WIDTH}" y1="${g.budget.y}" y2="${g.budget.y}" stroke="${C.critical}" stroke-width="1.5" stroke-dasharray="6 4" vector-effect="non-scaling-stroke"/>` : html``}
    <g class="chart-versions" aria-hidden="true">${g.versionChanges.map(
      (change) =>
        html`<line class="version-change" data-version="${change.version}" x1="${change.x}" x2="${change.x}" y1="0" y2="${VIEW_HEIGHT}" stroke="${C.line}" stroke-width="1.5" stroke-dasharray="1 4" vector-effect="non-scaling-stroke"/>`,
    )}</g>
    <g class="chart-spread" aria-hidden="true">${g.points.map((p) =>
      p.whisker
        ? html`<line class="spread" x1="${p.x}" x2="${p.x}" y1="${p.whisker.top}" y2="${p.whisker.bottom}" stroke="${C.spread}" stroke-width="7" stroke-linecap="round" vector-effect="non-scaling-stroke"/>`
        : html``,
    )}</g>
    <g class="chart-line" aria-hidden="true" fill="none" stroke="${C.line}" stroke-width="2.5" stroke-linejoin="round">${g.segments.map(
      (d) => html`<path d="${d}" vector-effect="non-scaling-stroke"/>`,
    )}</g>
    <g class="chart-points">${g.points.map(mark)}</g>
  </svg>`;
  return html`<figure class="chart lab-chart" id="${id}" data-metric="${metric}" data-factor="${factor ?? ''}" data-top="${g.top}">
    <div class="chart-frame">
      <div class="chart-y" aria-hidden="true">${g.grid.map((line) => html`<span style="top:${line.y}%">${axisValue(metric, line.value, locale)}</span>`)}</div>
      <div class="chart-plot">${svg}${
        g.budget
          ? html`<span class="threshold-label budget-label" aria-hidden="true" style="top:${g.budget.y}%">${t.budget} ${v(g.budget.value)}</span>`
          : html``
      }${g.versionChanges.map(
        (change) =>
          html`<span class="version-label${change.x > VIEW_WIDTH / 2 ? ' version-label-left' : ''}" aria-hidden="true" style="left:${change.x / 10}%">${t.versionMark(change.version)}</span>`,
      )}</div>
      ${timeAxis(g.ticks)}
    </div>
    <figcaption><ul class="chart-legend">
      <li><svg width="22" height="10" aria-hidden="true"><path d="M1,5H21" stroke="${C.line}" stroke-width="2.5"/></svg>${t.legendLine}</li>
      ${hasSpread ? html`<li><svg width="10" height="16" aria-hidden="true"><path d="M5,4V12" stroke="${C.spread}" stroke-width="7" stroke-linecap="round"/></svg>${t.legendSpread}</li>` : html``}
      <li><svg width="14" height="14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" fill="${RATING_COLOURS.good.band}" stroke="${RATING_COLOURS.good.fill}"/></svg>${t.good} (≤ ${v(THRESHOLDS[metric].good)})</li>
      <li><svg width="14" height="14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" fill="${RATING_COLOURS.poor.band}" stroke="${RATING_COLOURS.poor.fill}"/></svg>${t.poor} (&gt; ${v(THRESHOLDS[metric].poor)})</li>
      ${g.budget ? html`<li><svg width="22" height="10" aria-hidden="true"><path d="M1,5H21" stroke="${C.critical}" stroke-width="1.5" stroke-dasharray="6 4"/></svg>${t.budget} ${v(g.budget.value)}</li>` : html``}
    </ul><p class="chart-summary">${summary}</p></figcaption>
  </figure>`;
}
