import { median } from 'simple-statistics';
import { FORM_FACTORS, type FormFactor } from '../scan/observation.ts';
import { decide, learnBand, METRIC_RULES, type VerdictMetric } from '../verdicts/verdict.ts';
import type { AlertDetails, AlertResolution, AlertSeverity, RegressionFacts } from './alert.ts';

/**
 * Confirmed regressions of a target's metrics and overall score: a pure function of the target's scheduled
 * scans, the scan just finished, the confirmation scan (when there is one) and the target's unresolved
 * regression alerts. Two steps (docs/monitoring-and-alerts.md, Regression alerts):
 *
 * 1. After a scheduled scan, each watched metric whose value is worse than the median of the baseline window
 *    (the previous scheduled scans) by more than its noise band (core/verdicts learnBand: the URL's own
 *    spread, never below the metric's effect floor) is a *candidate*. Candidates start one confirmation scan.
 * 2. When the confirmation scan has finished, a candidate is confirmed only when the confirmation scan agrees
 *    (it too is worse than the baseline median by more than the band) and the two scans together are worse
 *    than the baseline window by the rank test (one-sided, p ≤ ALPHA) with a Hodges–Lehmann shift of at least
 *    the metric's effect floor (core/verdicts decide). Only then is an alert raised.
 *
 * The statistics are core/verdicts' (the compare page's and the CLI's); nothing here computes a p-value.
 */

/** The metrics each form factor's regression is watched on. */
export const FORM_FACTOR_METRICS = ['lcp', 'fcp', 'tbt', 'cls'] as const;
export type FormFactorMetric = (typeof FORM_FACTOR_METRICS)[number];
/** What a regression alert is about: a metric of a form factor, the page's TTFB, or the overall score. */
export type RegressionKey = `${FormFactor}.${FormFactorMetric}` | 'ttfb' | 'score';

export const REGRESSION_KEYS: readonly RegressionKey[] = [
  ...FORM_FACTORS.flatMap((ff) => FORM_FACTOR_METRICS.map((m) => `${ff}.${m}` as const)),
  'ttfb',
  'score',
];

/** The baseline window: at most this many previous scheduled scans... */
export const BASELINE_WINDOW = 14;
/** ...and at least this many (5 vs 2 is the smallest sample where the rank test can reach p ≤ 0.05). */
export const BASELINE_MIN_SCANS = 5;
/**
 * The noise band is never narrower than this many times the largest worsening the baseline window itself shows
 * (its worst scan against its median). For noise like a normal distribution that is about the learned band
 * anyway (the worst of 14 values lies about 1.7σ from the median; the learned band is about 2.9σ); for a
 * page whose metric jumps at random (main-thread bursts that move TBT by seconds) it keeps the bursts the
 * window has seen from looking like a regression: a rank test on two new scans cannot tell two bursts in a
 * row from a change, a shift beyond twice the worst burst of two weeks can.
 */
export const TAIL_FACTOR = 2;
/**
 * The worst worsening is looked for in this many previous scheduled scans (the baseline window's and older
 * ones): a page that bursts in a quarter of its scans has a fortnight without any about once in a hundred
 * windows of 14, once in ten thousand windows of 28.
 */
export const TAIL_WINDOW = 28;
/** An open regression settles when this many scheduled scans after it show no regression against themselves. */
export const SETTLE_SCANS = 7;

/** One scan's watched values (a missing key: the scan has no value for it). */
export interface ScanValues {
  finishedAt: Date;
  values: Partial<Record<RegressionKey, number>>;
}

/** The stored result fields the watched values come from (core/scan/result.ts). */
export interface ResultValues {
  scores: { overall: number };
  ttfbMs: number;
  metrics: Partial<Record<FormFactor, { lcp_ms: number; fcp_ms: number; tbt_ms: number; cls: number }>>;
}

export function valuesOfResult(result: ResultValues): ScanValues['values'] {
  const values: ScanValues['values'] = { ttfb: result.ttfbMs, score: result.scores.overall };
  for (const ff of FORM_FACTORS) {
    const m = result.metrics[ff];
    if (!m) continue;
    values[`${ff}.lcp`] = m.lcp_ms;
    values[`${ff}.fcp`] = m.fcp_ms;
    values[`${ff}.tbt`] = m.tbt_ms;
    values[`${ff}.cls`] = m.cls;
  }
  return values;
}

export function metricOf(key: RegressionKey): { metric: VerdictMetric; formFactor: FormFactor | null } {
  if (key === 'ttfb' || key === 'score') return { metric: key, formFactor: null };
  const [formFactor, metric] = key.split('.') as [FormFactor, FormFactorMetric];
  return { metric, formFactor };
}

