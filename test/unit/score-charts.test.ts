import { chartGeometry, scoreHistoryChart, VIEW_HEIGHT, VIEW_WIDTH } from '../../web/charts/score-history.ts';
import { describeHistory, type ScorePoint } from '../../web/charts/series.ts';
import { sparkline, sparklineFloor, sparklineGeometry, SPARKLINE_SIZE } from '../../web/charts/sparkline.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 9, 21, 4, 12); // 21 Oct 2026, 04:12 UTC
const THRESHOLDS = { warning: 70, critical: 50 };

/** Daily points from 21 Oct with these scores, each linking to /reports/s<i>. */
const daily = (scores: Array<number | null>, extra: (i: number) => Partial<ScorePoint> = () => ({})): ScorePoint[] =>
  scores.map((score, i) => ({ at: new Date(START + i * DAY), score, href: `/reports/s${i}`, ...extra(i) }));

/** Every rendered point: its link, coordinates and score. */
const renderedPoints = (markup: string) =>
  [
    ...markup.matchAll(
      /<a class="point" href="([^"]*)" data-x="([^"]*)" data-y="([^"]*)" data-score="([^"]*)"><title>([^<]*)<\/title>/g,
    ),
  ].map((m) => ({
    href: m[1],
    x: Number(m[2]),
    y: Number(m[3]),
    score: Number(m[4]),
    title: m[5],
  }));

