import { budgetsSchema } from '../../api/views/budget-schemas.ts';
import { validate } from '../../api/validation.ts';
import { alertText } from '../../core/i18n/alerts.ts';
import type { LabHistoryItem } from '../../core/monitoring/lab-history.ts';
import { budgetTransition, type BudgetCheck } from '../../core/monitoring/budget-rules.ts';
import { budgetMeasurement, type Budgets, type MeasuredResult } from '../../core/monitoring/budgets.ts';
import type { LighthouseCategoryScores } from '../../core/scan/lighthouse-categories.ts';
import type { FormFactor } from '../../core/scan/observation.ts';
import type { ScanScores } from '../../core/scoring/categories.ts';
import { alertPayload } from '../../core/webhooks/payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import { lighthouseChartsSection, lighthouseSeries } from '../../web/monitoring/lighthouse-charts.ts';
import { budgetsSection, readBudgetForm } from '../../web/monitoring/target-budgets.ts';
import { testAlert } from './alert-fixture.ts';

/**
 * Minimums for Lighthouse's own category scores on a target (core/monitoring/budgets.ts): judged per form factor by
 * the budget rule like every budget (a breach raises metric_over_budget, hysteresis resolves it), set through the
 * API's schema and the target page's form, named in alerts and webhooks, and drawn in the target's history.
 */
const SCORES: ScanScores = { overall: 90, speed: 90, images: 90, caching: 90, technical: 90, wordpress: 100 };
const lighthouse = (mobile: Partial<LighthouseCategoryScores>, desktop: Partial<LighthouseCategoryScores> = {}) => {
  const base: LighthouseCategoryScores = { performance: 90, accessibility: 95, best_practices: 100, seo: 92 };
  return { mobile: { ...base, ...mobile }, desktop: { ...base, ...desktop } };
};
const measured = (categories: MeasuredResult['lighthouse']) =>
  budgetMeasurement({
    scores: SCORES,
    metrics: { mobile: { lcp_ms: 2000, fcp_ms: 1000, tbt_ms: 100, cls: 0.05 } },
    ttfbMs: 300,
    lighthouse: categories,
  });
const check = (budgets: Budgets, categories: MeasuredResult['lighthouse']): BudgetCheck => ({
  budgets,
  measured: measured(categories),
});
const A11Y_90: Budgets = { lighthouse: { mobile: { accessibility: 90 } } };

describe('a minimum for a Lighthouse category score', () => {
  it('holds at or above its minimum: nothing', () => {
    expect(budgetTransition(check(A11Y_90, lighthouse({ accessibility: 90 })), undefined)).toEqual([]);
  });

  it('is judged on its own form factor only', () => {
    expect(budgetTransition(check(A11Y_90, lighthouse({}, { accessibility: 10 })), undefined)).toEqual([]);
  });

  it('M16: raises the budget alert when breached, naming the category, form factor, value and minimum', () => {
    const [raised] = budgetTransition(check(A11Y_90, lighthouse({ accessibility: 80 })), undefined);
    expect(raised).toEqual({
      change: 'raised',
      type: 'metric_over_budget',
      severity: 'warning',
      details: {
        score: 'speed',
        value: 80,
        reference: 90,
        budget: {
          metric: 'accessibility',
          formFactor: 'mobile',
          value: 80,
          budget: 90,
          unit: 'points',
          severity: 'warning',
        },
        overBudget: [
          { metric: 'accessibility', formFactor: 'mobile', value: 80, budget: 90, unit: 'points', severity: 'warning' },
        ],
      },
    });
    // Half the minimum or less: critical, as for every score minimum.
    expect(budgetTransition(check(A11Y_90, lighthouse({ accessibility: 45 })), undefined)[0]).toMatchObject({
      severity: 'critical',
    });
  });

  it('lists it with the other broken budgets, worst first', () => {
    const budgets: Budgets = { mobile: { lcp_ms: 1900 }, lighthouse: { desktop: { seo: 100, performance: 95 } } };
    const [raised] = budgetTransition(check(budgets, lighthouse({}, { seo: 92, performance: 40 })), undefined);
    expect(raised!.change === 'raised' && raised!.details.overBudget!.map((b) => [b.metric, b.formFactor])).toEqual([
      ['performance', 'desktop'],
      ['seo', 'desktop'],
      ['lcp_ms', 'mobile'],
    ]);
  });

  it('M16: resolves only with the margin above the minimum, like every score minimum', () => {
    const [raised] = budgetTransition(check(A11Y_90, lighthouse({ accessibility: 80 })), undefined);
    if (raised?.change !== 'raised') throw new Error('not raised');
    const open = {
      id: 4,
      type: 'metric_over_budget' as const,
      severity: raised.severity,
      details: raised.details,
      createdAt: new Date(),
    };
    expect(budgetTransition(check(A11Y_90, lighthouse({ accessibility: 91 })), open)).toEqual([]);
    expect(budgetTransition(check(A11Y_90, lighthouse({ accessibility: 93 })), open)).toEqual([
      { change: 'resolved', alertId: 4, type: 'metric_over_budget', resolution: { kind: 'recovered', value: 93 } },
    ]);
  });

  it('is not judged on a result without Lighthouse’s categories, nor on a category Lighthouse computed no score for', () => {
    expect(budgetTransition(check(A11Y_90, null), undefined)).toEqual([]);
    expect(budgetTransition(check(A11Y_90, undefined), undefined)).toEqual([]);
    expect(budgetTransition(check(A11Y_90, lighthouse({ accessibility: null })), undefined)).toEqual([]);
  });

  it('is named in the alert in English and German, and in the webhook payload, which passes its schema', () => {
    const breach = {
      metric: 'accessibility' as const,
      formFactor: 'mobile' as const,
      value: 80,
      budget: 90,
      unit: 'points' as const,
      severity: 'warning' as const,
    };
    const alert = testAlert({
      type: 'metric_over_budget',
      severity: 'warning',
      details: { score: 'speed', value: 80, reference: 90, budget: breach, overBudget: [breach] },
      url: 'https://shop.example/pricing',
      host: 'shop.example',
    });
    expect(alertText(alert, 'en')).toEqual({
      title: 'Mobile Lighthouse accessibility score below budget',
      message: 'The mobile Lighthouse accessibility score of shop.example/pricing is 80, below its minimum of 90.',
    });
    expect(alertText(alert, 'de')).toEqual({
      title: 'Lighthouse-Score „Barrierefreiheit“ (Mobil) unter dem Budget',
      message:
        'Der Lighthouse-Score „Barrierefreiheit“ (Mobil) von shop.example/pricing liegt bei 80 und damit unter dem Mindestwert von 90.',
    });
    const payload = alertPayload(alert, 'alert.triggered', 'en');
    expect(payload).toMatchObject({
      budget: { metric: 'accessibility', form_factor: 'mobile', value: 80, budget: 90, unit: 'points' },
    });
    expect(payloadProblems('alert.triggered', payload)).toBeNull();
  });
});

