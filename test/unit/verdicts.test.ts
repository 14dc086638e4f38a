import { readFileSync } from 'node:fs';
import { COPY, VERDICT_FILES, verdictCopy } from '../../client/verdicts-source.ts';
import { hodgesLehmann, mannWhitney, midranks, minimumOneSidedP } from '../../core/verdicts/statistics.ts';
import { ALPHA, decide, learnBand, MIN_HISTORY_SCANS, rankTestApplies } from '../../core/verdicts/verdict.ts';

// Hollander & Wolfe (1973), p. 69f, as in R's ?wilcox.test: permeability at term (x) and at 12-26 weeks (y).
const hwX = [0.8, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46];
const hwY = [1.15, 0.88, 0.9, 0.74, 1.21];
// NAG Library, g08amc (nag_mann_whitney) example program data and results: many ties.
// Every p-value below was also recomputed with SciPy 1.17.1 (scipy.stats.mannwhitneyu, method 'exact' or
// 'asymptotic' with and without use_continuity), and NAG's exact tail with ties by 2,000,000 random
// permutations of the midranks (0.00204); numpy.median of all differences gives the H&W shift.
const nag1 = [13, 6, 12, 7, 12, 7, 10, 7, 10, 7, 16, 7, 10, 8, 9, 8];
const nag2 = [17, 6, 10, 8, 15, 8, 15, 10, 15, 10, 14, 10, 14, 11, 14, 11, 13, 12, 13, 12, 13, 12, 12];

