import type { AlertDetails, AlertSeverity } from '../../core/monitoring/alert.ts';
import {
  BASELINE_WINDOW,
  confirmRegressions,
  openRegressionTransition,
  raisedRegressionAlerts,
  regressionCandidates,
  type OpenRegression,
  type RegressionKey,
  type ScanValues,
  TAIL_WINDOW,
} from '../../core/monitoring/regression-rules.ts';
import { seededRandom } from '../../fixtures/rum-dashboard.ts';

/**
 * The confirmed regression rule (core/monitoring/regression-rules.ts) on simulated histories: noise, including
 * TBT that jumps by seconds at random, raises nothing over many simulated days; a real shift is a candidate
 * and is confirmed; a one-off slow scan is a candidate that its confirmation scan does not confirm.
 */

const DAY = 86_400_000;
const T0 = new Date('2026-11-01T06:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * DAY);

type Draw = () => ScanValues['values'];

/** A normal draw (Box-Muller) from a seeded uniform. */
const gaussian = (random: () => number) => () =>
  Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/** A page whose scan medians of every metric wander a little around fixed levels. */
function stablePage(seed: number, shift: Partial<Record<RegressionKey, number>> = {}): Draw {
  const n = gaussian(seededRandom(seed));
  return () => ({
    'mobile.lcp': 1800 + 60 * n() + (shift['mobile.lcp'] ?? 0),
    'desktop.lcp': 600 + 25 * n() + (shift['desktop.lcp'] ?? 0),
    'mobile.fcp': 1500 + 50 * n(),
    'desktop.fcp': 500 + 20 * n(),
    'mobile.tbt': Math.max(0, 120 + 30 * n() + (shift['mobile.tbt'] ?? 0)),
    'desktop.tbt': Math.max(0, 10 + 8 * n() + (shift['desktop.tbt'] ?? 0)),
    'mobile.cls': 0.01,
    'desktop.cls': 0,
    ttfb: 40 + 5 * n(),
    score: Math.round(95 + 1.2 * n() + (shift.score ?? 0)),
  });
}

/**
 * A page with random main-thread bursts: each of 3 page loads bursts with probability 0.35 (adding 1–4 s of
 * TBT, more on mobile), the scan's value is the median load; the score falls with a bursty median.
 */
function burstyPage(seed: number): Draw {
  const random = seededRandom(seed);
  const n = gaussian(random);
  const load = (base: number, burst: number) => base + (random() < 0.35 ? burst * (1 + 3 * random()) : 0);
  const medianOf3 = (f: () => number) => [f(), f(), f()].sort((a, b) => a - b)[1]!;
  return () => {
    const mobile = medianOf3(() => load(150 + 30 * n(), 1200));
    const desktop = medianOf3(() => load(20 + 8 * n(), 1000));
    return {
      'mobile.lcp': 1800 + 80 * n(),
      'desktop.lcp': 600 + 30 * n(),
      'mobile.fcp': 1500 + 60 * n(),
      'desktop.fcp': 500 + 20 * n(),
      'mobile.tbt': mobile,
      'desktop.tbt': desktop,
      'mobile.cls': 0.01,
      'desktop.cls': 0,
      ttfb: 40 + 5 * n(),
      score: Math.round(95 - Math.min(30, mobile / 100) + n()),
    };
  };
}

/**
 * Days of scheduled scans as the service runs them: each day's scan is judged against the previous ones;
 * a candidate takes one more (confirmation) scan at once, which is not part of the history. Returns the keys
 * confirmed on each day, and how many confirmation scans were spent.
 */
function simulate(draw: Draw, days: number, history = TAIL_WINDOW) {
  const scans: ScanValues[] = [];
  for (let i = 0; i < history; i++) scans.unshift({ finishedAt: day(i - history), values: draw() });
  const alarms: Array<{ day: number; keys: RegressionKey[] }> = [];
  let confirmations = 0;
  for (let d = 0; d < days; d++) {
    const current = draw();
    const candidates = regressionCandidates(scans, current).map((c) => c.key);
    if (candidates.length) {
      confirmations++;
      const confirmed = confirmRegressions(scans, current, draw(), candidates);
      if (confirmed.length) alarms.push({ day: d, keys: confirmed.map((c) => c.key) });
    }
    scans.unshift({ finishedAt: day(d), values: current });
  }
  return { alarms, confirmations };
}

describe('no alarm on noise', () => {
  it('a stable page: no alarm in 3 simulated years, and confirmation scans are rare', () => {
    const { alarms, confirmations } = simulate(stablePage(11), 3 * 365);
    expect(alarms).toEqual([]);
    expect(confirmations).toBeLessThan(3 * 365 * 0.1);
  });

  it('a page whose TBT jumps by seconds at random: no alarm in 10 simulated years', () => {
    // With the worst worsening taken from 14 scans only, these histories raised 10 alarms (two bursts in a row
    // after a fortnight without any); TAIL_WINDOW = 28 makes such quiet spells 100 times rarer.
    const alarms = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10].flatMap((seed) => simulate(burstyPage(seed), 365).alarms);
    expect(alarms).toEqual([]);
  });
});

