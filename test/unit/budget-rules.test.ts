import type { AlertDetails, AlertSeverity } from '../../core/monitoring/alert.ts';
import { decideAlertTransitions } from '../../core/monitoring/alert-rules.ts';
import type { UnresolvedAlert } from '../../core/monitoring/alert-transition.ts';
import { budgetBreaches, budgetTransition, type BudgetCheck } from '../../core/monitoring/budget-rules.ts';
import { budgetMeasurement, type BudgetMeasurement, type Budgets } from '../../core/monitoring/budgets.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import { alertPayload } from '../../core/webhooks/payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import type { ScanScores } from '../../core/scoring/categories.ts';
import { testAlert } from './alert-fixture.ts';

/** One test per row of the budget alerts' state table in docs/monitoring-and-alerts.md (Budget alerts); row ids match. */

const SCORES: ScanScores = { overall: 90, speed: 90, images: 90, caching: 90, technical: 90, wordpress: 100 };
const metrics = (values: Partial<Record<'lcp_ms' | 'fcp_ms' | 'tbt_ms' | 'cls', number>> = {}) => ({
  lcp_ms: 2000,
  fcp_ms: 1000,
  tbt_ms: 100,
  cls: 0.05,
  ...values,
});
const measured = (
  mobile: Parameters<typeof metrics>[0] = {},
  desktop: Parameters<typeof metrics>[0] = {},
  scores: Partial<ScanScores> = {},
  ttfbMs = 300,
): BudgetMeasurement =>
  budgetMeasurement({
    scores: { ...SCORES, ...scores },
    metrics: { mobile: metrics(mobile), desktop: metrics(desktop) },
    ttfbMs,
  });
const check = (budgets: Budgets, measurement: BudgetMeasurement = measured()): BudgetCheck => ({
  budgets,
  measured: measurement,
});
const open = (severity: AlertSeverity, details: AlertDetails, id = 9): UnresolvedAlert => ({
  id,
  type: 'metric_over_budget',
  severity,
  details,
  createdAt: new Date('2026-11-20T12:00:00Z'),
});
const LCP_2500: Budgets = { mobile: { lcp_ms: 2500 } };
const raisedLcp = (value: number, severity: AlertSeverity = 'warning') => {
  const budget = {
    metric: 'lcp_ms' as const,
    formFactor: 'mobile' as const,
    value,
    budget: 2500,
    unit: 'ms' as const,
    severity,
  };
  return open(severity, { score: 'speed', value, reference: 2500, budget, overBudget: [budget] });
};

