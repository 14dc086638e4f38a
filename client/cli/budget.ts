import type { paths } from '../schema.ts';

type ScanDetail = paths['/scans/{id}']['get']['responses'][200]['content']['application/json']['data'];
export type FinishedScan = Extract<ScanDetail, { status: 'finished' }>;
export type FailedScan = Extract<ScanDetail, { status: 'failed' }>;
export type AnyScan = ScanDetail;
/** What budgets are checked against: a finished scan's result (GET /scans/{id}). */
export type FinishedResult = Pick<FinishedScan['result'], 'scores' | 'metrics'>;
export type FormFactorMetrics = FinishedResult['metrics']['desktop'];

export type FormFactor = 'desktop' | 'mobile';
export type ScoreKey = 'overall' | 'speed' | 'images' | 'caching' | 'technical' | 'wordpress';

/** Scores are floors (the scan's, one per scan); metrics are ceilings, checked per form factor (ttfb once). */
export const SCORE_BUDGETS: readonly ScoreKey[] = ['overall', 'speed', 'images', 'caching', 'technical', 'wordpress'];
export const METRIC_BUDGETS = {
  fcp: { field: 'fcp_ms', unit: 'ms' },
  lcp: { field: 'lcp_ms', unit: 'ms' },
  tbt: { field: 'tbt_ms', unit: 'ms' },
  cls: { field: 'cls', unit: '' },
  bytes: { field: 'total_bytes', unit: 'bytes' },
  requests: { field: 'request_count', unit: 'requests' },
} as const satisfies Record<string, { field: keyof FormFactorMetrics; unit: string }>;
type MetricBudget = keyof typeof METRIC_BUDGETS;
export const BUDGET_KEYS = [...SCORE_BUDGETS, ...(Object.keys(METRIC_BUDGETS) as MetricBudget[]), 'ttfb'] as const;
export type BudgetKey = (typeof BUDGET_KEYS)[number];

export type Budget = Partial<Record<BudgetKey, number>>;

/** The command line is wrong: the message, then the usage text; exit 2. */
export class UsageError extends Error {}
/**
 * The command line is right but the command cannot go on (missing environment, an operand in the wrong state,
 * --timeout ran out): one line, no usage text; exit 2.
 */
export class CommandError extends Error {}

/** `overall=90,speed=85,lcp=2500,cls=0.1`: each key once, each limit a non-negative number (scores 0-100). */
export function parseBudget(text: string): Budget {
  const budget: Budget = {};
  for (const part of text
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*([0-9]+(?:\.[0-9]+)?)$/.exec(part);
    if (!match) throw new UsageError(`budget "${part}" is not key=number (e.g. lcp=2500)`);
    const key = match[1] as BudgetKey;
    if (!(BUDGET_KEYS as readonly string[]).includes(key))
      throw new UsageError(`unknown budget "${match[1]}"; known: ${BUDGET_KEYS.join(', ')}`);
    if (key in budget) throw new UsageError(`budget "${key}" is given twice`);
    const limit = Number(match[2]);
    if ((SCORE_BUDGETS as readonly string[]).includes(key) && limit > 100)
      throw new UsageError(`score budget "${key}" must be 0-100`);
    budget[key] = limit;
  }
  if (Object.keys(budget).length === 0) throw new UsageError('--budget names no limit');
  return budget;
}

export interface BudgetCheck {
  /** `lcp (mobile)`, `overall` */
  name: string;
  key: BudgetKey;
  formFactor: FormFactor | null;
  value: number;
  limit: number;
  /** `min` for scores (value must reach it), `max` for metrics (value must stay at or below it). */
  kind: 'min' | 'max';
  unit: string;
  passed: boolean;
}

/** Every budget checked against a result, for the chosen form factors, in the order the budget lists them. */
export function checkBudget(budget: Budget, result: FinishedResult, formFactors: readonly FormFactor[]): BudgetCheck[] {
  const checks: BudgetCheck[] = [];
  for (const [key, limit] of Object.entries(budget) as Array<[BudgetKey, number]>) {
    if ((SCORE_BUDGETS as readonly string[]).includes(key)) {
      const value = result.scores[key as ScoreKey];
      checks.push({ name: key, key, formFactor: null, value, limit, kind: 'min', unit: '', passed: value >= limit });
    } else if (key === 'ttfb') {
      checks.push({
        name: 'ttfb',
        key,
        formFactor: null,
        value: result.metrics.ttfb_ms,
        limit,
        kind: 'max',
        unit: 'ms',
        passed: result.metrics.ttfb_ms <= limit,
      });
    } else {
      const { field, unit } = METRIC_BUDGETS[key as MetricBudget];
      for (const formFactor of formFactors) {
        const value = result.metrics[formFactor][field];
        checks.push({
          name: `${key} (${formFactor})`,
          key,
          formFactor,
          value,
          limit,
          kind: 'max',
          unit,
          passed: value <= limit,
        });
      }
    }
  }
  return checks;
}

/** `lcp (mobile) 3120 ms exceeds 2500 ms`, `overall 84 is below 90` */
export function describeCheck(check: BudgetCheck): string {
  const value = formatValue(check.value, check.unit);
  const limit = formatValue(check.limit, check.unit);
  if (check.passed) return `${check.name} ${value} ${check.kind === 'min' ? '≥' : '≤'} ${limit}`;
  return check.kind === 'min' ? `${check.name} ${value} is below ${limit}` : `${check.name} ${value} exceeds ${limit}`;
}

export function formatValue(value: number, unit: string): string {
  const rounded = unit === '' ? Number(value.toFixed(3)) : Math.round(value);
  return unit ? `${rounded} ${unit}` : String(rounded);
}
