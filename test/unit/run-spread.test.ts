import type { RunRecord } from '../../core/scan/result.ts';
import { finishedScan, resultScoring } from '../../fixtures/finished-scan.ts';
import { reportPage } from '../../web/scans/report-page.ts';
import {
  dotPositions,
  DOTS_WIDTH,
  metricSpread,
  spreadSection,
  spreadStrip,
  spreadValue,
} from '../../web/scans/report-spread.ts';
import { urlBox } from '../../web/scans/url-box.ts';

/** A run with these values; the rest fixed. */
const run = (values: Partial<RunRecord>): RunRecord => ({
  performance_score: 90,
  fcp_ms: 1000,
  lcp_ms: 2000,
  tbt_ms: 100,
  cls: 0.01,
  si_ms: 1500,
  interactive_ms: 3000,
  benchmark_index: 1500,
  lighthouse_version: '13.5.0',
  chromium_version: '140.0.0.0',
  overloaded: false,
  repeated: false,
  median: false,
  ...values,
});

const THREE = [
  run({ lcp_ms: 2410, cls: 0.02, tbt_ms: 120 }),
  run({ lcp_ms: 2130, cls: 0.05, tbt_ms: 80, median: true }),
  run({ lcp_ms: 2980, cls: 0.05, tbt_ms: 310, overloaded: true }),
];

describe('the spread of a metric over the runs', () => {
  it('is the lowest and highest value with the median run’s value, every run in the order loaded', () => {
    expect(metricSpread(THREE, 'lcp_ms')).toEqual({
      min: 2130,
      max: 2980,
      median: 2130,
      runs: [
        { index: 0, value: 2410, median: false, overloaded: false },
        { index: 1, value: 2130, median: true, overloaded: false },
        { index: 2, value: 2980, median: false, overloaded: true },
      ],
    });
    expect(metricSpread(THREE, 'tbt_ms')).toMatchObject({ min: 80, max: 310, median: 80 });
  });

  it('is nothing for a single run, and has no median value when no run is marked', () => {
    expect(metricSpread([run({})], 'lcp_ms')).toBeNull();
    expect(metricSpread([], 'cls')).toBeNull();
    expect(metricSpread([run({ lcp_ms: 1 }), run({ lcp_ms: 3 })], 'lcp_ms')).toMatchObject({ median: null });
  });

  it('places the lowest run at the left end and the highest at the right, in proportion; equal values stack', () => {
    const spread = metricSpread(THREE, 'lcp_ms')!;
    const dots = dotPositions(spread);
    expect(dots.map((d) => d.x)).toEqual(
      [7 + ((2410 - 2130) / 850) * (DOTS_WIDTH - 14), 7, DOTS_WIDTH - 7].map((x) => Math.round(x * 100) / 100),
    );
    const cls = dotPositions(metricSpread(THREE, 'cls')!);
    // Two runs measured 0.05: the second is drawn above the first, both at the right end.
    expect(cls.map((d) => [d.x, d.y])).toEqual([
      [7, 9],
      [DOTS_WIDTH - 7, 9],
      [DOTS_WIDTH - 7, 5],
    ]);
    const same = dotPositions(metricSpread([run({}), run({})], 'lcp_ms')!);
    expect(same.map((d) => d.x)).toEqual([DOTS_WIDTH / 2, DOTS_WIDTH / 2]);
  });

  it('writes milliseconds whole and CLS to three decimals, in the page’s language', () => {
    expect(spreadValue('lcp_ms', 2410, 'en')).toBe('2,410\u00a0ms');
    expect(spreadValue('lcp_ms', 2410, 'de')).toBe('2.410\u00a0ms');
    expect(spreadValue('cls', 0.05, 'de')).toBe('0,05');
  });

  it('names the strip by every run’s value, the median and a busy run said in words', () => {
    const strip = String(spreadStrip('lcp_ms', metricSpread(THREE, 'lcp_ms')!, 'en'));
    expect(strip).toContain('aria-label="Runs: 2,410\u00a0ms; 2,130\u00a0ms (median); 2,980\u00a0ms (machine busy)"');
    expect(strip.match(/<circle class="run run-median"/g)).toHaveLength(1);
    expect(strip).toContain('class="run run-busy" data-run="2" data-value="2980"');
    const de = String(spreadStrip('lcp_ms', metricSpread(THREE, 'lcp_ms')!, 'de'));
    expect(de).toContain(
      'aria-label="Läufe: 2.410\u00a0ms; 2.130\u00a0ms (Median); 2.980\u00a0ms (Rechner ausgelastet)"',
    );
  });
});