describe('an alarm on a real shift', () => {
  const baseline = (seed: number) => {
    const draw = stablePage(seed);
    return Array.from({ length: BASELINE_WINDOW }, (_, i) => ({ finishedAt: day(-i - 1), values: draw() }));
  };

  it('+800 ms of mobile LCP: a candidate, confirmed with its p-value and Hodges-Lehmann shift', () => {
    const previous = baseline(5);
    const slower = stablePage(6, { 'mobile.lcp': 800 });
    const current = slower();
    expect(regressionCandidates(previous, current).map((c) => c.key)).toEqual(['mobile.lcp']);
    const [confirmed, ...more] = confirmRegressions(previous, current, slower(), ['mobile.lcp']);
    expect(more).toEqual([]);
    expect(confirmed).toMatchObject({
      key: 'mobile.lcp',
      severity: 'warning',
      facts: { metric: 'lcp', form_factor: 'mobile', baseline_scans: BASELINE_WINDOW },
    });
    expect(confirmed!.facts.p_value).toBeLessThanOrEqual(0.05);
    expect(confirmed!.facts.shift).toBeGreaterThan(600);
    expect(confirmed!.facts.shift).toBeLessThan(1000);
  });

  it('+300 ms of main-thread work (mobile TBT ×4 under throttling): confirmed, critical beyond 500 ms', () => {
    const previous = baseline(7);
    const slower = stablePage(8, { 'mobile.tbt': 1200, 'desktop.tbt': 250 });
    const current = slower();
    const keys = regressionCandidates(previous, current).map((c) => c.key);
    expect(keys).toEqual(expect.arrayContaining(['mobile.tbt', 'desktop.tbt']));
    const confirmed = confirmRegressions(previous, current, slower(), keys);
    expect(confirmed.map((c) => [c.key, c.severity])).toEqual(
      expect.arrayContaining([
        ['mobile.tbt', 'critical'],
        ['desktop.tbt', 'warning'],
      ]),
    );
    const [alert] = raisedRegressionAlerts(confirmed, { path: '/pricing?x=1', confirmationScanId: 'c'.repeat(26) });
    expect(alert).toMatchObject({
      type: 'metric_regression',
      severity: 'critical',
      details: {
        regression: { metric: 'tbt', form_factor: 'mobile', path: '/pricing?x=1', also: ['desktop.tbt'] },
      },
    });
  });

  it('the overall score 13 points down: a score_regression of its own', () => {
    const previous = baseline(9);
    const lower = stablePage(10, { score: -13 });
    const current = lower();
    const keys = regressionCandidates(previous, current).map((c) => c.key);
    expect(keys).toEqual(['score']);
    const raised = raisedRegressionAlerts(confirmRegressions(previous, current, lower(), keys), {
      path: '/',
      confirmationScanId: 'c'.repeat(26),
    });
    expect(raised).toMatchObject([
      {
        type: 'score_regression',
        severity: 'warning',
        details: { score: 'overall', reference: 95, regression: { metric: 'score', form_factor: null } },
      },
    ]);
    expect(raised[0]!.details.value).toBeLessThan(85);
  });

  it('needs 5 previous scans: with 4, nothing is a candidate however far it fell', () => {
    expect(regressionCandidates(baseline(3).slice(0, 4), stablePage(4, { score: -40 })())).toEqual([]);
  });

  it('an open alert of the type: no new candidate of that type, the other type still', () => {
    const current = stablePage(12, { score: -20, 'mobile.lcp': 900 })();
    expect(regressionCandidates(baseline(13), current, new Set(['metric_regression'])).map((c) => c.key)).toEqual([
      'score',
    ]);
  });
});