describe('the Mann-Whitney U test against published outputs', () => {
  it("R wilcox.test(x, y, alternative = 'greater'): W = 35, exact p-value = 0.1272", () => {
    const test = mannWhitney(hwY, hwX);
    expect(test).toMatchObject({ u: 35, method: 'exact' });
    expect(test.pGreater).toBeCloseTo(0.1272, 4);
  });

  it('R wilcox.test(x, y, alternative = "greater", exact = FALSE, correct = FALSE) gives p = 0.1103; with correct = TRUE the larger 0.1223', () => {
    // Without the continuity correction: z = (35 - 25) / sqrt(10 * 5 * 16 / 12) = 1.2247, the stated 0.1103.
    const test = mannWhitney(hwY, hwX, 'normal');
    expect(test.pGreater).toBeGreaterThan(0.1103);
    expect(test.pGreater).toBeCloseTo(0.1223, 4);
  });

  it('NAG g08amc with ties: U = 86, exact tail probability 0.0020, normal approximation 0.0025', () => {
    expect(mannWhitney(nag2, nag1)).toMatchObject({ u: 86, method: 'exact' });
    expect(mannWhitney(nag2, nag1).pLess).toBeCloseTo(0.002, 4);
    expect(mannWhitney(nag2, nag1, 'normal').pLess).toBeCloseTo(0.0025, 4);
  });

  it('SciPy mannwhitneyu(males, females) docs example: U = 17, exact two-sided p = 0.1111, asymptotic 0.11134688653314041', () => {
    const males = [19, 22, 16, 29, 24];
    const females = [20, 11, 17, 12];
    const exact = mannWhitney(females, males);
    expect(exact.u).toBe(17);
    expect(2 * Math.min(exact.pGreater, exact.pLess)).toBeCloseTo(1 / 9, 10);
    const normal = mannWhitney(females, males, 'normal');
    expect(2 * Math.min(normal.pGreater, normal.pLess)).toBeCloseTo(0.11134688653314041, 6);
  });

  it("ClickHouse mannWhitneyUTest('greater') docs example: (9, 0.04042779918503192); exact it is 1/20", () => {
    const normal = mannWhitney([1, 2, 3], [10, 11, 12], 'normal');
    expect(normal.u).toBe(9);
    expect(normal.pGreater).toBeCloseTo(0.04042779918503192, 7);
    expect(mannWhitney([1, 2, 3], [10, 11, 12]).pGreater).toBeCloseTo(0.05, 12);
  });

  it('3 vs 3 runs: one-sided 0.05 at best, so a two-sided test (0.1 at best) could never decide', () => {
    expect(minimumOneSidedP(3, 3)).toBeCloseTo(0.05, 12);
    expect(minimumOneSidedP(2, 3)).toBeCloseTo(0.1, 12);
    expect(minimumOneSidedP(2, 5)).toBeCloseTo(1 / 21, 12);
    expect([rankTestApplies(3, 3), rankTestApplies(2, 5), rankTestApplies(2, 4), rankTestApplies(1, 9)]).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  it('identical samples: U at its mean, both tails 1 (exact and normal)', () => {
    for (const method of ['exact', 'normal'] as const)
      expect(mannWhitney([5, 5, 5], [5, 5, 5], method)).toMatchObject({ u: 4.5, pGreater: 1, pLess: 1 });
  });

  it('midranks share tied positions; the two tails of the exact distribution overlap by the observed point', () => {
    expect(midranks([3, 1, 3, 2, 3])).toEqual([4, 1, 4, 2, 4]);
    const test = mannWhitney([1, 2, 2, 3], [2, 3, 3, 4]);
    expect(test.pGreater + test.pLess).toBeGreaterThan(1);
  });
});

describe('the Hodges-Lehmann shift', () => {
  it('is the median of every after − before difference (H&W data: 0.305, as R reports with conf.int = TRUE)', () => {
    expect(hodgesLehmann(hwY, hwX)).toBeCloseTo(0.305, 10);
    // By hand: differences 1, 2, 2, 3, 3, 3, 4, 4, 5.
    expect(hodgesLehmann([1, 2, 3], [4, 5, 6])).toBe(3);
  });
});

describe('verdicts', () => {
  it('3 runs each without overlap and beyond the floor: LCP 450 ms worse by the rank test, p = 0.05', () => {
    const decision = decide('lcp', [2000, 2050, 2100], [2450, 2500, 2520]);
    expect(decision).toMatchObject({ verdict: 'worse', rule: 'rank_test', method: 'exact', shift: 450, floor: 102.5 });
    if (decision.rule === 'rank_test') expect(decision.p).toBeCloseTo(ALPHA, 12);
  });

  it('a significant shift under the effect floor is no significant change (+15 ms)', () => {
    const decision = decide('lcp', [2000, 2001, 2002], [2015, 2016, 2017]);
    expect(decision).toMatchObject({ verdict: 'no_significant_change', rule: 'rank_test', shift: 15 });
  });

  it('overlapping runs are no significant change, whatever the medians', () => {
    expect(decide('tbt', [0, 300, 900], [100, 1200, 2400]).verdict).toBe('no_significant_change');
  });

  it('scores: higher is better', () => {
    expect(decide('score', [40, 42, 45], [70, 72, 75]).verdict).toBe('better');
    expect(decide('cls', [0.3, 0.31, 0.32], [0.01, 0.02, 0.02]).verdict).toBe('better');
  });

  it('identical samples are no change, with p = 1', () => {
    expect(decide('fcp', [900, 900, 900], [900, 900, 900])).toMatchObject({
      verdict: 'no_significant_change',
      rule: 'rank_test',
      p: 1,
      shift: 0,
    });
  });

  it('single runs: the default band (score 51 then 45 is noise; 51 then 40 is worse)', () => {
    expect(decide('score', [51], [45])).toMatchObject({
      verdict: 'no_significant_change',
      rule: 'noise_band',
      band: 8,
      source: { kind: 'default' },
    });
    expect(decide('score', [51], [40]).verdict).toBe('worse');
    // LCP's band grows with the page: 10 % of 4 s.
    expect(decide('lcp', [4000], [4390])).toMatchObject({ verdict: 'no_significant_change', band: 400 });
    expect(decide('lcp', [4000], [4410]).verdict).toBe('worse');
  });

  it("single runs with a learned band: 3 × the median difference of the URL's consecutive scans, at least the floor", () => {
    const history = [0, 2400, 0, 1800, 300, 2000];
    const band = learnBand('tbt', history)!;
    expect(band).toEqual({ width: 3 * 1800, scans: 6 });
    expect(decide('tbt', [0], [2400], band)).toMatchObject({
      verdict: 'no_significant_change',
      rule: 'noise_band',
      band: 5400,
      source: { kind: 'history', scans: 6 },
    });
    expect(learnBand('lcp', [2000, 2000, 2000, 2000, 2000])).toEqual({ width: 100, scans: 5 });
    expect(learnBand('lcp', [2000, 2000, 2000, 2000])).toBeNull();
    expect(MIN_HISTORY_SCANS).toBe(5);
  });

  it('too few runs for the rank test (2 vs 3, 1 vs 9) fall back to the band on the medians', () => {
    expect(decide('lcp', [2000, 2100], [2900, 3000, 3100])).toMatchObject({ rule: 'noise_band', verdict: 'worse' });
    expect(decide('lcp', [2000, 2010, 2020, 2030, 2040, 2050, 2060, 2070, 2080], [2100]).rule).toBe('noise_band');
  });

  it('refuses an empty side', () => {
    expect(() => decide('lcp', [], [1])).toThrow('a value on each side');
  });
});

describe('the webperf command carries a generated copy of the rules', () => {
  it.each(VERDICT_FILES)(
    'client/cli/verdicts/%s is what npm run client:verdicts writes from core/verdicts/',
    (file) => {
      expect(readFileSync(new URL(file, COPY), 'utf8')).toBe(verdictCopy(file));
    },
  );
});
