import type { LabHistoryItem, LabValues } from '../../core/monitoring/lab-history.ts';
import {
  describeLabHistory,
  labChartGeometry,
  labMetricChart,
  labSeries,
  type LabPoint,
} from '../../web/charts/lab-metric-history.ts';
import { VIEW_WIDTH } from '../../web/charts/score-history.ts';
import { labChartsSection } from '../../web/monitoring/lab-charts.ts';

const DAY = 86_400_000;
const START = Date.UTC(2026, 10, 1, 4, 12); // 1 Nov 2026, 04:12 UTC

const values = (lcp: number, extra: Partial<LabValues> = {}): LabValues => ({
  lcp_ms: lcp,
  cls: 0.02,
  tbt_ms: 150,
  fcp_ms: 900,
  ...extra,
});

/** A scan of day `day`: its median LCP on mobile and the LCPs of its runs (desktop a tenth of mobile). */
const item = (day: number, median: number, runs: number[], lighthouseVersion = '13.5.0'): LabHistoryItem => ({
  scanId: `s${day}`,
  finishedAt: new Date(START + day * DAY),
  trigger: 'schedule',
  lighthouseVersion,
  ttfbMs: 100 + day,
  metrics: { mobile: values(median), desktop: values(median / 10) },
  runs: { mobile: runs.map((lcp) => values(lcp)), desktop: runs.map((lcp) => values(lcp / 10)) },
});

const HISTORY = [item(2, 3000, [2800, 3000, 3500]), item(0, 2000, [1900, 2000, 2600]), item(1, 2500, [2500])];

describe('a lab metric’s series', () => {
  it('is each scan’s median value, oldest first, with the runs’ lowest and highest when it ran more than once', () => {
    expect(labSeries(HISTORY, 'lcp_ms', 'mobile')).toEqual([
      {
        scanId: 's0',
        at: new Date(START),
        value: 2000,
        spread: { min: 1900, max: 2600, count: 3 },
        lighthouseMajor: 13,
      },
      { scanId: 's1', at: new Date(START + DAY), value: 2500, spread: null, lighthouseMajor: 13 },
      {
        scanId: 's2',
        at: new Date(START + 2 * DAY),
        value: 3000,
        spread: { min: 2800, max: 3500, count: 3 },
        lighthouseMajor: 13,
      },
    ]);
    expect(labSeries(HISTORY, 'lcp_ms', 'desktop').map((p) => p.spread)).toEqual([
      { min: 190, max: 260, count: 3 },
      null,
      { min: 280, max: 350, count: 3 },
    ]);
  });

  it('has TTFB once per scan, without a spread', () => {
    expect(labSeries(HISTORY, 'ttfb_ms', 'mobile').map((p) => [p.value, p.spread])).toEqual([
      [100, null],
      [101, null],
      [102, null],
    ]);
  });
});

describe('a lab metric chart’s geometry', () => {
  const series = labSeries(HISTORY, 'lcp_ms', 'mobile');

  it('scales from 0 to a round value above the poor threshold and the highest run, time on x', () => {
    const g = labChartGeometry('lcp_ms', series, 'en');
    // Highest run 3500 × 1.05 = 3675 < poor 4000 × 1.2 = 4800: the top is 5000.
    expect(g.top).toBe(5000);
    expect(g.points.map((p) => [p.x, p.y, p.rating])).toEqual([
      [0, 60, 'good'],
      [VIEW_WIDTH / 2, 50, 'good'],
      [VIEW_WIDTH, 40, 'needs-improvement'],
    ]);
    expect(g.points.map((p) => p.whisker)).toEqual([{ top: 48, bottom: 62 }, null, { top: 30, bottom: 44 }]);
    expect(g.segments).toEqual(['M0,60 L500,50 L1000,40']);
    expect(g.bands.good).toEqual({ y: 50, height: 50 });
    expect(g.bands.poor).toEqual({ y: 0, height: 20 });
    expect(g.budget).toBeNull();
  });

  it('draws a budget as a line at its value and raises the top to include it', () => {
    const g = labChartGeometry('lcp_ms', series, 'en', 6000);
    expect(g.top).toBe(10_000);
    expect(g.budget).toEqual({ value: 6000, y: 40 });
  });

  it('does not join the line across a Lighthouse major version, and marks the change', () => {
    const mixed = labSeries([...HISTORY.slice(1), item(2, 3000, [3000], '14.0.0')], 'lcp_ms', 'mobile');
    const g = labChartGeometry('lcp_ms', mixed, 'en');
    expect(g.segments).toEqual(['M0,60 L500,50']);
    expect(g.versionChanges).toEqual([{ x: 750, version: 14 }]);
    expect(describeLabHistory('lcp_ms', mixed, 'en')).toContain(
      'Lighthouse 14 measured from 3 Nov 2026 on: values before it are another measure.',
    );
  });

  it('breaks the line at a scan without the metric', () => {
    const gap: LabPoint[] = series.map((p, i) => (i === 1 ? { ...p, value: null, spread: null } : p));
    const g = labChartGeometry('lcp_ms', gap, 'en');
    expect(g.points).toHaveLength(2);
    expect(g.segments).toEqual([]);
  });
});

