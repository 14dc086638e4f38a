import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { networkBreakdown } from '../../activities/lighthouse/details.ts';
import { formFactorObservation, type LighthouseResult } from '../../activities/lighthouse/extract.ts';
import { METRIC_THRESHOLDS, rateValue } from '../../core/metric-thresholds.ts';
import { METRIC_RULES, rate } from '../../core/rum/metrics.ts';
import { DETAIL_LIMITS } from '../../core/scan/details.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { FAVICON_ICO, FAVICON_SVG } from '../../web/favicon.ts';
import { comparePage } from '../../web/scans/compare-page.ts';
import { barGeometry, shortUrl } from '../../web/scans/report-waterfall.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import { ratedValue, thresholdText } from '../../web/scans/report-ratings.ts';
import { cleanObservation, SCANNED_AT } from './observation-builder.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';

/**
 * The report's at-a-glance parts as pure functions: the thresholds and ratings, the requests read from
 * Lighthouse 13's network-requests and script-treemap-data (two stored results of the fixture page
 * /actionable/), the waterfall's geometry and URLs, and the report page rendering them.
 */
type Lhr = LighthouseResult & { audits: Record<string, { details?: Record<string, unknown> }> };
const lhr = (factor: 'desktop' | 'mobile') =>
  JSON.parse(
    gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures', `lhr-actionable-${factor}.json.gz`))).toString(),
  ) as Lhr;
const desktop = lhr('desktop');
const mobile = lhr('mobile');
type Row = {
  url: string;
  networkRequestTime: number;
  networkEndTime: number;
  transferSize: number;
  resourceType: string;
};
const networkRows = (l: Lhr) => l.audits['network-requests']!.details!.items as Row[];

describe('metric thresholds', () => {
  it('rates good up to and including the good threshold, poor only above the poor one', () => {
    const lcp = METRIC_THRESHOLDS.LCP;
    expect([2500, 2501, 4000, 4001].map((v) => rateValue(lcp, v))).toEqual([
      'good',
      'needs-improvement',
      'needs-improvement',
      'poor',
    ]);
    expect(rateValue(METRIC_THRESHOLDS.CLS, 0.1)).toBe('good');
    expect(rateValue(METRIC_THRESHOLDS.TBT, 601)).toBe('poor');
  });

  it('is the one source of the live-data rules', () => {
    for (const metric of ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const) {
      expect(METRIC_RULES[metric]).toMatchObject(METRIC_THRESHOLDS[metric]);
      expect(rate(metric, METRIC_THRESHOLDS[metric].poor + 1)).toBe('poor');
    }
  });

  it('writes the thresholds and the rating in words beside the colour, in English and German', () => {
    expect(thresholdText(METRIC_THRESHOLDS.LCP, 'en')).toBe('good ≤ 2.5 s, poor > 4 s');
    expect(thresholdText(METRIC_THRESHOLDS.CLS, 'de')).toBe('gut ≤ 0,1, schlecht > 0,25');
    expect(thresholdText(METRIC_THRESHOLDS.TBT, 'en')).toBe('good ≤ 200 ms, poor > 600 ms');
    const poor = ratedValue(METRIC_THRESHOLDS.LCP, 36_300, 'en').value;
    expect(poor).toContain('class="rated rating-poor"');
    expect(poor).toContain('36.3 s');
    expect(poor).toContain('>poor<');
    expect(ratedValue(METRIC_THRESHOLDS.FCP, 2000, 'de').value).toContain('>verbes\u00adserungs\u00adwürdig<');
  });
});

