import { unwrap, type WebPerfClient } from '../index.ts';
import {
  formatValue,
  METRIC_BUDGETS,
  parseBudget,
  SCORE_BUDGETS,
  CommandError,
  UsageError,
  type Budget,
  type BudgetKey,
  type FinishedResult,
  type FormFactor,
  type ScoreKey,
} from './budget.ts';

/** One side of a comparison: a finished scan, or the median of a target's recent scheduled scans. */
export interface Operand {
  label: string;
  result: FinishedResult;
}

/** `--max-regression overall=5,lcp=300`: how much worse B may be than A (score points; metric units). */
export const parseRegression = (text: string): Budget => parseBudget(text);

const SCAN_ID = /^[0-9a-z]{26}$/;
const TARGET = /^target:([1-9][0-9]{0,14})$/;

export async function resolveOperand(client: WebPerfClient, operand: string, last: number): Promise<Operand> {
  if (SCAN_ID.test(operand)) {
    const scan = unwrap(await client.GET('/scans/{id}', { params: { path: { id: operand } } })).data;
    if (scan.status !== 'finished') throw new CommandError(`scan ${operand} is ${scan.status}, not finished`);
    return { label: `scan ${operand}`, result: scan.result };
  }
  const target = TARGET.exec(operand);
  if (!target) throw new UsageError(`"${operand}" is neither a scan id nor target:ID`);
  return targetMedian(client, Number(target[1]), last);
}

/** The median of each score and metric over the target's last `last` finished scheduled scans. */
async function targetMedian(client: WebPerfClient, targetId: number, last: number): Promise<Operand> {
  let url: string | undefined;
  for (let page = 1; url === undefined; page++) {
    const body = unwrap(await client.GET('/domains', { params: { query: { page, limit: 50 } } }));
    url = body.data.find((t) => t.id === targetId)?.url;
    if (page >= (body.meta?.last_page ?? page)) break;
  }
  if (url === undefined) throw new CommandError(`no target ${targetId} (see webperf targets)`);
  const host = new URL(url).host;
  const ids: string[] = [];
  for (let page = 1; ids.length < last; page++) {
    const body = unwrap(
      await client.GET('/scans', { params: { query: { page, limit: 50, domain: host, status: 'finished' } } }),
    );
    for (const scan of body.data) if (scan.target_id === targetId && ids.length < last) ids.push(scan.public_id);
    if (page >= (body.meta?.last_page ?? page)) break;
  }
  if (ids.length === 0) throw new CommandError(`target ${targetId} has no finished scheduled scan yet`);
  const results: FinishedResult[] = [];
  for (const id of ids) {
    const scan = unwrap(await client.GET('/scans/{id}', { params: { path: { id } } })).data;
    if (scan.status === 'finished') results.push(scan.result);
  }
  return {
    label: `target ${targetId} (median of ${results.length} scan${results.length === 1 ? '' : 's'})`,
    result: medianResult(results),
  };
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export function medianResult(results: FinishedResult[]): FinishedResult {
  const first = results[0]!;
  const scores = Object.fromEntries(
    Object.keys(first.scores).map((key) => [key, median(results.map((r) => r.scores[key as ScoreKey]))]),
  ) as FinishedResult['scores'];
  const formFactor = (ff: FormFactor) =>
    Object.fromEntries(
      Object.keys(first.metrics[ff]).map((key) => [
        key,
        median(results.map((r) => r.metrics[ff][key as keyof FinishedResult['metrics']['desktop']])),
      ]),
    ) as FinishedResult['metrics']['desktop'];
  return {
    scores,
    metrics: {
      ttfb_ms: median(results.map((r) => r.metrics.ttfb_ms)),
      desktop: formFactor('desktop'),
      mobile: formFactor('mobile'),
    },
  };
}

export interface ComparisonRow {
  name: string;
  key: BudgetKey;
  a: number;
  b: number;
  unit: string;
  /** How much worse B is than A (negative: better). */
  regression: number;
  verdict: 'better' | 'worse' | 'same';
  limit: number | null;
  /** Null when no limit applies to the row. */
  passed: boolean | null;
}

export interface Comparison {
  a: string;
  b: string;
  rows: ComparisonRow[];
  passed: boolean;
}

/** Scores (higher is better) and metrics (lower is better) side by side, with limits on how much B may regress. */
export function compareResults(a: Operand, b: Operand, formFactors: readonly FormFactor[], limits: Budget): Comparison {
  const rows: ComparisonRow[] = [];
  const add = (name: string, key: BudgetKey, av: number, bv: number, unit: string, higherIsBetter: boolean) => {
    const regression = Number((higherIsBetter ? av - bv : bv - av).toFixed(4));
    const limit = limits[key] ?? null;
    rows.push({
      name,
      key,
      a: av,
      b: bv,
      unit,
      regression,
      verdict: regression > 0 ? 'worse' : regression < 0 ? 'better' : 'same',
      limit,
      passed: limit === null ? null : regression <= limit,
    });
  };
  for (const key of SCORE_BUDGETS) add(key, key, a.result.scores[key], b.result.scores[key], '', true);
  add('ttfb', 'ttfb', a.result.metrics.ttfb_ms, b.result.metrics.ttfb_ms, 'ms', false);
  for (const formFactor of formFactors) {
    for (const [key, { field, unit }] of Object.entries(METRIC_BUDGETS)) {
      add(
        `${key} (${formFactor})`,
        key as BudgetKey,
        a.result.metrics[formFactor][field],
        b.result.metrics[formFactor][field],
        unit,
        false,
      );
    }
  }
  return { a: a.label, b: b.label, rows, passed: rows.every((row) => row.passed !== false) };
}

export function compareText(comparison: Comparison): string {
  const lines = [`A: ${comparison.a}`, `B: ${comparison.b}`, ''];
  for (const row of comparison.rows) {
    const change =
      row.verdict === 'same' ? 'same' : `${row.verdict} by ${formatValue(Math.abs(row.regression), row.unit)}`;
    const limit =
      row.limit === null
        ? ''
        : row.passed
          ? `  (within ${formatValue(row.limit, row.unit)})`
          : `  FAIL: more than ${formatValue(row.limit, row.unit)} worse`;
    lines.push(
      `${row.name.padEnd(18)} ${formatValue(row.a, row.unit).padStart(14)} → ${formatValue(row.b, row.unit).padEnd(14)} ${change}${limit}`,
    );
  }
  const failed = comparison.rows.filter((row) => row.passed === false).length;
  if (comparison.rows.some((row) => row.limit !== null))
    lines.push(
      '',
      failed ? `${failed} regression limit${failed === 1 ? '' : 's'} exceeded.` : 'No regression beyond the limits.',
    );
  return `${lines.join('\n')}\n`;
}