describe('the confirmation disagrees', () => {
  it('one slow scan, then the page is as before: a candidate, not confirmed', () => {
    const draw = stablePage(21);
    const previous = Array.from({ length: BASELINE_WINDOW }, (_, i) => ({ finishedAt: day(-i - 1), values: draw() }));
    const slow = stablePage(22, { 'mobile.lcp': 900 })();
    expect(regressionCandidates(previous, slow).map((c) => c.key)).toEqual(['mobile.lcp']);
    expect(confirmRegressions(previous, slow, draw(), ['mobile.lcp'])).toEqual([]);
  });

  it('a confirmation a little worse but within the noise band: not confirmed, even where the rank test alone would be', () => {
    const previous: ScanValues[] = [1000, 1010, 990, 1005, 995, 1000, 1002].map((lcp, i) => ({
      finishedAt: day(-i - 1),
      values: { 'mobile.lcp': lcp },
    }));
    // 1015 is above every baseline value, but only 15 ms above its median (the floor is 100 ms).
    expect(confirmRegressions(previous, { 'mobile.lcp': 1900 }, { 'mobile.lcp': 1015 }, ['mobile.lcp'])).toEqual([]);
    expect(
      confirmRegressions(previous, { 'mobile.lcp': 1900 }, { 'mobile.lcp': 1850 }, ['mobile.lcp']).map((c) => c.key),
    ).toEqual(['mobile.lcp']);
  });
});

describe('an open regression alert', () => {
  const open = (severity: AlertSeverity, details: Partial<AlertDetails> = {}): OpenRegression => ({
    id: 9,
    type: 'metric_regression',
    severity,
    createdAt: day(0),
    details: {
      score: 'speed',
      value: 2700,
      reference: 1800,
      baselineScans: 14,
      regression: {
        metric: 'lcp',
        form_factor: 'mobile',
        baseline: 1800,
        current: 2700,
        shift: 880,
        p_value: 0.008,
        baseline_scans: 14,
        path: '/',
        confirmation_scan_id: 'c'.repeat(26),
      },
      ...details,
    },
  });
  const since = (values: number[], newest: Date) =>
    values.map((v, i) => ({ finishedAt: new Date(newest.getTime() - i * DAY), values: { 'mobile.lcp': v } }));

  it('back within the effect floor of the baseline it was raised against: resolved as recovered', () => {
    expect(openRegressionTransition(open('warning'), [], { 'mobile.lcp': 1890 })).toEqual({
      change: 'resolved',
      alertId: 9,
      type: 'metric_regression',
      resolution: { kind: 'recovered', value: 1890 },
    });
  });

  it('better but still beyond the floor: unchanged', () => {
    expect(openRegressionTransition(open('warning'), since([2600, 2650], day(2)), { 'mobile.lcp': 2000 })).toBeNull();
  });

  it('worse by the critical shift (1 s of LCP): escalated, with the new current value', () => {
    expect(openRegressionTransition(open('warning'), [], { 'mobile.lcp': 2900 })).toMatchObject({
      change: 'escalated',
      severity: 'critical',
      details: { value: 2900, regression: { current: 2900, baseline: 1800 } },
    });
  });

  it('7 scheduled scans since at the new level: resolved as settled; one of them from before: not yet', () => {
    const level = [2700, 2690, 2710, 2700, 2705, 2695, 2700];
    expect(openRegressionTransition(open('warning'), since(level, day(7)), { 'mobile.lcp': 2702 })).toMatchObject({
      change: 'resolved',
      resolution: { kind: 'settled', value: 2702 },
    });
    expect(openRegressionTransition(open('warning'), since(level, day(6)), { 'mobile.lcp': 2702 })).toBeNull();
  });

  it('a score_regression stored before confirmed regressions (no facts) is judged on the overall score', () => {
    const legacy: OpenRegression = {
      id: 4,
      type: 'score_regression',
      severity: 'warning',
      createdAt: day(0),
      details: { score: 'overall', value: 85, reference: 98, baselineScans: 7 },
    };
    expect(openRegressionTransition(legacy, [], { score: 96 })).toMatchObject({
      change: 'resolved',
      resolution: { kind: 'recovered', value: 96 },
    });
    expect(openRegressionTransition(legacy, [], { score: 90 })).toBeNull();
    expect(openRegressionTransition(legacy, [], { score: 77 })).toMatchObject({ change: 'escalated' });
  });
});
