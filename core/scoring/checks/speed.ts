import { FORM_FACTORS, type FormFactor, type FormFactorObservation } from '../../scan/observation.ts';
import { type Check, defineCheck, type Finding, pass } from '../types.ts';

/** `speed` is Lighthouse's performance score: the mean of desktop and mobile. */
export const performanceScore = defineCheck({
  id: 'speed.performance',
  category: 'speed',
  measures: "Lighthouse's performance category score, averaged over desktop and mobile.",
  weight: 1,
  codes: [],
  run(obs) {
    const scores = FORM_FACTORS.map((f) => obs[f].performanceScore).filter((s): s is number => s !== null);
    return pass(scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0);
  },
});

/** A Core Web Vital or paint metric against Google's thresholds, per form factor; the worse one counts. */
function metricCheck<const Code extends string>(id: string, code: Code, measures: string, read: (o: FormFactorObservation) => number, good: number, poor: number, unit: 'ms' | ''): Check {
  return defineCheck({
    id,
    category: 'speed',
    measures,
    weight: 0,
    codes: [code],
    run(obs, { finding }) {
      const findings: Finding[] = [];
      for (const factor of FORM_FACTORS as readonly FormFactor[]) {
        const value = read(obs[factor]);
        if (value <= good) continue;
        findings.push(
          finding(code, value > poor ? 'critical' : 'warning', {
            form_factor: factor,
            [unit === 'ms' ? 'value_ms' : 'value']: unit === 'ms' ? Math.round(value) : Math.round(value * 1000) / 1000,
            [unit === 'ms' ? 'target_ms' : 'target']: good,
          }),
        );
      }
      return { score: 1, applicable: true, findings };
    },
  });
}

export const lcp = metricCheck('speed.lcp', 'speed.lcp-slow', 'Largest Contentful Paint (good up to 2.5 s, poor above 4 s).', (o) => o.metrics.lcpMs, 2500, 4000, 'ms');
export const fcp = metricCheck('speed.fcp', 'speed.fcp-slow', 'First Contentful Paint (good up to 1.8 s, poor above 3 s).', (o) => o.metrics.fcpMs, 1800, 3000, 'ms');
export const tbt = metricCheck('speed.tbt', 'speed.tbt-high', 'Total Blocking Time (good up to 200 ms, poor above 600 ms).', (o) => o.metrics.tbtMs, 200, 600, 'ms');
export const cls = metricCheck('speed.cls', 'speed.cls-high', 'Cumulative Layout Shift (good up to 0.1, poor above 0.25).', (o) => o.metrics.cls, 0.1, 0.25, '');

export const unreliable = defineCheck({
  id: 'speed.unreliable',
  category: 'speed',
  measures: "Lighthouse's CPU benchmark during the run; below 500 the machine was too busy to trust timings.",
  weight: 0,
  codes: ['speed.unreliable-measurement'],
  run(obs, { finding }) {
    const lowest = Math.min(...FORM_FACTORS.map((f) => obs[f].benchmarkIndex ?? Infinity));
    if (lowest >= 500) return pass();
    return { score: 1, applicable: true, findings: [finding('speed.unreliable-measurement', 'info', { benchmark_index: Math.round(lowest) })] };
  },
});

export const SPEED_CHECKS = [performanceScore, lcp, fcp, tbt, cls, unreliable];
