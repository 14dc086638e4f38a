import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { changeSentence } from '../../core/i18n/scan-changes.ts';
import { masterKey } from '../../core/keys.ts';
import type { RunRecord, ScanResultRecord } from '../../core/scan/result.ts';
import { scanChanges, type MetricChange } from '../../core/scan/previous.ts';
import type { PreviousScanEntry } from '../../db/store/scans.ts';
import { finishedScan, resultScoring, storedRun } from '../../fixtures/finished-scan.ts';
import { previousView } from '../../api/views/scan-previous.ts';
import { scanDetailSchema } from '../../api/views/scan-schemas.ts';
import { detailView } from '../../api/views/scans.ts';
import { previousVisibleTo, type ScanComparison } from '../../services/scan-comparison.ts';
import { previousLinks, previousSection } from '../../web/scans/report-previous.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/**
 * A scan compared with the previous one of its page, as pure functions: the rows and their verdicts (the
 * compare page's rules), the sentence in English and German, who may see the previous scan and where its
 * links go, the report's section, and the API's `previous` against its published schema.
 * test/web/report-actions.test.ts runs it end to end on the replay runner.
 */
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const run = (values: Partial<RunRecord>, median = false): RunRecord =>
  storedRun({ fcp_ms: 1000, lcp_ms: 3000, tbt_ms: 100, si_ms: 2000, interactive_ms: 3000, ...values, median });

/** A result of three runs per form factor with these LCPs (mobile: desktop's plus `mobileExtra`), the second the median run. */
function threeRuns(lcps: [number, number, number], overall: number, mobileExtra = 0): ScanResultRecord {
  const result = resultScoring(overall, { scoringVersion: 4 });
  const runsOf = (extra: number) => lcps.map((lcp, i) => run({ lcp_ms: lcp + extra }, i === 1));
  result.metrics = {
    desktop: { ...result.metrics.desktop, lcp_ms: lcps[1], tbt_ms: 100 },
    mobile: { ...result.metrics.mobile, lcp_ms: lcps[1] + mobileExtra, tbt_ms: 100 },
  };
  result.runs = { desktop: runsOf(0), mobile: runsOf(mobileExtra), overall: [overall, overall, overall] };
  return result;
}

const slow = () => threeRuns([4300, 4350, 4400], 40, 2000);
const fast = () => threeRuns([3100, 3120, 3150], 60, 800);
const row = (changes: MetricChange[], key: string) => changes.find((c) => c.key === key)!;

describe('the rows of a comparison', () => {
  it('a slow page then a fast one, three runs each: LCP better by the rank test, with the shift as the change', () => {
    const changes = scanChanges(slow(), fast());
    const lcp = row(changes, 'desktop:lcp_ms');
    expect(lcp).toMatchObject({ before: 4350, after: 3120, change: -1230 });
    expect(lcp.decision).toMatchObject({ verdict: 'better', rule: 'rank_test', p: 0.05, shift: -1230 });
    expect(row(changes, 'mobile:lcp_ms').decision).toMatchObject({ verdict: 'better', shift: -2430 });
    // Equal runs on both sides: no change, by the rank test.
    expect(row(changes, 'desktop:tbt_ms').decision).toMatchObject({ verdict: 'no_significant_change', p: 1 });
    // Single values (TTFB, the category scores) by the noise band.
    expect(row(changes, 'page:ttfb_ms').decision).toMatchObject({
      rule: 'noise_band',
      verdict: 'no_significant_change',
    });
    expect(row(changes, 'score:overall').decision).toMatchObject({ rule: 'rank_test', verdict: 'better' });
  });

  it('every change has the sign of its verdict, and the rows come in order: scores, TTFB, desktop, mobile', () => {
    const changes = scanChanges(slow(), fast());
    for (const change of changes) {
      if (change.decision.verdict === 'no_significant_change') continue;
      const higherIsBetter = change.key.startsWith('score:');
      expect({ key: change.key, better: change.change > 0 === higherIsBetter }).toEqual({
        key: change.key,
        better: change.decision.verdict === 'better',
      });
    }
    const keys = changes.map((c) => c.key);
    expect(keys.indexOf('score:overall')).toBeLessThan(keys.indexOf('page:ttfb_ms'));
    expect(keys.indexOf('page:ttfb_ms')).toBeLessThan(keys.indexOf('desktop:fcp_ms'));
    expect(keys.indexOf('desktop:total_bytes')).toBeLessThan(keys.indexOf('mobile:fcp_ms'));
    expect(keys).toContain('desktop:si_ms');
  });

  it('leaves out a category not applicable on either side, and Speed Index where a scan stored no runs', () => {
    const before = resultScoring(80, { scoringVersion: 4 });
    const after = { ...resultScoring(82, { scoringVersion: 4 }), notApplicable: ['caching' as const] };
    const keys = scanChanges(before, after).map((c) => c.key);
    expect(keys).not.toContain('score:caching');
    expect(keys).not.toContain('score:wordpress');
    expect(keys).toContain('score:images');
    expect(keys).not.toContain('desktop:si_ms');
  });

  it('judges TTFB by the band learned from the history when there is one', () => {
    const history = [300, 310, 290, 305, 295].map((ttfbMs) => ({ ...resultScoring(80), ttfbMs }));
    const before = { ...resultScoring(80), ttfbMs: 300 };
    const after = { ...resultScoring(80), ttfbMs: 450 };
    // Consecutive differences 10, 20, 15, 10: median 12.5, band 37.5, but never under the 100 ms floor.
    expect(row(scanChanges(before, after, history), 'page:ttfb_ms').decision).toMatchObject({
      rule: 'noise_band',
      band: 100,
      source: { kind: 'history', scans: 5 },
      verdict: 'worse',
    });
    // The default band (200 ms) calls the same +150 ms noise.
    expect(row(scanChanges(before, after), 'page:ttfb_ms').decision.verdict).toBe('no_significant_change');
  });
});

describe('the sentence', () => {
  it('names each real change with its size and form factor, and the rest unchanged, in English and German', () => {
    const changes = scanChanges(slow(), fast());
    expect(changeSentence(changes, 'en')).toBe(
      'LCP 1.2 s faster on desktop and 2.4 s faster on mobile, a real change; TBT and CLS unchanged.',
    );
    expect(changeSentence(changes, 'de')).toBe(
      'LCP auf dem Desktop 1,2 s schneller und auf Mobilgeräten 2,4 s schneller, eine echte Änderung; TBT und CLS unverändert.',
    );
  });

  it('a form factor without a real change is not named; opposite directions get a clause each', () => {
    const before = threeRuns([4300, 4350, 4400], 40);
    const mixed = threeRuns([3100, 3120, 3150], 60);
    mixed.runs!.mobile = mixed.runs!.mobile.map((r) => ({ ...r, lcp_ms: r.lcp_ms + 1500, tbt_ms: 900 }));
    mixed.metrics.mobile = { ...mixed.metrics.mobile, lcp_ms: 4620, tbt_ms: 900 };
    expect(changeSentence(scanChanges(before, mixed), 'en')).toBe(
      'LCP 1.2 s faster on desktop, a real change; LCP 270 ms slower on mobile, a real change; TBT 800 ms higher on mobile, a real change; CLS unchanged.',
    );
  });

  it('says nothing moved when nothing did', () => {
    const same = scanChanges(slow(), slow());
    expect(changeSentence(same, 'en')).toBe('LCP, TBT and CLS unchanged.');
    expect(changeSentence(same, 'de')).toBe('LCP, TBT und CLS unverändert.');
  });

  it('gives CLS to three decimals', () => {
    const before = resultScoring(80);
    const after = resultScoring(80);
    after.metrics = { ...after.metrics, mobile: { ...after.metrics.mobile, cls: 0.12 } };
    expect(changeSentence(scanChanges(before, after), 'en')).toBe(
      'CLS 0.12 higher on mobile, a real change; LCP and TBT unchanged.',
    );
  });
});

const entry = (over: Partial<PreviousScanEntry> = {}): PreviousScanEntry => ({
  publicId: 'a'.repeat(26),
  finishedAt: new Date('2026-11-20T09:00:00Z'),
  isPublic: false,
  shareToken: null,
  result: slow(),
  ...over,
});

describe('who sees the previous scan, and where its links go', () => {
  it('the owner always; a public report’s visitors only a public one; a share page only a shared one', () => {
    expect(previousVisibleTo('owner', entry())).toBe(true);
    expect(previousVisibleTo('public', entry())).toBe(false);
    expect(previousVisibleTo('public', entry({ isPublic: true }))).toBe(true);
    expect(previousVisibleTo('share', entry({ isPublic: true }))).toBe(false);
    expect(previousVisibleTo('share', entry({ shareToken: 't'.repeat(32) }))).toBe(true);
  });

  it('links the owner to the full comparison, others to the previous report or share page only', () => {
    const previous = entry({ shareToken: 't'.repeat(32) });
    expect(previousLinks('owner', 'b'.repeat(26), previous)).toEqual({
      previous: `/reports/${'a'.repeat(26)}`,
      compare: `/compare?scan=${'a'.repeat(26)}&scan=${'b'.repeat(26)}`,
    });
    expect(previousLinks('public', 'b'.repeat(26), previous)).toEqual({
      previous: `/reports/${'a'.repeat(26)}`,
      compare: null,
    });
    expect(previousLinks('share', 'b'.repeat(26), previous)).toEqual({
      previous: `/share/${'t'.repeat(32)}`,
      compare: null,
    });
  });
});

describe('the report’s section', () => {
  const comparison = (): ScanComparison => ({ previous: entry(), changes: scanChanges(slow(), fast()) });
  const scan = () => finishedScan(fast(), { publicId: 'b'.repeat(26), runs: 3 });
  const page = (viewer: 'owner' | 'share', locale: 'en' | 'de' = 'en') =>
    reportPage({
      scan: scan(),
      chrome: { locale },
      imageUrl: (name) => name,
      previous: previousSection({
        comparison: comparison(),
        scan: { publicId: 'b'.repeat(26), scoringVersion: 4 },
        viewer,
        locale,
      }),
    });

  it('comes first, with the sentence, the rank test of each form factor’s LCP and the full comparison’s link', () => {
    const html = page('owner');
    expect(html.indexOf('id="previous"')).toBeGreaterThan(html.indexOf('<h1>'));
    expect(html.indexOf('id="previous"')).toBeLessThan(html.indexOf('id="scores"'));
    expect(html).toContain(
      '<p id="previous-summary">LCP 1.2 s faster on desktop and 2.4 s faster on mobile, a real change; TBT and CLS unchanged.</p>',
    );
    const lcp = html.slice(html.indexOf('data-metric="lcp_ms"', html.indexOf('id="previous-changes"')));
    const desktop = lcp.slice(0, lcp.indexOf('</td>'));
    expect(desktop).toContain('4.4 s → 3.1 s');
    expect(desktop).toContain('data-change="better"');
    expect(desktop).toContain('−1.2 s');
    expect(desktop).toContain('rank test over 3 vs 3 runs: p = 0.05, shift −1.2 s');
    expect(html).toContain(
      `<a id="previous-compare" href="/compare?scan=${'a'.repeat(26)}&amp;scan=${'b'.repeat(26)}">`,
    );
    expect(html).toContain('data-row="page:ttfb_ms"');
    // The verdicts' colours and rule lines come from the compare page's sheet.
    expect(html).toContain('class="sheet-report sheet-scan-compare"');
  });

  it('on a share page links the previous share page, never the compare page; in German too', () => {
    const html = page('share', 'de');
    expect(html).not.toContain('previous-compare');
    expect(html).toContain('Im Vergleich mit dem vorigen Scan');
    expect(html).toContain('Rangtest über 3 gegen 3 Durchläufe: p = 0,05, Verschiebung −1,2 s');
  });

  it('is absent from a report given none', () => {
    const html = reportPage({ scan: scan(), chrome: { locale: 'en' }, imageUrl: (name) => name });
    expect(html).not.toContain('id="previous"');
    expect(html).toContain('class="sheet-report"');
  });
});

describe('the API’s previous', () => {
  const context = {
    baseUrl: 'http://app.test',
    keys: { current: masterKey(Buffer.alloc(32, 7)), previous: null },
    locale: 'en' as const,
    now: new Date('2026-11-20T10:00:00Z'),
  };
  const validate = addFormats(new Ajv({ allErrors: true, strict: false })).compile(scanDetailSchema);

  it('carries the scan id, links, the sentence and each metric’s change and verdict, as its schema says', () => {
    const scan = finishedScan(fast(), { publicId: 'b'.repeat(26), runs: 3 });
    const previous = previousView({ previous: entry(), changes: scanChanges(slow(), fast()) }, scan.publicId, context)!;
    expect(previous).toMatchObject({
      scan_id: 'a'.repeat(26),
      finished_at: '2026-11-20T09:00:00+00:00',
      report_url: `http://app.test/reports/${'a'.repeat(26)}`,
      compare_url: `http://app.test/compare?scan=${'a'.repeat(26)}&scan=${'b'.repeat(26)}`,
      scoring_version: 4,
      summary: 'LCP 1.2 s faster on desktop and 2.4 s faster on mobile, a real change; TBT and CLS unchanged.',
    });
    expect(previous.metrics.desktop.lcp_ms).toEqual({
      before: 4350,
      after: 3120,
      change: -1230,
      verdict: 'better',
      values: { before: 3, after: 3 },
      rule: 'rank_test',
      p: 0.05,
      floor: 217.5,
    });
    expect(previous.metrics.ttfb_ms).toEqual({
      before: 50,
      after: 50,
      change: 0,
      verdict: 'no_significant_change',
      values: { before: 1, after: 1 },
      rule: 'noise_band',
      band: 200,
      band_scans: null,
    });
    const detail = { ...detailView(scan, context), previous };
    expect(validate(detail) ? [] : validate.errors).toEqual([]);
    // No previous scan: null, which the schema allows; a missing field it does not.
    expect(validate({ ...detailView(scan, context), previous: null })).toBe(true);
    expect(validate(detailView(scan, context))).toBe(false);
  });
});
