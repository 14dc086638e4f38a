/**
 * What the benchmarks need of the stack, without the test harness: a fresh migrated database of their own,
 * users with tokens, and the real api/worker processes started as `./svc start` starts them. The backing
 * services (Postgres, ClickHouse, Temporal) must be up: `./svc stack up`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { freePort } from '../stack/ports.ts';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, PROJECT_ROOT, type Config } from '../infra/config.ts';
import type { PlanKey } from '../core/plans.ts';
import { scanDispatcherWorkflowId, scanReconcilerScheduleId } from '../core/temporal.ts';
import { deleteTargetSchedulesOf } from '../infra/temporal-client.ts';
import { createKnex, type Knex } from '../db/knex.ts';
import { createStorage } from '../db/store/index.ts';
import { migrateLatest } from '../db/migrate.ts';
import { createUser } from '../services/accounts.ts';
import { mintToken } from '../services/tokens.ts';
import { dropDatabase, ensureDatabase, withDatabase } from '../stack/postgres.ts';
import { serviceDefinitions, spawnService, stopService, waitReady, type ServiceProcess } from '../stack/services.ts';

export interface BenchDatabase {
  databaseUrl: string;
  knex: Knex;
  drop(): Promise<void>;
}

/** A migrated database named after the benchmark, dropped first if a run before left it behind. */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = `${new URL(base.databaseUrl).pathname.slice(1)}_bench_${name}`;
  await dropDatabase(base.databaseUrl, database).catch(() => undefined);
  await ensureDatabase(base.databaseUrl, database);
  const databaseUrl = withDatabase(base.databaseUrl, database);
  const knex = createKnex(databaseUrl);
  await migrateLatest(knex);
  return {
    databaseUrl,
    knex,
    drop: async () => {
      await knex.destroy();
      await dropDatabase(base.databaseUrl, database);
    },
  };
}

export async function benchUser(knex: Knex, plan: PlanKey): Promise<{ userId: number; token: string }> {
  const { users, tokens } = createStorage(knex);
  const user = await createUser(users, {
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: null,
    plan,
  });
  return { userId: user.id, token: (await mintToken(tokens, user.id, 'bench', null)).token };
}

export interface BenchServices {
  apiUrl: string;
  config: Config;
  /** The processes' ids, for their CPU time (processTreeCpu). */
  pids: { api: number; worker: number };
  close(): Promise<void>;
}

/**
 * The api and worker processes on free ports, on the benchmark's database, with task queues of their own;
 * loopback allowed to scans and webhooks (the fixture sites and the webhook receivers are on 127.0.0.1).
 */
export async function startBenchServices(
  databaseUrl: string,
  assetsDir: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchServices> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extraEnv,
    DATABASE_URL: databaseUrl,
    API_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: String(await freePort()),
    TEMPORAL_TASK_QUEUE_PREFIX: `bench_${randomBytes(3).toString('hex')}`,
    ASSETS_DIR: assetsDir,
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    CALLBACKS_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  env.BASE_URL = `http://127.0.0.1:${config.api.port}`;
  const processes: ServiceProcess[] = [];
  const stopAll = async () => {
    for (const service of processes.reverse()) await stopService(service);
  };
  try {
    for (const def of serviceDefinitions(config).filter((d) => d.name !== 'ingest')) {
      const service = spawnService(def.name, def.entry, def.readyUrl, env);
      processes.push(service);
      await waitReady(service);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  const pidOf = (name: string) => processes.find((p) => p.name === name)!.child.pid!;
  return {
    apiUrl: `http://127.0.0.1:${config.api.port}`,
    config,
    pids: { api: pidOf('api'), worker: pidOf('worker') },
    close: async () => {
      await stopAll();
      // The worker's reconciler schedule and the region dispatchers belong to this run's task queues.
      const connection = await Connection.connect({ address: config.temporal.address });
      const temporal = new Client({ connection, namespace: config.temporal.namespace });
      const prefix = config.temporal.taskQueuePrefix;
      await temporal.schedule
        .getHandle(scanReconcilerScheduleId(prefix))
        .delete()
        .catch(() => undefined);
      await deleteTargetSchedulesOf(temporal, prefix);
      for (const region of config.regions.available) {
        await temporal.workflow
          .getHandle(scanDispatcherWorkflowId(prefix, region))
          .terminate('benchmark finished')
          .catch(() => undefined);
      }
      await connection.close();
    },
  };
}

/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

/** utime + stime (clock ticks) and start time of a process from /proc/<pid>/stat, or null when it is gone. */
function procStat(pid: number): { ppid: number; ticks: number; start: string } | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // Fields after the command name (which may hold spaces): state is [0], ppid [1], utime [11], stime [12], starttime [19].
  const fields = text.replace(/^.*\) /s, '').split(' ');
  return { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), start: fields[19]! };
}