describe('metric_over_budget', () => {
  it('M1: no budgets set: nothing, whatever the scan measured', () => {
    expect(budgetTransition(check({}, measured({ lcp_ms: 90_000 }, {}, { overall: 1 })), undefined)).toEqual([]);
  });

  it('M2: every budget holds (a metric exactly at its budget holds): nothing', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 2500 })), undefined)).toEqual([]);
  });

  it('M3: a metric over its budget by less than 50 %: raises a warning naming metric, form factor, value and budget', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 3000 })), undefined)).toEqual([
      {
        change: 'raised',
        type: 'metric_over_budget',
        severity: 'warning',
        details: {
          score: 'speed',
          value: 3000,
          reference: 2500,
          budget: {
            metric: 'lcp_ms',
            formFactor: 'mobile',
            value: 3000,
            budget: 2500,
            unit: 'ms',
            severity: 'warning',
          },
          overBudget: [
            { metric: 'lcp_ms', formFactor: 'mobile', value: 3000, budget: 2500, unit: 'ms', severity: 'warning' },
          ],
        },
      },
    ]);
  });

  it('M4: a metric over its budget by 50 % or more: raises a critical alert', () => {
    const [raised] = budgetTransition(check(LCP_2500, measured({ lcp_ms: 3750 })), undefined);
    expect(raised).toMatchObject({ change: 'raised', severity: 'critical' });
    const [justBelow] = budgetTransition(check(LCP_2500, measured({ lcp_ms: 3749 })), undefined);
    expect(justBelow).toMatchObject({ change: 'raised', severity: 'warning' });
  });

  it('M5: a score below its minimum: raised, the score named, critical at half the minimum or less', () => {
    const [warning] = budgetTransition(check({ scores: { images: 80 } }, measured({}, {}, { images: 70 })), undefined);
    expect(warning).toMatchObject({
      change: 'raised',
      severity: 'warning',
      details: {
        score: 'images',
        value: 70,
        reference: 80,
        budget: { metric: 'images', formFactor: null, unit: 'points' },
      },
    });
    const [critical] = budgetTransition(check({ scores: { images: 80 } }, measured({}, {}, { images: 40 })), undefined);
    expect(critical).toMatchObject({ change: 'raised', severity: 'critical' });
  });

  it('M6: several broken budgets: one alert listing all, worst first (critical, then the larger share over)', () => {
    const budgets: Budgets = {
      mobile: { lcp_ms: 2500, cls: 0.1 },
      desktop: { tbt_ms: 100, ttfb_ms: 200 },
      scores: { overall: 95 },
    };
    const transitions = budgetTransition(
      check(budgets, measured({ lcp_ms: 2600, cls: 0.12 }, { tbt_ms: 300 }, { overall: 90 }, 250)),
      undefined,
    );
    expect(transitions).toHaveLength(1);
    expect(transitions[0]).toMatchObject({ change: 'raised', severity: 'critical' });
    const details = transitions[0]!.change === 'raised' ? transitions[0]!.details : undefined;
    expect(details?.overBudget?.map((b) => [b.metric, b.formFactor, b.severity])).toEqual([
      ['tbt_ms', 'desktop', 'critical'],
      ['ttfb_ms', 'desktop', 'warning'],
      ['cls', 'mobile', 'warning'],
      ['overall', null, 'warning'],
      ['lcp_ms', 'mobile', 'warning'],
    ]);
    expect(details?.budget).toEqual(details?.overBudget?.[0]);
  });

  it('M7: a form factor the scan did not load: its budgets are not judged', () => {
    const mobileOnly: BudgetMeasurement = { scores: SCORES, metrics: { mobile: { lcp_ms: 1000, cls: 0 } } };
    expect(budgetBreaches(check({ desktop: { lcp_ms: 10 } }, mobileOnly))).toEqual([]);
    expect(budgetTransition(check({ desktop: { lcp_ms: 10 } }, mobileOnly), undefined)).toEqual([]);
  });

  it('M8: open warning, still over budget but not critical (better or worse): nothing', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 3500 })), raisedLcp(3000))).toEqual([]);
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 2600 })), raisedLcp(3000))).toEqual([]);
  });

  it('M9: open warning, a breach turns critical: escalated with the new details', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 4000 })), raisedLcp(3000))).toEqual([
      {
        change: 'escalated',
        alertId: 9,
        type: 'metric_over_budget',
        severity: 'critical',
        details: expect.objectContaining({ value: 4000, reference: 2500 }),
      },
    ]);
  });

  it('M10: open critical, better but still over: nothing (severity does not go down)', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 2600 })), raisedLcp(4000, 'critical'))).toEqual([]);
  });

  it('M11: open, back within budget but not by the margin (above 90 % of it): nothing (hysteresis)', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 2400 })), raisedLcp(3000))).toEqual([]);
    const score = open('warning', { score: 'overall', value: 70, reference: 80 });
    expect(budgetTransition(check({ scores: { overall: 80 } }, measured({}, {}, { overall: 82 })), score)).toEqual([]);
  });

  it('M12: open, every budget holds with the margin: resolved, with the named metric at resolution', () => {
    expect(budgetTransition(check(LCP_2500, measured({ lcp_ms: 2250 })), raisedLcp(3000))).toEqual([
      { change: 'resolved', alertId: 9, type: 'metric_over_budget', resolution: { kind: 'recovered', value: 2250 } },
    ]);
    const score = open('warning', { score: 'overall', value: 70, reference: 80 });
    expect(budgetTransition(check({ scores: { overall: 80 } }, measured({}, {}, { overall: 83 })), score)).toEqual([
      { change: 'resolved', alertId: 9, type: 'metric_over_budget', resolution: { kind: 'recovered', value: 70 } },
    ]);
  });

  it('M13: open, one budget recovered but another still broken: nothing', () => {
    const budgets: Budgets = { mobile: { lcp_ms: 2500 }, desktop: { cls: 0.1 } };
    expect(budgetTransition(check(budgets, measured({ lcp_ms: 1000 }, { cls: 0.11 })), raisedLcp(3000))).toEqual([]);
  });

  it('M14: open, its budgets removed: resolved on the next scan', () => {
    expect(budgetTransition(check({}, measured({ lcp_ms: 3000 })), raisedLcp(3000))).toMatchObject([
      { change: 'resolved', alertId: 9 },
    ]);
  });

  it('M15: decideAlertTransitions judges budgets beside the score alerts, and not at all without a check', () => {
    const base = {
      thresholds: { overall: { warning: 70, critical: 50 } },
      scores: SCORES,
      previous: [],
      unresolved: [],
    };
    expect(decideAlertTransitions(base)).toEqual([]);
    expect(
      decideAlertTransitions({ ...base, budget: check(LCP_2500, measured({ lcp_ms: 3000 })) }).map((t) => t.type),
    ).toEqual(['metric_over_budget']);
  });
});

