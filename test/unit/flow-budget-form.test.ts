import { flowBudgetsSchema } from '../../api/views/budget-schemas.ts';
import { validate } from '../../api/validation.ts';
import { flowBudgetProblems, type FlowBudgets } from '../../core/flows/flow-budgets.ts';
import { measuredSteps } from '../../core/flows/flow.ts';
import { chromeFor, CSRF, SIGN_IN_FLOW, sampleSeries } from '../../fixtures/flow-pages.ts';
import { HttpError } from '../../http/errors.ts';
import { budgetFieldNumber, budgetFieldText } from '../../web/budget-fields.ts';
import { budgetFields, budgetFormErrors, budgetFormValues, readBudgetForm } from '../../web/flows/budget-form.ts';
import { flowBudgetsPage, flowBudgetsSection } from '../../web/flows/budgets-page.ts';
import { describeStepMetric, flowHistorySection, stepMetricSeries } from '../../web/flows/history.ts';

// SIGN_IN_FLOW's measured steps: 0 navigation, 1 timespan, 7 snapshot, 8 navigation.
const STEPS = measuredSteps(SIGN_IN_FLOW);
const BUDGETS: FlowBudgets = { '0': { lcp_ms: 2500, cls: 0.1, scores: { performance: 80 } }, '1': { inp_ms: 200 } };

describe('the budget fields', () => {
  it('read a decimal point or comma, empty as none, anything else as not a number', () => {
    expect(['', ' ', '2500', ' 0,25 ', '0.25', '-1', '1e3', '2 500', '.5'].map(budgetFieldNumber)).toEqual([
      undefined,
      undefined,
      2500,
      0.25,
      0.25,
      Number.NaN,
      Number.NaN,
      Number.NaN,
      Number.NaN,
    ]);
    expect([budgetFieldText(0.25, 'de'), budgetFieldText(0.25, 'en'), budgetFieldText(undefined, 'de')]).toEqual([
      '0,25',
      '0.25',
      '',
    ]);
  });
});

