import { formatDate, formatDayMonth } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { METRIC_RULES, rate, type Rating, type RumMetric } from '../../core/rum/metrics.ts';
import type { SafeHtml } from '../html.ts';
import { html } from '../html.ts';
import { formatMetric, RATING_COLOURS } from '../live/format.ts';
import { VIEW_HEIGHT, VIEW_WIDTH } from './score-history.ts';
import { CHART_COLOURS as C } from './series.ts';

/**
 * A live-data metric's daily 75th percentile as inline SVG, drawn like the score history (web/charts/
 * score-history.ts: a 1000 × 100 plot stretched to the page's width, its axis labels HTML around it, the
 * same CSS classes), with the metric's good and poor ranges as shaded bands behind the line. The y axis
 * starts at 0 and reaches a round value above both the poor threshold and the highest day, so the bands are
 * always visible and a bad day is never cut off. No links: an image named by its title and described by
 * the trend in words (also shown under it).
 */
export interface MetricDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  p75: number;
  samples: number;
}

const DAY_MS = 86_400_000;
const round = (n: number) => Math.round(n * 100) / 100;

/** The smallest "nice" number (1, 2, 2.5, 5 × 10^k) at or above `value`. */
export function niceCeiling(value: number): number {
  if (value <= 0) return 1;
  const magnitude = 10 ** Math.floor(Math.log10(value));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= value * (1 - 1e-9))!;
  return step * magnitude;
}

export interface MetricChartGeometry {
  top: number;
  points: Array<{ x: number; y: number; day: MetricDay; rating: Rating }>;
  path: string;
  bands: Record<Rating, { y: number; height: number }>;
  /** Value labels on the y axis, in % of the plot's height from its top. */
  grid: Array<{ value: number; y: number }>;
  ticks: Array<{ x: number; label: string }>;
}

export function metricChartGeometry(
  metric: RumMetric,
  input: readonly MetricDay[],
  locale: Locale,
  days = 30,
  today?: string,
): MetricChartGeometry {
  const valid = [...input]
    .filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d.date))
    .sort((a, b) => a.date.localeCompare(b.date));
  // The x axis spans the whole window (today and the days before), so a site with three days of data shows where they fall.
  const last = Date.parse(`${today ?? valid.at(-1)?.date ?? '1970-01-01'}T00:00:00Z`);
  const first = last - (days - 1) * DAY_MS;
  const sorted = valid.filter(
    (d) => Date.parse(`${d.date}T00:00:00Z`) >= first && Date.parse(`${d.date}T00:00:00Z`) <= last,
  );
  const rule = METRIC_RULES[metric];
  const top = niceCeiling(Math.max(rule.poor * 1.2, ...sorted.map((d) => d.p75 * 1.05)));
  const yOf = (value: number) => round(VIEW_HEIGHT - (Math.min(Math.max(value, 0), top) / top) * VIEW_HEIGHT);
  const xOf = (date: string) => round(((Date.parse(`${date}T00:00:00Z`) - first) / ((days - 1) * DAY_MS)) * VIEW_WIDTH);
  const points = sorted.map((day) => ({ x: xOf(day.date), y: yOf(day.p75), day, rating: rate(metric, day.p75) }));
  const path = points.map((p, i) => `${i === 0 ? 'M' : 'L'}${p.x},${p.y}`).join(' ');
  const goodY = yOf(rule.good);
  const poorY = yOf(rule.poor);
  const bands = {
    good: { y: goodY, height: round(VIEW_HEIGHT - goodY) },
    'needs-improvement': { y: poorY, height: round(goodY - poorY) },
    poor: { y: 0, height: poorY },
  };
  const grid = [0, 0.5, 1].map((f) => ({ value: top * f, y: round(100 - f * 100) }));
  const ticks = [0, 0.5, 1].map((f) => ({
    x: f * VIEW_WIDTH,
    label: formatDayMonth(new Date(first + Math.round(f * (days - 1)) * DAY_MS), locale),
  }));
  return { top, points, path, bands, grid, ticks };
}

const TEXTS = {
  en: {
    title: (metric: string) => `${metric}: daily 75th percentile`,
    none: 'No days with data yet.',
    one: (value: string, date: string) => `One day with data: ${value} on ${date}.`,
    trend: (first: string, last: string, n: number, range: string, best: string, worst: string) =>
      `From ${first} to ${last} over ${n} days with data (${range}); best ${best}, worst ${worst}.`,
    rated: (good: number, ni: number, poor: number) =>
      `Days rated good: ${good}, needs improvement: ${ni}, poor: ${poor}.`,
    point: (date: string, value: string, samples: number) => `${date}: ${value} (${samples} measurements)`,
    legendLine: 'Daily 75th percentile',
    good: 'Good range',
    poor: 'Poor range',
  },
  de: {
    title: (metric: string) => `${metric}: tägliches 75. Perzentil`,
    none: 'Noch keine Tage mit Daten.',
    one: (value: string, date: string) => `Ein Tag mit Daten: ${value} am ${date}.`,
    trend: (first: string, last: string, n: number, range: string, best: string, worst: string) =>
      `Von ${first} auf ${last} an ${n} Tagen mit Daten (${range}); bester Wert ${best}, schlechtester ${worst}.`,
    rated: (good: number, ni: number, poor: number) =>
      `Tage gut: ${good}, verbesserungswürdig: ${ni}, schlecht: ${poor}.`,
    point: (date: string, value: string, samples: number) => `${date}: ${value} (${samples} Messungen)`,
    legendLine: 'Tägliches 75. Perzentil',
    good: 'Guter Bereich',
    poor: 'Schlechter Bereich',
  },
} as const;

