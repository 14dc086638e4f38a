import { CLUES } from '../../../core/i18n/clues.ts';
import { localiseFinding } from '../../../core/i18n/findings.ts';
import { LOCALES } from '../../../core/i18n/locale.ts';
import { CHECKS } from '../../../core/scoring/index.ts';
import { lcpDiscovery } from '../../../core/scoring/checks/lcp-discovery.ts';
import { bfCache, requestChains } from '../../../core/scoring/checks/loading.ts';
import { documentWrite, thirdPartyFacades } from '../../../core/scoring/checks/scripts.ts';
import { cls, lcp } from '../../../core/scoring/checks/speed.ts';
import type { Finding } from '../../../core/scoring/types.ts';
import { CLUES_FIXTURES } from './fixtures/clues.ts';
import { ALL_FIXTURES } from './fixtures/index.ts';
import { PASS, runWithEvidence, type Fixture } from './fixtures/common.ts';
import { SPEED_FIXTURES } from './fixtures/speed.ts';

/** Lighthouse's specific clues in the findings: what each check says, which clue sentences and recommendations. */
const only = (check: { run: typeof lcp.run }, f: Fixture): Finding => {
  const { findings } = runWithEvidence(check as typeof lcp, f);
  expect(findings).toHaveLength(1);
  return findings[0]!;
};
const codes = (f: Finding) => (f.clues ?? []).map((c) => c.code);

describe('speed.lcp-discovery', () => {
  const F = CLUES_FIXTURES['speed.lcp-discovery'];

  it('passes without an image LCP, or one found and fetched as early as it can be', () => {
    expect(runWithEvidence(lcpDiscovery, F.clean)).toEqual(PASS);
    expect(runWithEvidence(lcpDiscovery, F.foundWell)).toEqual(PASS);
    expect(runWithEvidence(lcpDiscovery, F.textLcp)).toEqual(PASS);
  });

  it('names the lazy-loaded LCP image without fetchpriority, with its load delay as the saving; never suggests a preload', () => {
    const f = only(lcpDiscovery, F.lazyLoaded);
    expect(f).toMatchObject({
      code: 'speed.lcp-discovery',
      severity: 'warning',
      params: { element: 'body > main > img#hero' },
      form_factors: ['desktop', 'mobile'],
      savings: { desktop: { ms: 180, bytes: null }, mobile: { ms: 640, bytes: null } },
      impact: { ms: 640, bytes: 0 },
    });
    expect(codes(f)).toEqual(['lcp.lazy-loaded', 'lcp.no-fetchpriority']);
    expect(f.items).toEqual([
      expect.objectContaining({ selector: 'body > main > img#hero', form_factors: ['desktop', 'mobile'] }),
    ]);
    const en = localiseFinding(f, 'en');
    expect(en.message).toContain('img#hero');
    expect(en.message).toContain('loading="lazy"');
    expect(en.recommendation).toContain('Remove loading="lazy"');
    expect(en.recommendation).toContain('fetchpriority="high"');
    expect(en.recommendation).not.toMatch(/preload/i);
    const de = localiseFinding(f, 'de');
    expect(de.recommendation).toContain('Entfernen Sie loading="lazy"');
    expect(de.recommendation).not.toMatch(/preload/i);
  });

  it('suggests a preload only when the image is not in the HTML; a missing fetchpriority alone, or a fast LCP, is a hint', () => {
    const priority = only(lcpDiscovery, F.priorityOnly);
    expect(priority).toMatchObject({ severity: 'info', form_factors: ['desktop'], impact: { ms: 180, bytes: 0 } });
    expect(codes(priority)).toEqual(['lcp.no-fetchpriority']);
    const hidden = only(lcpDiscovery, F.notInHtmlFast);
    expect(hidden).toMatchObject({ severity: 'info', form_factors: ['mobile'] });
    expect(codes(hidden)).toEqual(['lcp.not-in-html']);
    expect(localiseFinding(hidden, 'en').recommendation).toContain(
      '<link rel="preload" as="image" fetchpriority="high">',
    );
    expect(localiseFinding(hidden, 'de').recommendation).toContain('<link rel="preload"');
  });
});

describe('speed.lcp-slow with the breakdown', () => {
  it('names the LCP element and its longest part with its share, and recommends for that part (no impact: a measurement)', () => {
    const f = only(lcp, SPEED_FIXTURES['speed.lcp'].slowLcpWithBreakdown);
    expect(f.clues).toEqual([
      { code: 'lcp.element', params: { element: 'body > main > img#hero' } },
      { code: 'lcp.phase-load-delay', params: { phase_ms: 900, share: 69 } },
    ]);
    expect(f.impact).toBeUndefined();
    const en = localiseFinding(f, 'en');
    expect(en.message).toBe(
      'On mobile, the largest content appears after 4.2 s (target: 2.5 s). The LCP element is body > main > img#hero. In the real, unthrottled load its longest part passes before the browser even requests the LCP image (900 ms, 69 %).',
    );
    expect(en.recommendation).toContain('not lazy-loaded, with fetchpriority="high"');
    expect(localiseFinding(f, 'de').message).toContain('anfordert (900 ms, 69 %)');
  });
});

