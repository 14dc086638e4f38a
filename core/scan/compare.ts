import { FORM_FACTORS, type FormFactor } from './form-factor.ts';
import type { FormFactorMetrics, RunRecord, ScanResultRecord } from './result.ts';
import type { ScoreKey } from '../scoring/categories.ts';
import { decide, HISTORY_SCANS, learnBand, type Decision, type VerdictMetric } from '../verdicts/verdict.ts';

/**
 * Two scans compared row by row with the verdict rules of core/verdicts/: what the compare page, the report's
 * comparison with the previous scan and the API's `previous` all judge, so that they always agree.
 */

/** What a verdict reads of a result: the median values, TTFB, and each run's where the scan had several. */
export type VerdictResult = Pick<ScanResultRecord, 'scores' | 'metrics' | 'runs' | 'ttfbMs'>;

/** A row of a comparison: a score, TTFB (measured once per scan), or a metric of one form factor (Speed Index only where runs are stored). */
export type MetricField = keyof FormFactorMetrics | 'si_ms';
export type RowKey = `score:${ScoreKey}` | 'page:ttfb_ms' | `${FormFactor}:${MetricField}`;

/** The per-form-factor rows, in the compare page's order. */
export const METRIC_FIELDS: readonly MetricField[] = [
  'fcp_ms',
  'lcp_ms',
  'cls',
  'tbt_ms',
  'si_ms',
  'request_count',
  'total_bytes',
];

const METRIC_OF: Record<MetricField, VerdictMetric> = {
  fcp_ms: 'fcp',
  lcp_ms: 'lcp',
  si_ms: 'si',
  tbt_ms: 'tbt',
  cls: 'cls',
  request_count: 'requests',
  total_bytes: 'bytes',
};
const PER_RUN: ReadonlySet<MetricField> = new Set(['fcp_ms', 'lcp_ms', 'si_ms', 'tbt_ms', 'cls']);

/** The verdict rules' name of a row's metric (`lcp`, `ttfb`, `score`). */
export const verdictMetricOf = (key: RowKey): VerdictMetric =>
  key.startsWith('score:') ? 'score' : key === 'page:ttfb_ms' ? 'ttfb' : METRIC_OF[key.split(':')[1] as MetricField];

/** The runs a verdict counts: those the machine was not too busy for, unless every one was. */
const usableRuns = (result: Pick<VerdictResult, 'runs'>, factor: FormFactor): RunRecord[] => {
  const runs = result.runs?.[factor] ?? [];
  const calm = runs.filter((run) => !run.overloaded);
  return calm.length ? calm : runs;
};

/** The one value of a row the result reports (the median run's), or null where it has none. */
export function medianValue(
  result: Pick<VerdictResult, 'metrics' | 'runs'>,
  factor: FormFactor,
  field: MetricField,
): number | null {
  if (field !== 'si_ms') return result.metrics[factor][field];
  return result.runs?.[factor]?.find((run) => run.median)?.si_ms ?? null;
}

/** The value a report shows for a row (a score, TTFB, the median run's metric), or null where it has none. */
export function rowValue(result: VerdictResult, key: RowKey): number | null {
  if (key.startsWith('score:')) return result.scores[key.slice('score:'.length) as ScoreKey];
  if (key === 'page:ttfb_ms') return typeof result.ttfbMs === 'number' ? result.ttfbMs : null;
  const [factor, field] = key.split(':') as [FormFactor, MetricField];
  return medianValue(result, factor, field);
}

function sample(result: VerdictResult, factor: FormFactor, field: MetricField): number[] | null {
  const runs = usableRuns(result, factor);
  if (PER_RUN.has(field) && runs.length > 1) return runs.map((run) => run[field as keyof RunRecord] as number);
  const value = medianValue(result, factor, field);
  return value === null ? null : [value];
}

function scoreSample(result: VerdictResult, key: ScoreKey): number[] {
  const overall = result.runs?.overall ?? [];
  return key === 'overall' && overall.length > 1 ? overall : [result.scores[key]];
}

/**
 * The change a verdict judged, in the metric's unit: the Hodges-Lehmann shift of the runs where the rank test
 * decided, the difference of the medians where the noise band did. Its sign is the verdict's direction, so a
 * difference shown with a verdict is this, never the difference of the two reported values: those are each
 * scan's median run (chosen by FCP and TTI, as Lighthouse does), whose LCP or CLS can lie on the other side.
 */
export const judgedChange = (decision: Decision): number =>
  decision.rule === 'rank_test' ? decision.shift : decision.difference;

/**
 * Each row's verdict. `history` is the account's latest finished scans of the compared address, oldest first
 * (empty when the two scans are of different addresses): a row's single values are judged by the noise band
 * learned from it when it is long enough, else by the metric's default band.
 */
export function compareVerdicts(
  before: VerdictResult,
  after: VerdictResult,
  scoreKeys: readonly ScoreKey[],
  history: readonly VerdictResult[] = [],
): Map<RowKey, Decision> {
  const recent = history.slice(-HISTORY_SCANS);
  const verdicts = new Map<RowKey, Decision>();
  for (const key of scoreKeys)
    verdicts.set(
      `score:${key}`,
      decide(
        'score',
        scoreSample(before, key),
        scoreSample(after, key),
        learnBand(
          'score',
          recent.map((r) => r.scores[key]),
        ),
      ),
    );
  const [ttfbBefore, ttfbAfter] = [rowValue(before, 'page:ttfb_ms'), rowValue(after, 'page:ttfb_ms')];
  if (ttfbBefore !== null && ttfbAfter !== null) {
    const past = recent.map((r) => rowValue(r, 'page:ttfb_ms')).filter((v): v is number => v !== null);
    verdicts.set('page:ttfb_ms', decide('ttfb', [ttfbBefore], [ttfbAfter], learnBand('ttfb', past)));
  }
  for (const factor of FORM_FACTORS)
    for (const field of METRIC_FIELDS) {
      const [x, y] = [sample(before, factor, field), sample(after, factor, field)];
      if (!x || !y) continue;
      const past = recent.map((r) => medianValue(r, factor, field)).filter((v): v is number => v !== null);
      verdicts.set(`${factor}:${field}`, decide(METRIC_OF[field], x, y, learnBand(METRIC_OF[field], past)));
    }
  return verdicts;
}
