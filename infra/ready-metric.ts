import { Gauge, type Registry } from 'prom-client';
import type { HealthState } from './health.ts';
import { METRICS } from '../core/metric-names.ts';

/**
 * `webperf_ready{service}`: 1 while the process's own readiness check (what its /readyz answers, without the
 * API's `full=1` workflow round trip) passes, 0 while it fails or the process drains. Evaluated on each scrape;
 * scrapes that overlap share one run of the checks. `service` is the process's fixed name, nothing else.
 */
export function registerReadyGauge(
  registry: Registry,
  service: 'api' | 'worker' | 'ingest',
  health: Pick<HealthState, 'readiness'>,
): void {
  let running: Promise<boolean> | null = null;
  const ready = (): Promise<boolean> => {
    running ??= health
      .readiness()
      .then(
        (readiness) => readiness.ready,
        () => false,
      )
      .finally(() => {
        running = null;
      });
    return running;
  };
  new Gauge({
    name: METRICS.ready.name,
    help: 'Whether the process is ready (1) or not (0), by the same checks as its /readyz (a dependency away, draining).',
    labelNames: METRICS.ready.labels,
    registers: [registry],
    async collect() {
      this.set({ service }, (await ready()) ? 1 : 0);
    },
  });
}
