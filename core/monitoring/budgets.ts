import { SCORE_KEYS, type ScanScores, type ScoreKey } from '../scoring/categories.ts';
import { FORM_FACTORS, type FormFactor } from '../scan/observation.ts';
import {
  LIGHTHOUSE_CATEGORY_KEYS,
  type LighthouseCategoryKey,
  type LighthouseCategoryScores,
} from '../scan/lighthouse-categories.ts';
import type { AlertSeverity } from './severity.ts';
import type { FlowScoreKey, LighthouseStepMode } from '../flows/flow.ts';

/**
 * A target's performance budgets: per form factor, the most a page metric of the scheduled scan's median run
 * may be (LCP, FCP, TBT and TTFB in milliseconds, CLS unitless), and per score the least it may be (0–100;
 * scores are the scan's, one for both form factors), and per form factor the least each of Lighthouse's own
 * category scores may be (core/scan/lighthouse-categories.ts). Every budget is optional; a target has none by
 * default, and then raises no metric_over_budget alert. The rule that judges them: core/monitoring/budget-rules.ts.
 */

/** The page metrics a budget can be set for, named as the scan result and the API name them. */
export const BUDGET_METRICS = ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'ttfb_ms'] as const;
export type BudgetMetric = (typeof BUDGET_METRICS)[number];

/** What a flow step's budget may name besides those (core/flows/flow-budgets.ts): INP of a timespan step. */
export type StepBudgetMetric = BudgetMetric | 'inp_ms';

/** The flow step a breach is on (flow budgets only). */
export interface BudgetStep {
  index: number;
  name: string;
  mode: LighthouseStepMode;
}

/** Per page metric a number: a budget, or (in a measurement) the measured value. */
export type MetricBudgets = Partial<Record<BudgetMetric, number>>;

export interface Budgets {
  mobile?: MetricBudgets;
  desktop?: MetricBudgets;
  /** Minimum scores. */
  scores?: Partial<Record<ScoreKey, number>>;
  /** Minimum Lighthouse category scores, per form factor. */
  lighthouse?: Partial<Record<FormFactor, Partial<Record<LighthouseCategoryKey, number>>>>;
}

export const DEFAULT_BUDGETS: Budgets = {};

/**
 * The values a budget may take (the API's schema and the web form check them): milliseconds as integers up to
 * ten minutes, CLS up to 10 (three decimals are kept), scores as integers 0–100.
 */
export const BUDGET_LIMITS: Record<BudgetMetric | 'score', { max: number; integer: boolean }> = {
  lcp_ms: { max: 600_000, integer: true },
  fcp_ms: { max: 600_000, integer: true },
  tbt_ms: { max: 600_000, integer: true },
  ttfb_ms: { max: 600_000, integer: true },
  cls: { max: 10, integer: false },
  score: { max: 100, integer: true },
};

/** `ms` for the timings, `unitless` for CLS, `points` for a score. */
export type BudgetUnit = 'ms' | 'unitless' | 'points';

/** Anything a budget can be set for: a target's metric or score, a flow step's metric or score. */
export type BudgetKey = StepBudgetMetric | ScoreKey | FlowScoreKey;

export const budgetUnit = (metric: BudgetKey): BudgetUnit =>
  metric === 'cls' ? 'unitless' : isBudgetMetric(metric) ? 'ms' : 'points';

/** A metric (a maximum), not a score (a minimum). */
export const isBudgetMetric = (metric: BudgetKey): metric is StepBudgetMetric =>
  metric === 'inp_ms' || (BUDGET_METRICS as readonly string[]).includes(metric);

/** One of Lighthouse's category scores (a minimum per form factor on a target; a flow step's score). */
export const isLighthouseCategory = (metric: BudgetKey): metric is LighthouseCategoryKey =>
  (LIGHTHOUSE_CATEGORY_KEYS as readonly string[]).includes(metric);

/** What a target's budget may name: a page metric, one of our scores, one of Lighthouse's category scores. */
export type TargetBudgetKey = BudgetMetric | ScoreKey | LighthouseCategoryKey;

/**
 * What a scan measured that budgets are judged on: its scores, and per form factor it loaded the metrics of
 * its median run (the values its report shows).
 */
