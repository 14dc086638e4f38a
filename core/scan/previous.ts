import type { Decision } from '../verdicts/verdict.ts';
import { SCORE_KEYS, type ScoreKey } from '../scoring/categories.ts';
import { compareVerdicts, judgedChange, METRIC_FIELDS, rowValue, type RowKey, type VerdictResult } from './compare.ts';
import { FORM_FACTORS } from './form-factor.ts';
import { notApplicableCategories, type ScanResultRecord } from './result.ts';

/**
 * A finished scan compared with the previous one of its page: each row's change and verdict, as the compare
 * page judges them (core/scan/compare.ts). The report's section on it (web/scans/report-previous.ts), its
 * sentence (core/i18n/scan-changes.ts) and the API's `previous` (api/views/scan-previous.ts) read this.
 */

/** What a comparison reads of each scan's result. */
export type ComparedResult = VerdictResult & Pick<ScanResultRecord, 'scoringVersion' | 'notApplicable' | 'isWordPress'>;

export interface MetricChange {
  key: RowKey;
  /** The value each report shows (a score, TTFB, the median run's metric). */
  before: number;
  after: number;
  /** The change the verdict judged (`judgedChange`): its sign is the verdict's direction. */
  change: number;
  decision: Decision;
}

/** The rows, in order: the scores both results judged (not those "not applicable" on either), TTFB, each form factor's metrics. */
export function scanChanges(
  before: ComparedResult,
  after: ComparedResult,
  history: readonly VerdictResult[] = [],
): MetricChange[] {
  const skipped = new Set<ScoreKey>([...notApplicableCategories(before), ...notApplicableCategories(after)]);
  const verdicts = compareVerdicts(
    before,
    after,
    SCORE_KEYS.filter((key) => !skipped.has(key)),
    history,
  );
  const order: RowKey[] = [
    ...SCORE_KEYS.map((key): RowKey => `score:${key}`),
    'page:ttfb_ms',
    ...FORM_FACTORS.flatMap((factor) => METRIC_FIELDS.map((field): RowKey => `${factor}:${field}`)),
  ];
  return order.flatMap((key) => {
    const decision = verdicts.get(key);
    const [x, y] = [rowValue(before, key), rowValue(after, key)];
    if (!decision || x === null || y === null) return [];
    return [{ key, before: x, after: y, change: judgedChange(decision), decision }];
  });
}