describe('the report’s spread section', () => {
  const result = {
    ...resultScoring(80),
    runs: {
      desktop: [run({ lcp_ms: 900 }), run({ lcp_ms: 1100, median: true }), run({ lcp_ms: 1000 })],
      mobile: THREE,
      overall: [80, 82, 79],
    },
  };

  it('shows each metric’s range on both form factors, with the data the strip is drawn from', () => {
    const section = String(spreadSection(result, 'en'));
    expect(section).toContain('<h2>Spread of the runs</h2>');
    expect(section).toContain('(3 per form factor)');
    const row = /<tr data-metric="lcp_ms">([\s\S]*?)<\/tr>/.exec(section)![1]!;
    expect(row).toContain(
      '<td data-factor="desktop" data-min="900" data-max="1100" data-median="1100" data-runs="3"><span class="spread-range">900\u00a0ms – 1,100\u00a0ms</span>',
    );
    expect(row).toContain(
      '<td data-factor="mobile" data-min="2130" data-max="2980" data-median="2130" data-runs="3"><span class="spread-range">2,130\u00a0ms – 2,980\u00a0ms</span>',
    );
    for (const metric of ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'si_ms'])
      expect(section).toContain(`<tr data-metric="${metric}">`);
    expect(String(spreadSection(result, 'de'))).toContain('<h2>Streuung der Läufe</h2>');
  });

  it('is not shown for a scan of one run or a result stored before runs were', () => {
    expect(String(spreadSection({ runs: { desktop: [run({})], mobile: [run({})], overall: [80] } }, 'en'))).toBe('');
    expect(String(spreadSection({}, 'en'))).toBe('');
  });

  it('stands in the report after the metrics, also for a share page’s viewer', () => {
    const page = reportPage({ scan: finishedScan(result, { runs: 3 }), chrome: { locale: 'en' }, imageUrl: (n) => n });
    expect(page.indexOf('id="run-spread"')).toBeGreaterThan(page.indexOf('id="metrics"'));
    const single = reportPage({ scan: finishedScan(resultScoring(80)), chrome: { locale: 'en' }, imageUrl: (n) => n });
    expect(single).not.toContain('id="run-spread"');
  });
});

describe('the scan form’s runs', () => {
  const signedIn = { csrf: 'c', regions: ['local'], values: {} };

  it('offers 1 to the plan’s most, keeping the choice, with what runs mean', () => {
    const box = String(urlBox('en', { ...signedIn, values: { runs: 3 }, runs: { max: 5 } }));
    const options = [...box.matchAll(/<option value="(\d)" ?(selected)?>([^<]*)<\/option>/g)].map((m) => [
      m[1],
      Boolean(m[2]),
      m[3],
    ]);
    expect(options).toEqual([
      ['1', false, '1 page load'],
      ['2', false, '2 page loads, median'],
      ['3', true, '3 page loads, median'],
      ['4', false, '4 page loads, median'],
      ['5', false, '5 page loads, median'],
    ]);
    expect(box).toContain('<select id="scan-runs" name="runs" aria-describedby="runs-hint">');
    expect(box).toContain('id="runs-hint">Page loads per form factor (up to 5 on your plan).');
  });

  it('offers no choice on a plan of one run, but says what the next plan adds and links to the plan page', () => {
    const box = String(urlBox('de', { ...signedIn, runs: { max: 1, upgrade: { plan: 'Starter', max: 3 } } }));
    expect(box).not.toContain('name="runs"');
    expect(box).toMatch(
      /id="runs-upgrade">Ihr Tarif lädt jede Seite einmal je Gerätetyp\. Der Tarif Starter lädt sie bis zu 3-mal[^<]*<a href="\/settings\/plan"/,
    );
  });

  it('shows a refused number beside the choice, tied to it for assistive technology', () => {
    const box = String(
      urlBox('en', { ...signedIn, runs: { max: 3 }, errors: { runs: 'The runs must be a whole number from 1 to 5.' } }),
    );
    expect(box).toContain('aria-invalid="true" aria-describedby="runs-error runs-hint"');
    expect(box).toContain('<p class="error" id="runs-error">The runs must be a whole number from 1 to 5.</p>');
  });

  it('has no runs for a visitor (the box asks to sign in first)', () => {
    expect(String(urlBox('en', { regions: ['local'], values: {} }))).not.toContain('runs');
  });
});