export interface BudgetMeasurement {
  scores: ScanScores;
  metrics: Partial<Record<FormFactor, MetricBudgets>>;
  /** Lighthouse's category scores per form factor; absent for results stored before scans ran all four. */
  lighthouse?: Partial<Record<FormFactor, LighthouseCategoryScores>>;
}

/** One budget the scan broke. */
export interface BudgetBreach {
  /** A page metric (with its form factor) or a score (form factor null); a flow step's (form factor null, `step` set). */
  metric: BudgetKey;
  formFactor: FormFactor | null;
  value: number;
  budget: number;
  unit: BudgetUnit;
  severity: AlertSeverity;
  /** Flow budgets: the step broken. */
  step?: BudgetStep;
}

/**
 * Every budget that is set, in a fixed order: mobile metrics, desktop metrics, scores in report order, then
 * Lighthouse's category scores, mobile then desktop.
 */
export function budgetEntries(
  budgets: Budgets,
): Array<{ metric: TargetBudgetKey; formFactor: FormFactor | null; budget: number }> {
  const entries: Array<{ metric: TargetBudgetKey; formFactor: FormFactor | null; budget: number }> = [];
  for (const formFactor of [...FORM_FACTORS].reverse()) {
    const set = budgets[formFactor] ?? {};
    for (const metric of BUDGET_METRICS) {
      const budget = set[metric];
      if (budget !== undefined) entries.push({ metric, formFactor, budget });
    }
  }
  for (const score of SCORE_KEYS) {
    const budget = budgets.scores?.[score];
    if (budget !== undefined) entries.push({ metric: score, formFactor: null, budget });
  }
  for (const formFactor of [...FORM_FACTORS].reverse())
    for (const category of LIGHTHOUSE_CATEGORY_KEYS) {
      const budget = budgets.lighthouse?.[formFactor]?.[category];
      if (budget !== undefined) entries.push({ metric: category, formFactor, budget });
    }
  return entries;
}

/** The measured value a budget is compared with; undefined when the scan did not load that form factor. */
export function measuredValue(
  measured: BudgetMeasurement,
  metric: TargetBudgetKey,
  formFactor: FormFactor | null,
): number | undefined {
  const value = isLighthouseCategory(metric)
    ? formFactor
      ? measured.lighthouse?.[formFactor]?.[metric]
      : undefined
    : isBudgetMetric(metric)
      ? formFactor
        ? measured.metrics[formFactor]?.[metric]
        : undefined
      : measured.scores[metric];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The stored result's parts a measurement is made from (db/store/alerts.ts reads them). */
export interface MeasuredResult {
  scores: ScanScores;
  metrics: Partial<Record<FormFactor, { lcp_ms: number; fcp_ms: number; tbt_ms: number; cls: number }>>;
  /** The scan's TTFB; null when the result has none. */
  ttfbMs: number | null;
  /** Lighthouse's category scores per form factor (the result's `lighthouse.categories`); null when it has none. */
  lighthouse?: Partial<Record<FormFactor, LighthouseCategoryScores>> | null;
}

/**
 * What budgets are judged on: the values the report and the API show. LCP, FCP, TBT and CLS are each form
 * factor's median-run metrics; TTFB is measured once per scan (the page's main document, as the first form
 * factor loaded it; the API's `metrics.ttfb_ms`), so a mobile and a desktop TTFB budget are judged on that one value.
 */
export function budgetMeasurement(result: MeasuredResult): BudgetMeasurement {
  const metrics: BudgetMeasurement['metrics'] = {};
  for (const formFactor of FORM_FACTORS) {
    const m = result.metrics[formFactor];
    if (!m) continue;
    metrics[formFactor] = {
      lcp_ms: m.lcp_ms,
      fcp_ms: m.fcp_ms,
      tbt_ms: m.tbt_ms,
      cls: m.cls,
      ...(result.ttfbMs === null ? {} : { ttfb_ms: result.ttfbMs }),
    };
  }
  return { scores: result.scores, metrics, ...(result.lighthouse ? { lighthouse: result.lighthouse } : {}) };
}
