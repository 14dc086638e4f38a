/**
 * Rank statistics for two small samples: the Mann-Whitney U test (exact distribution with ties, or the normal
 * approximation with tie and continuity correction) and the Hodges-Lehmann shift estimate.
 *
 * This file imports nothing but simple-statistics, so that the webperf command (its own package, which may not
 * import the service's code) keeps a verbatim copy in client/cli/verdicts/; a unit test holds the copy equal.
 */
import { errorFunction, median, wilcoxonRankSum } from 'simple-statistics';

/** Up to this many values in both samples together, p-values come from the exact distribution of the rank sum. */
export const EXACT_MAX_TOTAL = 60;

export interface RankTest {
  /** Mann-Whitney U of `after`: the number of (before, after) pairs where after is larger, ties counting half. */
  u: number;
  /** The rank sum of `after` in the pooled sample (midranks for ties). */
  rankSum: number;
  nBefore: number;
  nAfter: number;
  /** P(U ≥ u) under no difference: small when `after` is larger. */
  pGreater: number;
  /** P(U ≤ u) under no difference: small when `after` is smaller. */
  pLess: number;
  method: 'exact' | 'normal';
}

/** Midranks (1-based) of the pooled values, in the order given. */
export function midranks(values: readonly number[]): number[] {
  const order = values.map((value, index) => ({ value, index })).sort((a, b) => a.value - b.value);
  const ranks = new Array<number>(values.length);
  for (let start = 0; start < order.length;) {
    let end = start;
    while (end + 1 < order.length && order[end + 1]!.value === order[start]!.value) end++;
    for (let k = start; k <= end; k++) ranks[order[k]!.index] = (start + end) / 2 + 1;
    start = end + 1;
  }
  return ranks;
}

const normalCdf = (z: number): number => 0.5 * (1 + errorFunction(z / Math.SQRT2));

/**
 * The Mann-Whitney U test of `after` against `before`, both tails: exact up to EXACT_MAX_TOTAL values in all,
 * the normal approximation above (`method` forces one).
 */
export function mannWhitney(
  before: readonly number[],
  after: readonly number[],
  method: RankTest['method'] = before.length + after.length <= EXACT_MAX_TOTAL ? 'exact' : 'normal',
): RankTest {
  const n1 = before.length;
  const n2 = after.length;
  if (n1 === 0 || n2 === 0) throw new Error('the rank test needs a value on each side');
  const rankSum = wilcoxonRankSum([...after], [...before]);
  const u = rankSum - (n2 * (n2 + 1)) / 2;
  const ranks = midranks([...before, ...after]);
  const [pLess, pGreater] = method === 'exact' ? exactTails(ranks, n2, rankSum) : normalTails(ranks, n1, n2, u);
  return { u, rankSum, nBefore: n1, nAfter: n2, pGreater, pLess, method };
}

/**
 * The exact null distribution of the rank sum of `n` values drawn from the pooled midranks (every one of the
 * C(N, n) assignments equally likely), counted over doubled ranks so that half ranks stay whole numbers.
 */
function exactTails(ranks: readonly number[], n: number, rankSum: number): [number, number] {
  const doubled = ranks.map((r) => Math.round(r * 2));
  const maxSum = doubled.reduce((a, b) => a + b, 0);
  // ways[k][s]: the number of k-subsets of the ranks seen so far whose doubled sum is s.
  const ways = Array.from({ length: n + 1 }, () => new Float64Array(maxSum + 1));
  ways[0]![0] = 1;
  for (const r of doubled)
    for (let k = n; k >= 1; k--) {
      const into = ways[k]!;
      const from = ways[k - 1]!;
      for (let s = maxSum; s >= r; s--) if (from[s - r]) into[s]! += from[s - r]!;
    }
  const observed = Math.round(rankSum * 2);
  let total = 0;
  let atMost = 0;
  let atLeast = 0;
  ways[n]!.forEach((count, s) => {
    total += count;
    if (s <= observed) atMost += count;
    if (s >= observed) atLeast += count;
  });
  return [atMost / total, atLeast / total];
}

/** The normal approximation with the tie-corrected variance and a continuity correction of 1/2 (as R and SciPy). */
function normalTails(ranks: readonly number[], n1: number, n2: number, u: number): [number, number] {
  const total = n1 + n2;
  const tieSizes = new Map<number, number>();
  for (const r of ranks) tieSizes.set(r, (tieSizes.get(r) ?? 0) + 1);
  const tieTerm = [...tieSizes.values()].reduce((sum, t) => sum + (t * t * t - t), 0);
  const variance = ((n1 * n2) / 12) * (total + 1 - tieTerm / (total * (total - 1)));
  const mean = (n1 * n2) / 2;
  if (variance <= 0) return [1, 1];
  const sd = Math.sqrt(variance);
  return [normalCdf((u - mean + 0.5) / sd), 1 - normalCdf((u - mean - 0.5) / sd)];
}

/** The smallest one-sided p-value any n1 vs n2 outcome can reach (no ties): 1 / C(n1 + n2, n1). */
export function minimumOneSidedP(n1: number, n2: number): number {
  let ways = 1;
  for (let k = 1; k <= Math.min(n1, n2); k++) ways = (ways * (n1 + n2 - k + 1)) / k;
  return 1 / ways;
}

/** Hodges-Lehmann estimate of the shift from `before` to `after`: the median of every after − before difference. */
export function hodgesLehmann(before: readonly number[], after: readonly number[]): number {
  if (before.length === 0 || after.length === 0) throw new Error('the shift needs a value on each side');
  return median(after.flatMap((y) => before.map((x) => y - x)));
}
