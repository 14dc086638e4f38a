import { SECRET_KEY_VARIABLES, type Config } from '../infra/config.ts';
import type { Backend } from './balancer.ts';

/**
 * Several of every process against one Postgres, ClickHouse and Temporal (`./svc start --scaled`, and
 * test/scaleout/): two APIs and two ingest instances behind a balancer each, a main-queue worker, two scan
 * workers for the first region and one for a second, and the webhook worker on its own. What they share
 * lives in Postgres and Temporal; each ingest instance has its own spool (per port by default).
 */

export type ProcessKind = 'api' | 'worker' | 'ingest';

export interface ScaledProcess {
  /** Unique within the layout: api-1, scan-local-2, ingest-2, ... */
  name: string;
  kind: ProcessKind;
  env: NodeJS.ProcessEnv;
}

export interface ScaledBalancer {
  name: 'api' | 'ingest';
  host: string;
  port: number;
  backends: Backend[];
}

export interface ScaledLayout {
  /** The first region has two scan workers, the second one. */
  regions: [string, string];
  processes: ScaledProcess[];
  balancers: ScaledBalancer[];
}

/** Ports of the instances; the balancers listen on the configured API_PORT and INGEST_PORT. */
export interface ScaledPorts {
  api: [number, number];
  apiMetrics: [number, number];
  ingest: [number, number];
  ingestMetrics: [number, number];
  /** main, scan (first region) ×2, scan (second region), webhooks. */
  workerHealth: [number, number, number, number, number];
  /** The Temporal SDK's metrics of each worker, in the same order; none when not given. */
  workerSdkMetrics?: [number, number, number, number, number];
}

/** `./svc start --scaled`: instances on fixed offsets from the configured ports (API 3010/3020, ...). */
export function offsetPorts(config: Pick<Config, 'api' | 'ingest' | 'worker'>): ScaledPorts {
  const api = config.api.port;
  const ingest = config.ingest.port;
  const health = config.worker.healthPort;
  const workerHealth: ScaledPorts['workerHealth'] = [health, health + 10, health + 20, health + 30, health + 40];
  return {
    api: [api + 10, api + 20],
    apiMetrics: [api + 12, api + 22],
    ingest: [ingest + 10, ingest + 20],
    ingestMetrics: [ingest + 11, ingest + 21],
    workerHealth,
    workerSdkMetrics: workerHealth.map((port) => port + 1) as ScaledPorts['workerSdkMetrics'],
  };
}

/**
 * The scan regions of the layout: SCAN_REGIONS's first two, or its first and `second` when it names only one.
 * Every process gets the same list (the API offers them, the dispatchers hand out their slots); a worker serves
 * the regions of WORKER_SCAN_REGIONS, and SCAN_REGION_SLOTS says how many scans a region runs at once: as many
 * as it has scan workers.
 */
export function scaledRegions(config: Pick<Config, 'regions'>): [string, string] {
  const [first = 'local', second] = config.regions.available;
  return [first, second ?? (first === 'second' ? 'second-b' : 'second')];
}

export function scaledLayout(
  config: Pick<Config, 'api' | 'ingest' | 'regions'>,
  base: NodeJS.ProcessEnv,
  ports: ScaledPorts,
): ScaledLayout {
  const regions = scaledRegions(config);
  const [first, second] = regions;
  const host = '127.0.0.1';
  // Per process here: each worker its own SDK metrics port, each ingest instance its own spool (per port).
  const { WORKER_SDK_METRICS_PORT: _sdkPort, INGEST_SPOOL_DIR: _spool, ...rest } = base;
  const common: NodeJS.ProcessEnv = {
    ...rest,
    SCAN_REGIONS: [...new Set([...regions, ...config.regions.available])].join(','),
    DEFAULT_REGION: first,
    SCAN_REGION_SLOTS: `${first}=2,${second}=1`,
    BASE_URL: base.BASE_URL?.trim() || `http://${host}:${config.api.port}`,
    INGEST_URL: base.INGEST_URL?.trim() || `http://${host}:${config.ingest.port}`,
  };
  // The ingest handles no secrets (stack/services.ts leaves them out by process name; these names are numbered).
  const keyless = Object.fromEntries(Object.entries(common).filter(([key]) => !SECRET_KEY_VARIABLES.includes(key)));
  const worker = (index: number, name: string, env: NodeJS.ProcessEnv): ScaledProcess => ({
    name,
    kind: 'worker',
    env: {
      ...common,
      ...env,
      WORKER_HEALTH_PORT: String(ports.workerHealth[index]),
      ...(ports.workerSdkMetrics ? { WORKER_SDK_METRICS_PORT: String(ports.workerSdkMetrics[index]) } : {}),
    },
  });
  const processes: ScaledProcess[] = [
    ...ports.api.map((port, i) => ({
      name: `api-${i + 1}`,
      kind: 'api' as const,
      env: { ...common, API_PORT: String(port), API_METRICS_PORT: String(ports.apiMetrics[i]) },
    })),
    worker(0, 'worker-main', { WORKER_ROLE: 'main', WORKER_SCAN_REGIONS: 'none' }),
    worker(1, `scan-${first}-1`, { WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: first }),
    worker(2, `scan-${first}-2`, { WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: first }),
    worker(3, `scan-${second}-1`, { WORKER_ROLE: 'scan', WORKER_SCAN_REGIONS: second }),
    worker(4, 'webhook-worker', { WORKER_ROLE: 'webhooks' }),
    ...ports.ingest.map((port, i) => ({
      name: `ingest-${i + 1}`,
      kind: 'ingest' as const,
      // The spool directory defaults to one per port: each instance keeps its own.
      env: { ...keyless, INGEST_PORT: String(port), INGEST_METRICS_PORT: String(ports.ingestMetrics[i]) },
    })),
  ];
  return {
    regions,
    processes,
    balancers: [
      { name: 'api', host, port: config.api.port, backends: ports.api.map((port) => ({ host, port })) },
      { name: 'ingest', host, port: config.ingest.port, backends: ports.ingest.map((port) => ({ host, port })) },
    ],
  };
}