describe('metric_over_budget texts and payload', () => {
  const breach = {
    metric: 'lcp_ms' as const,
    formFactor: 'mobile' as const,
    value: 3120,
    budget: 2500,
    unit: 'ms' as const,
    severity: 'warning' as const,
  };
  const other = {
    ...breach,
    metric: 'overall' as const,
    formFactor: null,
    value: 72,
    budget: 80,
    unit: 'points' as const,
  };
  const alert = testAlert({
    id: 4,
    type: 'metric_over_budget',
    severity: 'warning',
    details: { score: 'speed', value: 3120, reference: 2500, budget: breach, overBudget: [breach, other] },
    url: 'https://shop.example/pricing',
    host: 'shop.example',
    region: 'eu-central',
    scanPublicId: '01jd0000000000000000000000',
  });

  it('names metric, form factor, value, budget and the page by host and path, in English and German', () => {
    expect(alertText(alert, 'en')).toEqual({
      title: 'Mobile LCP over budget',
      message:
        'The mobile LCP of shop.example/pricing is 3,120 ms, over its budget of 2,500 ms. Also over budget: overall score 72 (budget 80).',
    });
    expect(alertText(alert, 'de')).toEqual({
      title: 'LCP (Mobil) über dem Budget',
      message:
        'Der Wert LCP (Mobil) von shop.example/pricing liegt bei 3.120 ms und damit über dem Budget von 2.500 ms. Ebenfalls außerhalb des Budgets: Score „Gesamt“ 72 (Budget 80).',
    });
    const resolved = {
      ...alert,
      resolvedAt: new Date('2026-11-21T12:00:00Z'),
      details: { ...alert.details, resolution: { kind: 'recovered' as const, value: 2100 } },
    };
    expect(alertText(resolved, 'en').message).toMatch(/ Resolved: every budget holds again \(mobile LCP 2,100 ms\)\.$/);
    expect(alertText(resolved, 'de').message).toMatch(/ Behoben: Alle Budgets werden wieder eingehalten/);
  });

  it('adds `budget` and `over_budget` to the spec fields of the webhook payload, which pass its schema', () => {
    const payload = alertPayload(alert, 'alert.triggered', 'en');
    expect(payload).toMatchObject({
      event: 'alert.triggered',
      type: 'metric_over_budget',
      severity: 'warning',
      target_url: 'https://shop.example/pricing',
      budget: { metric: 'lcp_ms', form_factor: 'mobile', value: 3120, budget: 2500, unit: 'ms', severity: 'warning' },
      over_budget: [
        { metric: 'lcp_ms', form_factor: 'mobile' },
        { metric: 'overall', form_factor: null, unit: 'points' },
      ],
    });
    expect(payloadProblems('alert.triggered', payload)).toBeNull();
    const scoreAlert = {
      ...alert,
      type: 'score_below_threshold' as const,
      details: { score: 'overall' as const, value: 60, reference: 70 },
    };
    const plain = alertPayload(scoreAlert, 'alert.triggered', 'en');
    expect(plain).not.toHaveProperty('budget');
    expect(plain).not.toHaveProperty('over_budget');
  });
});
