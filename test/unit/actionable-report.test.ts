import { METRIC_THRESHOLDS, rateValue } from '../../core/metric-thresholds.ts';
import { DETAIL_LIMITS } from '../../core/scan/details.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { actionableObservation, auditNode, auditRows, type Lhr } from '../../fixtures/actionable-results.ts';
import { finishedScan } from '../../fixtures/finished-scan.ts';
import { expectReportNamesEachFault, finishedResultView } from '../harness/actionable-report-page.ts';
import { installedLighthouseVersion, readRecording, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/**
 * The actionable report against Lighthouse's own JSON of the same run: a recorded real run of the fixture page
 * /actionable/ (a late hero image, a render-blocking stylesheet, an unsized image, a banner that shifts the
 * page, a heavy script from a second origin), desktop and mobile, by the real scan runner
 * (fixtures/recorded/lighthouse-<version>/actionable.json.br, `npm run record:lighthouse`). The runner's
 * extraction, the scoring, the API view and the report page are fed that run's Lighthouse results, and what
 * they say must be what Lighthouse's JSON says: the findings' items and savings, the diagnostics, the rated
 * metrics, the request waterfall and the script and image bytes. test/scans/actionable-report.test.ts checks
 * the same end to end on a real Lighthouse run.
 */
/** The host the recording is read under (any will do: the recording names the host it is read with). */
const ORIGIN = 'http://127.0.0.1:4321';
const lhr = {} as Record<FormFactor, Lhr>;
let obs: ScanObservation;
let extractionMs = 0;
/** Of extractionMs, the time reading the requests (the waterfall and the bytes) takes. */
let networkMs = 0;
/** The fixture sites' second origin (`http://localhost:<port>` when recorded), where the heavy script came from. */
let thirdParty: string;

beforeAll(() => {
  const version = installedLighthouseVersion();
  const recording = readRecording(version, `${ORIGIN}/actionable/`);
  if (recording?.kind !== 'observation')
    throw new Error(`no recording of /actionable/ for Lighthouse ${version}: run ${RECORD_COMMAND}`);
  for (const report of recording.reports) lhr[report.formFactor] = JSON.parse(report.json) as Lhr;
  expect(Object.keys(lhr).sort()).toEqual([...FORM_FACTORS].sort());
  ({ obs, extractionMs, networkMs } = actionableObservation(lhr, `${ORIGIN}/actionable/`));
  const heavy = auditRows(lhr.desktop.audits['network-requests'])
    .map((r) => String(r.url))
    .find((url) => new URL(url).pathname === '/heavy.js');
  thirdParty = new URL(heavy!).origin;
});

it('is a recording of the fixture page: its own origin, the heavy script from the second origin', () => {
  for (const factor of FORM_FACTORS) expect(lhr[factor].finalDisplayedUrl).toBe(`${ORIGIN}/actionable/`);
  expect(thirdParty).toMatch(/^http:\/\/localhost:\d+$/);
});

it('names the LCP element Lighthouse names, with its phases, on each form factor', () => {
  const record = buildResultRecord(obs, scoreScan(obs, new Date()));
  for (const factor of FORM_FACTORS) {
    const lcp = record.diagnostics![factor].lcp;
    expect(lcp.element!.selector).toBe(auditNode(lhr[factor].audits['lcp-breakdown-insight'])!.selector);
    expect(lcp.element!.selector).toBe('body > main > img#hero');
    expect(lcp.phases!.load_time_ms).toBeGreaterThanOrEqual(1000); // the hero is held 1.2 s by the server
  }
});

it('lists the render-blocking URLs, the shifted elements, the third party and the main-thread work as Lighthouse does', () => {
  const record = buildResultRecord(obs, scoreScan(obs, new Date()));
  for (const factor of FORM_FACTORS) {
    const d = record.diagnostics![factor];
    expect(d.render_blocking.map((r) => r.url)).toEqual(
      auditRows(lhr[factor].audits['render-blocking-insight']).map((r) => r.url),
    );
    expect(d.render_blocking.map((r) => new URL(r.url).pathname)).toEqual(['/actionable/blocking.css']);
    expect(d.third_parties.map((p) => p.entity)).toEqual(
      auditRows(lhr[factor].audits['third-parties-insight']).map((r) => r.entity),
    );
    expect(d.third_parties).toEqual([expect.objectContaining({ entity: 'localhost', recognized: false })]);
    expect(d.third_parties[0]!.transfer_bytes).toBeGreaterThan(150_000);
    expect(d.layout_shifts.length).toBeGreaterThan(0);
    expect(d.main_thread.map((w) => w.category)).toContain('scriptEvaluation');
  }
});

it("gives findings the items and savings of Lighthouse's JSON, one finding for both form factors", () => {
  const { findings } = scoreScan(obs, new Date());
  const codes = findings.map((f) => f.code);
  expect(new Set(codes).size).toBe(codes.length);
  const oversized = findings.find((f) => f.code === 'images.oversized')!;
  for (const factor of FORM_FACTORS) {
    const insight = lhr[factor].audits['image-delivery-insight']!;
    const lighthouseMs = Math.max(...['FCP', 'LCP', 'TBT', 'INP'].map((m) => insight.metricSavings?.[m] ?? 0));
    expect(oversized.savings![factor]).toEqual({
      ms: Math.round(lighthouseMs),
      bytes: (insight.details!.debugData as { wastedBytes: number }).wastedBytes,
    });
  }
  expect(oversized.items!.map((i) => i.url)).toEqual(
    expect.arrayContaining(auditRows(lhr.mobile.audits['image-delivery-insight']).map((r) => r.url)),
  );
  expect(findings.find((f) => f.code === 'images.unsized')!.items!.map((i) => i.selector)).toContain(
    'body > main > img.unsized',
  );
  const tbt = findings.find((f) => f.code === 'speed.tbt-high');
  if (tbt) expect(tbt.items!.map((i) => i.url)).toContain(`${thirdParty}/heavy.js`);
});

it('passes the OpenAPI schema of the result, and the report page names each fault with savings in ms and KB', () => {
  const finishedAt = new Date();
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  expectReportNamesEachFault(record, finishedAt);
  const bytes = JSON.stringify(record).length;
  const bare = JSON.stringify({
    ...record,
    diagnostics: undefined,
    findings: record.findings.map(({ category, code, severity, params }) => ({ category, code, severity, params })),
  }).length;
  console.log(
    `extraction of both form factors: ${extractionMs.toFixed(1)} ms; stored result ${bytes} bytes, of which the new fields ${bytes - bare}`,
  );
});

const unescape = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

it("rates each metric value on the report by its thresholds, Lighthouse's value against the threshold named beside it", () => {
  const finishedAt = new Date();
  const page = reportPage({
    scan: finishedScan(buildResultRecord(obs, scoreScan(obs, finishedAt)), { finishedAt }),
    chrome: { locale: 'en' },
    imageUrl: (name) => `/img/${name}`,
  });
  const metrics = [
    {
      key: 'fcp_ms',
      audit: 'first-contentful-paint',
      threshold: METRIC_THRESHOLDS.FCP,
      text: 'good ≤ 1.8 s, poor &gt; 3 s',
    },
    {
      key: 'lcp_ms',
      audit: 'largest-contentful-paint',
      threshold: METRIC_THRESHOLDS.LCP,
      text: 'good ≤ 2.5 s, poor &gt; 4 s',
    },
    {
      key: 'cls',
      audit: 'cumulative-layout-shift',
      threshold: METRIC_THRESHOLDS.CLS,
      text: 'good ≤ 0.1, poor &gt; 0.25',
    },
    {
      key: 'tbt_ms',
      audit: 'total-blocking-time',
      threshold: METRIC_THRESHOLDS.TBT,
      text: 'good ≤ 200 ms, poor &gt; 600 ms',
    },
  ];
  for (const { key, audit, threshold, text } of metrics) {
    const row = new RegExp(`<tr data-metric="${key}">(.*?)</tr>`, 's').exec(page)![1]!;
    expect(row).toContain(`<span class="threshold">${text}</span>`);
    const ratings = [...row.matchAll(/data-rating="([a-z-]+)"/g)].map((m) => m[1]);
    const words = [...row.matchAll(/<span class="rating-word">([^<]+)<\/span>/g)].map((m) => m[1]);
    const expected = FORM_FACTORS.map((f) => {
      const value = lhr[f].audits[audit]!.numericValue!;
      return rateValue(threshold, key === 'cls' ? Math.round(value * 1000) / 1000 : Math.round(value));
    });
    expect(ratings).toEqual(expected);
    expect(words).toEqual(expected.map((r) => r.replace('-', ' ')));
  }
  // The hero is held 1.2 s and the heavy script runs long on a throttled phone: not everything is good there.
  expect(page).toMatch(/data-rating="(needs-improvement|poor)"/);
});

it("draws each form factor's request waterfall from Lighthouse's network requests, and the script and image bytes", () => {
  const finishedAt = new Date();
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  const page = reportPage({ scan: finishedScan(record, { finishedAt }), chrome: { locale: 'en' }, imageUrl: (n) => n });
  for (const factor of FORM_FACTORS) {
    const requests = auditRows(lhr[factor].audits['network-requests']) as Array<{
      url: string;
      networkRequestTime: number;
      networkEndTime: number;
      transferSize: number;
    }>;
    const inStartOrder = [...requests].sort((a, b) => a.networkRequestTime - b.networkRequestTime);
    const table = new RegExp(`<table class="waterfall" id="waterfall-${factor}">(.*?)</table>`, 's').exec(page)![1]!;
    const shown = [...table.matchAll(/<td class="wf-url"><span title="([^"]+)"/g)].map((m) => unescape(m[1]!));
    expect(shown).toEqual(inStartOrder.slice(0, DETAIL_LIMITS.waterfall).map((r) => r.url));
    expect(shown.map((url) => new URL(url).pathname)).toEqual(
      expect.arrayContaining(['/actionable/', '/actionable/blocking.css', '/actionable/hero.png', '/heavy.js']),
    );
    const chart = new RegExp(`<div id="network-${factor}">.*?<div class="wf-chart"(.*?)</ol>`, 's').exec(page)![1]!;
    expect([...chart.matchAll(/class="wf-req [a-z -]+" style="margin-left:[\d.]+%;width:[\d.]+%"/g)]).toHaveLength(
      shown.length,
    );
    const hero = record.network![factor].requests.find((r) => r.url.endsWith('/actionable/hero.png'))!;
    const lighthouseHero = requests.find((r) => r.url.endsWith('/actionable/hero.png'))!;
    expect(hero).toMatchObject({
      type: 'Image',
      start_ms: Math.round(lighthouseHero.networkRequestTime),
      end_ms: Math.round(lighthouseHero.networkEndTime),
      transfer_bytes: lighthouseHero.transferSize,
    });
    const summary = auditRows(lhr[factor].audits['resource-summary']) as Array<{
      resourceType: string;
      requestCount: number;
      transferSize: number;
    }>;
    const of = (type: string) => summary.find((s) => s.resourceType === type)!;
    const { scripts, images } = record.network![factor];
    expect([scripts.count, scripts.transfer_bytes]).toEqual([of('script').requestCount, of('script').transferSize]);
    expect([images.count, images.transfer_bytes]).toEqual([of('image').requestCount, of('image').transferSize]);
    expect(scripts.items.map((i) => i.url)).toEqual([`${thirdParty}/heavy.js`]);
    expect(images.items.map((i) => new URL(i.url).pathname)).toEqual([
      '/actionable/hero.png',
      '/actionable/unsized.png',
    ]);
    const scriptTable = new RegExp(`<table class="bytes" id="scripts-${factor}">(.*?)</table>`, 's').exec(page)![1]!;
    expect(scriptTable).toContain(`title="${thirdParty}/heavy.js"`);
    const imageTable = new RegExp(`<table class="bytes" id="images-${factor}">(.*?)</table>`, 's').exec(page)![1]!;
    expect(imageTable.indexOf('hero.png')).toBeLessThan(imageTable.indexOf('unsized.png'));
  }
});

it('shows WordPress as not detected on the report of a page that is not WordPress, while the API keeps its integer', () => {
  const finishedAt = new Date();
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  expect(record.isWordPress).toBe(false);
  const { scan, view } = finishedResultView(record, finishedAt);
  expect(view.scores.wordpress).toBe(100);
  expect(view).not.toHaveProperty('network');
  const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: (n) => n });
  const tile = /<div class="score[^"]*" data-score="wordpress">.*?<\/div>/s.exec(page)![0];
  expect(tile).toContain('WordPress: not detected');
  expect(tile).not.toContain('100');
});

it('keeps the requests it stores bounded: prints the time their extraction takes and the bytes they add', () => {
  const record = buildResultRecord(obs, scoreScan(obs, new Date()));
  const all = JSON.stringify(record).length;
  const network = JSON.stringify(record.network).length;
  console.log(
    `requests (waterfall and bytes) of both form factors: extraction ${networkMs.toFixed(2)} ms of ${extractionMs.toFixed(1)} ms; stored ${network} bytes of the result's ${all}`,
  );
  for (const factor of FORM_FACTORS) {
    expect(record.network![factor].requests.length).toBeLessThanOrEqual(DETAIL_LIMITS.waterfall);
    expect(record.network![factor].request_count).toBe(auditRows(lhr[factor].audits['network-requests']).length);
  }
  expect(network).toBeGreaterThan(0);
});
