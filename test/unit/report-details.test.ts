import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { diagnostics } from '../../activities/lighthouse/details.ts';
import { formFactorObservation, type LighthouseResult } from '../../activities/lighthouse/extract.ts';
import { DETAIL_LIMITS } from '../../core/scan/details.ts';
import { buildResultRecord } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { cleanObservation, SCANNED_AT } from './observation-builder.ts';

/**
 * The pure mapping from Lighthouse 13's JSON to findings' items and savings and to the diagnostics, over two
 * stored Lighthouse results of the fixture page /actionable/ (fixtures/sites.ts; screenshots stripped).
 */
const lhr = (factor: 'desktop' | 'mobile') =>
  JSON.parse(
    gunzipSync(readFileSync(join(import.meta.dirname, 'fixtures', `lhr-actionable-${factor}.json.gz`))).toString(),
  ) as LighthouseResult & { audits: Record<string, { details?: { items?: unknown[] } }> };
const desktop = lhr('desktop');
const mobile = lhr('mobile');
const observation = cleanObservation({
  desktop: formFactorObservation(desktop, 'desktop').observation,
  mobile: formFactorObservation(mobile, 'mobile').observation,
});

it('names the LCP element and its four phases as the lcp-breakdown insight gives them', () => {
  const d = diagnostics(mobile);
  const [table, node] = mobile.audits['lcp-breakdown-insight']!.details!.items as [
    { items: Array<{ subpart: string; duration: number }> },
    { selector: string; boundingRect: { top: number } },
  ];
  expect(d.lcp.element).toMatchObject({ selector: node.selector, box: { top: node.boundingRect.top } });
  expect(d.lcp.element!.selector).toBe('body > main > img#hero');
  const duration = (name: string) => Math.round(table.items.find((i) => i.subpart === name)!.duration);
  expect(d.lcp.phases).toEqual({
    ttfb_ms: duration('timeToFirstByte'),
    load_delay_ms: duration('resourceLoadDelay'),
    load_time_ms: duration('resourceLoadDuration'),
    render_delay_ms: duration('elementRenderDelay'),
  });
});

it('lists render-blocking requests, shifted elements with their share, third parties by entity and main-thread work', () => {
  const d = diagnostics(mobile);
  expect(d.render_blocking.map((r) => new URL(r.url).pathname)).toEqual(['/actionable/blocking.css']);
  expect(d.layout_shifts.length).toBeGreaterThan(0);
  expect(d.layout_shifts.reduce((sum, s) => sum + s.share, 0)).toBeCloseTo(1, 2);
  expect(d.third_parties).toEqual([
    expect.objectContaining({ entity: 'localhost', recognized: false, transfer_bytes: expect.any(Number) }),
  ]);
  expect(d.third_parties[0]!.main_thread_ms).toBeGreaterThan(300);
  expect(d.main_thread.map((w) => w.category)).toContain('scriptEvaluation');
});

it('gives each finding the items behind it and the savings Lighthouse states, one finding for both form factors', () => {
  const { findings } = scoreScan(observation, SCANNED_AT);
  const codes = findings.map((f) => f.code);
  expect(new Set(codes).size).toBe(codes.length);
  const oversized = findings.find((f) => f.code === 'images.oversized')!;
  expect(oversized.items!.map((i) => new URL(i.url!).pathname)).toEqual(
    expect.arrayContaining(['/actionable/hero.png', '/actionable/unsized.png']),
  );
  const hero = oversized.items!.find((i) => i.url!.endsWith('/hero.png'))!;
  expect(hero).toMatchObject({
    selector: 'body > main > img#hero',
    form_factors: ['desktop', 'mobile'],
    box: { desktop: expect.any(Object), mobile: expect.any(Object) },
  });
  const insight = mobile.audits['image-delivery-insight'] as unknown as {
    metricSavings: { LCP: number };
    details: { debugData: { wastedBytes: number } };
  };
  expect(oversized.savings!.mobile).toEqual({
    ms: insight.metricSavings.LCP,
    bytes: insight.details.debugData.wastedBytes,
  });
  const unsized = findings.find((f) => f.code === 'images.unsized')!;
  expect(unsized.items!.map((i) => i.selector)).toEqual(['body > main > img.unsized']);
  const blocking = findings.find((f) => f.code === 'technical.render-blocking');
  if (blocking) expect(blocking.items!.map((i) => new URL(i.url!).pathname)).toEqual(['/actionable/blocking.css']);
  for (const finding of findings) expect(finding.items?.length ?? 0).toBeLessThanOrEqual(DETAIL_LIMITS.items);
});

it('merges a metric over target on both form factors into one finding with both values', () => {
  const slow = cleanObservation({
    desktop: { ...observation.desktop, metrics: { ...observation.desktop.metrics, lcpMs: 3000 } },
    mobile: { ...observation.mobile, metrics: { ...observation.mobile.metrics, lcpMs: 9000 } },
  });
  const lcp = scoreScan(slow, SCANNED_AT).findings.filter((f) => f.code === 'speed.lcp-slow');
  expect(lcp).toHaveLength(1);
  expect(lcp[0]).toMatchObject({
    severity: 'critical',
    params: { form_factor: 'mobile', value_ms: 9000 },
    form_factors: ['desktop', 'mobile'],
    values: { desktop: 3000, mobile: 9000 },
  });
  expect(lcp[0]!.items![0]).toMatchObject({ selector: 'body > main > img#hero' });
});

it('bounds what is stored: at most 10 items, snippets cut to 200 characters', () => {
  const many = structuredClone(mobile) as LighthouseResult;
  const rows = Array.from({ length: 40 }, (_, i) => ({
    url: `https://a.example/${i}.png`,
    totalBytes: 1000,
    wastedBytes: 100,
    node: { type: 'node', selector: `img#i${i}`, snippet: `<img ${'x'.repeat(500)}>` },
  }));
  many.audits['image-delivery-insight'] = { score: 0, details: { type: 'table', items: rows } };
  const evidence = formFactorObservation(many, 'mobile').observation.audits['image-delivery-insight']!.evidence!;
  expect(evidence.items).toHaveLength(DETAIL_LIMITS.items);
  expect(evidence.items[0]!.snippet).toHaveLength(DETAIL_LIMITS.snippet);
  expect(evidence.savings.bytes).toBe(4000); // every row's wasted bytes, not only the kept ones
});

it('keeps the stored result small: prints the bytes the new fields add', () => {
  const record = buildResultRecord(observation, scoreScan(observation, SCANNED_AT));
  const withoutEvidence = {
    ...record,
    diagnostics: undefined,
    findings: record.findings.map(({ category, code, severity, params }) => ({ category, code, severity, params })),
  };
  const added = JSON.stringify(record).length - JSON.stringify(withoutEvidence).length;
  console.log(`stored result: ${JSON.stringify(record).length} bytes, of which the new fields ${added}`);
  expect(added).toBeGreaterThan(0);
  expect(added).toBeLessThan(64 * 1024);
});
