import { markdownSummary, parseBaseline, ruleText, verdictRows, type Baseline } from '../../client/cli/baseline.ts';
import type { FinishedScan } from '../../client/cli/budget.ts';
import { budgetFor, urlPattern } from '../../client/cli/config.ts';
import { storedRun } from '../../fixtures/finished-scan.ts';

type ApiResult = FinishedScan['result'];

/** An API result (GET /scans/{id}) with these mobile and desktop LCPs as its runs (the middle one the median). */
function result(lcps: number[], ttfb = 100): ApiResult {
  const runs = lcps.map((lcp, i) =>
    storedRun({
      performance_score: 90,
      fcp_ms: 500,
      lcp_ms: lcp,
      si_ms: 900,
      median: i === Math.floor(lcps.length / 2),
    }),
  );
  const metrics = {
    fcp_ms: 500,
    lcp_ms: lcps[Math.floor(lcps.length / 2)]!,
    cls: 0,
    tbt_ms: 0,
    request_count: 10,
    total_bytes: 100_000,
  };
  return {
    scores: { overall: 90, speed: 90, images: 100, caching: 100, technical: 100 },
    metrics: { ttfb_ms: ttfb, desktop: metrics, mobile: metrics },
    runs: { desktop: runs, mobile: runs, overall: lcps.map(() => 90) },
  } as unknown as ApiResult;
}

describe('budgets per URL pattern', () => {
  it('* stays within a path segment, ** crosses them, ? is one character; the whole URL must match', () => {
    expect(urlPattern('https://shop.example/blog/*').test('https://shop.example/blog/post-1')).toBe(true);
    expect(urlPattern('https://shop.example/blog/*').test('https://shop.example/blog/2026/post-1')).toBe(false);
    expect(urlPattern('https://shop.example/**').test('https://shop.example/blog/2026/post-1')).toBe(true);
    expect(urlPattern('https://shop.example/p?').test('https://shop.example/p1')).toBe(true);
    expect(urlPattern('https://shop.example/').test('https://shop.example/?x=1')).toBe(false);
    expect(urlPattern('https://shop.example/a+b').test('https://shop.example/a+b')).toBe(true);
  });

  it('every matching entry applies in file order, later ones winning; the command line wins over all', () => {
    const config = {
      budgets: [
        { url: 'https://shop.example/**', budget: { overall: 80, lcp: 2500 } },
        { url: 'https://shop.example/checkout/*', budget: { lcp: 3000 } },
        { url: 'https://blog.example/**', budget: { cls: 0.01 } },
      ],
    };
    expect(budgetFor(config, 'https://shop.example/checkout/pay', {})).toEqual({ overall: 80, lcp: 3000 });
    expect(budgetFor(config, 'https://shop.example/', { overall: 90 })).toEqual({ overall: 90, lcp: 2500 });
    expect(budgetFor(null, 'https://shop.example/', { tbt: 200 })).toEqual({ tbt: 200 });
  });
});

describe('verdicts of the webperf command (the same rules as the compare page)', () => {
  it('parses --baseline', () => {
    expect(parseBaseline(`scan:${'a'.repeat(26)}`)).toEqual({ kind: 'scan', id: 'a'.repeat(26) });
    expect(parseBaseline('target:12')).toEqual({ kind: 'target', id: '12' });
    expect(() => parseBaseline('target:x')).toThrow('--baseline must be scan:<scan id> or target:<target id>');
  });

  it('a scan baseline with 3 runs against a new scan with 3 runs: the rank test, LCP worse', () => {
    const baseline: Baseline = { label: 'scan a', kind: 'scan', results: [result([2000, 2050, 2100])] };
    const rows = verdictRows(baseline, result([2450, 2500, 2520]), ['mobile']);
    const lcp = rows.find((row) => row.name === 'lcp (mobile)')!;
    expect(lcp.decision).toMatchObject({ verdict: 'worse', rule: 'rank_test', shift: 450 });
    expect(ruleText(lcp)).toBe('rank test, 3 vs 3: p = 0.05, shift +450 ms');
    expect(rows.find((row) => row.name === 'fcp (mobile)')!.decision.verdict).toBe('no_significant_change');
    expect(rows.map((row) => row.name)).toEqual([
      'overall',
      'speed',
      'images',
      'caching',
      'technical',
      'ttfb',
      'fcp (mobile)',
      'lcp (mobile)',
      'si (mobile)',
      'tbt (mobile)',
      'cls (mobile)',
      'requests (mobile)',
      'bytes (mobile)',
    ]);
  });

  it('a target baseline: one value per scheduled scan, the band learned from them for a single-run scan', () => {
    const history = [100, 200, 110, 190, 120].map((ttfb) => result([2000], ttfb));
    const rows = verdictRows({ label: 'target 1', kind: 'target', results: history }, result([2000], 300), ['desktop']);
    const ttfb = rows.find((row) => row.name === 'ttfb')!;
    expect(ttfb.decision).toMatchObject({
      verdict: 'no_significant_change',
      rule: 'noise_band',
      band: 255,
      source: { kind: 'history', scans: 5 },
    });
    expect(ruleText(ttfb)).toBe('noise band ±255 ms (learned from 5 scans)');
  });

  it('the Markdown summary: a budget table, then a row per metric with verdict, shape and rule', () => {
    const baseline: Baseline = { label: 'scan a', kind: 'scan', results: [result([2000, 2050, 2100])] };
    const rows = verdictRows(baseline, result([2450, 2500, 2520]), ['mobile']);
    const markdown = markdownSummary({
      url: 'https://shop.example/a|b',
      reportUrl: 'https://perf.example/reports/x',
      baseline: 'scan a',
      budgets: [{ text: 'lcp (mobile) 2500 ms ≤ 3000 ms', passed: true }],
      rows,
    });
    expect(markdown).toContain('### webperf: https://shop.example/a\\|b\n');
    expect(markdown).toContain('| lcp (mobile) 2500 ms ≤ 3000 ms | ✅ pass |\n');
    expect(markdown).toContain('| metric | before | after | verdict | rule |\n');
    expect(markdown).toContain(
      '| lcp (mobile) | 2050 ms | 2500 ms | ❌ worse | rank test, 3 vs 3: p = 0.05, shift +450 ms |\n',
    );
    expect(markdown).toContain(
      '| fcp (mobile) | 500 ms | 500 ms | ➖ no significant change | rank test, 3 vs 3: p = 1, shift ±0 |\n',
    );
  });
});