/** CPU seconds (user + system) a process has used so far. */
export function cpuSeconds(pid: number): number {
  return (procStat(pid)?.ticks ?? 0) / TICKS_PER_SECOND;
}

/**
 * CPU seconds used by a process and every process below it (Lighthouse runners, Chromium and its helpers),
 * sampled from /proc every `everyMs`. Each process seen counts with its own latest utime + stime, kept after
 * it exits, so the time of children that were reaped (or orphaned by a killed process group) is not lost;
 * what a process used after its last sample is (at most `everyMs` of it each).
 */
export function processTreeCpu(rootPid: number, everyMs = 100): { seconds(): number; stop(): void } {
  const seen = new Map<string, { pid: number; ticks: number }>();
  const sample = () => {
    const children = new Map<number, number[]>();
    const stats = new Map<number, { ppid: number; ticks: number; start: string }>();
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      const stat = procStat(Number(name));
      if (!stat) continue;
      stats.set(Number(name), stat);
      children.set(stat.ppid, [...(children.get(stat.ppid) ?? []), Number(name)]);
    }
    const tree = [rootPid];
    for (let i = 0; i < tree.length; i++) tree.push(...(children.get(tree[i]!) ?? []));
    // Processes seen before and still running (reparented when their parent's group was killed) count on.
    const known = [...seen.values()].map((p) => p.pid);
    for (const pid of new Set([...tree, ...known])) {
      const stat = stats.get(pid);
      if (!stat) continue;
      const key = `${pid}:${stat.start}`;
      if (tree.includes(pid) || seen.has(key)) seen.set(key, { pid, ticks: stat.ticks });
    }
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    seconds: () => {
      sample();
      return [...seen.values()].reduce((sum, p) => sum + p.ticks, 0) / TICKS_PER_SECOND;
    },
    stop: () => clearInterval(timer),
  };
}

/** The first line a child process prints (a port, a JSON result). */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolveLine(text.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
  });
}

export interface IngestLoadResult {
  requests: number;
  acknowledged: number;
  others: number;
  failures: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** bench/ingest-load.ts against `url`: one beacon (3 metrics, a new page view) per request on keep-alive connections. */
export function ingestLoad(
  url: string,
  siteId: string,
  connections: number,
  seconds: number,
): Promise<IngestLoadResult> {
  const child = spawn(
    process.execPath,
    [resolve(PROJECT_ROOT, 'bench/ingest-load.ts'), url, siteId, String(connections), String(seconds)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  return firstLine(child).then((line) => JSON.parse(line) as IngestLoadResult);
}

/**
 * The environment of an ingest process on a benchmark's databases. The load comes from one address to one
 * site: the per-address and per-site limits are lifted (test/ingest/abuse.test.ts and slow-clients.test.ts
 * measure those).
 */
export function benchIngestEnvironment(options: {
  databaseUrl: string;
  clickhouseDatabase: string;
  port: number;
  metricsPort: number;
  spoolDir: string;
  fsync: boolean;
}): NodeJS.ProcessEnv {
  return {
    ...process.env,
    LOG_LEVEL: 'warn',
    DATABASE_URL: options.databaseUrl,
    CLICKHOUSE_DATABASE: options.clickhouseDatabase,
    INGEST_PORT: String(options.port),
    INGEST_METRICS_PORT: String(options.metricsPort),
    INGEST_SPOOL_DIR: options.spoolDir,
    INGEST_SPOOL_FSYNC: String(options.fsync),
    INGEST_ADDRESS_RATE: '1000000',
    INGEST_ADDRESS_BURST: '1000000',
    INGEST_SITE_RATE: '1000000',
    INGEST_SITE_BURST: '1000000',
    INGEST_MAX_CONNECTIONS_PER_ADDRESS: '100000',
  };
}