describe('the flow budgets form', () => {
  it("has a field for exactly each metric and score of each step's mode, named as the API names them", () => {
    expect(budgetFields(STEPS)).toEqual([
      'budgets.0.lcp_ms',
      'budgets.0.fcp_ms',
      'budgets.0.tbt_ms',
      'budgets.0.cls',
      'budgets.0.ttfb_ms',
      'budgets.0.scores.performance',
      'budgets.0.scores.accessibility',
      'budgets.0.scores.best_practices',
      'budgets.0.scores.seo',
      'budgets.1.inp_ms',
      'budgets.1.tbt_ms',
      'budgets.1.cls',
      'budgets.7.scores.accessibility',
      'budgets.7.scores.best_practices',
      'budgets.7.scores.seo',
      ...budgetFields([STEPS[3]!]),
    ]);
    expect(budgetFormValues(STEPS, BUDGETS, 'de')).toMatchObject({
      'budgets.0.lcp_ms': '2500',
      'budgets.0.cls': '0,1',
      'budgets.0.scores.performance': '80',
      'budgets.0.scores.seo': '',
      'budgets.1.inp_ms': '200',
    });
  });

  it('reads the posted fields as budgets: empty ones are none, a step with none is left out', () => {
    const form = new URLSearchParams({
      _csrf: CSRF,
      'budgets.0.lcp_ms': '2500',
      'budgets.0.cls': '0,1',
      'budgets.0.scores.performance': '80',
      'budgets.0.scores.seo': '',
      'budgets.1.inp_ms': ' 200 ',
      'budgets.7.scores.seo': '',
      'budgets.0.speed_index_ms': '9',
      'budgets.0.scores.overall': '9',
    });
    expect(readBudgetForm(form)).toEqual({ values: expect.any(Object), budgets: BUDGETS, errors: {} });
    expect(readBudgetForm(new URLSearchParams({ 'budgets.0.lcp_ms': '' })).budgets).toEqual({});
  });

  it("reads a budget the step's mode does not have, for the service to refuse (a form older than the steps)", () => {
    const read = readBudgetForm(new URLSearchParams({ 'budgets.7.inp_ms': '200' }));
    expect(read.budgets).toEqual({ '7': { inp_ms: 200 } });
    const problems = flowBudgetProblems(SIGN_IN_FLOW, read.budgets!);
    expect(problems).toEqual([
      {
        field: 'budgets.7.inp_ms',
        message: 'Step 7 is a snapshot step, which has no inp_ms; its metrics: none.',
      },
    ]);
    // Not a field of the form as it stands: said beside the step's budgets.
    expect(budgetFormErrors({ [problems[0]!.field]: [problems[0]!.message] }, STEPS)).toEqual({
      'budgets.7': { message: problems[0]!.message },
    });
  });

  it('places the errors beside their field, else beside the step, else above the form', () => {
    expect(
      budgetFormErrors(
        {
          'budgets.0.cls': ['The budgets.0.cls may not be greater than 10.'],
          'budgets.3': ['Step 3 is not a measured step (navigate, start_timespan or snapshot) of this flow.'],
          'budgets.8.scores.performance': ['x'],
        },
        STEPS,
      ),
    ).toEqual({
      'budgets.0.cls': { message: 'The budgets.0.cls may not be greater than 10.' },
      form: { message: 'Step 3 is not a measured step (navigate, start_timespan or snapshot) of this flow.' },
      'budgets.8.scores.performance': { message: 'x' },
    });
  });

  it('refuses what is not a number beside its field, keeping what was typed', () => {
    const read = readBudgetForm(new URLSearchParams({ 'budgets.0.lcp_ms': '2,5 s', 'budgets.1.inp_ms': '200' }));
    expect(read.budgets).toBeUndefined();
    expect(read.errors).toEqual({ 'budgets.0.lcp_ms': { code: 'budget_number' } });
    const page = flowBudgetsPage({ ...model('de'), edit: { values: read.values, errors: read.errors } });
    expect(page).toContain(
      'value="2,5 s" aria-invalid="true" aria-describedby="budgets-0-lcp_ms-error"><p class="error field-error" id="budgets-0-lcp_ms-error" data-field="budgets.0.lcp_ms">Eine Zahl wie 2500 oder 0,1, oder leer.</p>',
    );
    expect(page).toContain(
      'id="budgets-1-inp_ms" name="budgets.1.inp_ms" type="text" inputmode="numeric" size="7" value="200"',
    );
  });
});

describe('flow budget values: the same verdict and words as the API schema', () => {
  const BODY = { type: 'object', properties: { budgets: flowBudgetsSchema } };
  /** The API's 422 `errors` for a request body with these budgets. */
  const apiErrors = (budgets: FlowBudgets) => {
    try {
      validate('body', BODY, { budgets });
      return {};
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return error.body.errors;
    }
  };

  it.each([
    [{ '0': { lcp_ms: 600_001 } }],
    [{ '0': { lcp_ms: 2500.5 } }],
    [{ '0': { cls: 10.5 } }],
    [{ '0': { fcp_ms: -1 } }],
    [{ '1': { inp_ms: 700_000 } }],
    [{ '0': { scores: { seo: 101 } } }],
    [{ '7': { scores: { accessibility: 89.5 } } }],
    [{ '0': { cls: 10, lcp_ms: 600_000, scores: { performance: 100 } }, '1': { inp_ms: 0 } }],
  ] as Array<[FlowBudgets]>)('%j', (budgets) => {
    const ours = Object.fromEntries(flowBudgetProblems(SIGN_IN_FLOW, budgets).map((p) => [p.field, [p.message]]));
    expect(ours).toEqual(apiErrors(budgets));
  });
});

const model = (locale: 'en' | 'de') => ({
  chrome: chromeFor(locale),
  csrf: CSRF,
  flowId: 'flow-1',
  flowName: 'Sign in <& search>',
  steps: STEPS,
  budgets: BUDGETS,
  monitored: false,
});

