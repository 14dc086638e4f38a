import { describeThreshold, METRIC_THRESHOLDS, type MetricThreshold } from '../../metric-thresholds.ts';
import {
  FORM_FACTORS,
  type FormFactor,
  type FormFactorObservation,
  type KeptAudit,
  type ScanObservation,
} from '../../scan/observation.ts';
import { auditEvidence } from '../evidence.ts';
import { type Check, defineCheck, fail, type FindingEvidence, pass } from '../types.ts';
import { lcpPhaseClues } from './lcp-discovery.ts';
import { shiftEvidence } from './shift-culprits.ts';

/**
 * `speed` is Lighthouse's performance score: the mean of desktop and mobile, a form factor Lighthouse could
 * not score counting as 0 (so a page never gains by failing to load on one of them). Below 100 on either, a
 * finding names the lower one (info from 50, Lighthouse's "needs improvement"; a warning below); an unscored
 * form factor has a critical finding of its own. No deduction is silent.
 */
export const performanceScore = defineCheck({
  id: 'speed.performance',
  category: 'speed',
  measures:
    "Lighthouse's performance category score, averaged over desktop and mobile (reported below 100); a form factor Lighthouse could not score counts as 0, with a finding.",
  weight: 1,
  codes: ['speed.performance-low', 'speed.not-measured'],
  run(obs, { finding }) {
    const score = (f: FormFactor) => obs[f].performanceScore ?? 0;
    const mean = FORM_FACTORS.reduce((sum, f) => sum + score(f), 0) / FORM_FACTORS.length;
    const unscored = FORM_FACTORS.filter((f) => obs[f].performanceScore === null);
    if (unscored.length)
      return fail(
        mean,
        finding('speed.not-measured', 'critical', { count: unscored.length }, { form_factors: [...unscored] }),
      );
    const worst = FORM_FACTORS.reduce((a, b) => (score(b) < score(a) ? b : a));
    if (score(worst) >= 1) return pass();
    const shown = Math.round(score(worst) * 100);
    return fail(
      mean,
      finding('speed.performance-low', shown < 50 ? 'warning' : 'info', { form_factor: worst, score: shown }),
    );
  },
});

/** What explains a metric finding beyond its audit's evidence: Lighthouse's diagnosis on the form factors over target. */
type Explain = (obs: ScanObservation, over: FormFactor[], worst: FormFactor) => FindingEvidence;

/**
 * A Core Web Vital or paint metric against its thresholds (core/metric-thresholds.ts) on both form factors: one finding when either
 * is over the target, naming the worse one in its message (`form_factor`, `value`), with both measured values
 * (`values`), the form factors over the target, and the evidence of the Lighthouse audit that explains it (and
 * `explain`'s, where given). A metric is a measurement, not an opportunity: its finding has no impact of its own
 * (the findings that explain it have theirs).
 */
function metricCheck<const Code extends string>(
  id: string,
  code: Code,
  measures: string,
  read: (o: FormFactorObservation) => number,
  limits: MetricThreshold,
  explainedBy: { audit: KeptAudit; savings: boolean; explain?: Explain },
): Check {
  const { good, poor, unit } = limits;
  const shown = (value: number) => (unit === 'ms' ? Math.round(value) : Math.round(value * 1000) / 1000);
  return defineCheck({
    id,
    category: 'speed',
    measures: `${measures} (${describeThreshold(limits)}).`,
    weight: 0,
    codes: [code],
    run(obs, { finding }) {
      // Judged on the value as shown, so a finding never reads "2500 ms, target 2500 ms".
      const over = (FORM_FACTORS as readonly FormFactor[]).filter((f) => shown(read(obs[f])) > good);
      if (over.length === 0) return pass();
      const worst = over.reduce((a, b) => (read(obs[b]) > read(obs[a]) ? b : a));
      const value = read(obs[worst]);
      const values = Object.fromEntries(FORM_FACTORS.map((f) => [f, shown(read(obs[f]))])) as Record<
        FormFactor,
        number
      >;
      const { impact: _impact, ...evidence } = {
        ...auditEvidence(obs, explainedBy.audit, { factors: over, savings: explainedBy.savings }),
        ...explainedBy.explain?.(obs, over, worst),
      };
      const params = {
        form_factor: worst,
        [unit === 'ms' ? 'value_ms' : 'value']: shown(value),
        [unit === 'ms' ? 'target_ms' : 'target']: good,
      };
      return {
        score: 1,
        applicable: true,
        findings: [
          finding(code, shown(value) > poor ? 'critical' : 'warning', params, {
            ...evidence,
            form_factors: over,
            values,
          }),
        ],
      };
    },
  });
}

export const lcp = metricCheck(
  'speed.lcp',
  'speed.lcp-slow',
  'Largest Contentful Paint',
  (o) => o.metrics.lcpMs,
  METRIC_THRESHOLDS.LCP,
  { audit: 'lcp-breakdown-insight', savings: false, explain: (obs, _over, worst) => lcpPhaseClues(obs[worst]) },
);
export const fcp = metricCheck(
  'speed.fcp',
  'speed.fcp-slow',
  'First Contentful Paint',
  (o) => o.metrics.fcpMs,
  METRIC_THRESHOLDS.FCP,
  { audit: 'render-blocking-insight', savings: true },
);
export const tbt = metricCheck(
  'speed.tbt',
  'speed.tbt-high',
  'Total Blocking Time',
  (o) => o.metrics.tbtMs,
  METRIC_THRESHOLDS.TBT,
  { audit: 'bootup-time', savings: true },
);
export const cls = metricCheck(
  'speed.cls',
  'speed.cls-high',
  'Cumulative Layout Shift',
  (o) => o.metrics.cls,
  METRIC_THRESHOLDS.CLS,
  { audit: 'cls-culprits-insight', savings: false, explain: shiftEvidence },
);

export const unreliable = defineCheck({
  id: 'speed.unreliable',
  category: 'speed',
  measures: "Lighthouse's CPU benchmark during the run; below 500 the machine was too busy to trust timings.",
  weight: 0,
  codes: ['speed.unreliable-measurement'],
  run(obs, { finding }) {
    const lowest = Math.min(...FORM_FACTORS.map((f) => obs[f].benchmarkIndex ?? Infinity));
    // Judged as reported (whole numbers), so a finding never reads "500" for a threshold of 500.
    if (Math.round(lowest) >= 500) return pass();
    return {
      score: 1,
      applicable: true,
      findings: [finding('speed.unreliable-measurement', 'info', { benchmark_index: Math.round(lowest) })],
    };
  },
});

export const SPEED_CHECKS = [performanceScore, lcp, fcp, tbt, cls, unreliable];
