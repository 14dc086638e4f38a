/**
 * Ingest benchmark: beacons per second through the real ingest process (validation, site cache, origin and
 * bot checks, monthly limit, spool fsync before each 204, batched ClickHouse inserts) against a bare node:http
 * server that only parses the same JSON, both driven by the same load process (bench/ingest-load.ts: one
 * beacon per request, keep-alive connections, a new page view each), in the same run. Prints both rates and
 * the ratio ingest / bare (target >= 0.8), for the default durability (fsync before each 204) and with
 * INGEST_SPOOL_FSYNC=false (what the fsync costs on this disk), the beacons lost (acknowledged minus distinct page views in
 * ClickHouse; must be 0) and the ingest process's peak RSS.
 *
 *   ./svc stack up && npm run bench:ingest -- --seconds 10 --connections 64 --rounds 3 [--cpu-prof DIR]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, PROJECT_ROOT } from '../infra/config.ts';
import { newRumSitePublicId } from '../core/rum/site.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { createStorage } from '../db/store/index.ts';
import { waitUntil } from '../stack/proc.ts';
import { freePort } from '../stack/ports.ts';
import { serviceEnvironment, spawnService, stopService, waitReady, type ServiceProcess } from '../stack/services.ts';
import {
  benchDatabase,
  benchIngestEnvironment,
  benchUser,
  cpuSeconds,
  firstLine,
  ingestLoad,
  type IngestLoadResult as LoadResult,
} from './support.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    rounds: { type: 'string', default: '3' },
    'cpu-prof': { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const connections = Number(values.connections);

const db = await benchDatabase('ingest');
const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const database = `${base.clickhouse.database}_bench_ingest`;
const admin = createClickHouse(base, 'default');
await dropClickHouseDatabase(admin, database);
await ensureClickHouseSchema(admin, database);
const clickhouse = createClickHouse(base, database);

const { userId } = await benchUser(db.knex, 'agency');
const site = await createStorage(db.knex).rumSites.insert({
  userId,
  publicId: newRumSitePublicId(),
  domain: 'example.com',
  sampleRate: 100,
  createdAt: new Date(),
});

const spoolRoot = mkdtempSync(join(tmpdir(), 'bench-ingest-spool-'));

interface IngestRun {
  service: ServiceProcess;
  url: string;
  metricsUrl: string;
}

/** An ingest process; `fsync` false acknowledges after the write to the page cache (INGEST_SPOOL_FSYNC=false). */
async function startIngest(fsync: boolean): Promise<IngestRun> {
  const port = await freePort();
  const metricsPort = await freePort();
  const env = benchIngestEnvironment({
    databaseUrl: db.databaseUrl,
    clickhouseDatabase: database,
    port,
    metricsPort,
    spoolDir: join(spoolRoot, fsync ? 'fsync' : 'nosync'),
    fsync,
  });
  const readyUrl = `http://127.0.0.1:${port}/readyz`;
  // --cpu-prof DIR: the ingest process writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
  const service = values['cpu-prof']
    ? {
        name: 'ingest',
        readyUrl,
        child: spawn(
          process.execPath,
          ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'])}`, resolve(PROJECT_ROOT, 'ingest/main.ts')],
          { env: serviceEnvironment('ingest', env), stdio: ['ignore', 'inherit', 'inherit'] },
        ),
      }
    : spawnService('ingest', 'ingest/main.ts', readyUrl, env);
  await waitReady(service);
  return { service, url: `http://127.0.0.1:${port}/b`, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

const bare = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bench/ingest-bare.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});

function load(url: string, runSeconds: number): Promise<LoadResult> {
  return ingestLoad(url, site.publicId, connections, runSeconds);
}

async function distinctPageViews(): Promise<number> {
  const result = await clickhouse.query({
    query: `SELECT uniqExact(page_view_id) AS n FROM ${database}.rum_metrics`,
    format: 'JSONEachRow',
  });
  const [row] = await result.json<{ n: string }>();
  return Number(row?.n ?? 0);
}

/** The kernel's high-water mark of the process's resident memory (VmHWM), in MiB. */
function peakRssMiB(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : NaN;
}

const format = (r: LoadResult) =>
  `${Math.round(r.perSecond)} beacons/s (p50 ${r.p50Ms.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms, 204: ${r.acknowledged}, other status: ${r.others}, failed: ${r.failures})`;

