import { cacheLifetime, compression, validators } from '../../../core/scoring/checks/caching.ts';
import { CACHING_FIXTURES } from './fixtures/caching.ts';
import { KB, NOT_APPLICABLE, PASS, run } from './fixtures/common.ts';

describe('caching.lifetime', () => {
  const F = CACHING_FIXTURES['caching.lifetime'];
  const short = (severity: string, params: Record<string, number>) => [
    { category: 'caching', code: 'caching.short-lifetime', severity, params },
  ];

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

  it('reports a lifetime one second short of a day, with the count, the total and the short bytes', () => {
    expect(run(cacheLifetime, F.justUnderADay)).toEqual({
      score: 0,
      applicable: true,
      findings: short('warning', { count: 1, total: 1, total_bytes: 5_000 }),
    });
  });

  it('counts no-cache and no-store as no lifetime, whatever max-age says', () => {
    for (const f of [F.noCacheWithMaxAge, F.noStore])
      expect(run(cacheLifetime, f).findings).toEqual(short('warning', { count: 1, total: 1, total_bytes: 5_000 }));
  });

  it('reads Expires relative to the scan time, not the system clock', () => {
    expect(run(cacheLifetime, F.expiresInTwoDays)).toEqual(PASS);
    // The same response seen 36 hours later has 12 hours left.
    expect(run(cacheLifetime, F.expiresInTwoDaysScannedLater).findings).toEqual(
      short('warning', { count: 1, total: 1, total_bytes: 5_000 }),
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

  it('takes the first of max-age and s-maxage, so a shared-cache lifetime can pass for a browser one (current behaviour)', () => {
    expect(run(cacheLifetime, F.sharedMaxAgeFirst)).toEqual(PASS);
    expect(run(cacheLifetime, F.sharedMaxAgeLast).findings).toHaveLength(1);
  });

  it('scores 1 minus the larger of the short share of files and of bytes', () => {
    // One of three files, but 55 % of the bytes.
    expect(run(cacheLifetime, F.shortByBytes)).toEqual({
      score: expect.closeTo(0.45, 10),
      applicable: true,
      findings: short('warning', { count: 1, total: 3, total_bytes: 55_000 }),
    });
    // Two of three files, 2 % of the bytes.
    expect(run(cacheLifetime, F.shortByCount)).toEqual({
      score: expect.closeTo(1 / 3, 10),
      applicable: true,
      findings: short('warning', { count: 2, total: 3, total_bytes: 2_000 }),
    });
    // Nothing transferred (memory cache): the share of files alone.
    expect(run(cacheLifetime, F.zeroBytes)).toEqual({
      score: 0.5,
      applicable: true,
      findings: short('warning', { count: 1, total: 2, total_bytes: 0 }),
    });
  });

  it('is critical only when more than half is short and the short bytes exceed 100 KB', () => {
    // Exactly half: warning, however many bytes.
    expect(run(cacheLifetime, F.evenSplit)).toEqual({
      score: 0.5,
      applicable: true,
      findings: short('warning', { count: 1, total: 2, total_bytes: 200_000 }),
    });
    // A majority with more than 100 KB short (shortByCount above: a majority with 2 KB is a warning).
    expect(run(cacheLifetime, F.majorityShort100KB)).toEqual({
      score: expect.closeTo(1 - 102_400 / 103_400, 10),
      applicable: true,
      findings: short('warning', { count: 2, total: 3, total_bytes: 100 * KB }),
    });
    expect(run(cacheLifetime, F.majorityShortOver100KB)).toEqual({
      score: expect.closeTo(1 - 102_401 / 103_401, 10),
      applicable: true,
      findings: short('critical', { count: 2, total: 3, total_bytes: 100 * KB + 1 }),
    });
  });
});

describe('caching.compression', () => {
  const F = CACHING_FIXTURES['caching.compression'];
  const plain = (severity: string, count: number, bytes: number) => [
    { category: 'caching', code: 'caching.no-compression', severity, params: { count, total_bytes: bytes } },
  ];

  it('passes when every text response over 1 KB is compressed (gzip, br, zstd or deflate)', () => {
    expect(run(compression, F.clean)).toEqual(PASS);
    expect(run(compression, F.everyEncoding)).toEqual(PASS);
  });

  it('does not apply without a text response over 1 KB answered 200', () => {
    expect(run(compression, F.onlySmallText)).toEqual(NOT_APPLICABLE);
    expect(run(compression, F.textNotOk)).toEqual(NOT_APPLICABLE);
  });

  it('reports text just over 1 KB sent as is', () => {
    expect(run(compression, F.justOver1KB)).toEqual({
      score: 0,
      applicable: true,
      findings: plain('warning', 1, 1_025),
    });
  });

  it('knows HTML, CSS, JavaScript, JSON, XML, SVG and manifests as text, and leaves binary types alone', () => {
    // Six 2 KB text files uncompressed, next to the 15 KB brotli document; wasm, fonts and PNG ignored.
    expect(run(compression, F.mimeTypes)).toEqual({
      score: expect.closeTo(1 - 12_000 / 27_000, 10),
      applicable: true,
      findings: plain('warning', 6, 12_000),
    });
  });

  it('scores the compressed share of text bytes, counting identity as uncompressed', () => {
    expect(run(compression, F.representative)).toEqual({
      score: expect.closeTo(0.4, 10),
      applicable: true,
      findings: plain('warning', 2, 45_000),
    });
  });

  it('is critical above 100 KB of uncompressed text', () => {
    expect(run(compression, F.plain100KB)).toEqual({
      score: expect.closeTo(30_000 / 132_400, 10),
      applicable: true,
      findings: plain('warning', 1, 100 * KB),
    });
    expect(run(compression, F.plainOver100KB)).toEqual({
      score: expect.closeTo(30_000 / 132_401, 10),
      applicable: true,
      findings: plain('critical', 1, 100 * KB + 1),
    });
  });
});

describe('caching.validators', () => {
  const F = CACHING_FIXTURES['caching.validators'];
  const missing = (count: number) => [
    { category: 'caching', code: 'caching.no-validators', severity: 'info', params: { count } },
  ];

  it('passes when static resources carry ETag or Last-Modified', () => {
    expect(run(validators, F.clean)).toEqual(PASS);
    expect(run(validators, F.lastModifiedOnly)).toEqual(PASS);
  });

  it('does not apply without static resources', () => {
    expect(run(validators, F.noStaticResources)).toEqual(NOT_APPLICABLE);
  });

  it('does not ask for validators on resources cached for a year', () => {
    expect(run(validators, F.yearLongWithoutValidators)).toEqual(PASS);
    expect(run(validators, F.justUnderAYearWithoutValidators)).toEqual({
      score: 0.5,
      applicable: true,
      findings: missing(1),
    });
  });

  it('reads Expires relative to the scan time', () => {
    expect(run(validators, F.expiresIn400Days)).toEqual(PASS);
    // 40 days later, 360 days are left: less than a year.
    expect(run(validators, F.expiresIn400DaysScannedLater)).toEqual({
      score: 0.5,
      applicable: true,
      findings: missing(1),
    });
  });

  it('scores 1 minus half the share of static files without validators, as info', () => {
    expect(run(validators, F.representative)).toEqual({ score: 0.75, applicable: true, findings: missing(2) });
  });
});