describe('speed.cls-high with its culprits', () => {
  it('names what caused each shift (the image without dimensions, the web font) beside what moved, largest first', () => {
    const f = only(cls, SPEED_FIXTURES['speed.cls'].shiftsWithCulprits);
    expect(f.items).toEqual([
      expect.objectContaining({
        selector: 'body > main > img.unsized',
        cause: 'unsized-image',
        moved: 'body > main',
        shift: 0.19,
        form_factors: ['desktop', 'mobile'],
      }),
      expect.objectContaining({
        url: 'https://shop.example/wide.ttf',
        cause: 'web-font',
        moved: 'body > main > p.lead',
        shift: 0.06,
        form_factors: ['mobile'],
      }),
      expect.objectContaining({
        selector: 'body > main > div.content',
        cause: 'unexplained',
        moved: 'body > main > div.content',
        shift: 0.04,
      }),
    ]);
    expect(codes(f)).toEqual(['cls.unsized-image', 'cls.web-font', 'cls.unexplained']);
    expect(f.impact).toBeUndefined();
    const en = localiseFinding(f, 'en');
    expect(en.message).toContain(
      'body > main > img.unsized, an image without width and height, moved body > main when it loaded (shift 0.19).',
    );
    expect(en.message).toContain('The web font https://shop.example/wide.ttf moved body > main > p.lead');
    expect(en.recommendation).toContain('Give body > main > img.unsized width and height attributes');
    expect(en.recommendation).toContain('font-display: optional');
    expect(localiseFinding(f, 'de').message).toContain(
      'ein Bild ohne Breite und Höhe, verschob beim Laden body > main',
    );
  });

  it('keeps the audit’s items for results whose runner kept no culprits', () => {
    const f = only(cls, SPEED_FIXTURES['speed.cls'].bothFormFactors);
    expect(f.clues).toBeUndefined();
  });
});

describe('technical.request-chains', () => {
  const F = CLUES_FIXTURES['technical.request-chains'];

  it('passes without a chain, and with one of two requests (the document and its stylesheet)', () => {
    for (const name of ['clean', 'none', 'documentAndStylesheet'] as const)
      expect(runWithEvidence(requestChains, F[name])).toEqual(PASS);
  });

  it('reports the longest chain from three requests on, with its length, duration and requests in order', () => {
    const mobile = only(requestChains, F.threeOnMobile);
    expect(mobile).toMatchObject({
      severity: 'info',
      params: { length: 3, duration_ms: 1300 },
      form_factors: ['mobile'],
    });
    expect(mobile.items!.map((i) => i.url)).toEqual([
      'https://shop.example/',
      'https://shop.example/step-1.css',
      'https://shop.example/step-2.css',
    ]);
    expect(mobile.items![2]!.end_ms).toBe(1300);
    expect(only(requestChains, F.longBoth).params).toEqual({ length: 5, duration_ms: 2100 });
  });
});

describe('technical.third-party-facades', () => {
  const F = CLUES_FIXTURES['technical.third-party-facades'];

  it('passes without third parties, without embeds a facade is known for, and for results without their URLs', () => {
    for (const name of ['clean', 'notAnEmbed', 'withoutUrls'] as const)
      expect(runWithEvidence(thirdPartyFacades, F[name])).toEqual(PASS);
  });

  it("names the embed, the facades third-party-web knows for it, and the third party's time and bytes as the saving", () => {
    const f = only(thirdPartyFacades, F.youtube);
    expect(f).toMatchObject({
      severity: 'warning',
      params: { count: 1, product: 'YouTube Embedded Player' },
      savings: { desktop: { ms: 300, bytes: 600_000 }, mobile: { ms: 1200, bytes: 600_000 } },
      impact: { ms: 1200, bytes: 600_000 },
    });
    expect(f.items![0]).toMatchObject({
      url: 'https://www.youtube.com/embed/abc123',
      label: 'YouTube Embedded Player',
      facades: expect.arrayContaining(['Lite YouTube']),
    });
  });
});

