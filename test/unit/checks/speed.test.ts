import { cls, fcp, lcp, performanceScore, tbt, unreliable } from '../../../core/scoring/checks/speed.ts';
import { type FixtureSet, PASS, run, runWithEvidence } from './fixtures/common.ts';
import { SPEED_FIXTURES } from './fixtures/speed.ts';

describe('speed.performance', () => {
  const F = SPEED_FIXTURES['speed.performance'];
  const low = (score: number, severity: string, formFactor: string, shown: number) => ({
    score: expect.closeTo(score, 12),
    applicable: true,
    findings: [
      { category: 'speed', code: 'speed.performance-low', severity, params: { form_factor: formFactor, score: shown } },
    ],
  });

  it('scores 1 without a finding when Lighthouse scores 1 on both form factors', () => {
    expect(run(performanceScore, F.perfect)).toEqual(PASS);
  });

  it('is the mean of the desktop and mobile scores, naming the lower one (info from 50, warning below)', () => {
    expect(performanceScore.codes).toEqual(['speed.performance-low', 'speed.not-measured']);
    expect(run(performanceScore, F.clean)).toEqual(low(0.95, 'info', 'mobile', 92));
    expect(run(performanceScore, F.representative)).toEqual(low(0.4, 'warning', 'mobile', 30));
  });

  it('counts a form factor Lighthouse could not score as 0, with a critical finding naming it', () => {
    expect(run(performanceScore, F.mobileMissing)).toEqual({
      score: 0.4,
      applicable: true,
      findings: [{ category: 'speed', code: 'speed.not-measured', severity: 'critical', params: { count: 1 } }],
    });
    expect(runWithEvidence(performanceScore, F.mobileMissing).findings[0]!.form_factors).toEqual(['mobile']);
  });

  it('scores 0 with a critical finding that says so when Lighthouse could score neither form factor', () => {
    expect(run(performanceScore, F.bothMissing)).toEqual({
      score: 0,
      applicable: true,
      findings: [{ category: 'speed', code: 'speed.not-measured', severity: 'critical', params: { count: 2 } }],
    });
  });
});

/** The Web Vitals checks: weight 0, score always 1, one finding when either form factor is past the good threshold. */
const METRICS = [
  { check: lcp, code: 'speed.lcp-slow', good: 2500, poor: 4000, value: 'value_ms', target: 'target_ms' },
  { check: fcp, code: 'speed.fcp-slow', good: 1800, poor: 3000, value: 'value_ms', target: 'target_ms' },
  { check: tbt, code: 'speed.tbt-high', good: 200, poor: 600, value: 'value_ms', target: 'target_ms' },
  { check: cls, code: 'speed.cls-high', good: 0.1, poor: 0.25, value: 'value', target: 'target' },
] as const;

for (const { check, code, good, poor, value, target } of METRICS) {
  describe(check.id, () => {
    const F: FixtureSet = SPEED_FIXTURES[check.id as keyof typeof SPEED_FIXTURES];
    const step = value === 'value' ? 0.001 : 1;
    const finding = (severity: string, formFactor: string, v: number) => ({
      category: 'speed',
      code,
      severity,
      params: { form_factor: formFactor, [value]: v, [target]: good },
    });
    const reported = (...findings: ReturnType<typeof finding>[]) => ({ score: 1, applicable: true, findings });

    it('only reports, never moves the score (weight 0)', () => {
      expect(check.weight).toBe(0);
      expect(check.codes).toEqual([code]);
    });

    it(`passes up to the good threshold (${good})`, () => {
      expect(run(check, F.clean!)).toEqual(PASS);
      expect(run(check, F.atGood!)).toEqual(PASS);
    });

    it(`warns just above ${good} and up to the poor threshold (${poor})`, () => {
      expect(run(check, F.justOverGood!)).toEqual(reported(finding('warning', 'mobile', good + step)));
      expect(run(check, F.atPoor!)).toEqual(reported(finding('warning', 'mobile', poor)));
    });

    it(`is critical above ${poor}`, () => {
      expect(run(check, F.justOverPoor!)).toEqual(reported(finding('critical', 'mobile', poor + step)));
    });

    it('reports both form factors in one finding: the worse one in its message, both values beside it', () => {
      expect(run(check, F.bothFormFactors!)).toEqual(reported(finding('critical', 'desktop', poor + 100 * step)));
      const [whole] = runWithEvidence(check, F.bothFormFactors!).findings;
      expect(whole).toMatchObject({
        form_factors: ['desktop', 'mobile'],
        values: { desktop: poor + 100 * step, mobile: good + 100 * step },
      });
    });

    if (F.roundedToTarget) {
      it('judges the value as it is shown, so a finding never reads the target itself as over it', () => {
        expect(run(check, F.roundedToTarget!)).toEqual(PASS);
        for (const f of run(check, F.justOverGood!).findings) expect(f.params[value]).not.toBe(good);
      });
    }
  });
}

describe('speed.unreliable', () => {
  const F = SPEED_FIXTURES['speed.unreliable'];
  const busy = (index: number) => ({
    score: 1,
    applicable: true,
    findings: [
      { category: 'speed', code: 'speed.unreliable-measurement', severity: 'info', params: { benchmark_index: index } },
    ],
  });

  it('passes with a benchmark index of 500 or more on both runs, or none reported', () => {
    expect(run(unreliable, F.clean)).toEqual(PASS);
    expect(run(unreliable, F.at500)).toEqual(PASS);
    expect(run(unreliable, F.bothMissing)).toEqual(PASS);
  });

  it('reports, as info and without moving the score, a run below 500', () => {
    expect(unreliable.weight).toBe(0);
    expect(run(unreliable, F.justUnder500)).toEqual(busy(499));
    expect(run(unreliable, F.oneMissing)).toEqual(busy(300));
  });

  it('reports the lowest index, judged as rounded (499.6 reads as 500 and passes)', () => {
    expect(run(unreliable, F.lowestCounts)).toEqual(busy(200));
    expect(run(unreliable, F.roundsUpTo500)).toEqual(PASS);
  });
});
