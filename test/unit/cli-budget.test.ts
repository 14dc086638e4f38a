import { checkBudget, describeCheck, parseBudget, UsageError, type FinishedResult } from '../../client/cli/budget.ts';
import { compareResults, medianResult } from '../../client/cli/compare.ts';
import { failedScanReport } from '../../client/cli/report.ts';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { FailedScan } from '../../client/cli/budget.ts';
import { retryAfterMs } from '../../client/retry.ts';

const metrics = (lcp: number, cls = 0.02) => ({
  fcp_ms: 900,
  lcp_ms: lcp,
  cls,
  tbt_ms: 120,
  request_count: 12,
  total_bytes: 800_000,
});
const result = (overall: number, lcp: number, ttfb = 200): FinishedResult => ({
  scores: { overall, speed: 80, images: 90, caching: 70, technical: 95, wordpress: 100 },
  metrics: { ttfb_ms: ttfb, desktop: metrics(lcp / 2), mobile: metrics(lcp) },
});

describe('budgets', () => {
  it('parses key=number lists and refuses unknown keys, repeats, bad numbers and scores above 100', () => {
    expect(parseBudget('overall=90, speed=85,lcp=2500,cls=0.1,bytes=1500000')).toEqual({
      overall: 90,
      speed: 85,
      lcp: 2500,
      cls: 0.1,
      bytes: 1_500_000,
    });
    for (const bad of ['lcp', 'lcp=fast', 'si=3', 'lcp=1,lcp=2', 'overall=120', '', 'lcp=-1'])
      expect(() => parseBudget(bad)).toThrow(UsageError);
  });

  it('checks scores as floors once and metrics as ceilings per form factor, naming value and limit', () => {
    const checks = checkBudget({ overall: 90, lcp: 2500, ttfb: 300 }, result(84, 3120), ['desktop', 'mobile']);
    expect(checks.map((c) => [c.name, c.passed])).toEqual([
      ['overall', false],
      ['lcp (desktop)', true],
      ['lcp (mobile)', false],
      ['ttfb', true],
    ]);
    expect(checks.map(describeCheck)).toEqual([
      'overall 84 is below 90',
      'lcp (desktop) 1560 ms ≤ 2500 ms',
      'lcp (mobile) 3120 ms exceeds 2500 ms',
      'ttfb 200 ms ≤ 300 ms',
    ]);
    expect(checkBudget({ cls: 0.1 }, result(90, 1000), ['mobile']).map(describeCheck)).toEqual([
      'cls (mobile) 0.02 ≤ 0.1',
    ]);
  });
});

describe('comparisons', () => {
  it('says better or worse per row and fails only rows whose regression passes the limit', () => {
    const comparison = compareResults(
      { label: 'A', result: result(90, 2000) },
      { label: 'B', result: result(86, 2600) },
      ['mobile'],
      { overall: 5, lcp: 500 },
    );
    const row = (name: string) => comparison.rows.find((r) => r.name === name)!;
    expect(row('overall')).toMatchObject({ regression: 4, verdict: 'worse', passed: true });
    expect(row('lcp (mobile)')).toMatchObject({ regression: 600, verdict: 'worse', passed: false });
    expect(row('speed')).toMatchObject({ verdict: 'same', passed: null });
    expect(comparison.passed).toBe(false);
  });

  it("takes a target's median per score and metric", () => {
    const median = medianResult([result(80, 3000), result(90, 1000), result(70, 2000, 400)]);
    expect(median.scores.overall).toBe(80);
    expect(median.metrics.mobile.lcp_ms).toBe(2000);
    expect(median.metrics.ttfb_ms).toBe(200);
  });
});

it('reads Retry-After as seconds or an HTTP date', () => {
  expect(retryAfterMs('3')).toBe(3000);
  expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(10_000);
  expect(retryAfterMs('soon')).toBeNull();
  expect(retryAfterMs(null)).toBeNull();
});

describe('a failed scan', () => {
  const scan: FailedScan = {
    public_id: 'scn_failed1',
    report_url: 'http://127.0.0.1:3000/scans/scn_failed1',
    status: 'failed',
    submitted_url: 'https://shop.example/missing',
    region: 'eu',
    auth_type: null,
    is_public: false,
    share_enabled: false,
    share_url: null,
    requested_at: '2026-11-25T08:00:00Z',
    target_id: null,
    trigger: 'request',
    finished_at: '2026-11-25T08:00:09Z',
    error: { code: 'http_error', message: 'The page answered 404 Not Found.' },
  };

  it('keeps each format machine-readable: JSON says passed false with the API error, JUnit one failing case for the scan', () => {
    expect(JSON.parse(failedScanReport(scan, 'json'))).toEqual({
      scan: 'scn_failed1',
      url: 'https://shop.example/missing',
      report_url: scan.report_url,
      status: 'failed',
      error: { code: 'http_error', message: 'The page answered 404 Not Found.' },
      budgets: [],
      passed: false,
    });
    const junit = failedScanReport(scan, 'junit');
    expect(XMLValidator.validate(junit)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(junit) as {
      testsuites: {
        '@_failures': string;
        testsuite: { testcase: { '@_name': string; failure: { '@_type': string; '#text': string } } };
      };
    };
    expect(parsed.testsuites['@_failures']).toBe('1');
    expect(parsed.testsuites.testsuite.testcase['@_name']).toBe('scan completes');
    expect(parsed.testsuites.testsuite.testcase.failure['@_type']).toBe('scan_failed');
    expect(parsed.testsuites.testsuite.testcase.failure['#text']).toContain('404 Not Found');
    expect(failedScanReport(scan, 'text')).toBe(
      `Scan scn_failed1 failed: The page answered 404 Not Found. (http_error)\nReport: ${scan.report_url}\n`,
    );
  });
});