describe('the requests of a page load', () => {
  it("keeps Lighthouse's network requests in start order, with their times, sizes and types", () => {
    for (const l of [desktop, mobile]) {
      const n = networkBreakdown(l);
      const rows = [...networkRows(l)].sort((a, b) => a.networkRequestTime - b.networkRequestTime);
      expect(n.request_count).toBe(rows.length);
      expect(n.requests.map((r) => r.url)).toEqual(rows.map((r) => r.url));
      expect(n.requests.map((r) => r.type)).toEqual(rows.map((r) => r.resourceType));
      expect(n.requests.map((r) => r.start_ms)).toEqual(rows.map((r) => Math.round(r.networkRequestTime)));
      expect(n.requests.map((r) => r.end_ms)).toEqual(rows.map((r) => Math.round(r.networkEndTime)));
      expect(n.requests.map((r) => r.transfer_bytes)).toEqual(rows.map((r) => r.transferSize));
      const hero = n.requests.find((r) => r.url.endsWith('/actionable/hero.png'))!;
      expect(hero.end_ms - hero.start_ms).toBeGreaterThanOrEqual(1000); // the server holds the hero 1.2 s
    }
  });

  it("counts scripts and images as Lighthouse's resource summary does, the largest first, with unused script bytes", () => {
    const n = networkBreakdown(mobile);
    const summary = mobile.audits['resource-summary']!.details!.items as Array<{
      resourceType: string;
      requestCount: number;
      transferSize: number;
    }>;
    const of = (type: string) => summary.find((s) => s.resourceType === type)!;
    expect({ count: n.scripts.count, bytes: n.scripts.transfer_bytes }).toEqual({
      count: of('script').requestCount,
      bytes: of('script').transferSize,
    });
    expect({ count: n.images.count, bytes: n.images.transfer_bytes }).toEqual({
      count: of('image').requestCount,
      bytes: of('image').transferSize,
    });
    expect(n.images.items.map((i) => new URL(i.url).pathname)).toEqual([
      '/actionable/hero.png',
      '/actionable/unsized.png',
    ]);
    expect(n.scripts.items).toEqual([
      expect.objectContaining({ url: expect.stringMatching(/\/heavy\.js$/), unused_bytes: expect.any(Number) }),
    ]);
    expect(n.images.items[0]).not.toHaveProperty('unused_bytes');
  });

  it('bounds what is stored: the first 150 requests by start time, the 15 largest scripts, long URLs cut', () => {
    const many = structuredClone(mobile);
    const rows = Array.from({ length: 400 }, (_, i) => ({
      url: `https://cdn.example/${i}.js?${'q'.repeat(i === 300 ? 1000 : 1)}`,
      networkRequestTime: 400 - i,
      networkEndTime: 420 - i,
      transferSize: 1000 + i,
      resourceSize: 3000,
      statusCode: 200,
      resourceType: 'Script',
    }));
    many.audits['network-requests'] = { score: null, details: { type: 'table', items: rows } };
    const n = networkBreakdown(many);
    expect(n.request_count).toBe(400);
    expect(n.requests).toHaveLength(DETAIL_LIMITS.waterfall);
    expect(n.requests[0]!.start_ms).toBe(1);
    expect(n.requests.every((r, i) => i === 0 || r.start_ms >= n.requests[i - 1]!.start_ms)).toBe(true);
    expect(n.scripts.count).toBe(400);
    expect(n.scripts.items).toHaveLength(DETAIL_LIMITS.byteRows);
    expect(n.scripts.items[0]!.transfer_bytes).toBe(1399);
    expect(n.scripts.transfer_bytes).toBe(rows.reduce((sum, r) => sum + r.transferSize, 0));
    const long = formFactorObservation(many, 'mobile').observation.network!.requests.find((r) =>
      r.url.includes('/300.js'),
    );
    expect(long!.url).toHaveLength(DETAIL_LIMITS.text);
  });

  it('stores at most a bounded number of bytes per form factor, whatever the page: prints the worst case', () => {
    const worst = structuredClone(mobile);
    const rows = Array.from({ length: 1000 }, (_, i) => ({
      url: `https://cdn.example/${i}/${'x'.repeat(1000)}`,
      networkRequestTime: i,
      networkEndTime: 100_000 + i,
      transferSize: 10_000_000 + i,
      resourceSize: 10_000_000 + i,
      statusCode: 200,
      resourceType: i % 2 ? 'Script' : 'Image',
    }));
    worst.audits['network-requests'] = { score: null, details: { type: 'table', items: rows } };
    const started = performance.now();
    const bytes = JSON.stringify(networkBreakdown(worst)).length;
    const ms = performance.now() - started;
    // Each kept row: a URL of at most DETAIL_LIMITS.text characters and under 130 characters of keys and numbers.
    const bound = (DETAIL_LIMITS.waterfall + 2 * DETAIL_LIMITS.byteRows) * (DETAIL_LIMITS.text + 130);
    console.log(
      `requests of 1000 with 1000-character URLs: ${bytes} bytes stored (bound ${bound}), read in ${ms.toFixed(1)} ms`,
    );
    expect(bytes).toBeLessThanOrEqual(bound);
  });

  it('draws bars in percent of the time axis, with a sliver for instant requests, and shortens URLs', () => {
    expect(barGeometry(250, 750, 1000)).toEqual({ left: 25, width: 50 });
    expect(barGeometry(1000, 1000, 1000)).toEqual({ left: 100, width: 0 });
    expect(barGeometry(500, 500, 1000)).toEqual({ left: 50, width: 0.3 });
    expect(shortUrl('https://shop.example/a/b.css?v=2', 'https://shop.example/')).toBe('/a/b.css?v=2');
    expect(shortUrl('https://cdn.other.example/x.js', 'https://shop.example/')).toBe('cdn.other.example/x.js');
    const long = shortUrl(`https://shop.example/${'p'.repeat(200)}/end.js`, 'https://shop.example/');
    expect([...long]).toHaveLength(60);
    expect(long.endsWith('/end.js')).toBe(true);
    expect(shortUrl('data:image/png;base64,AAAA', 'https://shop.example/')).toBe('data:image/png;base64,AAAA');
  });
});