describe('setting the minimums', () => {
  it('the API takes them per form factor and category, 0–100, and refuses anything else', () => {
    const ok = { lighthouse: { mobile: { accessibility: 90, seo: 0 }, desktop: { best_practices: 100 } } };
    expect(() => validate('body', budgetsSchema, ok)).not.toThrow();
    for (const bad of [
      { lighthouse: { mobile: { accessibility: 101 } } },
      { lighthouse: { mobile: { accessibility: 90.5 } } },
      { lighthouse: { tablet: { seo: 90 } } },
      { lighthouse: { mobile: { 'best-practices': 90 } } },
    ])
      expect(() => validate('body', budgetsSchema, bad)).toThrow();
  });

  it('the target page’s form shows and reads them, mobile and desktop, refusing what the API refuses', () => {
    const target = { id: 7, budgets: { lighthouse: { mobile: { accessibility: 90 } } } };
    const form = String(budgetsSection({ target, locale: 'en', csrf: 'c' }));
    expect(form).toContain('id="budget-lighthouse-mobile-accessibility"');
    expect(form).toMatch(/name="lighthouse\.mobile\.accessibility"[^>]*value="90"/);
    expect(form).toContain('1 budget set.');
    expect(form).toContain('Minimum Lighthouse scores');
    expect(String(budgetsSection({ target, locale: 'de', csrf: 'c' }))).toContain('Mindestwerte der Lighthouse-Scores');
    const read = readBudgetForm(
      new URLSearchParams({
        'lighthouse.mobile.accessibility': '90',
        'lighthouse.desktop.seo': '85',
        'scores.overall': '',
      }),
      'en',
    );
    expect(read.budgets).toEqual({ lighthouse: { mobile: { accessibility: 90 }, desktop: { seo: 85 } } });
    const wrong = readBudgetForm(new URLSearchParams({ 'lighthouse.desktop.seo': '120' }), 'en');
    expect(wrong.budgets).toBeUndefined();
    expect(wrong.errors['lighthouse.desktop.seo']).toMatch(/0 to 100/);
  });
});

describe('the target’s history of them', () => {
  const item = (day: number, mobile: Partial<LighthouseCategoryScores> | null): LabHistoryItem => ({
    scanId: `scan-${day}`,
    finishedAt: new Date(Date.UTC(2026, 10, day)),
    trigger: 'schedule',
    lighthouseVersion: '13.5.0',
    ttfbMs: 200,
    metrics: { desktop: null, mobile: null },
    runs: { desktop: [], mobile: [] },
    lighthouse: {
      mobile: mobile && lighthouse(mobile).mobile,
      desktop: mobile && lighthouse(mobile).desktop,
    } as Record<FormFactor, LighthouseCategoryScores | null>,
  });
  const items = [
    item(3, { accessibility: 70 }),
    item(1, { accessibility: 95 }),
    item(2, null),
    item(4, { accessibility: 88 }),
  ];

  it('is each category’s series per form factor, oldest first, scans without them left out', () => {
    expect(lighthouseSeries(items, 'accessibility', 'mobile').map((p) => p.score)).toEqual([95, 70, 88]);
  });

  it('shows the latest score and the trend in words, with the minimum drawn, in English and German', () => {
    const en = String(lighthouseChartsSection(items, 'en', { lighthouse: { mobile: { accessibility: 90 } } }));
    const cell = en.slice(
      en.indexOf('data-category="accessibility"'),
      en.indexOf('</tr>', en.indexOf('data-category="accessibility"')),
    );
    expect(cell).toContain('data-latest="88"');
    expect(cell).toContain('Accessibility (Mobile): from 95 to 88 over 3 scans, lowest 70, highest 95, minimum 90');
    expect(cell).toContain('class="sparkline-threshold"');
    expect(String(lighthouseChartsSection(items, 'de'))).toContain(
      'Barrierefreiheit (Mobil): von 95 auf 88 in 3 Scans',
    );
  });

  it('is not shown before a scan of the target has them', () => {
    expect(String(lighthouseChartsSection([item(2, null)], 'en'))).toBe('');
    expect(String(lighthouseChartsSection([], 'en'))).toBe('');
  });
});