describe('technical.document-write', () => {
  const F = CLUES_FIXTURES['technical.document-write'];

  it('passes without calls, and for results whose runner did not read them', () => {
    for (const name of ['notRead', 'none'] as const) expect(runWithEvidence(documentWrite, F[name])).toEqual(PASS);
  });

  it('names each call with its script, line and column, over both form factors, and moves no score', () => {
    const f = only(documentWrite, F.inlineAndAdTag);
    expect(runWithEvidence(documentWrite, F.inlineAndAdTag).score).toBe(1);
    expect(documentWrite.weight).toBe(0);
    expect(f).toMatchObject({
      category: 'technical',
      severity: 'warning',
      params: { count: 2, first_url: 'https://shop.example/', line: '12', column: '18' },
      form_factors: ['desktop', 'mobile'],
    });
    expect(f.items).toEqual([
      { url: 'https://shop.example/', line: 12, column: 18, form_factors: ['desktop', 'mobile'] },
      { url: 'https://ads.example/tag.js', line: 1, column: 2048, form_factors: ['mobile'] },
    ]);
    expect(f.savings).toBeUndefined();
    expect(f.impact).toBeUndefined();
    expect(localiseFinding(f, 'en').message).toBe(
      'The page makes 2 document.write() call(s) while it loads, the first in https://shop.example/ at line 12, column 18.',
    );
    expect(localiseFinding(f, 'de').message).toBe(
      'Die Seite macht beim Laden 2 Aufruf(e) von document.write(), den ersten in https://shop.example/ in Zeile 12, Spalte 18.',
    );
    expect(localiseFinding(f, 'de').recommendation).toContain('async oder defer');
  });

  it('keeps two calls in one script apart, and a column as it is (no thousands separator)', () => {
    const f = only(documentWrite, F.twoInOneScript);
    expect(f.items!.map((i) => [i.line, i.column])).toEqual([
      [1, 2048],
      [1, 4096],
    ]);
    expect(localiseFinding(f, 'en').message).toContain('at line 1, column 2048.');
  });
});

describe('technical.bf-cache', () => {
  const F = CLUES_FIXTURES['technical.bf-cache'];

  it('passes when not tested, undetermined or restored', () => {
    for (const name of ['notTested', 'undetermined', 'restored'] as const)
      expect(runWithEvidence(bfCache, F[name])).toEqual(PASS);
  });

  it("names Chromium's reasons, says how to fix those up to the page, and warns only for those", () => {
    const f = only(bfCache, F.noStore);
    expect(f).toMatchObject({ severity: 'warning', params: { count: 4, actionable: 3 } });
    expect(f.items).toEqual([
      { reason: 'MainResourceHasCacheControlNoStore', blocker: 'actionable', url: 'https://shop.example/' },
      { reason: 'UnloadHandlerExistsInMainFrame', blocker: 'actionable', url: 'https://shop.example/' },
      { reason: 'SomethingNew', blocker: 'actionable' },
      { reason: 'WebRTC', blocker: 'pending-support', url: 'https://shop.example/' },
    ]);
    expect(codes(f)).toEqual(['bfcache.no-store', 'bfcache.unload', 'bfcache.other']);
    const en = localiseFinding(f, 'en');
    expect(en.message).toContain('Chromium also names SomethingNew.');
    expect(en.recommendation).toContain('Replace unload handlers with pagehide');
    expect(only(bfCache, F.pendingOnly)).toMatchObject({ severity: 'info', params: { count: 1, actionable: 0 } });
  });
});

describe('the clue catalogue', () => {
  it('has every clue any check gives, over all the fixtures, in every language, with every placeholder filled', () => {
    expect(Object.keys(CLUES.de).sort()).toEqual(Object.keys(CLUES.en).sort());
    const findings = CHECKS.flatMap((check) =>
      Object.values(ALL_FIXTURES).flatMap((set) =>
        Object.values(set).flatMap((fixture) => check.run(fixture.obs, fixture.ctx).findings),
      ),
    );
    const given = new Set(findings.flatMap((f) => codes(f)));
    expect([...given].sort()).toEqual(
      expect.arrayContaining(['cls.unsized-image', 'lcp.lazy-loaded', 'bfcache.unload']),
    );
    for (const code of given) expect(Object.keys(CLUES.en)).toContain(code);
    for (const finding of findings.filter((f) => f.clues?.length))
      for (const locale of LOCALES) {
        const text = localiseFinding(finding, locale);
        expect(`${text.message} ${text.recommendation}`).not.toMatch(/\{[a-z_]+\}/);
      }
  });

  it('fills every clue of the catalogue from the params its checks give', () => {
    const params = {
      element: 'img#hero',
      phase_ms: 900,
      share: 69,
      culprit: 'img.x',
      moved: 'main',
      shift: 0.2,
      reason: 'X',
    };
    const base: Finding = {
      category: 'speed',
      code: 'speed.lcp-slow',
      severity: 'warning',
      params: { form_factor: 'mobile', value_ms: 4200, target_ms: 2500 },
    };
    for (const locale of LOCALES)
      for (const code of Object.keys(CLUES[locale])) {
        const text = localiseFinding({ ...base, clues: [{ code, params }] }, locale);
        expect(`${text.message} ${text.recommendation}`).not.toMatch(/\{[a-z_]+\}/);
      }
  });
});
