import { cacheLifetime, compression, validators } from '../../../core/scoring/checks/caching.ts';
import { CACHING_FIXTURES } from './fixtures/caching.ts';
import { KB, NOT_APPLICABLE, PASS, run } from './fixtures/common.ts';

/** The cost curve every byte-cost check uses (core/scoring/cost.ts): 0.5 at its half point. */
const curve = (cost: number, halfAt: number) => 1 / (1 + cost / halfAt);

describe('caching.lifetime', () => {
  const F = CACHING_FIXTURES['caching.lifetime'];
  const short = (severity: string, params: Record<string, number>) => [
    { category: 'caching', code: 'caching.short-lifetime', severity, params },
  ];
  const failing = (wasted: number, severity: string, params: Record<string, number>) => ({
    score: expect.closeTo(curve(wasted, 256 * KB), 10),
    applicable: true,
    findings: short(severity, { ...params, wasted_bytes: wasted }),
  });

  it('passes when every static resource is cached for a day or more', () => {
    expect(run(cacheLifetime, F.clean)).toEqual(PASS);
    expect(run(cacheLifetime, F.exactlyADay)).toEqual(PASS);
  });

  it('does not apply without a static resource answered 200 (other types, errors, 304s and data: URLs do not count)', () => {
    expect(run(cacheLifetime, F.noStaticResources)).toEqual(NOT_APPLICABLE);
    expect(run(cacheLifetime, F.onlyFailedOrRevalidated)).toEqual(NOT_APPLICABLE);
    expect(run(cacheLifetime, F.onlyDataUrls)).toEqual(NOT_APPLICABLE);
    expect(run(cacheLifetime, F.ignoresNonStaticAndFailed)).toEqual(PASS);
  });

  it('reports a lifetime one second short of a day, costing the 40 % of its bytes a repeat visit downloads again', () => {
    expect(run(cacheLifetime, F.justUnderADay)).toEqual(
      failing(2_000, 'info', { count: 1, total: 1, total_bytes: 5_000 }),
    );
  });

  it('counts no-cache and no-store as no lifetime, whatever max-age says: every byte comes again', () => {
    for (const f of [F.noCacheWithMaxAge, F.noStore])
      expect(run(cacheLifetime, f)).toEqual(failing(5_000, 'info', { count: 1, total: 1, total_bytes: 5_000 }));
  });

  it('reads Expires relative to the scan time, not the system clock', () => {
    expect(run(cacheLifetime, F.expiresInTwoDays)).toEqual(PASS);
    // The same response seen 36 hours later has 12 hours left: a repeat visit finds it cached half the time.
    expect(run(cacheLifetime, F.expiresInTwoDaysScannedLater)).toEqual(
      failing(2_500, 'info', { count: 1, total: 1, total_bytes: 5_000 }),
    );
    expect(run(cacheLifetime, F.expiresInTwentyThreeHours).findings).toHaveLength(1);
    expect(run(cacheLifetime, F.expiresInThePast).findings).toHaveLength(1);
    expect(run(cacheLifetime, F.invalidExpires).findings).toHaveLength(1);
  });

  it.each([
    ['long before', new Date('2001-01-01T00:00:00Z')],
    ['long after', new Date('2045-06-01T00:00:00Z')],
  ])('gives the same results with the system clock %s the scan', (_, now) => {
    const { jest } = import.meta as ImportMeta & { jest: typeof globalThis.jest };
    jest.useFakeTimers({ now });
    try {
      expect(Date.now()).toBe(now.getTime());
      expect(run(cacheLifetime, F.expiresInTwoDays)).toEqual(PASS);
      expect(run(cacheLifetime, F.expiresInTwentyThreeHours).findings).toHaveLength(1);
      expect(run(cacheLifetime, F.expiresInTwoDaysScannedLater).findings).toHaveLength(1);
    } finally {
      jest.useRealTimers();
    }
  });

  it("does not take a shared cache's s-maxage for the browser's lifetime, in either order", () => {
    expect(run(cacheLifetime, F.sharedMaxAgeFirst)).toEqual(
      failing(5_000, 'info', { count: 1, total: 1, total_bytes: 5_000 }),
    );
    expect(run(cacheLifetime, F.sharedMaxAgeLast)).toEqual(
      failing(5_000, 'info', { count: 1, total: 1, total_bytes: 5_000 }),
    );
  });

  it('costs bytes, not files: two small short files among three cost their 1.6 KB, not two thirds of the score', () => {
    expect(run(cacheLifetime, F.shortByCount)).toEqual(
      failing(1_600, 'info', { count: 2, total: 3, total_bytes: 2_000 }),
    );
    expect(run(cacheLifetime, F.shortByCount).score).toBeGreaterThan(0.99);
    expect(run(cacheLifetime, F.shortByBytes)).toEqual(
      failing(44_000, 'warning', { count: 1, total: 3, total_bytes: 55_000 }),
    );
    expect(run(cacheLifetime, F.evenSplit)).toEqual(
      failing(160_000, 'warning', { count: 1, total: 2, total_bytes: 200_000 }),
    );
  });

  it('reports files that cost nothing (memory cache) without deducting', () => {
    expect(run(cacheLifetime, F.zeroBytes)).toEqual({
      score: 1,
      applicable: true,
      findings: short('info', { count: 1, total: 2, total_bytes: 0, wasted_bytes: 0 }),
    });
  });

  it('barely moves for one small uncached image on a fast page', () => {
    const result = run(cacheLifetime, F.oneSmallUncachedImage);
    expect(result).toEqual(failing(1_024, 'info', { count: 1, total: 3, total_bytes: 1_024 }));
    expect(result.score).toBeGreaterThan(0.99);
  });

  it('is info below 10 KB downloaded again, a warning from 10 KB, critical above 512 KB', () => {
    expect(run(cacheLifetime, F.wastedJustUnder10KB).findings[0]!.severity).toBe('info');
    expect(run(cacheLifetime, F.wasted10KB).findings[0]!.severity).toBe('warning');
    expect(run(cacheLifetime, F.wasted512KB).findings[0]!.severity).toBe('warning');
    expect(run(cacheLifetime, F.wastedOver512KB).findings[0]!.severity).toBe('critical');
    expect(run(cacheLifetime, F.wasted512KB).score).toBeCloseTo(1 / 3, 10);
  });
});