describe('score-history chart geometry', () => {
  it('puts time on x (oldest left, proportional) and 100 − score on y, whatever order the points come in', () => {
    const points = [
      { at: new Date(START + 10 * DAY), score: 70 },
      { at: new Date(START), score: 90 },
      { at: new Date(START + DAY), score: 80 },
      { at: new Date(START + 2 * DAY), score: 85 },
    ];
    const g = chartGeometry(points, 'en', THRESHOLDS);
    expect(g.points.map((p) => [p.x, p.y, p.score])).toEqual([
      [0, 10, 90],
      [100, 20, 80],
      [200, 15, 85],
      [VIEW_WIDTH, 30, 70],
    ]);
    expect(g.points.map((p) => p.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    // Daily steps, then eight days without a scan: dashed.
    expect(g.segments).toEqual([
      { d: 'M0,10 L100,20 L200,15', gap: false },
      { d: 'M200,15 L1000,30', gap: true },
    ]);
  });

  it('draws the thresholds as lines at 100 − value and colours points by the threshold they fell below', () => {
    const g = chartGeometry(daily([71, 70, 69, 50, 49]), 'en', THRESHOLDS);
    expect(g.thresholds).toEqual([
      { kind: 'warning', value: 70, y: 30 },
      { kind: 'critical', value: 50, y: 50 },
    ]);
    expect(g.points.map((p) => p.status)).toEqual(['ok', 'ok', 'warning', 'warning', 'critical']);
    const markup = scoreHistoryChart(daily([71, 70, 69]), { locale: 'en', thresholds: THRESHOLDS }).value;
    expect(markup).toMatch(
      /<line class="threshold threshold-warning" data-value="70" x1="0" x2="1000" y1="30" y2="30"/,
    );
    expect(markup).toMatch(
      /<line class="threshold threshold-critical" data-value="50" x1="0" x2="1000" y1="50" y2="50"/,
    );
    expect(markup).toContain('style="top:30%">Warning 70</span>');
    expect(markup).toContain('style="top:50%">Critical 50</span>');
    expect(chartGeometry(daily([40]), 'en').thresholds).toEqual([]);
  });

  it("draws each scan's runs from lowest to highest; a single run has no band", () => {
    const g = chartGeometry(
      daily([75, 80], (i) => ({ runs: i === 0 ? [70, 75, 82] : [80] })),
      'en',
    );
    expect(g.points.map((p) => p.spread)).toEqual([{ top: 18, bottom: 30 }, null]);
    const markup = scoreHistoryChart(
      daily([75, 80], (i) => ({ runs: i === 0 ? [70, 75, 82] : [80] })),
      { locale: 'en' },
    ).value;
    expect(markup.match(/<line class="spread" x1="0" x2="0" y1="18" y2="30"/g)).toHaveLength(1);
    expect(markup).toContain('Spread of the runs (lowest to highest)');
    expect(scoreHistoryChart(daily([75, 80]), { locale: 'en' }).value).not.toContain('class="spread"');
  });

  it('breaks the line at a scan without a score and dashes a step much longer than the usual one', () => {
    const g = chartGeometry(daily([80, 81, null, 79, 78]), 'en');
    expect(g.points).toHaveLength(4);
    expect(g.segments.map((s) => s.gap)).toEqual([false, false]);
    expect(g.segments[0]!.d.split(' ')).toHaveLength(2);

    const paused = [0, 1, 2, 3, 10, 11].map((day, i) => ({ at: new Date(START + day * DAY), score: 80 + i }));
    const withGap = chartGeometry(paused, 'en');
    expect(withGap.segments.map((s) => s.gap)).toEqual([false, true, false]);
    expect(scoreHistoryChart(paused, { locale: 'en' }).value).toContain('No scans in between');
  });

  it('does not join scores of different scoring versions: the line breaks, a mark sits between, the trend restarts', () => {
    const points = daily([90, 88, 60, 62], (i) => ({ scoringVersion: i < 2 ? 3 : 4 }));
    const g = chartGeometry(points, 'en');
    expect(g.segments).toEqual([
      { d: 'M0,10 L333.33,12', gap: false },
      { d: 'M666.67,40 L1000,38', gap: false },
    ]);
    expect(g.versionChanges).toEqual([{ x: 500, version: 4 }]);
    const markup = scoreHistoryChart(points, { locale: 'en' }).toString();
    expect(markup).toContain('class="version-change" data-version="4"');
    expect(markup).toContain('Scoring v4');
    expect(markup).toContain('Scoring changed: scores on either side are different measures');
    const sentence = describeHistory(points, 'en');
    expect(sentence).toContain('Scoring changed to version 4 on 23 Oct 2026');
    expect(sentence).toContain('the 2 earlier scores are another measure');
    expect(sentence).toContain('Overall score from 60 to 62 over 2 scans');
    expect(describeHistory(points, 'de')).toContain('auf Version 4 umgestellt');
    // One version throughout (or none known): no mark, one line.
    const same = chartGeometry(
      daily([90, 88, 60], () => ({ scoringVersion: 4 })),
      'en',
    );
    expect([same.versionChanges, same.segments.length]).toEqual([[], 1]);
    expect(chartGeometry(daily([90, 88, 60]), 'en').versionChanges).toEqual([]);
  });

  it('handles no points: no plot, the sentence says so', () => {
    const markup = scoreHistoryChart([], { locale: 'en', thresholds: THRESHOLDS }).value;
    expect(markup).not.toContain('<svg');
    expect(markup).toContain('No finished scans yet.');
    expect(scoreHistoryChart([], { locale: 'de' }).value).toContain('Noch keine abgeschlossenen Scans.');
  });

  it('handles one point: in the middle, linked, one date under it', () => {
    const g = chartGeometry(daily([85]), 'en', THRESHOLDS);
    expect(g.points.map((p) => [p.x, p.y])).toEqual([[VIEW_WIDTH / 2, 15]]);
    expect(g.segments).toEqual([]);
    expect(g.ticks).toEqual([{ x: VIEW_WIDTH / 2, label: '21 Oct, 04:12' }]);
    const markup = scoreHistoryChart(daily([85]), { locale: 'en', thresholds: THRESHOLDS }).value;
    expect(renderedPoints(markup)).toEqual([
      { href: '/reports/s0', x: 500, y: 15, score: 85, title: '21 Oct 2026, 04:12 UTC: overall score 85' },
    ]);
    expect(markup).toContain('<desc id="score-history-desc">Overall score 85 from one scan on 21 Oct 2026.</desc>');
  });

  it('handles 30 points: 30 links to their reports, dates under the plot, the trend in words', () => {
    const scores = Array.from({ length: 30 }, (_, i) => 92 - Math.round((i * 11) / 29));
    const markup = scoreHistoryChart(
      daily(scores, (i) => ({ runs: [scores[i]! - 2, scores[i]!, scores[i]! + 3] })),
      { locale: 'en', thresholds: THRESHOLDS, id: 'h' },
    ).value;
    const points = renderedPoints(markup);
    expect(points).toHaveLength(30);
    expect(points.map((p) => p.href)).toEqual(scores.map((_, i) => `/reports/s${i}`));
    expect(points[0]).toMatchObject({ x: 0, y: 8, score: 92 });
    expect(points[29]).toMatchObject({ x: 1000, y: 19, score: 81 });
    expect(points[29]!.title).toBe('19 Nov 2026, 04:12 UTC: overall score 81 (3 runs: 79–84)');
    for (const p of points) expect(p.y).toBe(VIEW_HEIGHT - p.score);
    expect(markup).toContain(
      '<desc id="h-desc">Overall score from 92 to 81 over 30 scans (21 Oct 2026 – 19 Nov 2026); lowest 81, highest 92; none below the warning threshold of 70.</desc>',
    );
    expect(markup).toMatch(
      /<svg class="chart-svg" viewBox="0 0 1000 100" preserveAspectRatio="none"[^>]* role="group" aria-labelledby="h-title" aria-describedby="h-desc">/,
    );
    expect(markup).toContain('<title id="h-title">Overall score history</title>');
    expect(markup).toContain('>21 Oct</span>');
    expect(markup).toContain('>19 Nov</span>');
  });

  it('handles equal values: a flat line, described as steady', () => {
    const g = chartGeometry(daily([85, 85, 85, 85]), 'en');
    expect(new Set(g.points.map((p) => p.y))).toEqual(new Set([15]));
    expect(describeHistory(daily([85, 85, 85, 85]), 'en')).toBe(
      'Overall score steady at 85 over 4 scans (21 Oct 2026 – 24 Oct 2026).',
    );
    expect(describeHistory(daily([85, 85]), 'de')).toBe(
      'Gesamtwert konstant bei 85 in 2 Scans (21. Okt. 2026 – 22. Okt. 2026).',
    );
  });

  it('speaks German: title, sentence, point labels, threshold labels, dates', () => {
    const markup = scoreHistoryChart(
      daily([92, 60, 45], (i) => ({ runs: i === 1 ? [58, 60, 66] : undefined })),
      { locale: 'de', thresholds: THRESHOLDS },
    ).value;
    expect(markup).toContain('Verlauf des Gesamtwerts');
    expect(markup).toContain(
      'Gesamtwert von 92 auf 45 in 3 Scans (21. Okt. 2026 – 23. Okt. 2026); niedrigster 45, höchster 92; 2 unter der Warnschwelle von 70.',
    );
    expect(markup).toContain('<title>22. Okt. 2026, 04:12 UTC: Gesamtwert 60 (3 Läufe: 58–66)</title>');
    expect(markup).toContain('>Warnung 70</span>');
    expect(markup).toContain('>Kritisch 50</span>');
    expect(markup).toContain('Streuung der Läufe');
  });

  it('counts scans without a score in the sentence', () => {
    expect(describeHistory(daily([80, null, 78]), 'en')).toBe(
      'Overall score from 80 to 78 over 2 scans (21 Oct 2026 – 23 Oct 2026); lowest 78, highest 80; 1 scan without a score.',
    );
    expect(describeHistory(daily([null]), 'en')).toBe('No finished scans yet; 1 scan without a score.');
  });

  it('escapes what it is given: links and the chart id', () => {
    const markup = scoreHistoryChart([{ at: new Date(START), score: 50, href: '/reports/"><script>x</script>' }], {
      locale: 'en',
      id: 'a"b',
    }).value;
    expect(markup).not.toContain('<script>');
    expect(markup).toContain('href="/reports/&quot;&gt;&lt;script&gt;x&lt;/script&gt;"');
    expect(markup).toContain('id="a&quot;b"');
  });
});

describe('sparkline', () => {
  it('is an image named by its trend, with the last N scored points evenly spaced', () => {
    const points = daily(Array.from({ length: 40 }, (_, i) => 60 + (i % 10)));
    const g = sparklineGeometry(points, THRESHOLDS, 30);
    expect(g.points).toHaveLength(30);
    expect(g.points[0]!.x).toBe(4);
    expect(g.points.at(-1)!.x).toBe(SPARKLINE_SIZE.width - 4);
    const markup = sparkline(points, { locale: 'en', thresholds: THRESHOLDS, limit: 14 }).value;
    expect(markup).toMatch(
      /<svg class="sparkline" width="140" height="40" viewBox="0 0 140 40" role="img" aria-label="Last 14 scans: overall score from 66 to 69">/,
    );
    expect(sparkline(points, { locale: 'de', limit: 14 }).value).toContain(
      'aria-label="Letzte 14 Scans: Gesamtwert von 66 auf 69"',
    );
  });

  it('scales from a floor below the lowest score or the warning threshold up to 100', () => {
    expect(sparklineFloor([93, 66], THRESHOLDS)).toBe(50);
    expect(sparklineFloor([96, 95], { warning: 90, critical: 75 })).toBe(80);
    expect(sparklineFloor([100], undefined)).toBe(90);
    expect(sparklineFloor([3], THRESHOLDS)).toBe(0);
    const g = sparklineGeometry(daily([100, 50]), THRESHOLDS);
    // Floor 40 and 32 px between the paddings: 100 at the top, 50 at 5/6 of the way down, the warning line 70 at half.
    expect(g.points.map((p) => p.y)).toEqual([4, 30.67]);
    expect(g.warningY).toBe(20);
  });

  it('handles none, one and equal values', () => {
    expect(sparkline([], { locale: 'en' }).value).toBe('<span class="sparkline sparkline-empty">No scans yet</span>');
    const one = sparkline(daily([77]), { locale: 'en' }).value;
    expect(one).toContain('aria-label="One scan: overall score 77"');
    expect(one).not.toContain('<polyline');
    expect(one).toContain(`cx="${SPARKLINE_SIZE.width / 2}"`);
    expect(sparkline(daily([88, 88, 88]), { locale: 'en' }).value).toContain(
      'aria-label="Last 3 scans: overall score steady at 88"',
    );
  });

  it('colours the latest point by its threshold', () => {
    expect(sparkline(daily([90, 45]), { locale: 'en', thresholds: THRESHOLDS }).value).toMatch(
      /class="sparkline-last"[^>]*fill="#b3261e"/,
    );
    expect(sparkline(daily([90, 65]), { locale: 'en', thresholds: THRESHOLDS }).value).toMatch(
      /class="sparkline-last"[^>]*fill="#a35a00"/,
    );
  });
});
