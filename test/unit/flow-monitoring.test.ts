import type { FlowDefinition, FlowStepResult } from '../../core/flows/flow.ts';
import { dailyStartTime, flowScheduleOptions, targetScheduleOptions } from '../../core/monitoring/schedule.ts';
import { flowIdOfSchedule, flowScheduleId, targetIdOfSchedule } from '../../core/temporal.ts';
import { flowRunPayload } from '../../core/webhooks/flow-payloads.ts';
import { payloadProblems } from '../../core/webhooks/schemas.ts';
import type { FlowHistoryRow } from '../../db/store/flows.ts';
import { stepSeries } from '../../services/flows.ts';
import { describeStepMetric, flowHistorySection, stepMetricSeries } from '../../web/flows/history.ts';

const definition: FlowDefinition = {
  name: 'Checkout',
  form_factor: 'desktop',
  steps: [
    { type: 'navigate', url: 'https://shop.example/', name: 'Home' },
    { type: 'start_timespan', name: 'Add to cart' },
    { type: 'click', selector: '#add' },
    { type: 'end_timespan' },
    { type: 'snapshot', name: 'Cart' },
  ],
};

const navigation: FlowStepResult = {
  index: 0,
  mode: 'navigation',
  name: 'Home',
  url: 'https://shop.example/',
  scores: { performance: 91, accessibility: 100, best_practices: 96, seo: 90 },
  metrics: { lcp_ms: 1200, fcp_ms: 800, tbt_ms: 40, cls: 0.01, speed_index_ms: 900, ttfb_ms: 120 },
  findings: [],
  screenshot: null,
};
const timespan: FlowStepResult = {
  index: 1,
  mode: 'timespan',
  name: 'Add to cart',
  url: 'https://shop.example/',
  scores: { performance: null, accessibility: null, best_practices: null, seo: null },
  metrics: { inp_ms: 320, cls: 0, tbt_ms: 150 },
  findings: [],
  screenshot: null,
};

describe('a monitored flow’s schedule', () => {
  it('runs flowScheduleWorkflow daily at the start time the targets’ rule gives the flow id, with the id only', () => {
    const options = flowScheduleOptions('wp', { id: 42 });
    expect(options.scheduleId).toBe('wp-flow-42');
    expect(options.spec.calendars[0]).toMatchObject(dailyStartTime(42));
    expect(options.action).toMatchObject({
      workflowType: 'flowScheduleWorkflow',
      args: [{ flowId: 42 }],
      taskQueue: 'wp-main',
    });
    expect(options.policies).toEqual(targetScheduleOptions('wp', { id: 42, isActive: true }).policies);
    expect(options.state.paused).toBe(false);
  });

  it('has ids of its own that the target schedules’ parser never takes, and back', () => {
    expect(flowIdOfSchedule('wp', flowScheduleId('wp', 7))).toBe(7);
    expect(targetIdOfSchedule('wp', flowScheduleId('wp', 7))).toBeNull();
    expect(flowIdOfSchedule('wp', 'wp-target-7')).toBeNull();
    expect(flowIdOfSchedule('wp', 'other-flow-7')).toBeNull();
    expect(flowIdOfSchedule('wp', 'wp-flow-07')).toBeNull();
  });
});

const row = (runId: string, day: number, step: FlowStepResult, trigger: FlowHistoryRow['trigger'] = 'schedule') => ({
  runId,
  finishedAt: new Date(Date.UTC(2026, 10, day, 4)),
  trigger,
  step,
});