/** How far `value` is worse than `reference`, in the metric's unit (negative: better). */
export function worseBy(key: RegressionKey, value: number, reference: number): number {
  const { metric } = metricOf(key);
  return METRIC_RULES[metric].higherIsBetter ? reference - value : value - reference;
}

const floorOf = (key: RegressionKey, baseline: number): number => {
  const { floor } = METRIC_RULES[metricOf(key).metric];
  return Math.max(floor.absolute, floor.relative * Math.abs(baseline));
};

/** A regression this much worse than its baseline (or more) is critical. */
export function criticalShift(key: RegressionKey, baseline: number): number {
  const metric = metricOf(key).metric;
  const base = Math.abs(baseline);
  switch (metric) {
    case 'score':
      return 20;
    case 'cls':
      return 0.1;
    case 'tbt':
      return Math.max(500, base);
    case 'ttfb':
      return Math.max(500, 0.5 * base);
    default:
      return Math.max(1000, 0.5 * base);
  }
}

/** The alert type a key raises: the overall score keeps its own type, every metric shares metric_regression. */
export const alertTypeOf = (key: RegressionKey): RegressionAlertType =>
  key === 'score' ? 'score_regression' : 'metric_regression';
export type RegressionAlertType = 'score_regression' | 'metric_regression';

interface Baseline {
  /** Oldest first, one value per scan. */
  values: number[];
  median: number;
  /**
   * The noise band's half-width: a scan worse than the median by more is unusual for this URL. The larger of
   * the learned band (core/verdicts learnBand, never below the effect floor) and TAIL_FACTOR × the window's
   * worst worsening.
   */
  band: number;
}

/**
 * The baseline of one key from the previous scheduled scans (newest first: BASELINE_WINDOW of them make the
 * median and the rank test's sample, TAIL_WINDOW the worst worsening); null with too few of them.
 */
export function baselineOf(key: RegressionKey, previous: readonly ScanValues[]): Baseline | null {
  const valuesOf = (scans: readonly ScanValues[]) =>
    scans
      .map((scan) => scan.values[key])
      .filter((v): v is number => typeof v === 'number' && Number.isFinite(v))
      .reverse();
  const values = valuesOf(previous.slice(0, BASELINE_WINDOW));
  if (values.length < BASELINE_MIN_SCANS) return null;
  const middle = median(values);
  const worst = Math.max(...valuesOf(previous.slice(0, TAIL_WINDOW)).map((v) => worseBy(key, v, middle)));
  const band = Math.max(learnBand(metricOf(key).metric, values)!.width, TAIL_FACTOR * worst);
  return { values, median: middle, band };
}

export interface Candidate {
  key: RegressionKey;
  baseline: number;
  value: number;
  band: number;
}

/**
 * The keys on which `current` is worse than the baseline window by more than the noise band, skipping keys
 * whose alert type has an unresolved alert (one unresolved alert per target and type).
 */
export function regressionCandidates(
  previous: readonly ScanValues[],
  current: ScanValues['values'],
  openTypes: ReadonlySet<RegressionAlertType> = new Set(),
): Candidate[] {
  const candidates: Candidate[] = [];
  for (const key of REGRESSION_KEYS) {
    if (openTypes.has(alertTypeOf(key))) continue;
    const value = current[key];
    const baseline = baselineOf(key, previous);
    if (value === undefined || !baseline) continue;
    if (worseBy(key, value, baseline.median) > baseline.band)
      candidates.push({ key, baseline: baseline.median, value, band: baseline.band });
  }
  return candidates;
}

/** A candidate both scans agree on, with the rank test's numbers. */
export interface ConfirmedRegression {
  key: RegressionKey;
  severity: AlertSeverity;
  facts: Omit<RegressionFacts, 'path' | 'confirmation_scan_id'>;
}

/**
 * The candidates the confirmation scan confirms: it is itself worse than the baseline median by more than the
 * band, and the candidate and confirmation values together are `worse` than the baseline window by the rank
 * test and the effect floor (core/verdicts decide). `previous` is the baseline the candidate was found against.
 */
export function confirmRegressions(
  previous: readonly ScanValues[],
  candidate: ScanValues['values'],
  confirmation: ScanValues['values'],
  keys: readonly RegressionKey[],
): ConfirmedRegression[] {
  const confirmed: ConfirmedRegression[] = [];
  for (const key of keys) {
    const baseline = baselineOf(key, previous);
    const first = candidate[key];
    const second = confirmation[key];
    if (!baseline || first === undefined || second === undefined) continue;
    if (worseBy(key, second, baseline.median) <= baseline.band) continue;
    const decision = decide(metricOf(key).metric, baseline.values, [first, second]);
    if (decision.verdict !== 'worse' || decision.rule !== 'rank_test') continue;
    const { metric, formFactor } = metricOf(key);
    confirmed.push({
      key,
      severity:
        worseBy(key, decision.after.median, baseline.median) >= criticalShift(key, baseline.median)
          ? 'critical'
          : 'warning',
      facts: {
        metric,
        form_factor: formFactor,
        baseline: baseline.median,
        current: decision.after.median,
        shift: decision.shift,
        p_value: decision.p,
        baseline_scans: baseline.values.length,
      },
    });
  }
  return confirmed;
}

