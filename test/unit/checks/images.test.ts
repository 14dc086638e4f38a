import { imagePayload, modernFormat, oversized, unsized } from '../../../core/scoring/checks/images.ts';
import { KB, MB, NOT_APPLICABLE, PASS, run } from './fixtures/common.ts';
import { IMAGES_FIXTURES } from './fixtures/images.ts';

/** The cost curve every check uses (core/scoring/cost.ts): 0.5 at its half point. */
const curve = (cost: number, halfAt: number) => 1 / (1 + cost / halfAt);

describe('images.payload', () => {
  const F = IMAGES_FIXTURES['images.payload'];
  /** The bytes over 1 MB cost; 0.5 at 2 MB over. */
  const payloadScore = (bytes: number) => curve(bytes - MB, 2 * MB);
  const large = (severity: string, bytes: number, count: number) => [
    { category: 'images', code: 'images.large-payload', severity, params: { total_bytes: bytes, count } },
  ];

  it('passes with score 1 up to 1 MB of images: nothing is deducted without its finding', () => {
    expect(run(imagePayload, F.clean)).toEqual(PASS);
    expect(run(imagePayload, F.at500KB)).toEqual(PASS);
    expect(run(imagePayload, F.justOver500KB)).toEqual(PASS);
    expect(run(imagePayload, F.at1MB)).toEqual(PASS);
    expect(run(imagePayload, F.at1MBInOne)).toEqual(PASS);
  });

  it('does not apply without an image that loaded', () => {
    expect(run(imagePayload, F.noImages)).toEqual(NOT_APPLICABLE);
    expect(run(imagePayload, F.onlyFailedImages)).toEqual(NOT_APPLICABLE);
  });

  it('counts images answered below 400 (a 304 too), and no other resource type', () => {
    // The 40 KB hero and the 600 KB 304 (640 KB: under 1 MB); not the 3 MB 404 nor the 5 MB video.
    expect(run(imagePayload, F.countsLoadedImagesOnly)).toEqual(PASS);
  });

  it('warns above 1 MB, with the bytes and the number of images, costing the bytes over 1 MB', () => {
    expect(run(imagePayload, F.justOver1MB)).toEqual({
      score: expect.closeTo(payloadScore(MB + 1), 12),
      applicable: true,
      findings: large('warning', MB + 1, 2),
    });
    expect(run(imagePayload, F.at3MB)).toEqual({
      score: expect.closeTo(0.5, 12),
      applicable: true,
      findings: large('warning', 3 * MB, 2),
    });
  });

  it('is critical above 3 MB', () => {
    expect(run(imagePayload, F.justOver3MB)).toEqual({
      score: expect.closeTo(payloadScore(3 * MB + 1), 12),
      applicable: true,
      findings: large('critical', 3 * MB + 1, 2),
    });
  });

  it('scores a representative heavy page, and keeps falling as images grow', () => {
    expect(run(imagePayload, F.representative)).toEqual({
      score: expect.closeTo(payloadScore(1_840_000), 12),
      applicable: true,
      findings: large('warning', 1_840_000, 4),
    });
    expect(run(imagePayload, F.representative).score).toBeCloseTo(0.726, 3);
    expect(run(imagePayload, F.huge)).toEqual({ score: 0.4, applicable: true, findings: large('critical', 4 * MB, 2) });
  });
});

