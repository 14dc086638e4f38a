// Generated from core/verdicts/verdict.ts by `npm run client:verdicts`: edit the original, not this copy.
/**
 * Whether one metric got better, worse or did not change significantly between a "before" and an "after"
 * sample, and the rule that decided: the rank test where the samples are big enough for it to reach the
 * significance level, the noise band otherwise. The defaults and why: docs/verdicts.md.
 *
 * Like statistics.ts, this file imports nothing of the service: client/cli/verdicts/ holds a generated copy.
 */
import { median } from 'simple-statistics';
import { hodgesLehmann, mannWhitney, minimumOneSidedP } from './statistics.ts';

export type Verdict = 'better' | 'worse' | 'no_significant_change';

export type VerdictMetric = 'lcp' | 'fcp' | 'si' | 'tbt' | 'cls' | 'ttfb' | 'score' | 'requests' | 'bytes';

/** An amount in the metric's unit: the larger of `absolute` and `relative` × the before median. */
export interface Amount {
  absolute: number;
  relative: number;
}

export interface MetricRule {
  higherIsBetter: boolean;
  /** The smallest shift the rank test may call a change, however small its p-value. */
  floor: Amount;
  /** The default half-width of the noise band of single values, when the URL's history is too short. */
  band: Amount;
}

/**
 * One-sided in the direction of the observed shift, at p ≤ 0.05: as a test of "any change" that is a
 * two-sided test at 0.10. With 3 runs on each side the exact one-sided p reaches 0.05 (no overlap at all);
 * two-sided at 0.05 it could never go below 0.1, so 3 vs 3 runs could never tell anything.
 */
export const ALPHA = 0.05;
/** The noise band learned from a URL's history needs at least this many earlier scans (so 4 differences). */
export const MIN_HISTORY_SCANS = 5;
/** At most this many of the URL's latest scans make its history. */
export const HISTORY_SCANS = 20;
/**
 * The learned band's half-width is this many times the median absolute difference between consecutive scans:
 * for normal noise of standard deviation σ that median is 0.95σ, and 95 % of the differences of two single
 * values lie within 2.77σ ≈ 2.9 times it.
 */
export const BAND_PER_MEDIAN_DIFFERENCE = 3;

export const METRIC_RULES: Record<VerdictMetric, MetricRule> = {
  lcp: { higherIsBetter: false, floor: { absolute: 100, relative: 0.05 }, band: { absolute: 250, relative: 0.1 } },
  fcp: { higherIsBetter: false, floor: { absolute: 100, relative: 0.05 }, band: { absolute: 250, relative: 0.1 } },
  si: { higherIsBetter: false, floor: { absolute: 100, relative: 0.05 }, band: { absolute: 250, relative: 0.1 } },
  tbt: { higherIsBetter: false, floor: { absolute: 50, relative: 0 }, band: { absolute: 100, relative: 0.25 } },
  cls: { higherIsBetter: false, floor: { absolute: 0.02, relative: 0 }, band: { absolute: 0.05, relative: 0 } },
  ttfb: { higherIsBetter: false, floor: { absolute: 100, relative: 0 }, band: { absolute: 200, relative: 0.2 } },
  score: { higherIsBetter: true, floor: { absolute: 3, relative: 0 }, band: { absolute: 8, relative: 0 } },
  requests: { higherIsBetter: false, floor: { absolute: 1, relative: 0 }, band: { absolute: 3, relative: 0.1 } },
  bytes: {
    higherIsBetter: false,
    floor: { absolute: 10_000, relative: 0.02 },
    band: { absolute: 50_000, relative: 0.1 },
  },
};

const amount = (of: Amount, base: number): number => Math.max(of.absolute, of.relative * Math.abs(base));

/** A noise band learned from a URL's own history: its half-width and the number of scans it came from. */
export interface LearnedBand {
  width: number;
  scans: number;
}

/**
 * The noise band of one metric from the URL's latest scans (one value per scan, oldest first):
 * BAND_PER_MEDIAN_DIFFERENCE × the median absolute difference between consecutive scans, never narrower
 * than the metric's effect floor; null below MIN_HISTORY_SCANS scans.
 */
export function learnBand(metric: VerdictMetric, history: readonly number[]): LearnedBand | null {
  const recent = history.slice(-HISTORY_SCANS);
  if (recent.length < MIN_HISTORY_SCANS) return null;
  const differences = recent.slice(1).map((value, i) => Math.abs(value - recent[i]!));
  const width = Math.max(
    BAND_PER_MEDIAN_DIFFERENCE * median(differences),
    amount(METRIC_RULES[metric].floor, median([...recent])),
  );
  return { width, scans: recent.length };
}

interface Sides {
  before: { n: number; median: number };
  after: { n: number; median: number };
  /** after median − before median, in the metric's unit. */
  difference: number;
}

export type Decision = Sides & { verdict: Verdict } & (
    | {
        rule: 'rank_test';
        /** The one-sided p-value in the direction of the shift (1 when there is none). */
        p: number;
        u: number;
        method: 'exact' | 'normal';
        /** Hodges-Lehmann estimate of after − before. */
        shift: number;
        /** The smallest |shift| that counts as a change. */
        floor: number;
      }
    | {
        rule: 'noise_band';
        /** The band's half-width: a |difference| up to it is noise. */
        band: number;
        /** Where the band came from: the URL's own scans, or the metric's default. */
        source: { kind: 'history'; scans: number } | { kind: 'default' };
      }
  );

const directed = (metric: VerdictMetric, change: number): Verdict =>
  change === 0 ? 'no_significant_change' : change > 0 === METRIC_RULES[metric].higherIsBetter ? 'better' : 'worse';

/** True where n1 vs n2 values can reach ALPHA at all (3 vs 3, 2 vs 5, ...). */
export const rankTestApplies = (n1: number, n2: number): boolean =>
  n1 >= 2 && n2 >= 2 && minimumOneSidedP(n1, n2) <= ALPHA;

/**
 * The verdict on one metric. `band` is the URL's learned noise band, if it has one; it is used only when the
 * rank test cannot decide (too few values on a side).
 */
export function decide(
  metric: VerdictMetric,
  before: readonly number[],
  after: readonly number[],
  band: LearnedBand | null = null,
): Decision {
  if (before.length === 0 || after.length === 0) throw new Error('a verdict needs a value on each side');
  const sides: Sides = {
    before: { n: before.length, median: median([...before]) },
    after: { n: after.length, median: median([...after]) },
    difference: 0,
  };
  sides.difference = sides.after.median - sides.before.median;
  const rule = METRIC_RULES[metric];
  if (rankTestApplies(before.length, after.length)) {
    const test = mannWhitney(before, after);
    const shift = hodgesLehmann(before, after);
    const p = shift > 0 ? test.pGreater : shift < 0 ? test.pLess : 1;
    const floor = amount(rule.floor, sides.before.median);
    const significant = p <= ALPHA && Math.abs(shift) >= floor;
    return {
      ...sides,
      verdict: significant ? directed(metric, shift) : 'no_significant_change',
      rule: 'rank_test',
      p,
      u: test.u,
      method: test.method,
      shift,
      floor,
    };
  }
  const width = band?.width ?? amount(rule.band, sides.before.median);
  return {
    ...sides,
    verdict: Math.abs(sides.difference) > width ? directed(metric, sides.difference) : 'no_significant_change',
    rule: 'noise_band',
    band: width,
    source: band ? { kind: 'history', scans: band.scans } : { kind: 'default' },
  };
}
