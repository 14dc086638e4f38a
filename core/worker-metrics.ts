import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { FAILURE_CODES } from './scan/failures.ts';
import { METRICS } from './metric-names.ts';

/** What the scan queue of a region looks like from Temporal (backlog and pollers), read on each scrape. */
export type QueueProbe = (region: string) => Promise<{ backlog: number; pollers: number } | null>;

/**
 * The worker's operator metrics, served on its health port at /metrics (worker/main.ts). Regions come from
 * the configuration and failure codes from their fixed list: no label carries anything a user typed.
 */
export function createWorkerMetrics(options: { regions: string[]; probeQueue?: QueueProbe; oldestWaiting?: (region: string) => Promise<number | null> }) {
  const registry = new Registry();
  registry.setDefaultLabels({ service: 'worker' });
  collectDefaultMetrics({ register: registry });
  const started = new Counter({ name: METRICS.scansStarted.name, help: 'Scans whose Lighthouse runs started, by region.', labelNames: ['region'], registers: [registry] });
  const finished = new Counter({ name: METRICS.scansFinished.name, help: 'Scans ended, by region, outcome (finished|failed) and failure code (none when finished).', labelNames: ['region', 'outcome', 'failure_code'], registers: [registry] });
  const duration = new Histogram({ name: METRICS.scanDuration.name, help: 'Time from the start of a scan attempt to its result, by region.', labelNames: ['region'], buckets: [5, 10, 20, 30, 45, 60, 90, 120, 180, 300, 600], registers: [registry] });
  const benchmark = new Gauge({ name: METRICS.benchmarkIndex.name, help: "Lighthouse's benchmark index of the last scan measured in the region (low: an overloaded machine).", labelNames: ['region'], registers: [registry] });
  const { probeQueue, oldestWaiting } = options;
  new Gauge({
    name: METRICS.scanBacklog.name,
    help: "Lighthouse tasks waiting in the region's scan queue (Temporal's approximate backlog).",
    labelNames: ['region'],
    registers: [registry],
    async collect() {
      if (!probeQueue) return;
      for (const region of options.regions) {
        const queue = await probeQueue(region).catch(() => null);
        if (queue) this.set({ region }, queue.backlog);
      }
    },
  });
  new Gauge({
    name: METRICS.scanPollers.name,
    help: "Workers polling the region's scan queue recently (0: nobody serves the region).",
    labelNames: ['region'],
    registers: [registry],
    async collect() {
      if (!probeQueue) return;
      for (const region of options.regions) {
        const queue = await probeQueue(region).catch(() => null);
        if (queue) this.set({ region }, queue.pollers);
      }
    },
  });
  new Gauge({
    name: METRICS.scanOldestWaiting.name,
    help: 'Age in seconds of the oldest scan still queued in the region (0 when none waits).',
    labelNames: ['region'],
    registers: [registry],
    async collect() {
      if (!oldestWaiting) return;
      for (const region of options.regions) {
        const age = await oldestWaiting(region).catch(() => null);
        if (age !== null) this.set({ region }, age);
      }
    },
  });
  for (const region of options.regions) {
    started.inc({ region }, 0);
    finished.inc({ region, outcome: 'finished', failure_code: 'none' }, 0);
  }
  const known = new Set<string>(FAILURE_CODES);
  return {
    registry,
    scanStarted: (region: string) => started.inc({ region }),
    scanEnded: (region: string, outcome: { status: 'finished' } | { status: 'failed'; code: string }, seconds: number | null) => {
      finished.inc({ region, outcome: outcome.status, failure_code: outcome.status === 'failed' ? (known.has(outcome.code) ? outcome.code : 'other') : 'none' });
      if (seconds !== null) duration.observe({ region }, seconds);
    },
    benchmarkIndex: (region: string, value: number) => benchmark.set({ region }, value),
  };
}

export type WorkerMetrics = ReturnType<typeof createWorkerMetrics>;