describe('images.modern-format', () => {
  const F = IMAGES_FIXTURES['images.modern-format'];
  /** 30 % of the legacy bytes would be saved; 0.5 at 256 KB saved. */
  const legacy = (severity: string, count: number, bytes: number) => ({
    score: expect.closeTo(curve(Math.round(bytes * 0.3), 256 * KB), 12),
    applicable: true,
    findings: [
      {
        category: 'images',
        code: 'images.modern-format',
        severity,
        params: { count, total_bytes: bytes, wasted_bytes: Math.round(bytes * 0.3) },
      },
    ],
  });

  it('passes when images are modern, or legacy ones are 10 KB at most', () => {
    expect(run(modernFormat, F.clean)).toEqual(PASS);
    expect(run(modernFormat, F.legacyAt10KB)).toEqual(PASS);
    expect(run(modernFormat, F.failedLegacy)).toEqual(PASS);
  });

  it('does not apply without images', () => {
    expect(run(modernFormat, F.noImages)).toEqual(NOT_APPLICABLE);
  });

  it('reports a legacy image just over 10 KB, as info, costing little', () => {
    expect(run(modernFormat, F.legacyJustOver10KB)).toEqual(legacy('info', 1, 10 * KB + 1));
    expect(run(modernFormat, F.legacyJustOver10KB).score).toBeGreaterThan(0.98);
  });

  it('counts JPEG, PNG and GIF, not WebP, AVIF or SVG', () => {
    expect(run(modernFormat, F.mixedFormats)).toEqual(legacy('info', 3, 60_000));
  });

  it('warns above 1 MB of legacy images', () => {
    expect(run(modernFormat, F.legacyAt1MB)).toEqual(legacy('info', 2, MB));
    expect(run(modernFormat, F.legacyJustOver1MB)).toEqual(legacy('warning', 2, MB + 1));
  });
});

describe('images.oversized', () => {
  const F = IMAGES_FIXTURES['images.oversized'];
  const waste = (severity: string, bytes: number) => ({
    score: expect.closeTo(curve(bytes, MB), 5),
    applicable: true,
    findings: [{ category: 'images', code: 'images.oversized', severity, params: { wasted_bytes: bytes } }],
  });

  it('passes when the image-delivery insight finds less than 50 KB to save', () => {
    expect(run(oversized, F.noWaste)).toEqual(PASS);
    expect(run(oversized, F.justUnder50KB)).toEqual(PASS);
  });

  it('does not apply without the image-delivery insight on either form factor', () => {
    expect(run(oversized, F.clean)).toEqual(NOT_APPLICABLE);
  });

  it('warns from 50 KB (summing the rows), costing the bytes to save (0.5 at 1 MB)', () => {
    expect(run(oversized, F.at50KB)).toEqual(waste('warning', 50 * KB));
    expect(run(oversized, F.at1MB)).toEqual(waste('warning', MB));
    expect(run(oversized, F.at1MB).score).toBe(0.5);
  });

  it('is critical above 1 MB', () => {
    expect(run(oversized, F.justOver1MB)).toEqual(waste('critical', MB + 1));
    expect(run(oversized, F.atLeast2MB)).toEqual(waste('critical', 3 * MB));
  });

  it('reads either form factor and takes the worse, without adding them', () => {
    expect(run(oversized, F.mobileOnly)).toEqual(waste('warning', 200_000));
    expect(run(oversized, F.bothFormFactors)).toEqual(waste('warning', 300_000));
  });

  it('ignores rows without a numeric wastedBytes and rounds the total', () => {
    expect(run(oversized, F.oddRows)).toEqual(waste('warning', 60_001));
  });
});

describe('images.unsized', () => {
  const F = IMAGES_FIXTURES['images.unsized'];
  const unsizedFinding = (severity: string, count: number, shift: number) => ({
    score: expect.closeTo(curve(shift, 0.1), 12),
    applicable: true,
    findings: [{ category: 'images', code: 'images.unsized', severity, params: { count } }],
  });

  it('passes when Lighthouse lists no unsized image', () => {
    expect(run(unsized, F.clean)).toEqual(PASS);
    expect(run(unsized, F.allSized)).toEqual(PASS);
  });

  it('does not apply to a page without images', () => {
    expect(run(unsized, F.noImages)).toEqual(NOT_APPLICABLE);
  });

  it('reports the larger count of the two form factors, costing the small layout shift measured (info)', () => {
    expect(run(unsized, F.unsized)).toEqual(unsizedFinding('info', 3, 0.01));
  });

  it('costs the layout shift of the form factors where they were found, and warns above 0.1', () => {
    // Mobile's 0.25, not desktop's 0.4: desktop had no unsized images.
    expect(run(unsized, F.unsizedWithShift)).toEqual(unsizedFinding('warning', 2, 0.25));
  });

  it('reports unsized images Lighthouse lists even when no image response was captured', () => {
    expect(run(unsized, F.unsizedWithoutImageResponses)).toEqual(unsizedFinding('info', 1, 0.01));
  });
});