describe('the history per step', () => {
  const rows: FlowHistoryRow[] = [
    row('r2', 2, { ...navigation, metrics: { ...navigation.metrics, lcp_ms: 1500 } }, 'api'),
    row('r1', 1, navigation),
    row('r1', 1, timespan),
    row('r2', 2, timespan),
    // Renamed: a series of its own.
    row('r3', 3, { ...navigation, name: 'Start page' }),
  ];

  it('groups by index, mode and name, each series oldest first, ordered by step', () => {
    const series = stepSeries(rows);
    expect(series.map((s) => [s.index, s.mode, s.name, s.points.map((p) => p.run_id)])).toEqual([
      [0, 'navigation', 'Home', ['r1', 'r2']],
      [0, 'navigation', 'Start page', ['r3']],
      [1, 'timespan', 'Add to cart', ['r1', 'r2']],
    ]);
    expect(series[0]!.points[1]).toMatchObject({ trigger: 'api', metrics: { lcp_ms: 1500 } });
  });

  it('charts a timespan’s INP with the good and poor bands, and tells it in words', () => {
    const [, , span] = stepSeries(rows);
    const points = stepMetricSeries(span!, 'inp_ms');
    expect(points.map((p) => p.value)).toEqual([320, 320]);
    expect(describeStepMetric('inp_ms', points, 'en')).toMatch(/^From 320 ms to 320 ms over 2 runs/);
    const page = String(flowHistorySection(stepSeries(rows), { locale: 'en', days: 30, runHref: (id) => `/r/${id}` }));
    expect(page).toContain('data-metric="inp_ms"');
    expect(page).toContain('INP of “Add to cart”: each run');
    expect(page).toMatch(/class="band band-good"/);
    expect(page).toMatch(/class="band band-poor"/);
    expect(page).toContain('href="/r/r1"');
    expect(page).toContain('Step 1: Home');
    expect(page).toContain('Step 1: Start page');
    expect(page).toMatch(/data-score="performance" data-latest="91"/);
  });

  it('speaks German', () => {
    const page = String(flowHistorySection(stepSeries(rows), { locale: 'de', days: 7 }));
    expect(page).toContain('Verlauf je Schritt');
    expect(page).toContain('Schritt 2: Add to cart');
    expect(page).toContain('Zeitspanne');
    expect(page).toContain('INP von „Add to cart“: jeder Lauf');
    expect(String(flowHistorySection([], { locale: 'de', days: 7 }))).toContain(
      'Keine abgeschlossenen Läufe in den letzten 7 Tagen.',
    );
  });
});

describe('flow webhooks', () => {
  const run = {
    flowPublicId: 'flow1',
    flowName: 'Checkout',
    runPublicId: 'run1',
    trigger: 'schedule' as const,
    definition,
    finishedAt: new Date('2026-11-27T04:00:00Z'),
    steps: [navigation, timespan],
  };

  it('a finished run is flow.completed: the first navigation’s URL, the flow and each measured step', () => {
    const payload = flowRunPayload({ ...run, failure: null }, 'https://perf.example');
    expect(payload).toMatchObject({
      event: 'flow.completed',
      url: 'https://shop.example/',
      flow: { id: 'flow1', name: 'Checkout', run_id: 'run1', trigger: 'schedule' },
      run_url: 'https://perf.example/flows/flow1/runs/run1',
      finished_at: '2026-11-27T04:00:00+00:00',
    });
    expect(payload.steps.map((s) => [s.index, s.mode, s.metrics.inp_ms ?? null])).toEqual([
      [0, 'navigation', null],
      [1, 'timespan', 320],
    ]);
    expect(payloadProblems('flow.completed', payload)).toBeNull();
  });

  it('a failed run is flow.failed naming the step, also when it failed outside any step', () => {
    const atStep = flowRunPayload(
      {
        ...run,
        steps: [navigation],
        failure: { index: 2, step_type: 'click', code: 'selector_not_found', message: 'No element #add.' },
      },
      'https://perf.example',
    );
    expect(atStep).toMatchObject({
      event: 'flow.failed',
      failed_step: { index: 2, step_type: 'click', step: 'click #add', code: 'selector_not_found' },
    });
    expect(payloadProblems('flow.failed', atStep)).toBeNull();
    const outside = flowRunPayload(
      { ...run, steps: [], failure: { index: null, step_type: null, code: 'run_error', message: 'Crashed.' } },
      'https://perf.example',
    );
    expect(outside).toMatchObject({ url: 'https://shop.example/', failed_step: { index: null, step: 'the run' } });
    expect(payloadProblems('flow.failed', outside)).toBeNull();
  });
});