describe('a lab metric chart', () => {
  const series = labSeries(HISTORY, 'lcp_ms', 'mobile');

  it('says the trend, the widest spread and budget overruns in words, in English and German', () => {
    expect(describeLabHistory('lcp_ms', series, 'en', 2800)).toBe(
      'From 2,000 ms to 3,000 ms over 3 scans (1 Nov 2026 – 3 Nov 2026); lowest 2,000 ms, highest 3,000 ms. Widest spread of the runs: 700 ms on 1 Nov 2026. 1 over the budget of 2,800 ms.',
    );
    expect(describeLabHistory('lcp_ms', series, 'de')).toMatch(/^Von 2\.000 ms auf 3\.000 ms in 3 Scans/);
    expect(describeLabHistory('lcp_ms', [], 'en')).toBe('No scans with this metric yet.');
  });

  it('links every point to its report, with its value and runs, and draws a whisker per scan of several runs', () => {
    const chart = String(
      labMetricChart('lcp_ms', series, {
        locale: 'en',
        id: 'lab-lcp',
        factor: 'mobile',
        budget: 2800,
        href: (id) => `/reports/${id}`,
      }),
    );
    expect(chart).toContain('<title id="lab-lcp-title">LCP on mobile: median run of each scan</title>');
    const points = [
      ...chart.matchAll(
        /<a class="point" href="([^"]+)" data-scan-id="[^"]+" data-value="(\d+)" data-min="(\d*)" data-max="(\d*)"[^>]*><title>([^<]+)<\/title>/g,
      ),
    ].map((m) => [m[1], m[2], m[3], m[4], m[5]]);
    expect(points).toEqual([
      ['/reports/s0', '2000', '1900', '2600', '1 Nov 2026, 04:12 UTC: 2,000 ms (3 runs: 1,900 ms–2,600 ms)'],
      ['/reports/s1', '2500', '', '', '2 Nov 2026, 04:12 UTC: 2,500 ms'],
      ['/reports/s2', '3000', '2800', '3500', '3 Nov 2026, 04:12 UTC: 3,000 ms (3 runs: 2,800 ms–3,500 ms)'],
    ]);
    expect(chart.match(/<line class="spread"/g)).toHaveLength(2);
    expect(chart).toContain('<line class="budget" aria-hidden="true" data-value="2800"');
    expect(chart).toContain('stroke-dasharray="6 4"');
  });

  it('says so when there is nothing to draw', () => {
    expect(String(labMetricChart('cls', [], { locale: 'de', id: 'x' }))).toContain(
      '<p class="chart-none">Noch keine Scans mit diesem Messwert.</p>',
    );
  });
});

describe('the target page’s lab-metrics section', () => {
  it('charts LCP, CLS, TBT, FCP on mobile and desktop, and TTFB once', () => {
    const section = String(labChartsSection(HISTORY, 'en'));
    const ids = [...section.matchAll(/<figure class="chart lab-chart" id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual([
      'lab-lcp_ms-mobile',
      'lab-lcp_ms-desktop',
      'lab-cls-mobile',
      'lab-cls-desktop',
      'lab-tbt_ms-mobile',
      'lab-tbt_ms-desktop',
      'lab-fcp_ms-mobile',
      'lab-fcp_ms-desktop',
      'lab-ttfb_ms',
    ]);
    expect(String(labChartsSection(HISTORY, 'de'))).toContain('<h2 id="lab-metrics-heading">Labormesswerte</h2>');
  });

  it('draws each form factor’s budget on its own chart, and the lower TTFB budget on the one TTFB chart', () => {
    const section = String(
      labChartsSection(HISTORY, 'en', {
        mobile: { lcp_ms: 2500, ttfb_ms: 600 },
        desktop: { lcp_ms: 1200, ttfb_ms: 400 },
      }),
    );
    const budgets = [...section.matchAll(/<figure class="chart lab-chart" id="([^"]+)"[\s\S]*?<\/figure>/g)]
      .map((m) => [m[1], /<line class="budget" aria-hidden="true" data-value="(\d+)"/.exec(m[0])?.[1]])
      .filter(([, value]) => value);
    expect(budgets).toEqual([
      ['lab-lcp_ms-mobile', '2500'],
      ['lab-lcp_ms-desktop', '1200'],
      ['lab-ttfb_ms', '400'],
    ]);
  });

  it('is left out for a target without finished scans', () => {
    expect(String(labChartsSection([], 'en'))).toBe('');
  });
});
