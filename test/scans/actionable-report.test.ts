import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import {
  formFactorObservation,
  responseObservations,
  type LighthouseResult,
} from '../../activities/lighthouse/extract.ts';
import { resultView } from '../../api/views/scans.ts';
import { resultSchema } from '../../api/views/scan-schemas.ts';
import { validate } from '../../api/validation.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { masterKey } from '../../core/keys.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/**
 * The actionable report against Lighthouse's own JSON of the same run: real Chromium and Lighthouse (with
 * the scan runner's settings, in a process of their own) load the fixture page /actionable/ (a late hero
 * image, a render-blocking stylesheet, an unsized image, a banner that shifts the page, a heavy script from
 * a second origin); the runner's extraction, the scoring, the API view and the report page are fed that
 * run's Lighthouse results, and what they say must be what Lighthouse's JSON says.
 */
type Lhr = LighthouseResult & {
  audits: Record<string, { metricSavings?: Record<string, number>; details?: Record<string, unknown> }>;
};
let sites: FixtureSites;
let outDir: string;
const lhr = {} as Record<FormFactor, Lhr>;
let obs: ScanObservation;
let extractionMs = 0;

beforeAll(async () => {
  sites = await startFixtureSites();
  outDir = mkdtempSync(join(tmpdir(), 'webperf-lhr-'));
  await promisify(execFile)(
    process.execPath,
    [resolve(PROJECT_ROOT, 'test/harness/lighthouse-json.ts'), `${sites.origin}/actionable/`, outDir],
    { timeout: 240_000 },
  );
  const perFactor = {} as Record<FormFactor, ReturnType<typeof formFactorObservation>['observation']>;
  for (const factor of FORM_FACTORS) {
    lhr[factor] = JSON.parse(readFileSync(join(outDir, `${factor}.json`), 'utf8')) as Lhr;
    const started = performance.now();
    perFactor[factor] = formFactorObservation(lhr[factor], factor).observation;
    extractionMs += performance.now() - started;
  }
  const finalUrl = `${sites.origin}/actionable/`;
  obs = {
    requestedUrl: finalUrl,
    finalUrl,
    httpStatus: 200,
    redirects: [],
    ttfbMs: 10,
    generator: null,
    responses: responseObservations(lhr.desktop, new Map()),
    ...perFactor,
    lighthouseVersion: lhr.desktop.lighthouseVersion,
    chromiumVersion: 'test',
    blockedRequests: [],
  };
}, 300_000);

afterAll(async () => {
  await sites?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

const nodeOf = (audit: Lhr['audits'][string] | undefined) =>
  ((audit?.details?.items ?? []) as Array<{ type?: string; selector?: string }>).find((i) => i.type === 'node');
const rows = (audit: Lhr['audits'][string] | undefined) =>
  (audit?.details?.items ?? []) as Array<Record<string, unknown>>;

it('names the LCP element Lighthouse names, with its phases, on each form factor', () => {
  const record = buildResultRecord(obs, scoreScan(obs, new Date()));
  for (const factor of FORM_FACTORS) {
    const lcp = record.diagnostics![factor].lcp;
    expect(lcp.element!.selector).toBe(nodeOf(lhr[factor].audits['lcp-breakdown-insight'])!.selector);
    expect(lcp.element!.selector).toBe('body > main > img#hero');
    expect(lcp.phases!.load_time_ms).toBeGreaterThanOrEqual(1000); // the hero is held 1.2 s by the server
  }
});

it('lists the render-blocking URLs, the shifted elements, the third party and the main-thread work as Lighthouse does', () => {
  const record = buildResultRecord(obs, scoreScan(obs, new Date()));
  for (const factor of FORM_FACTORS) {
    const d = record.diagnostics![factor];
    expect(d.render_blocking.map((r) => r.url)).toEqual(
      rows(lhr[factor].audits['render-blocking-insight']).map((r) => r.url),
    );
    expect(d.render_blocking.map((r) => new URL(r.url).pathname)).toEqual(['/actionable/blocking.css']);
    expect(d.third_parties.map((p) => p.entity)).toEqual(
      rows(lhr[factor].audits['third-parties-insight']).map((r) => r.entity),
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
    expect.arrayContaining(rows(lhr.mobile.audits['image-delivery-insight']).map((r) => r.url)),
  );
  expect(findings.find((f) => f.code === 'images.unsized')!.items!.map((i) => i.selector)).toContain(
    'body > main > img.unsized',
  );
  const tbt = findings.find((f) => f.code === 'speed.tbt-high');
  if (tbt) expect(tbt.items!.map((i) => i.url)).toContain(`${sites.thirdParty}/heavy.js`);
});

it('passes the OpenAPI schema of the result, and the report page names each fault with savings in ms and KB', () => {
  const finishedAt = new Date();
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  const scan: Scan = {
    publicId: '01jzzzzzzzzzzzzzzzzzzzzzzz',
    userId: 1,
    url: obs.finalUrl,
    host: '127.0.0.1',
    region: 'local',
    isPublic: false,
    status: 'finished',
    runs: 1,
    authType: null,
    authSecret: null,
    shareToken: null,
    shareEnabled: false,
    requestedAt: finishedAt,
    startedAt: finishedAt,
    finishedAt,
    failureCode: null,
    failureHttpStatus: null,
    result: record,
    targetId: null,
    trigger: 'request',
    progress: null,
  };
  const view = resultView(scan, {
    baseUrl: 'http://app.test',
    keys: { current: masterKey(Buffer.alloc(32, 7)), previous: null },
    locale: 'en',
    now: finishedAt,
  });
  expect(() => validate('body', resultSchema, structuredClone(view))).not.toThrow();
  const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: (name) => `/img/${name}` });
  for (const named of [
    'body &gt; main &gt; img#hero',
    '/actionable/blocking.css',
    'body &gt; main &gt; img.unsized',
    'localhost',
    '/actionable/hero.png',
    'Script Evaluation',
  ])
    expect(page).toContain(named);
  expect(page).toMatch(/Estimated savings: [^<]*\d+(\.\d)? (ms|s)[^<]*\d+(\.\d)? (KB|MB)/);
  expect(page).toContain('id="lcp-box-mobile"');
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