describe('the report at a glance', () => {
  const observation = cleanObservation({
    desktop: formFactorObservation(desktop, 'desktop').observation,
    mobile: formFactorObservation(mobile, 'mobile').observation,
  });
  const scan = finishedScan(buildResultRecord(observation, scoreScan(observation, SCANNED_AT)), {
    host: 'shop.example',
    finishedAt: SCANNED_AT,
  });

  it('rates every metric value with its thresholds, draws the waterfall and the bytes, and says WordPress was not detected', () => {
    const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: (name) => `/img/${name}` });
    const r = scan.result!;
    expect(r.scores.wordpress).toBe(100); // what the API keeps
    expect(page).toMatch(/data-score="wordpress"><b aria-hidden="true">–<\/b>WordPress: not detected<\/div>/);
    expect(page).not.toMatch(/<b>100<\/b>WordPress/);
    const lcpRow = /<tr data-metric="lcp_ms">.*?<\/tr>/s.exec(page)![0];
    expect(lcpRow).toContain('good ≤ 2.5 s, poor &gt; 4 s');
    expect(lcpRow.match(/data-rating="([a-z-]+)"/g)).toEqual(
      (['desktop', 'mobile'] as const).map(
        (f) => `data-rating="${rateValue(METRIC_THRESHOLDS.LCP, r.metrics[f].lcp_ms)}"`,
      ),
    );
    for (const factor of ['desktop', 'mobile'] as const) {
      const table = new RegExp(`<table class="waterfall" id="waterfall-${factor}">(.*?)</table>`, 's').exec(page)![1]!;
      const titles = [...table.matchAll(/<td class="wf-url"><span title="([^"]+)"/g)].map((m) => m[1]);
      expect(titles).toEqual(r.network![factor].requests.map((q) => q.url));
      const chart = new RegExp(`<div id="network-${factor}">.*?<div class="wf-chart"(.*?)</ol>`, 's').exec(page)![1]!;
      expect(chart).toMatch(/style="margin-left:\d+(\.\d+)?%;width:\d+(\.\d+)?%"/);
      expect(page).toContain(`id="scripts-${factor}"`);
      expect(page).toContain(`id="images-${factor}"`);
    }
    expect(page).toContain('JavaScript: 1 script, 197 KB');
    expect(page).toContain('Images: 2 images, 1.5 MB');
  });

  it('is in German on a German page, and a WordPress site keeps its score tile', () => {
    const page = reportPage({ scan, chrome: { locale: 'de' }, imageUrl: (name) => `/img/${name}` });
    expect(page).toContain('WordPress: nicht erkannt');
    expect(page).toContain('gut ≤ 2,5 s, schlecht &gt; 4 s');
    expect(page).toContain('<legend>Anzeigen</legend>');
    const wordpress = {
      ...scan,
      result: { ...scan.result!, isWordPress: true, scores: { ...scan.result!.scores, wordpress: 62 } },
    };
    expect(reportPage({ scan: wordpress, chrome: { locale: 'en' }, imageUrl: (n) => n })).toMatch(
      /data-score="wordpress"><b>62<\/b>WordPress<\/div>/,
    );
  });

  it('leaves the section out for results stored before scans kept their requests', () => {
    const { network: _network, ...older } = scan.result!;
    const page = reportPage({ scan: { ...scan, result: older }, chrome: { locale: 'en' }, imageUrl: (n) => n });
    expect(page).not.toContain('id="network"');
    expect(page).toContain('data-rating=');
  });

  it('compares WordPress scores only where both pages are WordPress', () => {
    const page = comparePage({ chrome: { locale: 'en' }, before: scan, after: scan, imageUrl: (_, n) => n });
    const row = /<tr data-score="wordpress">.*?<\/tr>/s.exec(page)![0];
    expect(row).toContain('not detected');
    expect(row).not.toContain('score-pill');
  });
});

describe('the favicon', () => {
  it('is one shape as SVG and as a 32 × 32 ICO holding a PNG', () => {
    expect(FAVICON_SVG.toString()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect([...FAVICON_ICO.subarray(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
    expect(FAVICON_ICO.readUInt32LE(14)).toBe(FAVICON_ICO.length - 22);
    expect(FAVICON_ICO.subarray(22, 30).toString('latin1')).toBe('\x89PNG\r\n\x1a\n');
  });
});