/**
 * The alerts to raise from confirmed regressions: at most one per type. Among metrics, the one furthest
 * beyond its effect floor is named; the others confirmed with it are listed in `also`.
 */
export function raisedRegressionAlerts(
  confirmed: readonly ConfirmedRegression[],
  context: { path: string; confirmationScanId: string },
): Array<{ type: RegressionAlertType; severity: AlertSeverity; details: AlertDetails }> {
  const raised: Array<{ type: RegressionAlertType; severity: AlertSeverity; details: AlertDetails }> = [];
  for (const type of ['score_regression', 'metric_regression'] as const) {
    const ofType = confirmed
      .filter((c) => alertTypeOf(c.key) === type)
      .sort(
        (a, b) =>
          Math.abs(b.facts.shift) / floorOf(b.key, b.facts.baseline) -
          Math.abs(a.facts.shift) / floorOf(a.key, a.facts.baseline),
      );
    const main = ofType[0];
    if (!main) continue;
    const severity = ofType.some((c) => c.severity === 'critical') ? 'critical' : 'warning';
    raised.push({
      type,
      severity,
      details: {
        score: type === 'score_regression' ? 'overall' : 'speed',
        value: main.facts.current,
        reference: main.facts.baseline,
        baselineScans: main.facts.baseline_scans,
        regression: {
          ...main.facts,
          path: context.path,
          confirmation_scan_id: context.confirmationScanId,
          ...(ofType.length > 1 ? { also: ofType.slice(1).map((c) => c.key) } : {}),
        },
      },
    });
  }
  return raised;
}

/** An unresolved regression alert, as far as its resolution goes. */
export interface OpenRegression {
  id: number;
  type: RegressionAlertType;
  severity: AlertSeverity;
  details: AlertDetails;
  createdAt: Date;
}

export type OpenRegressionTransition =
  | { change: 'resolved'; alertId: number; type: RegressionAlertType; resolution: AlertResolution }
  | { change: 'escalated'; alertId: number; type: RegressionAlertType; severity: 'critical'; details: AlertDetails };

/** The key an alert is about (score_regression rows from before metric regressions have no `regression`). */
export function keyOfAlert(alert: Pick<OpenRegression, 'type' | 'details'>): RegressionKey {
  const facts = alert.details.regression;
  if (!facts || alert.type === 'score_regression') return 'score';
  return (facts.form_factor ? `${facts.form_factor}.${facts.metric}` : facts.metric) as RegressionKey;
}

/**
 * What a scheduled scan does to an unresolved regression alert, judged against the baseline it was raised
 * against (`details.reference`), so a site that stays worse does not resolve as the window slides:
 * recovered when the scan is back within the metric's effect floor of that baseline; settled when the last
 * SETTLE_SCANS scheduled scans all came after the alert and the scan is no candidate against them (the new
 * level is the baseline now); escalated to critical when it is worse by the critical shift.
 */
export function openRegressionTransition(
  open: OpenRegression,
  previous: readonly ScanValues[],
  current: ScanValues['values'],
): OpenRegressionTransition | null {
  const key = keyOfAlert(open);
  const value = current[key];
  if (value === undefined) return null;
  const raisedAgainst = open.details.reference;
  const worse = worseBy(key, value, raisedAgainst);
  if (worse <= floorOf(key, raisedAgainst))
    return { change: 'resolved', alertId: open.id, type: open.type, resolution: { kind: 'recovered', value } };
  const since = previous.slice(0, SETTLE_SCANS);
  if (since.length === SETTLE_SCANS && since.every((scan) => scan.finishedAt > open.createdAt)) {
    const baseline = baselineOf(key, since);
    if (baseline && worseBy(key, value, baseline.median) <= baseline.band)
      return { change: 'resolved', alertId: open.id, type: open.type, resolution: { kind: 'settled', value } };
  }
  if (open.severity === 'warning' && worse >= criticalShift(key, raisedAgainst))
    return {
      change: 'escalated',
      alertId: open.id,
      type: open.type,
      severity: 'critical',
      details: {
        ...open.details,
        value,
        ...(open.details.regression ? { regression: { ...open.details.regression, current: value } } : {}),
      },
    };
  return null;
}