describe('caching.compression', () => {
  const F = CACHING_FIXTURES['caching.compression'];
  const plain = (severity: string, count: number, bytes: number, wasted: number) => ({
    score: expect.closeTo(curve(wasted, 100 * KB), 10),
    applicable: true,
    findings: [
      {
        category: 'caching',
        code: 'caching.no-compression',
        severity,
        params: { count, total_bytes: bytes, wasted_bytes: wasted },
      },
    ],
  });

  it('passes when every text response over 1 KB is compressed (gzip, br, zstd or deflate)', () => {
    expect(run(compression, F.clean)).toEqual(PASS);
    expect(run(compression, F.everyEncoding)).toEqual(PASS);
  });

  it('does not apply without a text response over 1 KB answered 200', () => {
    expect(run(compression, F.onlySmallText)).toEqual(NOT_APPLICABLE);
    expect(run(compression, F.textNotOk)).toEqual(NOT_APPLICABLE);
  });

  it('reports text just over 1 KB sent as is, costing the 70 % compression would save', () => {
    expect(run(compression, F.justOver1KB)).toEqual(plain('warning', 1, 1_025, 718));
  });

  it('knows HTML, CSS, JavaScript, JSON, XML, SVG and manifests as text, and leaves binary types alone', () => {
    // Six 2 KB text files uncompressed, next to the 15 KB brotli document; wasm, fonts and PNG ignored.
    expect(run(compression, F.mimeTypes)).toEqual(plain('warning', 6, 12_000, 8_400));
  });

  it('counts identity as uncompressed', () => {
    expect(run(compression, F.representative)).toEqual(plain('warning', 2, 45_000, 31_500));
  });

  it('is critical above 100 KB of uncompressed text', () => {
    expect(run(compression, F.plain100KB)).toEqual(plain('warning', 1, 100 * KB, 71_680));
    expect(run(compression, F.plainOver100KB)).toEqual(plain('critical', 1, 100 * KB + 1, 71_681));
  });
});

describe('caching.validators', () => {
  const F = CACHING_FIXTURES['caching.validators'];
  const missing = (count: number, wasted: number) => ({
    score: expect.closeTo(curve(wasted, 1024 * KB), 10),
    applicable: true,
    findings: [
      { category: 'caching', code: 'caching.no-validators', severity: 'info', params: { count, wasted_bytes: wasted } },
    ],
  });

  it('passes when static resources carry ETag or Last-Modified', () => {
    expect(run(validators, F.clean)).toEqual(PASS);
    expect(run(validators, F.lastModifiedOnly)).toEqual(PASS);
  });

  it('does not apply without static resources', () => {
    expect(run(validators, F.noStaticResources)).toEqual(NOT_APPLICABLE);
  });

  it('does not ask for validators on resources cached for a year, and a day less costs nearly nothing', () => {
    expect(run(validators, F.yearLongWithoutValidators)).toEqual(PASS);
    expect(run(validators, F.justUnderAYearWithoutValidators)).toEqual(missing(1, 0));
  });

  it('reads Expires relative to the scan time', () => {
    expect(run(validators, F.expiresIn400Days)).toEqual(PASS);
    // 40 days later, 360 days are left: less than a year, and 0.14 % of its bytes come again whole.
    expect(run(validators, F.expiresIn400DaysScannedLater)).toEqual(missing(1, 7));
  });

  it('costs the bytes downloaded whole instead of revalidated (an hour: 80 %; none: all)', () => {
    expect(run(validators, F.representative)).toEqual(missing(2, 9_000));
  });
});
