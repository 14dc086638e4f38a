import {
  cwvVerdict,
  exactQuantile,
  rate,
  roundMetric,
  RUM_METRICS,
  type MetricSummary,
  type RumMetric,
} from '../../core/rum/metrics.ts';
import { historyWindow, monthWindow, periodWindow } from '../../core/rum/periods.ts';
import { collectorScriptUrl, embedSnippet, normaliseRumDomain } from '../../core/rum/site.ts';

describe('rate', () => {
  it.each([
    ['LCP', 2500, 'good'],
    ['LCP', 2501, 'needs-improvement'],
    ['LCP', 4000, 'needs-improvement'],
    ['LCP', 4001, 'poor'],
    ['INP', 200, 'good'],
    ['INP', 201, 'needs-improvement'],
    ['INP', 500, 'needs-improvement'],
    ['INP', 501, 'poor'],
    ['CLS', 0.1, 'good'],
    ['CLS', 0.1001, 'needs-improvement'],
    ['CLS', 0.25, 'needs-improvement'],
    ['CLS', 0.2501, 'poor'],
    ['FCP', 1800, 'good'],
    ['FCP', 1801, 'needs-improvement'],
    ['FCP', 3000, 'needs-improvement'],
    ['FCP', 3001, 'poor'],
    ['TTFB', 800, 'good'],
    ['TTFB', 801, 'needs-improvement'],
    ['TTFB', 1800, 'needs-improvement'],
    ['TTFB', 1801, 'poor'],
    ['LCP', 0, 'good'],
  ] as Array<[RumMetric, number, string]>)('%s %d is %s', (metric, value, rating) => {
    expect(rate(metric, value)).toBe(rating);
  });
});

describe('cwvVerdict', () => {
  const summaries = (overrides: Partial<Record<RumMetric, MetricSummary>>): Record<RumMetric, MetricSummary> => ({
    ...(Object.fromEntries(RUM_METRICS.map((m) => [m, { p75: m === 'CLS' ? 0.05 : 100, samples: 20 }])) as Record<
      RumMetric,
      MetricSummary
    >),
    ...overrides,
  });
  it('passes with all three good and 20 samples each, whatever FCP and TTFB say', () => {
    expect(cwvVerdict(summaries({ FCP: { p75: 9000, samples: 1 }, TTFB: { p75: null, samples: 0 } }))).toEqual({
      cwv_pass: true,
      cwv_insufficient_data: false,
    });
  });
  it('fails when one of them is not good with 20 samples each', () => {
    expect(cwvVerdict(summaries({ INP: { p75: 201, samples: 20 } }))).toEqual({
      cwv_pass: false,
      cwv_insufficient_data: false,
    });
    expect(cwvVerdict(summaries({ CLS: { p75: 0.3, samples: 500 } }))).toEqual({
      cwv_pass: false,
      cwv_insufficient_data: false,
    });
  });
  it('has no verdict with 19 samples of any of them, even a poor one', () => {
    for (const metric of ['LCP', 'CLS', 'INP'] as const) {
      expect(cwvVerdict(summaries({ [metric]: { p75: 99_999, samples: 19 } }))).toEqual({
        cwv_pass: null,
        cwv_insufficient_data: true,
      });
    }
    expect(cwvVerdict(summaries({ LCP: { p75: null, samples: 0 } }))).toEqual({
      cwv_pass: null,
      cwv_insufficient_data: true,
    });
  });
});

describe('exactQuantile', () => {
  it('takes the value at 0-based rank floor(q × n)', () => {
    expect(exactQuantile([], 0.75)).toBeNull();
    expect(exactQuantile([7], 0.75)).toBe(7);
    expect(exactQuantile([1, 2, 3, 4], 0.75)).toBe(4);
    expect(exactQuantile([1, 2, 3, 4], 0.5)).toBe(3);
    expect(exactQuantile([1, 2, 3], 0.75)).toBe(3);
    expect(
      exactQuantile(
        Array.from({ length: 100 }, (_, i) => i + 1),
        0.75,
      ),
    ).toBe(76);
  });
});

describe('roundMetric', () => {
  it('reports whole milliseconds and CLS to four decimals', () => {
    expect(roundMetric('LCP', 2500.4)).toBe(2500);
    expect(roundMetric('CLS', 0.123456)).toBe(0.1235);
  });
});

describe('windows', () => {
  const now = new Date('2026-03-01T00:30:15.500Z');
  it('periods roll back from the current second; history counts UTC days including today; the month is the UTC month', () => {
    expect(periodWindow('24h', now)).toEqual({
      from: new Date('2026-02-28T00:30:16Z'),
      to: new Date('2026-03-01T00:30:16Z'),
    });
    expect(historyWindow(7, now)).toEqual({
      from: new Date('2026-02-23T00:00:00Z'),
      to: new Date('2026-03-02T00:00:00Z'),
    });
    expect(monthWindow(now)).toEqual({ from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-04-01T00:00:00Z') });
    expect(monthWindow(new Date('2026-12-31T23:59:59Z')).to).toEqual(new Date('2027-01-01T00:00:00Z'));
  });
});

describe('normaliseRumDomain', () => {
  it.each([
    ['example.com', 'example.com'],
    ['  Shop.Example.COM. ', 'shop.example.com'],
    ['https://www.example.com:8443/path?q=1#x', 'www.example.com'],
    ['example.com/path', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['HTTP://XN--BCHER-KVA.example', 'xn--bcher-kva.example'],
  ])('%s -> %s', (input, domain) => {
    expect(normaliseRumDomain(input)).toEqual({ ok: true, domain });
  });
  it.each([
    '',
    '  ',
    '10.0.0.1',
    'http://127.0.0.1/',
    '[::1]',
    'http://[2001:db8::1]/',
    'localhost',
    'a.localhost',
    'intranet',
    'ftp://example.com',
    'javascript://example.com',
    'user:pw@example.com',
    'ex_ample.com',
    '-bad.example',
    'a..example',
    'example.123',
    `${'a'.repeat(64)}.example`,
    `${'a.'.repeat(127)}example`,
  ])('%s is refused', (input) => {
    expect(normaliseRumDomain(input).ok).toBe(false);
  });
});

describe('embedSnippet', () => {
  const src = collectorScriptUrl('https://rum.example.com/');
  it('is the spec tag (src, data-site-id, async) at 100 %', () => {
    expect(embedSnippet(src, 'abc123')).toBe(
      '<script src="https://rum.example.com/c/1/rum.js" data-site-id="abc123" async></script>',
    );
    expect(embedSnippet(src, 'abc123', 100)).toBe(embedSnippet(src, 'abc123'));
  });
  it('carries a sample rate below 100 % for the script to apply', () => {
    expect(embedSnippet(src, 'abc123', 25)).toBe(
      '<script src="https://rum.example.com/c/1/rum.js" data-site-id="abc123" data-sample="25" async></script>',
    );
  });
  it('escapes attribute values', () => {
    expect(embedSnippet('https://x.example/"><b>', 'a"b')).toBe(
      '<script src="https://x.example/&quot;>&lt;b>" data-site-id="a&quot;b" async></script>',
    );
  });
});
