/**
 * Which of several page loads of one form factor stands for the scan: the run closest to both the median
 * first contentful paint and the median time to interactive, as Lighthouse's own `computeMedianRun`
 * (lighthouse/core/lib/median-run.js, the function Lighthouse's variability guide recommends; Lighthouse CI's
 * `computeRepresentativeRuns` is the same idea). FCP and TTI mark the start and the end of the load, so the
 * chosen run is typical of the whole load, not of one metric; the median of the performance score alone can
 * still be a run with an outlying start or end.
 *
 * Followed exactly:
 * - the medians are true medians (for an even count, the mean of the two middle values);
 * - the distance is the squared Euclidean distance to (median FCP, median TTI), in milliseconds;
 * - a tie goes to the run with the lower TTI, and a tie on that to the earlier run (stable sort);
 * - a value that is missing, zero or not finite makes the run invalid (Lighthouse's `|| NaN`); only valid
 *   runs are compared (its `filterToValidRuns`). Where Lighthouse throws because no run is valid, we keep
 *   the first run: a scan whose Lighthouse measured no FCP still reports what it measured.
 */

export interface MedianCandidate {
  fcpMs: number | null;
  interactiveMs: number | null;
}

const valueOf = (ms: number | null): number => (ms !== null && Number.isFinite(ms) && ms !== 0 ? ms : NaN);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The index (into `runs`) of the median run. Throws on an empty list. */
export function medianRunIndex(runs: readonly MedianCandidate[]): number {
  if (runs.length === 0) throw new Error('no runs to choose a median from');
  const valid = runs
    .map((run, index) => ({ index, fcp: valueOf(run.fcpMs), tti: valueOf(run.interactiveMs) }))
    .filter((run) => !Number.isNaN(run.fcp) && !Number.isNaN(run.tti));
  if (valid.length === 0) return 0;
  const medianFcp = median(valid.map((run) => run.fcp));
  const medianTti = median(valid.map((run) => run.tti));
  const distance = (run: (typeof valid)[number]) => (medianFcp - run.fcp) ** 2 + (medianTti - run.tti) ** 2;
  const [chosen] = [...valid].sort((a, b) => distance(a) - distance(b) || a.tti - b.tti);
  return chosen!.index;
}
