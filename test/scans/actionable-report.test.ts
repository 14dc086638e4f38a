import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { FORM_FACTORS, type FormFactor, type ScanObservation } from '../../core/scan/observation.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { actionableObservation, auditNode, auditRows, type Lhr } from '../../fixtures/actionable-results.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { expectReportNamesEachFault } from '../harness/actionable-report-page.ts';

/**
 * The actionable report out of a real run, end to end: real Chromium and Lighthouse (with the scan runner's
 * settings, in a process of their own) load the fixture page /actionable/ (a late hero image, a render-blocking
 * stylesheet, an unsized image, a banner that shifts the page, a heavy script from a second origin); the
 * runner's extraction, the scoring, the API view and the report page are fed that run's Lighthouse results, and
 * the report must name each fault as Lighthouse's JSON does, with its savings. Every other check of the report
 * against Lighthouse's JSON (diagnostics, rated metrics, the request waterfall, script and image bytes) runs in
 * the unit lane over a recorded real run of the same page (test/unit/actionable-report.test.ts).
 */
let sites: FixtureSites;
let outDir: string;
const lhr = {} as Record<FormFactor, Lhr>;
let obs: ScanObservation;

beforeAll(async () => {
  sites = await startFixtureSites();
  outDir = mkdtempSync(join(tmpdir(), 'webperf-lhr-'));
  await promisify(execFile)(
    process.execPath,
    [resolve(PROJECT_ROOT, 'test/harness/lighthouse-json.ts'), `${sites.origin}/actionable/`, outDir],
    { timeout: 240_000 },
  );
  for (const factor of FORM_FACTORS)
    lhr[factor] = JSON.parse(readFileSync(join(outDir, `${factor}.json`), 'utf8')) as Lhr;
  ({ obs } = actionableObservation(lhr, `${sites.origin}/actionable/`));
}, 300_000);

afterAll(async () => {
  await sites?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

it("names each fault of a real run as Lighthouse's JSON does, with its savings, through the API's schema to the report page", () => {
  const finishedAt = new Date();
  const { findings } = scoreScan(obs, finishedAt);
  const record = buildResultRecord(obs, scoreScan(obs, finishedAt));
  for (const factor of FORM_FACTORS) {
    const d = record.diagnostics![factor];
    expect(d.lcp.element!.selector).toBe(auditNode(lhr[factor].audits['lcp-breakdown-insight'])!.selector);
    expect(d.lcp.element!.selector).toBe('body > main > img#hero');
    expect(d.render_blocking.map((r) => r.url)).toEqual(
      auditRows(lhr[factor].audits['render-blocking-insight']).map((r) => r.url),
    );
    const insight = lhr[factor].audits['image-delivery-insight']!;
    const lighthouseMs = Math.max(...['FCP', 'LCP', 'TBT', 'INP'].map((m) => insight.metricSavings?.[m] ?? 0));
    expect(findings.find((f) => f.code === 'images.oversized')!.savings![factor]).toEqual({
      ms: Math.round(lighthouseMs),
      bytes: (insight.details!.debugData as { wastedBytes: number }).wastedBytes,
    });
  }
  expect(findings.find((f) => f.code === 'images.unsized')!.items!.map((i) => i.selector)).toContain(
    'body > main > img.unsized',
  );

  expectReportNamesEachFault(record, finishedAt);
});