const ingests: IngestRun[] = [];
try {
  ingests.push(await startIngest(true), await startIngest(false));
  const [durable, unsynced] = ingests as [IngestRun, IngestRun];
  const barePort = Number(await firstLine(bare));
  const bareUrl = `http://127.0.0.1:${barePort}/b`;
  // Warm-up of each (JIT, the site cache, the monthly count's first read).
  const warm = [await load(durable.url, 2), await load(unsynced.url, 2)];
  await load(bareUrl, 2);
  // The three alternate, round after round, so a neighbour's burst on this shared machine hits all of them;
  // each reports its median round.
  const results: Record<'bare' | 'durable' | 'unsynced', LoadResult[]> = { bare: [], durable: [], unsynced: [] };
  const cpu = { bare: 0, durable: 0, unsynced: 0 };
  const measured = async (key: keyof typeof cpu, pid: number, url: string) => {
    const before = cpuSeconds(pid);
    results[key].push(await load(url, seconds));
    cpu[key] += cpuSeconds(pid) - before;
  };
  for (let round = 0; round < rounds; round++) {
    await measured('bare', bare.pid!, bareUrl);
    await measured('durable', durable.service.child.pid!, durable.url);
    await measured('unsynced', unsynced.service.child.pid!, unsynced.url);
  }
  const cpuPerThousand = (key: keyof typeof cpu) =>
    ((cpu[key] / results[key].reduce((sum, r) => sum + r.requests, 0)) * 1e6).toFixed(0);
  const median = (list: LoadResult[]) =>
    [...list].sort((a, b) => a.perSecond - b.perSecond)[Math.floor(list.length / 2)]!;
  const [bareResult, durableResult, unsyncedResult] = [
    median(results.bare),
    median(results.durable),
    median(results.unsynced),
  ];
  const acknowledged = [...warm, ...results.durable, ...results.unsynced].reduce((sum, r) => sum + r.acknowledged, 0);
  await waitUntil(
    'acknowledged beacons in ClickHouse',
    async () => (await distinctPageViews()) >= acknowledged,
    120_000,
    500,
  ).catch(() => undefined);
  const stored = await distinctPageViews();
  console.log(
    `connections: ${connections}, ${rounds} rounds of ${seconds} s each (medians), one beacon (3 metrics) per request`,
  );
  console.log(`bare JSON server:         ${format(bareResult)}`);
  console.log(`ingest (fsync, default):  ${format(durableResult)}`);
  console.log(`ingest (no fsync):        ${format(unsyncedResult)}`);
  console.log(
    `ratio ingest / bare = ${(durableResult.perSecond / bareResult.perSecond).toFixed(2)} with fsync, ${(unsyncedResult.perSecond / bareResult.perSecond).toFixed(2)} without (target >= 0.8)`,
  );
  console.log(
    `server CPU per 1000 beacons (the ingest's inserts included, ClickHouse's own work not): bare ${cpuPerThousand('bare')} ms, ingest ${cpuPerThousand('durable')} ms (fsync), ${cpuPerThousand('unsynced')} ms (no fsync)`,
  );
  console.log(
    `acknowledged ${acknowledged}, in ClickHouse ${stored} distinct page views: lost ${acknowledged - Math.min(stored, acknowledged)}`,
  );
  const metricsText = await (await fetch(durable.metricsUrl)).text();
  const sample = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(metricsText)?.[1] ?? NaN);
  const syncs = sample('rum_ingest_spool_sync_duration_seconds_count');
  console.log(
    `spool (fsync): ${syncs} group syncs, ${((sample('rum_ingest_spool_sync_duration_seconds_sum') / syncs) * 1000).toFixed(2)} ms each on average, ${(sample('rum_ingest_beacons_accepted_total') / syncs).toFixed(1)} beacons per sync`,
  );
  console.log(
    `ingest peak RSS: ${peakRssMiB(durable.service.child.pid!).toFixed(0)} MiB (fsync), ${peakRssMiB(unsynced.service.child.pid!).toFixed(0)} MiB (no fsync)`,
  );
} finally {
  bare.kill('SIGTERM');
  for (const ingest of ingests) await stopService(ingest.service);
  await clickhouse.close();
  await dropClickHouseDatabase(admin, database);
  await admin.close();
  await db.drop();
  rmSync(spoolRoot, { recursive: true, force: true });
}
