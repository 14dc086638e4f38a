import type { Scan } from '../../core/scan/scan.ts';
import type { RunRecord } from '../../core/scan/result.ts';
import { finishedScan, resultScoring, storedRun } from '../../fixtures/finished-scan.ts';
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

describe('verdicts on the compare page', () => {
  const run = (lcp: number, tbt: number, score: number, median = false): RunRecord =>
    storedRun({ performance_score: score, lcp_ms: lcp, tbt_ms: tbt, median });
  /** A scan of three runs per form factor with these LCPs (the middle one the median run) and overall scores. */
  const threeRuns = (lcps: [number, number, number], overall: number[], publicId: string): Scan => {
    const result = resultScoring(overall[1]!, { scoringVersion: 4 });
    const runs = lcps.map((lcp, i) => run(lcp, 0, overall[i]!, i === 1));
    result.metrics = {
      desktop: { ...result.metrics.desktop, lcp_ms: lcps[1] },
      mobile: { ...result.metrics.mobile, lcp_ms: lcps[1] },
    };
    result.runs = { desktop: runs, mobile: runs, overall };
    return finishedScan(result, { publicId, runs: 3 });
  };
  const cell = (page: string, table: string, row: string) => {
    const start = page.indexOf(row, page.indexOf(`id="${table}"`));
    return page.slice(page.lastIndexOf('<td>', page.indexOf('</tr>', start)), page.indexOf('</tr>', start));
  };

  it('several runs: the rank test with p and shift decides; a clean 450 ms slower LCP is worse (✗), in English and German', () => {
    const before = threeRuns([2000, 2050, 2100], [80, 81, 82], 'a'.repeat(26));
    const after = threeRuns([2450, 2500, 2520], [80, 81, 82], 'b'.repeat(26));
    const en = cell(compare(before, after), 'metrics-desktop', 'data-metric="lcp_ms"');
    expect(en).toContain('data-change="worse"');
    expect(en).toContain('✗</span> worse');
    expect(en).toContain('data-rule="rank_test"');
    expect(en).toContain('rank test over 3 vs 3 runs: p = 0.05, shift +450 ms');
    const de = cell(compare(before, after, 'de'), 'metrics-desktop', 'data-metric="lcp_ms"');
    expect(de).toContain('✗</span> schlechter');
    expect(de).toContain('Rangtest über 3 gegen 3 Durchläufe: p = 0,05, Verschiebung +450 ms');
    // The overall score's runs are the same on both sides: no significant change (≈), by the rank test.
    const overall = cell(compare(before, after), 'compare-scores', 'data-score="overall"');
    expect(overall).toContain('data-change="no_significant_change"');
    expect(overall).toContain('≈</span> no significant change');
    expect(overall).toContain('p = 1');
    expect(cell(compare(before, after, 'de'), 'compare-scores', 'data-score="overall"')).toContain(
      '≈</span> keine deutliche Änderung',
    );
  });

  it('several runs with a significant shift under the floor: no significant change, saying so', () => {
    const before = threeRuns([2000, 2001, 2002], [80, 81, 82], 'a'.repeat(26));
    const after = threeRuns([2015, 2016, 2017], [80, 81, 82], 'b'.repeat(26));
    const en = cell(compare(before, after), 'metrics-mobile', 'data-metric="lcp_ms"');
    expect(en).toContain('data-change="no_significant_change"');
    expect(en).toContain('shift +15 ms, under the 100 ms that counts as a change');
    expect(cell(compare(before, after, 'de'), 'metrics-mobile', 'data-metric="lcp_ms"')).toContain(
      'Verschiebung +15 ms, unter den 100 ms, die als Änderung zählen',
    );
  });

  it('single runs: the default noise band (51 then 45 is noise, 51 then 40 worse), in English and German', () => {
    const noise = compare(scanScoredUnder(4, 51, 'a'.repeat(26)), scanScoredUnder(4, 45, 'b'.repeat(26)));
    const overall = cell(noise, 'compare-scores', 'data-score="overall"');
    expect(overall).toContain('−6');
    expect(overall).toContain('data-change="no_significant_change"');
    expect(overall).toContain('within ±8 is noise (the default band)');
    const worse = compare(scanScoredUnder(4, 51, 'a'.repeat(26)), scanScoredUnder(4, 40, 'b'.repeat(26)), 'de');
    const de = cell(worse, 'compare-scores', 'data-score="overall"');
    expect(de).toContain('data-change="worse"');
    expect(de).toContain('✗</span> schlechter');
    expect(de).toContain('innerhalb ±8 ist Rauschen (Standardband)');
    // Without stored runs there is no Speed Index row.
    expect(noise).not.toContain('data-metric="si_ms"');
  });

  it('shows as the difference the change the verdict judged, so its sign is the shift’s (not the median runs’ difference)', () => {
    // The median run (chosen by FCP and TTI) is the fastest LCP on both sides: its values differ by +500 ms,
    // while the runs moved the other way (shift −400 ms).
    const before = threeRuns([3000, 2000, 3100], [80, 81, 82], 'a'.repeat(26));
    const after = threeRuns([2600, 2500, 2700], [80, 81, 82], 'b'.repeat(26));
    const en = cell(compare(before, after), 'metrics-desktop', 'data-metric="lcp_ms"');
    expect(en).toContain('data-rule="rank_test"');
    expect(en).toContain('shift −400 ms');
    expect(en).toMatch(/data-change="no_significant_change">−400 ms /);
    expect(en).not.toContain('+500 ms');
  });

  it('3 runs against 1: the noise band judges the medians, and the difference shown is theirs, with the verdict’s sign', () => {
    const before = threeRuns([3000, 2000, 3100], [80, 81, 82], 'a'.repeat(26));
    const after = finishedScan(resultScoring(81, { scoringVersion: 4 }), { publicId: 'b'.repeat(26) });
    after.result!.metrics.desktop.lcp_ms = 2600;
    const en = cell(compare(before, after), 'metrics-desktop', 'data-metric="lcp_ms"');
    // Median of the runs 3000 → 2600: −400 ms, outside the default ±300 ms (10 % of 3000): better.
    expect(en).toMatch(/data-change="better">−400 ms /);
    expect(en).toContain('within ±300 ms is noise (the default band)');
    expect(en).not.toContain('+600 ms');
  });

  it('has the TTFB row its verdict rules promise, measured once per scan, in English and German', () => {
    const before = scanScoredUnder(4, 80, 'a'.repeat(26));
    const after = scanScoredUnder(4, 80, 'b'.repeat(26));
    after.result!.ttfbMs = 650;
    const en = compare(before, after);
    expect(en).toContain('The page’s response (measured once per scan)');
    const ttfb = cell(en, 'metrics-page', 'data-metric="ttfb_ms"');
    expect(en).toContain('<th scope="row" class="wide">Time to First Byte</th><td data-label="Before">50 ms</td>');
    // +600 ms is outside the default ±200 ms: worse.
    expect(ttfb).toMatch(/data-change="worse">\+600 ms /);
    expect(ttfb).toContain('within ±200 ms is noise (the default band)');
    const de = compare(before, after, 'de');
    expect(de).toContain('Die Antwort der Seite (einmal je Scan gemessen)');
    expect(cell(de, 'metrics-page', 'data-metric="ttfb_ms"')).toContain('✗</span> schlechter');
  });

  it("single runs with history: the band learned from the address's scans, naming how many", () => {
    const history = [60, 75, 58, 77, 61, 80].map((overall) => resultScoring(overall, { scoringVersion: 4 }));
    const before = scanScoredUnder(4, 60, 'a'.repeat(26));
    const after = scanScoredUnder(4, 80, 'b'.repeat(26));
    const page = comparePage({ chrome: { locale: 'en' }, before, after, imageUrl: () => '/x.jpg', history });
    const overall = cell(page, 'compare-scores', 'data-score="overall"');
    // Consecutive differences 15, 17, 19, 16, 19: median 17, band 3 × 17 = 51.
    expect(overall).toContain('data-change="no_significant_change"');
    expect(overall).toContain('within ±51 is noise (learned from this address’s 6 scans)');
    const de = comparePage({ chrome: { locale: 'de' }, before, after, imageUrl: () => '/x.jpg', history });
    expect(cell(de, 'compare-scores', 'data-score="overall"')).toContain(
      'innerhalb ±51 ist Rauschen (gelernt aus 6 Scans dieser Adresse)',
    );
    // Without that history the same +20 is outside the default band: better (scores go up).
    expect(cell(compare(before, after), 'compare-scores', 'data-score="overall"')).toContain('✓</span> better');
  });
});
