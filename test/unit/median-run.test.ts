// Lighthouse's own implementation: the reference we follow.
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { medianRunIndex, type MedianCandidate } from '../../core/scan/median-run.ts';

const run = (fcpMs: number | null, interactiveMs: number | null): MedianCandidate => ({ fcpMs, interactiveMs });
/** FCP and TTI equal, as in Lighthouse CI's own tests. */
const same = (...values: number[]) => values.map((v) => run(v, v));

describe('medianRunIndex (Lighthouse computeMedianRun)', () => {
  it('picks the middle run of an odd count', () => {
    expect(medianRunIndex(same(100, 200, 300, 400, 500))).toBe(2);
    expect(medianRunIndex(same(300, 100, 200))).toBe(2);
  });

  it('keeps a single run', () => {
    expect(medianRunIndex([run(1234, 5678)])).toBe(0);
    // Even one whose values Lighthouse would reject: there is nothing else to show.
    expect(medianRunIndex([run(null, null)])).toBe(0);
  });

  it('avoids a run with an outlying FCP or an outlying TTI (Lighthouse CI’s cases)', () => {
    expect(medianRunIndex([run(100, 100), run(400, 250), run(10_000, 300), run(400, 400), run(500, 500)])).toBe(1);
    expect(medianRunIndex([run(100, 100), run(200, 200), run(300, 10_000), run(400, 300), run(500, 500)])).toBe(3);
  });

  it('uses the mean of the two middle values for an even count, and breaks the tie with the lower TTI', () => {
    // Medians 250/250: runs 1 and 2 are equally far; the one with the lower TTI wins, wherever it stands.
    expect(medianRunIndex(same(100, 200, 300, 400))).toBe(1);
    expect(medianRunIndex(same(400, 300, 200, 100))).toBe(2);
    // Two runs are always equally far from their mean: the faster one (by TTI) is kept.
    expect(medianRunIndex([run(900, 3000), run(1000, 2000)])).toBe(1);
  });

  it('keeps the earlier run when distance and TTI tie', () => {
    // Medians (200, 200): every run is 100 ms away, and all are equally interactive.
    expect(medianRunIndex([run(300, 200), run(100, 200), run(300, 200), run(100, 200)])).toBe(0);
    expect(medianRunIndex([run(900, 200), run(300, 200), run(100, 200), run(300, 200), run(100, 200)])).toBe(1);
    expect(medianRunIndex(same(700, 700, 700))).toBe(0);
  });

  it('leaves out runs without a usable FCP or TTI (zero, missing, not finite), as Lighthouse’s filterToValidRuns', () => {
    expect(medianRunIndex([run(0, 500), run(300, 300), run(null, 100), run(400, 400), run(500, Number.NaN)])).toBe(1);
    expect(medianRunIndex([run(0, 0), run(Number.POSITIVE_INFINITY, 5)])).toBe(0);
  });

  it('refuses an empty list', () => {
    expect(() => medianRunIndex([])).toThrow(/no runs/);
  });

  it('chooses the same run as Lighthouse’s computeMedianRun on random runs, ties included', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    for (let trial = 0; trial < 2000; trial++) {
      const count = 1 + Math.floor(random() * 5);
      // Coarse values so that ties (equal distances, equal TTIs) happen often.
      const runs = Array.from({ length: count }, () =>
        run(100 * (1 + Math.floor(random() * 6)), 100 * (1 + Math.floor(random() * 6))),
      );
      const lhrs = runs.map((r) => ({
        audits: { 'first-contentful-paint': { numericValue: r.fcpMs }, interactive: { numericValue: r.interactiveMs } },
      }));
      expect(medianRunIndex(runs)).toBe(lhrs.indexOf(computeMedianRun(lhrs)));
    }
  });
});
