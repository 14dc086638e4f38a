import { formatDate } from '../../core/i18n/dates.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import type { FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { FlowStepResult, LighthouseStepMode } from '../../core/flows/flow.ts';
import type { FlowStepSeries } from '../../services/flows.ts';
import {
  LAB_METRIC_NAMES,
  labChartTexts,
  labMetricChart,
  labValue,
  type ChartLabMetric,
  type LabPoint,
} from '../charts/lab-metric-history.ts';
import { html, type SafeHtml } from '../html.ts';
import { flowHistoryLabels } from './history-labels.ts';

/**
 * A flow's history per measured step (GET /flows/{id}/history as the page has it): for each step, its metrics
 * over the finished runs as the targets' lab charts draw them (web/charts/lab-metric-history.ts: the line, the
 * good and poor bands of core/metric-thresholds.ts, a time axis, the step's budget for the metric as the
 * targets' dashed budget line), and its Lighthouse scores in words. Pure: the caller reads the series and places
 * the section on the flow page.
 */

type StepMetric = keyof FlowStepResult['metrics'] & ChartLabMetric;
type ScoreKey = keyof FlowStepResult['scores'];

/** The metrics charted per step mode: a navigation's load metrics, a timespan's interaction metrics (INP first). */
export const CHARTED_METRICS: Record<LighthouseStepMode, readonly StepMetric[]> = {
  navigation: ['lcp_ms', 'cls', 'tbt_ms'],
  timespan: ['inp_ms', 'cls', 'tbt_ms'],
  snapshot: [],
};
/** The scores told per mode: a timespan has none Lighthouse computes as a category score. */
export const TOLD_SCORES: Record<LighthouseStepMode, readonly ScoreKey[]> = {
  navigation: ['performance', 'accessibility', 'best_practices', 'seo'],
  timespan: [],
  snapshot: ['accessibility', 'best_practices', 'seo'],
};

/** One metric of one step as chart points, oldest first; a run without the metric is a break in the line. */
export function stepMetricSeries(series: FlowStepSeries, metric: StepMetric): LabPoint[] {
  return [...series.points]
    .sort((a, b) => a.at.getTime() - b.at.getTime())
    .map((point) => {
      const value = point.metrics[metric];
      return {
        scanId: point.run_id,
        at: point.at,
        value: typeof value === 'number' && Number.isFinite(value) ? value : null,
        spread: null,
        lighthouseMajor: null,
      };
    });
}

/**
 * A metric's series in words: its first and last value, lowest and highest, over how many runs, and with a budget
 * how many runs were over it.
 */
export function describeStepMetric(
  metric: StepMetric,
  points: readonly LabPoint[],
  locale: Locale,
  budget?: number,
): string {
  const t = flowHistoryLabels(locale);
  const v = (n: number) => labValue(metric, n, locale);
  const valued = points.filter((p): p is LabPoint & { value: number } => p.value !== null);
  if (valued.length === 0) return t.noValues;
  const over =
    budget === undefined
      ? ''
      : ` ${labChartTexts(locale).overBudget(valued.filter((p) => p.value > budget).length, v(budget))}`;
  const first = valued[0]!;
  const last = valued.at(-1)!;
  if (valued.length === 1) return t.oneValue(v(first.value), formatDate(first.at, locale)) + over;
  const values = valued.map((p) => p.value);
  return (
    t.trend(
      v(first.value),
      v(last.value),
      valued.length,
      formatDate(first.at, locale),
      formatDate(last.at, locale),
      v(Math.min(...values)),
      v(Math.max(...values)),
    ) + over
  );
}

export interface FlowHistoryOptions {
  locale: Locale;
  /** The window the series cover, for the intro. */
  days: number;
  /** Where a point links: the run's page. */
  runHref?: (runId: string) => string;
  /** Prefix of the ids inside the section, unique on the page. */
  id?: string;
  /** The flow's step budgets: a step's budget for a charted metric is drawn on its chart. */
  budgets?: FlowBudgets;
}

function scoreList(series: FlowStepSeries, locale: Locale): SafeHtml {
  const t = flowHistoryLabels(locale);
  const rows = TOLD_SCORES[series.mode].flatMap((key) => {
    const scores = series.points.map((p) => p.scores[key]).filter((s): s is number => typeof s === 'number');
    if (scores.length === 0) return [];
    const latest = scores.at(-1)!;
    return [
      html`<dt>${t.scores[key]}</dt><dd data-score="${key}" data-latest="${latest}">${t.scoreLatest(latest, Math.min(...scores), Math.max(...scores), scores.length)}</dd>`,
    ];
  });
  return rows.length ? html`<dl class="flow-history-scores" aria-label="${t.scoresTitle}">${rows}</dl>` : html``;
}

export function flowHistorySection(series: readonly FlowStepSeries[], options: FlowHistoryOptions): SafeHtml {
  const { locale, days, runHref, id = 'flow-history', budgets = {} } = options;
  const t = flowHistoryLabels(locale);
  const steps = [...series].sort((a, b) => a.index - b.index);
  const body = steps.length
    ? steps.map((step, i) => {
        const charts = CHARTED_METRICS[step.mode].map((metric) => {
          const points = stepMetricSeries(step, metric);
          // Budgets are keyed by step index, as the alert judges them: any series measured at that index.
          const budget = budgets[String(step.index)]?.[metric];
          return labMetricChart(metric, points, {
            locale,
            id: `${id}-${i}-${metric}`,
            ...(runHref ? { href: runHref } : {}),
            budget,
            words: {
              title: t.chartTitle(LAB_METRIC_NAMES[metric], step.name),
              summary: describeStepMetric(metric, points, locale, budget),
            },
          });
        });
        return html`<section class="flow-history-step" data-index="${step.index}" data-mode="${step.mode}">
      <h3>${t.step(step.index + 1, step.name)} <small>${t.modes[step.mode]} · ${t.runs(step.points.length)}</small></h3>
      ${scoreList(step, locale)}${charts}
    </section>`;
      })
    : html`<p class="flow-history-none">${t.none(days)}</p>`;
  return html`<section class="flow-history" id="${id}" aria-labelledby="${id}-title">
    <h2 id="${id}-title">${t.title}</h2>
    <p>${t.intro(days)}</p>
    ${body}
  </section>`;
}
