import { summarise } from '../../core/i18n/summaries.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { FIX_FIRST, impactOf, orderFindings, responseImpact } from '../../core/scoring/priority.ts';
import type { Finding } from '../../core/scoring/types.ts';
import { cleanObservation, formFactor, response, SCANNED_AT } from './observation-builder.ts';

const finding = (code: string, extra: Partial<Finding> = {}): Finding => ({
  category: 'technical',
  code,
  severity: 'warning',
  params: {},
  ...extra,
});

describe('the order of findings', () => {
  it('puts what saves most first (milliseconds, then bytes), then the findings without a saving by severity, category and code', () => {
    const ordered = orderFindings([
      finding('technical.c', { severity: 'critical' }),
      finding('technical.bytes-big', { impact: { ms: 0, bytes: 900_000 } }),
      finding('technical.ms-small', { impact: { ms: 50, bytes: 0 } }),
      finding('technical.ms-big', { impact: { ms: 1200, bytes: 10 } }),
      finding('technical.ms-big-more-bytes', { impact: { ms: 1200, bytes: 20 } }),
      { ...finding('speed.lcp-slow', { severity: 'critical' }), category: 'speed' },
      finding('technical.a', { severity: 'info' }),
    ]);
    expect(ordered.map((f) => [f.code, f.priority])).toEqual([
      ['technical.ms-big-more-bytes', 1],
      ['technical.ms-big', 2],
      ['technical.ms-small', 3],
      ['technical.bytes-big', undefined],
      ['speed.lcp-slow', undefined],
      ['technical.c', undefined],
      ['technical.a', undefined],
    ]);
    expect(FIX_FIRST).toBe(3);
  });

  it('gives priorities only to findings that save something, and takes stale ones away', () => {
    const ordered = orderFindings([
      finding('technical.x', { priority: 2 }),
      finding('technical.y', { impact: { ms: 10, bytes: 0 } }),
    ]);
    expect(ordered.map((f) => [f.code, f.priority])).toEqual([
      ['technical.y', 1],
      ['technical.x', undefined],
    ]);
  });

  it("reads the impact from Lighthouse's savings (the largest of the form factors), or from the page's own bytes", () => {
    expect(impactOf({ desktop: { ms: 300, bytes: 1000 }, mobile: { ms: 1100, bytes: 800 } })).toEqual({
      ms: 1100,
      bytes: 1000,
    });
    expect(impactOf({ mobile: { ms: null, bytes: null } }, 5000)).toEqual({ ms: 0, bytes: 5000 });
    expect(impactOf({ mobile: { ms: 0, bytes: 0 } })).toBeUndefined();
    expect(impactOf(undefined)).toBeUndefined();
    expect(responseImpact(4000, { desktop: { ms: 150, bytes: 99 } })).toEqual({ ms: 150, bytes: 4000 });
    expect(responseImpact(0)).toBeUndefined();
  });

  it('ranks a 2 MB hero Lighthouse says costs seconds of LCP above layout shifts and caching, and the summary says so first', () => {
    const obs = cleanObservation({
      mobile: formFactor({
        metrics: { ...formFactor().metrics, lcpMs: 6400, cls: 0.3 },
        audits: {
          'image-delivery-insight': {
            score: 0,
            numericValue: null,
            items: [{ url: 'https://shop.example/hero.png', wastedBytes: 2_000_000 }],
            checklist: {},
            evidence: {
              items: [{ url: 'https://shop.example/hero.png', wasted_bytes: 2_000_000 }],
              savings: { ms: 5500, bytes: 2_000_000 },
            },
          },
        },
      }),
    });
    obs.responses.push(
      response('/vendor.js', {
        mimeType: 'application/javascript',
        resourceType: 'Script',
        resourceBytes: 90_000,
        transferBytes: 30_000,
        headers: { 'content-encoding': 'br' },
      }),
    );
    const { findings } = scoreScan(obs, SCANNED_AT);
    expect(findings[0]).toMatchObject({
      code: 'images.oversized',
      priority: 1,
      impact: { ms: 5500, bytes: 2_000_000 },
    });
    expect(findings.find((f) => f.code === 'caching.short-lifetime')).toMatchObject({ priority: 2 });
    const shifts = findings.findIndex((f) => f.code === 'speed.cls-high');
    expect(shifts).toBeGreaterThan(findings.findIndex((f) => f.code === 'caching.short-lifetime'));
    expect(findings[shifts]!.priority).toBeUndefined();
    expect(summarise(scoreScan(obs, SCANNED_AT).scores, findings, 'en').short).toContain(
      'the biggest issue: oversized or poorly compressed images',
    );
  });
});
