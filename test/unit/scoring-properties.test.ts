import { cleanObservation } from './observation-builder.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { SCANNED_AT, SCORING_PROPERTIES, withoutStaticResources } from '../../fixtures/scoring-properties.ts';

/**
 * The scores' properties over generated observations, with a fixed seed so CI is repeatable; `npm run
 * bench:scores` runs them with many more cases and a fresh seed.
 */
const SEED = 20_261_126;

describe('scoring properties (fast-check, fixed seed)', () => {
  it.each(Object.entries(SCORING_PROPERTIES))('%s', (_, property) => {
    property({ seed: SEED, numRuns: 300 });
  });
});

describe('a page without static resources', () => {
  it('has images and caching not applicable (not a perfect 100 that counts), and overall leaves it out', () => {
    const page = withoutStaticResources(cleanObservation());
    const scored = scoreScan(page, SCANNED_AT);
    expect(scored.notApplicable).toEqual(['images', 'caching', 'wordpress']);
    const withCaching = scoreScan(cleanObservation(), SCANNED_AT);
    expect(withCaching.notApplicable).toEqual(['wordpress']);
    // Overall: speed and technical only (their weights renormalised).
    const { speed, technical } = scored.scores;
    expect(scored.scores.overall).toBe(Math.round((speed * 0.5 + technical * 0.2) / 0.7));
  });
});
