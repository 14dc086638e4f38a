import type { Context, Next } from 'koa';
import { collectDefaultMetrics, Counter, Histogram, Registry } from 'prom-client';
import { METRICS } from '../core/metric-names.ts';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * An HTTP process's operator metrics: requests by route template, method and status, their latency, and
 * Node's own (event-loop delay, heap, GC). Routes are the router's templates (`/api/v1/scans/:id`), never raw
 * paths; requests no route matched count as `unmatched`, unusual methods as `other`: every label comes from
 * a fixed set whatever clients send.
 */
export function createHttpMetrics(service: string) {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: METRICS.httpRequests.name,
    help: 'HTTP requests answered, by route template, method and status.',
    labelNames: ['route', 'method', 'status'],
    registers: [registry],
  });
  const duration = new Histogram({
    name: METRICS.httpDuration.name,
    help: 'Time to answer an HTTP request, by route template and method.',
    labelNames: ['route', 'method'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const limitRefusals = new Counter({
    name: METRICS.dailyLimitRefusals.name,
    help: 'API calls refused with 429 because the daily limit was used up, by plan.',
    labelNames: ['plan'],
    registers: [registry],
  });

  async function middleware(ctx: Context, next: Next): Promise<void> {
    const started = performance.now();
    try {
      await next();
    } finally {
      const route = (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute;
      const labels = {
        route: typeof route === 'string' ? route : 'unmatched',
        method: METHODS.has(ctx.method) ? ctx.method : 'other',
      };
      duration.observe(labels, (performance.now() - started) / 1000);
      requests.inc({ ...labels, status: String(ctx.status) });
    }
  }

  return { registry, middleware, dailyLimitRefused: (plan: string) => limitRefusals.inc({ plan }) };
}

export type HttpMetrics = ReturnType<typeof createHttpMetrics>;
