import type { ScanResultRecord } from '../../core/scan/result.ts';
import type { Scan } from '../../core/scan/scan.ts';
import { comparePage } from '../../web/scans/compare-page.ts';
import { reportPage } from '../../web/scans/report-page.ts';

/** A finished scan whose stored result was scored under `scoringVersion`, with the given overall score. */
function scanScoredUnder(scoringVersion: number, overall: number, publicId: string): Scan {
  const metrics = { fcp_ms: 100, lcp_ms: 200, cls: 0, tbt_ms: 0, request_count: 1, total_bytes: 1000 };
  const result: ScanResultRecord = {
    scoringVersion,
    finalUrl: 'https://shop.example/',
    finalHost: 'shop.example',
    httpStatus: 200,
    ttfbMs: 50,
    scores: { overall, speed: overall, images: 100, caching: 100, technical: 100, wordpress: 100 },
    isWordPress: false,
    findings: [],
    metrics: { desktop: metrics, mobile: metrics },
    screenshots: { desktop: null, mobile: null },
    filmstrip: { desktop: [], mobile: [] },
    lighthouseVersion: '13.5.0',
    benchmarkIndex: { desktop: null, mobile: null },
  };
  const at = new Date('2026-11-20T10:00:00Z');
  return {
    publicId,
    userId: 1,
    url: 'https://shop.example/',
    host: 'shop.example',
    region: 'local',
    isPublic: false,
    status: 'finished',
    runs: 1,
    authType: null,
    authSecret: null,
    shareToken: null,
    shareEnabled: false,
    requestedAt: at,
    startedAt: at,
    finishedAt: at,
    failureCode: null,
    failureHttpStatus: null,
    result,
    targetId: null,
    progress: null,
    trigger: 'request',
  };
}

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