describe('the flow budgets page', () => {
  it('shows a table per measured step with its mode, the rules, and posts with the CSRF token', () => {
    const page = flowBudgetsPage(model('en'));
    expect(page).toContain('<h1>Budgets of Sign in &lt;&amp; search&gt;</h1>');
    expect(page).toContain('Critical at 50 % or more past the budget');
    expect(page).toContain('metrics at 90 % of their budget or less, scores 3 points above their minimum');
    expect(page).toContain('id="budgets-not-monitored"');
    expect(page).toContain('<p id="budgets-summary">4 budgets set.</p>');
    expect(
      [...page.matchAll(/<fieldset class="step-budgets" id="step-budgets-(\d+)"[^>]*data-mode="(\w+)"/g)].map((m) => [
        m[1],
        m[2],
      ]),
    ).toEqual([
      ['0', 'navigation'],
      ['1', 'timespan'],
      ['7', 'snapshot'],
      ['8', 'navigation'],
    ]);
    expect(page).toContain(
      '<form method="post" action="/flows/flow-1/budgets" id="budgets-form" novalidate><input type="hidden" name="_csrf" value="sample-csrf-token">',
    );
    expect(page).toContain('<label for="budgets-0-lcp_ms">LCP</label> <span class="hint">(at most, ms)</span>');
    expect(page).toContain('<label for="budgets-0-cls">CLS</label> <span class="hint">(at most, unitless)</span>');
    expect(page).toContain('value="2500"');
    const de = flowBudgetsPage({ ...model('de'), monitored: true });
    expect(de).toContain('<h1>Budgets von Sign in &lt;&amp; search&gt;</h1>');
    expect(de).toContain('Kritisch ab 50 % über dem Budget');
    expect(de).toContain(
      '<label for="budgets-7-scores-accessibility">Barrierefreiheit</label> <span class="hint">(mindestens, 0–100)</span>',
    );
    expect(de).toContain('value="0,1"');
    expect(de).not.toContain('id="budgets-not-monitored"');
  });

  it("the flow page's part lists each step's budgets and links to the form", () => {
    const section = flowBudgetsSection('flow-1', STEPS, BUDGETS, 'en').toString();
    expect(section).toContain(
      '<li data-index="0">Step 1: Login page: LCP ≤ 2,500 ms, CLS ≤ 0.1, Performance ≥ 80</li>',
    );
    expect(section).toContain('<li data-index="1">Step 2: Sign in: INP ≤ 200 ms</li>');
    expect(section).toContain('<a href="/flows/flow-1/budgets" id="edit-budgets">Set budgets</a>');
    expect(flowBudgetsSection('flow-1', STEPS, {}, 'de').toString()).toContain('Keine Budgets gesetzt.');
  });
});

describe('budgets on the history charts', () => {
  const series = sampleSeries(
    [0, 1].map((day) => ({
      runId: `run-${day}`,
      at: new Date(Date.UTC(2026, 10, 20 + day, 8)),
      metrics: { lcp_ms: day ? 3000 : 1800 },
    })),
  );

  it("draws a step's budget as the dashed budget line with its legend, on that step's chart of that metric", () => {
    const html = flowHistorySection(series, { locale: 'en', days: 30, budgets: BUDGETS }).toString();
    const chart = (id: string) => /<figure[\s\S]*?<\/figure>/.exec(html.slice(html.indexOf(`id="${id}"`) - 60))![0];
    expect(chart('flow-history-0-lcp_ms')).toContain('<line class="budget" aria-hidden="true" data-value="2500"');
    expect(chart('flow-history-0-lcp_ms')).toContain('Budget 2,500 ms</li>');
    expect(chart('flow-history-0-lcp_ms')).toContain('1 over the budget of 2,500 ms.');
    expect(chart('flow-history-0-cls')).toContain('data-value="0.1"');
    expect(chart('flow-history-0-tbt_ms')).not.toContain('class="budget"');
    expect(chart('flow-history-1-inp_ms')).toContain('data-value="200"');
    expect(flowHistorySection(series, { locale: 'en', days: 30 }).toString()).not.toContain('class="budget"');
  });

  it('tells how many runs were over the budget', () => {
    const points = stepMetricSeries(series[0]!, 'lcp_ms');
    expect(describeStepMetric('lcp_ms', points, 'de', 2000)).toMatch(/ 1 über dem Budget von 2\.000 ms\.$/);
    expect(describeStepMetric('lcp_ms', points, 'en')).not.toContain('budget');
  });
});
