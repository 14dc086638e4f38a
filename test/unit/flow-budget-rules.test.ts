import type { FlowStep, FlowStepResult } from '../../core/flows/flow.ts';
import { flowBudgetProblem, flowBudgetsJudged, type FlowBudgets } from '../../core/flows/flow-budgets.ts';
import type { UnresolvedAlert } from '../../core/monitoring/alert-transition.ts';
import { budgetBreaches, budgetTransition } from '../../core/monitoring/budget-rules.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import { alertPayload } from '../../core/webhooks/payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import { testAlert } from './alert-fixture.ts';

/** Flow step budgets: which steps may have which budgets, and the targets' rule per step (over, critical, resolve). */

const STEPS: FlowStep[] = [
  { type: 'navigate', url: 'https://shop.example/', name: 'Home' },
  { type: 'start_timespan', name: 'Add to cart' },
  { type: 'click', selector: '#add' },
  { type: 'end_timespan' },
  { type: 'snapshot', name: 'Cart' },
];

const navigation = (lcp: number, performance = 90): FlowStepResult => ({
  index: 0,
  mode: 'navigation',
  name: 'Home',
  url: 'https://shop.example/',
  scores: { performance, accessibility: 95, best_practices: 100, seo: 100 },
  metrics: { lcp_ms: lcp, fcp_ms: 800, tbt_ms: 50, cls: 0.01, speed_index_ms: 900, ttfb_ms: 100 },
  findings: [],
  screenshot: null,
});
const timespan = (inp: number): FlowStepResult => ({
  index: 1,
  mode: 'timespan',
  name: 'Add to cart',
  url: 'https://shop.example/',
  scores: { performance: null, accessibility: null, best_practices: null, seo: null },
  metrics: { inp_ms: inp, tbt_ms: 0, cls: 0 },
  findings: [],
  screenshot: null,
});
const BUDGETS: FlowBudgets = { '0': { lcp_ms: 2000, scores: { performance: 80 } }, '1': { inp_ms: 200 } };
const judged = (lcp: number, inp: number, performance = 90) =>
  flowBudgetsJudged(BUDGETS, [navigation(lcp, performance), timespan(inp)]);
const open = (severity: 'warning' | 'critical', details: UnresolvedAlert['details']): UnresolvedAlert => ({
  id: 7,
  type: 'metric_over_budget',
  severity,
  details,
  createdAt: new Date('2026-11-20T00:00:00Z'),
});

describe('flowBudgetProblem', () => {
  it('accepts each mode its own metrics and scores', () => {
    expect(flowBudgetProblem({ steps: STEPS }, BUDGETS)).toBeNull();
    expect(flowBudgetProblem({ steps: STEPS }, { '4': { scores: { seo: 90 } } })).toBeNull();
  });
  it.each([
    [{ '2': { lcp_ms: 1 } }, 'budgets.2'],
    [{ '9': { lcp_ms: 1 } }, 'budgets.9'],
    [{ '0': { inp_ms: 1 } }, 'budgets.0.inp_ms'],
    [{ '1': { lcp_ms: 1 } }, 'budgets.1.lcp_ms'],
    [{ '1': { scores: { performance: 50 } } }, 'budgets.1.scores.performance'],
    [{ '4': { cls: 0.1 } }, 'budgets.4.cls'],
    [{ '4': { scores: { performance: 50 } } }, 'budgets.4.scores.performance'],
  ] as Array<[FlowBudgets, string]>)('refuses %j naming %s', (budgets, field) => {
    expect(flowBudgetProblem({ steps: STEPS }, budgets)?.field).toBe(field);
  });
  it('refuses steps that move a budgeted index onto another kind of step', () => {
    const moved: FlowStep[] = [{ type: 'click', selector: '#x' }, ...STEPS];
    expect(flowBudgetProblem({ steps: moved }, BUDGETS)?.field).toBe('budgets.0');
  });
});

describe('flow budgets under the budget rule', () => {
  it('raises nothing while every step holds', () => {
    expect(budgetTransition(judged(1900, 150), undefined)).toEqual([]);
  });

  it('raises a warning over budget, naming the step, one alert for every broken step, worst first', () => {
    const [raised] = budgetTransition(judged(2400, 250, 70), undefined);
    expect(raised).toMatchObject({ change: 'raised', severity: 'warning' });
    const details = raised!.change === 'raised' ? raised!.details : undefined;
    expect(details?.overBudget?.map((b) => [b.step?.index, b.metric])).toEqual([
      [1, 'inp_ms'],
      [0, 'lcp_ms'],
      [0, 'performance'],
    ]);
    expect(details?.budget).toMatchObject({
      metric: 'inp_ms',
      value: 250,
      budget: 200,
      unit: 'ms',
      step: { index: 1, name: 'Add to cart', mode: 'timespan' },
    });
  });

  it('is critical at 1.5 × a budget, and escalates an open warning', () => {
    const breaches = budgetBreaches(judged(3000, 150));
    expect(breaches).toHaveLength(1);
    expect(breaches[0]).toMatchObject({ severity: 'critical', metric: 'lcp_ms', step: { index: 0 } });
    const warning = budgetTransition(judged(2100, 150), undefined)[0]!;
    const details = warning.change === 'raised' ? warning.details : undefined;
    expect(budgetTransition(judged(3000, 150), open('warning', details!))).toEqual([
      expect.objectContaining({ change: 'escalated', alertId: 7, severity: 'critical' }),
    ]);
  });

  it('resolves only when every step is at most 90 % of its budget (scores 3 points above)', () => {
    const raised = budgetTransition(judged(3000, 150), undefined)[0]!;
    const details = raised.change === 'raised' ? raised.details : undefined;
    const alert = open('critical', details!);
    expect(budgetTransition(judged(1900, 150), alert)).toEqual([]);
    expect(budgetTransition(judged(1800, 190), alert)).toEqual([]);
    expect(budgetTransition(judged(1800, 180, 82), alert)).toEqual([]);
    expect(budgetTransition(judged(1800, 180, 83), alert)).toEqual([
      { change: 'resolved', alertId: 7, type: 'metric_over_budget', resolution: { kind: 'recovered', value: 1800 } },
    ]);
  });

  it('judges nothing of a step the run did not measure in that mode', () => {
    expect(budgetTransition(flowBudgetsJudged(BUDGETS, [timespan(150)]), undefined)).toEqual([]);
    expect(
      budgetTransition(flowBudgetsJudged({ '0': { lcp_ms: 1 } }, [{ ...timespan(0), index: 0 }]), undefined),
    ).toEqual([]);
  });

  it('titles the step, and the webhook payload carries the flow and each step', () => {
    const raised = budgetTransition(judged(3000, 150), undefined)[0]!;
    const details = raised.change === 'raised' ? raised.details : undefined;
    const alert = testAlert({
      type: 'metric_over_budget',
      severity: 'critical',
      targetId: null,
      details: { ...details!, flow: { id: 'flow123', name: 'Checkout' } },
    });
    expect(alertText(alert, 'en').title).toBe('LCP of step 0 “Home” over budget');
    const payload = alertPayload(alert, 'alert.triggered', 'en');
    expect(payload).toMatchObject({
      flow: { id: 'flow123', name: 'Checkout' },
      budget: { metric: 'lcp_ms', value: 3000, budget: 2000, step: { index: 0, name: 'Home', mode: 'navigation' } },
    });
    expect(payloadProblems('alert.triggered', payload)).toBeNull();
  });
});
