import { imagePayload, modernFormat, oversized, unsized } from '../../../core/scoring/checks/images.ts';
import { KB, MB, NOT_APPLICABLE, PASS, run } from './fixtures/common.ts';
import { IMAGES_FIXTURES } from './fixtures/images.ts';

describe('images.payload', () => {
  const F = IMAGES_FIXTURES['images.payload'];
  /** 1 at 500 KB, falling linearly to 0 at 500 KB + 3.5 MB. */
  const payloadScore = (bytes: number) => 1 - (bytes - 500 * KB) / (3.5 * MB);
  const large = (severity: string, bytes: number, count: number) => [
    { category: 'images', code: 'images.large-payload', severity, params: { total_bytes: bytes, count } },
  ];

  it('passes with score 1 up to 500 KB of images', () => {
    expect(run(imagePayload, F.clean)).toEqual(PASS);
    expect(run(imagePayload, F.at500KB)).toEqual(PASS);
  });

  it('does not apply without an image that loaded', () => {
    expect(run(imagePayload, F.noImages)).toEqual(NOT_APPLICABLE);
    expect(run(imagePayload, F.onlyFailedImages)).toEqual(NOT_APPLICABLE);
  });

  it('counts images answered below 400 (a 304 too), and no other resource type', () => {
    // The 40 KB hero and the 600 KB 304; not the 3 MB 404 nor the 5 MB video.
    expect(run(imagePayload, F.countsLoadedImagesOnly)).toEqual({
      score: expect.closeTo(payloadScore(640_000), 12),
      applicable: true,
      findings: [],
    });
  });

  it('lowers the score above 500 KB without a finding up to 1 MB', () => {
    expect(run(imagePayload, F.justOver500KB)).toEqual({
      score: expect.closeTo(payloadScore(500 * KB + 1), 12),
      applicable: true,
      findings: [],
    });
    expect(run(imagePayload, F.justOver500KB).score).toBeLessThan(1);
    expect(run(imagePayload, F.at1MB)).toEqual({
      score: expect.closeTo(payloadScore(MB), 12),
      applicable: true,
      findings: [],
    });
  });

  it('warns above 1 MB, with the bytes and the number of images', () => {
    expect(run(imagePayload, F.justOver1MB)).toEqual({
      score: expect.closeTo(payloadScore(MB + 1), 12),
      applicable: true,
      findings: large('warning', MB + 1, 2),
    });
    expect(run(imagePayload, F.at3MB)).toEqual({
      score: expect.closeTo(payloadScore(3 * MB), 12),
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

  it('scores a representative heavy page, and 0 from 500 KB + 3.5 MB on', () => {
    expect(run(imagePayload, F.representative)).toEqual({
      score: expect.closeTo(payloadScore(1_840_000), 12),
      applicable: true,
      findings: large('warning', 1_840_000, 4),
    });
    expect(run(imagePayload, F.representative).score).toBeCloseTo(0.638, 3);
    expect(run(imagePayload, F.huge)).toEqual({ score: 0, applicable: true, findings: large('critical', 4 * MB, 2) });
  });
});

describe('images.modern-format', () => {
  const F = IMAGES_FIXTURES['images.modern-format'];
  const legacy = (severity: string, count: number, bytes: number) => [
    { category: 'images', code: 'images.modern-format', severity, params: { count, total_bytes: bytes } },
  ];

  it('passes when images are modern, or legacy ones are 10 KB at most', () => {
    expect(run(modernFormat, F.clean)).toEqual(PASS);
    expect(run(modernFormat, F.legacyAt10KB)).toEqual(PASS);
    expect(run(modernFormat, F.failedLegacy)).toEqual(PASS);
  });

  it('does not apply without images', () => {
    expect(run(modernFormat, F.noImages)).toEqual(NOT_APPLICABLE);
  });

  it('reports a legacy image just over 10 KB, as info', () => {
    expect(run(modernFormat, F.legacyJustOver10KB)).toEqual({
      score: 0.6,
      applicable: true,
      findings: legacy('info', 1, 10 * KB + 1),
    });
  });

  it('counts JPEG, PNG and GIF, not WebP, AVIF or SVG', () => {
    expect(run(modernFormat, F.mixedFormats)).toEqual({
      score: 0.6,
      applicable: true,
      findings: legacy('info', 3, 60_000),
    });
  });

  it('warns, scoring 0.2, above 1 MB of legacy images', () => {
    expect(run(modernFormat, F.legacyAt1MB)).toEqual({ score: 0.6, applicable: true, findings: legacy('info', 2, MB) });
    expect(run(modernFormat, F.legacyJustOver1MB)).toEqual({
      score: 0.2,
      applicable: true,
      findings: legacy('warning', 2, MB + 1),
    });
  });
});

describe('images.oversized', () => {
  const F = IMAGES_FIXTURES['images.oversized'];
  const waste = (severity: string, bytes: number) => [
    { category: 'images', code: 'images.oversized', severity, params: { wasted_bytes: bytes } },
  ];

  it('passes when the image-delivery insight finds less than 50 KB to save', () => {
    expect(run(oversized, F.noWaste)).toEqual(PASS);
    expect(run(oversized, F.justUnder50KB)).toEqual(PASS);
  });

  it('does not apply without the image-delivery insight on either form factor', () => {
    expect(run(oversized, F.clean)).toEqual(NOT_APPLICABLE);
  });

  it('warns from 50 KB (summing the rows), scoring 1 minus the share of 2 MB', () => {
    expect(run(oversized, F.at50KB)).toEqual({
      score: expect.closeTo(1 - (50 * KB) / (2 * MB), 12),
      applicable: true,
      findings: waste('warning', 50 * KB),
    });
    expect(run(oversized, F.at1MB)).toEqual({ score: 0.5, applicable: true, findings: waste('warning', MB) });
  });

  it('is critical above 1 MB, and scores 0 from 2 MB', () => {
    expect(run(oversized, F.justOver1MB)).toEqual({
      score: expect.closeTo(1 - (MB + 1) / (2 * MB), 12),
      applicable: true,
      findings: waste('critical', MB + 1),
    });
    expect(run(oversized, F.atLeast2MB)).toEqual({ score: 0, applicable: true, findings: waste('critical', 3 * MB) });
  });

  it('reads either form factor and takes the worse, without adding them', () => {
    expect(run(oversized, F.mobileOnly)).toEqual({
      score: expect.closeTo(1 - 200_000 / (2 * MB), 12),
      applicable: true,
      findings: waste('warning', 200_000),
    });
    expect(run(oversized, F.bothFormFactors)).toEqual({
      score: expect.closeTo(1 - 300_000 / (2 * MB), 12),
      applicable: true,
      findings: waste('warning', 300_000),
    });
  });

  it('ignores rows without a numeric wastedBytes and rounds the total', () => {
    expect(run(oversized, F.oddRows)).toEqual({
      score: expect.closeTo(1 - 60_000.5 / (2 * MB), 12),
      applicable: true,
      findings: waste('warning', 60_001),
    });
  });
});

describe('images.unsized', () => {
  const F = IMAGES_FIXTURES['images.unsized'];

  it('passes when Lighthouse lists no unsized image', () => {
    expect(run(unsized, F.clean)).toEqual(PASS);
    expect(run(unsized, F.allSized)).toEqual(PASS);
  });

  it('does not apply to a page without images', () => {
    expect(run(unsized, F.noImages)).toEqual(NOT_APPLICABLE);
  });

  it('warns with the larger count of the two form factors, scoring 0.6', () => {
    expect(run(unsized, F.unsized)).toEqual({
      score: 0.6,
      applicable: true,
      findings: [{ category: 'images', code: 'images.unsized', severity: 'warning', params: { count: 3 } }],
    });
  });

  it('reports unsized images Lighthouse lists even when no image response was captured', () => {
    expect(run(unsized, F.unsizedWithoutImageResponses)).toEqual({
      score: 0.6,
      applicable: true,
      findings: [{ category: 'images', code: 'images.unsized', severity: 'warning', params: { count: 1 } }],
    });
  });
});
