import { FORM_FACTORS, type FormFactor } from '../../core/scan/observation.ts';
import type { FormFactorMetrics, RunRecord, ScanResultRecord } from '../../core/scan/result.ts';
import type { ScoreKey } from '../../core/scoring/categories.ts';
import { decide, HISTORY_SCANS, learnBand, type Decision, type VerdictMetric } from '../../core/verdicts/verdict.ts';

/** What a verdict reads of a result: the median values, and each run's where the scan had several. */
export type VerdictResult = Pick<ScanResultRecord, 'scores' | 'metrics' | 'runs'>;

/** A row of the compare page: a score, or a metric of one form factor (Speed Index only where runs are stored). */
export type MetricField = keyof FormFactorMetrics | 'si_ms';
export type RowKey = `score:${ScoreKey}` | `${FormFactor}:${MetricField}`;

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

/** The runs a verdict counts: those the machine was not too busy for, unless every one was. */
const usableRuns = (result: VerdictResult, factor: FormFactor): RunRecord[] => {
  const runs = result.runs?.[factor] ?? [];
  const calm = runs.filter((run) => !run.overloaded);
  return calm.length ? calm : runs;
};

/** The one value of a row the result reports (the median run's), or null where it has none. */
export function medianValue(result: VerdictResult, factor: FormFactor, field: MetricField): number | null {
  if (field !== 'si_ms') return result.metrics[factor][field];
  return result.runs?.[factor]?.find((run) => run.median)?.si_ms ?? null;
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
  for (const factor of FORM_FACTORS)
    for (const field of Object.keys(METRIC_OF) as MetricField[]) {
      const [x, y] = [sample(before, factor, field), sample(after, factor, field)];
      if (!x || !y) continue;
      const past = recent.map((r) => medianValue(r, factor, field)).filter((v): v is number => v !== null);
      verdicts.set(`${factor}:${field}`, decide(METRIC_OF[field], x, y, learnBand(METRIC_OF[field], past)));
    }
  return verdicts;
}
