import { formatNumber, type Locale } from '../../core/i18n/locale.ts';
import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { RunRecord, ScanResultRecord } from '../../core/scan/result.ts';
import { CHART_COLOURS as C } from '../charts/series.ts';
import { html, type SafeHtml } from '../html.ts';
import { runsText } from './runs-labels.ts';

/**
 * A report's spread of the runs (a scan of several page loads per form factor, core/scan/median-run.ts): for
 * each metric and form factor, the lowest and highest value of the runs and each run as a dot on a small
 * inline SVG, the median run (whose values the report shows) the large dark one, drawn on top. Every stored run counts, also one the
 * machine was too busy to trust (drawn hollow): the spread is what was measured. TTFB is measured once per
 * scan, not per run, so it has none. Nothing is shown for a scan of one run.
 */
export const SPREAD_METRICS = [
  { key: 'lcp_ms', label: 'Largest Contentful Paint (LCP)', unit: 'ms' },
  { key: 'fcp_ms', label: 'First Contentful Paint (FCP)', unit: 'ms' },
  { key: 'tbt_ms', label: 'Total Blocking Time (TBT)', unit: 'ms' },
  { key: 'cls', label: 'Cumulative Layout Shift (CLS)', unit: '' },
  { key: 'si_ms', label: 'Speed Index', unit: 'ms' },
] as const satisfies ReadonlyArray<{ key: keyof RunRecord; label: string; unit: 'ms' | '' }>;

export type SpreadMetric = (typeof SPREAD_METRICS)[number]['key'];

export interface RunDot {
  /** The run's place in the order loaded, from 0. */
  index: number;
  value: number;
  median: boolean;
  overloaded: boolean;
}

export interface MetricSpread {
  min: number;
  max: number;
  /** The value of the run marked median; null when no run is marked. */
  median: number | null;
  runs: RunDot[];
}

/** The spread of one metric over a form factor's runs; null for fewer than two runs with a finite value. */
export function metricSpread(runs: readonly RunRecord[], metric: SpreadMetric): MetricSpread | null {
  const dots = runs
    .map((run, index) => ({ index, value: run[metric], median: run.median, overloaded: run.overloaded }))
    .filter((dot) => typeof dot.value === 'number' && Number.isFinite(dot.value));
  if (dots.length < 2) return null;
  const values = dots.map((dot) => dot.value);
  return {
    min: Math.min(...values),
    max: Math.max(...values),
    median: dots.find((dot) => dot.median)?.value ?? null,
    runs: dots,
  };
}

/** A value as the spread writes it: milliseconds whole (not rounded to tenths of seconds), CLS to three decimals. */
export function spreadValue(metric: SpreadMetric, value: number, locale: Locale): string {
  // A no-break space keeps the number with its unit when the range wraps on a phone.
  return metric === 'cls' ? formatNumber(value, locale, 3) : `${formatNumber(value, locale)}\u00a0ms`;
}

export const DOTS_WIDTH = 112;
export const DOTS_HEIGHT = 18;
const PAD = 7;

/**
 * Where each run's dot sits on the strip, lowest value left: x from PAD to DOTS_WIDTH − PAD, all in the middle
 * when every run measured the same. Runs of equal value stack upwards and downwards so each stays visible.
 */
export function dotPositions(spread: MetricSpread): Array<RunDot & { x: number; y: number }> {
  const span = spread.max - spread.min;
  const seen = new Map<number, number>();
  return spread.runs.map((dot) => {
    const x =
      span === 0
        ? DOTS_WIDTH / 2
        : Math.round((PAD + ((dot.value - spread.min) / span) * (DOTS_WIDTH - 2 * PAD)) * 100) / 100;
    const same = seen.get(x) ?? 0;
    seen.set(x, same + 1);
    const offset = same === 0 ? 0 : (same % 2 === 1 ? -1 : 1) * Math.ceil(same / 2) * 4;
    return { ...dot, x, y: DOTS_HEIGHT / 2 + offset };
  });
}

/** The strip: a line from lowest to highest, a dot per run, the median run the large one; named by the runs' values. */
export function spreadStrip(metric: SpreadMetric, spread: MetricSpread, locale: Locale): SafeHtml {
  const t = runsText(locale);
  const dots = dotPositions(spread);
  const words = spread.runs
    .map((dot) => {
      const marks = [dot.median ? t.medianMark : null, dot.overloaded ? t.busyMark : null].filter(Boolean);
      return `${spreadValue(metric, dot.value, locale)}${marks.length ? ` (${marks.join(', ')})` : ''}`;
    })
    .join('; ');
  const xs = dots.map((d) => d.x);
  return html`<svg class="spread-dots" width="${DOTS_WIDTH}" height="${DOTS_HEIGHT}" viewBox="0 0 ${DOTS_WIDTH} ${DOTS_HEIGHT}" role="img" aria-label="${t.runsList}: ${words}"><title>${t.runsList}: ${words}</title>
    <line x1="${Math.min(...xs)}" x2="${Math.max(...xs)}" y1="${DOTS_HEIGHT / 2}" y2="${DOTS_HEIGHT / 2}" stroke="${C.spread}" stroke-width="2"/>${[
      ...dots.filter((d) => !d.median),
      ...dots.filter((d) => d.median),
    ].map(
      (d) =>
        html`<circle class="run${d.median ? ' run-median' : ''}${d.overloaded ? ' run-busy' : ''}" data-run="${d.index}" data-value="${d.value}" cx="${d.x}" cy="${d.y}" r="${d.median ? 5 : 3.5}" fill="${d.overloaded ? '#fff' : d.median ? C.line : C.spread}" stroke="${C.line}" stroke-width="${d.median ? 2.5 : 1}"/>`,
    )}</svg>`;
}

function cell(metric: SpreadMetric, factor: FormFactor, runs: readonly RunRecord[], locale: Locale): SafeHtml {
  const t = runsText(locale);
  const spread = metricSpread(runs, metric);
  if (!spread) return html`<td data-factor="${factor}">${t.oneRun}</td>`;
  return html`<td data-factor="${factor}" data-min="${spread.min}" data-max="${spread.max}" data-median="${spread.median ?? ''}" data-runs="${spread.runs.length}"><span class="spread-range">${t.range(spreadValue(metric, spread.min, locale), spreadValue(metric, spread.max, locale))}</span>${spreadStrip(metric, spread, locale)}</td>`;
}

/** The report's section; nothing when no form factor ran more than once (or the result predates stored runs). */
export function spreadSection(result: Pick<ScanResultRecord, 'runs'>, locale: Locale): SafeHtml {
  const runs = result.runs;
  if (!runs || !FORM_FACTORS.some((f) => (runs[f]?.length ?? 0) > 1)) return html``;
  const t = runsText(locale);
  const counts = t.runsPerFactor(runs.desktop?.length ?? 0, runs.mobile?.length ?? 0);
  return html`<section id="run-spread" class="run-spread"><h2>${t.spreadTitle}</h2><p>${t.spreadIntro(counts)}</p>
    <div class="table-wrap"><table id="spread"><thead><tr><th>${t.metric}</th><th>${t.desktop}</th><th>${t.mobile}</th></tr></thead>
    <tbody>${SPREAD_METRICS.map(
      ({ key, label }) =>
        html`<tr data-metric="${key}"><td>${label}</td>${FORM_FACTORS.map((f) => cell(key, f, runs[f] ?? [], locale))}</tr>`,
    )}</tbody></table></div><p class="note">${t.spreadNote}</p></section>`;
}
