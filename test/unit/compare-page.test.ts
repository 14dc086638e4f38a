import type { Scan } from '../../core/scan/scan.ts';
import { finishedScan, resultScoring } from '../../fixtures/finished-scan.ts';
import { comparePage } from '../../web/scans/compare-page.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/** A finished scan whose stored result was scored under `scoringVersion`, with the given overall score. */
const scanScoredUnder = (scoringVersion: number, overall: number, publicId: string): Scan =>
  finishedScan(resultScoring(overall, { scoringVersion }), { publicId });

const compare = (before: Scan, after: Scan, locale: 'en' | 'de' = 'en') =>
  comparePage({ chrome: { locale }, before, after, imageUrl: () => '/x.jpg' });

describe('the compare page and scoring versions', () => {
  it('says when the two scans were scored under different versions, naming both', () => {
    const page = compare(scanScoredUnder(3, 80, 'a'.repeat(26)), scanScoredUnder(4, 90, 'b'.repeat(26)));
    expect(page).toContain('id="scoring-version-changed"');
    expect(page).toContain('different scoring versions (3 and 4)');
    expect(compare(scanScoredUnder(3, 80, 'a'.repeat(26)), scanScoredUnder(4, 90, 'b'.repeat(26)), 'de')).toContain(
      'verschiedenen Bewertungsversionen bewertet (3 und 4)',
    );
  });

  it('says nothing of versions when both scans share one', () => {
    expect(compare(scanScoredUnder(4, 80, 'a'.repeat(26)), scanScoredUnder(4, 90, 'b'.repeat(26)))).not.toContain(
      'scoring-version-changed',
    );
  });
});

describe('not-applicable categories on the compare and report pages', () => {
  it('reads "not applicable" (WordPress: "not detected") with no difference, where a result has nothing to judge', () => {
    const before = scanScoredUnder(4, 80, 'a'.repeat(26));
    const after = scanScoredUnder(4, 90, 'b'.repeat(26));
    after.result!.notApplicable = ['caching', 'wordpress'];
    const page = compare(before, after);
    const row = (key: string) =>
      page.slice(page.indexOf(`data-score="${key}"`), page.indexOf('</tr>', page.indexOf(`data-score="${key}"`)));
    expect(row('caching')).toContain('not applicable');
    expect(row('caching')).toContain('—');
    expect(row('wordpress')).toContain('not detected');
    expect(row('images')).not.toContain('not applicable');
  });

  it('shows a not-applicable category in words on the report, not as a perfect 100', () => {
    const scan = scanScoredUnder(4, 90, 'c'.repeat(26));
    scan.result!.notApplicable = ['caching', 'wordpress'];
    const page = reportPage({ scan, chrome: { locale: 'en' }, imageUrl: () => '/x.jpg' });
    const tile = page.slice(
      page.indexOf('data-score="caching"'),
      page.indexOf('</div>', page.indexOf('data-score="caching"')),
    );
    expect(tile).toContain('not applicable');
    expect(tile).not.toContain('<b>100</b>');
  });
});