export function describeMetricHistory(metric: RumMetric, input: readonly MetricDay[], locale: Locale): string {
  const t = TEXTS[locale];
  const sorted = [...input].sort((a, b) => a.date.localeCompare(b.date));
  const value = (v: number) => formatMetric(metric, v, locale);
  const date = (d: string) => formatDate(new Date(`${d}T00:00:00Z`), locale);
  if (sorted.length === 0) return t.none;
  if (sorted.length === 1) return t.one(value(sorted[0]!.p75), date(sorted[0]!.date));
  const values = sorted.map((d) => d.p75);
  const count = (rating: Rating) => values.filter((v) => rate(metric, v) === rating).length;
  return `${t.trend(value(values[0]!), value(values.at(-1)!), sorted.length, `${date(sorted[0]!.date)} – ${date(sorted.at(-1)!.date)}`, value(Math.min(...values)), value(Math.max(...values)))} ${t.rated(count('good'), count('needs-improvement'), count('poor'))}`;
}

export interface MetricHistoryOptions {
  locale: Locale;
  /** Unique on the page. */
  id: string;
  /** The window's length and its last day (YYYY-MM-DD, UTC); by default it ends on the newest day with data. */
  days?: number;
  today?: string;
}

export function metricHistoryChart(
  metric: RumMetric,
  days: readonly MetricDay[],
  { locale, id, days: windowDays = 30, today }: MetricHistoryOptions,
): SafeHtml {
  const t = TEXTS[locale];
  const g = metricChartGeometry(metric, days, locale, windowDays, today);
  const summary = describeMetricHistory(
    metric,
    g.points.map((p) => p.day),
    locale,
  );
  if (g.points.length === 0)
    return html`<figure class="chart chart-empty metric-chart" id="${id}"><p class="chart-none">${summary}</p></figure>`;
  const dateLabel = (d: string) => formatDate(new Date(`${d}T00:00:00Z`), locale);
  const band = (rating: Rating) =>
    html`<rect class="band band-${rating}" x="0" width="${VIEW_WIDTH}" y="${g.bands[rating].y}" height="${g.bands[rating].height}" fill="${RATING_COLOURS[rating].band}"/>`;
  const rule = METRIC_RULES[metric];
  const thresholdLine = (kind: 'good' | 'poor', value: number) =>
    html`<line class="threshold threshold-${kind}" data-value="${value}" x1="0" x2="${VIEW_WIDTH}" y1="${g.bands[kind === 'good' ? 'good' : 'needs-improvement'].y}" y2="${g.bands[kind === 'good' ? 'good' : 'needs-improvement'].y}" stroke="${RATING_COLOURS[kind === 'good' ? 'good' : 'poor'].fill}" stroke-width="1" stroke-dasharray="4 3" vector-effect="non-scaling-stroke"/>`;
  const svg = html`<svg class="chart-svg" viewBox="0 0 ${VIEW_WIDTH} ${VIEW_HEIGHT}" preserveAspectRatio="none" overflow="visible" role="img" aria-labelledby="${id}-title" aria-describedby="${id}-desc">
    <title id="${id}-title">${t.title(metric)}</title><desc id="${id}-desc">${summary}</desc>
    <g class="chart-bands" aria-hidden="true">${band('good')}${band('needs-improvement')}${band('poor')}${thresholdLine('good', rule.good)}${thresholdLine('poor', rule.poor)}</g>
    ${g.points.length > 1 ? html`<path class="p75-line" d="${g.path}" fill="none" stroke="${C.line}" stroke-width="2.5" stroke-linejoin="round" vector-effect="non-scaling-stroke"/>` : html``}
    <g class="chart-points">${g.points.map(
      (
        p,
      ) => html`<g class="point" data-date="${p.day.date}" data-p75="${p.day.p75}" data-rating="${p.rating}"><title>${t.point(dateLabel(p.day.date), formatMetric(metric, p.day.p75, locale), p.day.samples)}</title>
        <path class="dot" d="M${p.x},${p.y}h0" stroke="${RATING_COLOURS[p.rating].fill}" stroke-width="8" stroke-linecap="round" vector-effect="non-scaling-stroke"/></g>`,
    )}</g>
  </svg>`;
  return html`<figure class="chart metric-chart" id="${id}" data-metric="${metric}" data-top="${g.top}">
    <div class="chart-frame">
      <div class="chart-y" aria-hidden="true">${g.grid.map((line) => html`<span style="top:${line.y}%">${formatMetric(metric, line.value, locale)}</span>`)}</div>
      <div class="chart-plot">${svg}</div>
      <div class="chart-x" aria-hidden="true">${g.ticks.map((tick) => html`<span class="${tick.x === 0 ? 'first' : tick.x === VIEW_WIDTH ? 'last' : ''}" style="left:${tick.x / 10}%">${tick.label}</span>`)}</div>
    </div>
    <figcaption><ul class="chart-legend">
      <li><svg width="22" height="10" aria-hidden="true"><path d="M1,5H21" stroke="${C.line}" stroke-width="2.5"/></svg>${t.legendLine}</li>
      <li><svg width="14" height="14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" fill="${RATING_COLOURS.good.band}" stroke="${RATING_COLOURS.good.fill}"/></svg>${t.good} (≤ ${formatMetric(metric, rule.good, locale)})</li>
      <li><svg width="14" height="14" aria-hidden="true"><rect x="1" y="1" width="12" height="12" fill="${RATING_COLOURS.poor.band}" stroke="${RATING_COLOURS.poor.fill}"/></svg>${t.poor} (&gt; ${formatMetric(metric, rule.poor, locale)})</li>
    </ul><p class="chart-summary">${summary}</p></figcaption>
  </figure>`;
}
