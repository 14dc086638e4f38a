import { Registry } from 'prom-client';
import { HealthState } from '../../infra/health.ts';
import { registerReadyGauge } from '../../infra/ready-metric.ts';
import { FAILURE_CODES } from '../../core/scan/failures.ts';
import {
  createWorkerMetrics,
  EMAIL_KINDS,
  TARGET_RUN_SKIP_REASONS,
  WEBHOOK_ATTEMPT_RESULTS,
  WEBHOOK_DELIVERY_OUTCOMES,
} from '../../infra/worker-metrics.ts';

/**
 * The worker's label values stay within fixed sets whatever reaches the counters: regions from the
 * configuration (anything else is `other`), failure codes from their list (anything else is `other`).
 */
const regions = ['eu', 'us'];
const FUZZ = [
  '<script>alert(1)</script>',
  'https://example.com/?q=1',
  'eu ',
  'EU',
  '',
  'x'.repeat(300),
  'dns_failed"} 1\nfake{a="',
];

/** Every value of every label of the webperf_* series, by label name. */
async function labelValues(registry: Registry): Promise<Map<string, Set<string>>> {
  const values = new Map<string, Set<string>>();
  for (const metric of await registry.getMetricsAsJSON()) {
    if (!metric.name.startsWith('webperf_')) continue;
    for (const sample of metric.values) {
      for (const [name, value] of Object.entries(sample.labels)) {
        if (name === 'le') continue;
        if (!values.has(name)) values.set(name, new Set());
        values.get(name)!.add(String(value));
      }
    }
  }
  return values;
}

it('regions and failure codes from outside their fixed sets are counted as other', async () => {
  const metrics = createWorkerMetrics({ regions });
  for (const text of FUZZ) {
    metrics.scanStarted(text);
    metrics.scanEnded(text, { status: 'failed', code: text }, 1);
    metrics.scanEnded('eu', { status: 'failed', code: text }, null);
    metrics.scanEnded(text, { status: 'finished' }, 2);
    metrics.benchmarkIndex(text, 1000);
  }
  for (const code of FAILURE_CODES) metrics.scanEnded('us', { status: 'failed', code }, 1);
  const values = await labelValues(metrics.registry);
  expect([...values.get('region')!].sort()).toEqual(['eu', 'other', 'us']);
  expect([...values.get('failure_code')!].sort()).toEqual([...FAILURE_CODES, 'none', 'other'].sort());
  expect([...values.get('outcome')!].sort()).toEqual(
    [...new Set([...WEBHOOK_DELIVERY_OUTCOMES, 'finished', 'failed', 'sent'])].sort(),
  );
  expect([...values.get('service')!]).toEqual(['worker']);
  const text = await metrics.registry.metrics();
  for (const fuzz of FUZZ.filter((f) => f.length > 3)) expect(text).not.toContain(fuzz);
});

it('the other labels come from their declared lists only', async () => {
  const metrics = createWorkerMetrics({ regions });
  const values = await labelValues(metrics.registry);
  expect([...values.get('reason')!]).toEqual([...TARGET_RUN_SKIP_REASONS]);
  expect([...values.get('result')!].sort()).toEqual([...WEBHOOK_ATTEMPT_RESULTS].sort());
  expect([...values.get('kind')!].sort()).toEqual([...EMAIL_KINDS].sort());
  expect([...values.keys()].sort()).toEqual([
    'failure_code',
    'kind',
    'outcome',
    'reason',
    'region',
    'result',
    'service',
  ]);
});

it('webperf_ready has one series per process, 1 or 0 by its readiness checks', async () => {
  let postgresUp = true;
  const health = new HealthState({
    postgres: async () => {
      if (!postgresUp) throw new Error('connection refused');
    },
  });
  const registry = new Registry();
  registerReadyGauge(registry, 'worker', health);
  expect(await registry.metrics()).toContain('webperf_ready{service="worker"} 1');
  postgresUp = false;
  expect(await registry.metrics()).toContain('webperf_ready{service="worker"} 0');
  postgresUp = true;
  health.startDraining();
  expect(await registry.metrics()).toContain('webperf_ready{service="worker"} 0');
});
