/**
 * Ingest benchmark: beacons per second through the real ingest process (validation, site cache, origin and
 * bot checks, monthly limit, spool fsync before each 204, batched ClickHouse inserts) against a bare node:http
 * server that only parses the same JSON, both driven by the same load process (bench/ingest-load.ts: one
 * beacon per request, keep-alive connections, a new page view each), in the same run. Prints both rates and
 * the ratio ingest / bare (target >= 0.8), the beacons lost (acknowledged minus distinct page views in
 * ClickHouse; must be 0) and the ingest process's peak RSS.
 *
 *   ./svc stack up && npm run bench:ingest -- --seconds 10 --connections 64 [--cpu-prof DIR]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig, PROJECT_ROOT } from '../core/config.ts';
import { newRumSitePublicId } from '../core/rum/site.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { createStorage } from '../db/store/index.ts';
import { waitUntil } from '../stack/proc.ts';
import { freePort } from '../stack/ports.ts';
import { serviceEnvironment, spawnService, stopService, waitReady } from '../stack/services.ts';
import { benchDatabase, benchUser } from './support.ts';

interface LoadResult {
  requests: number;
  acknowledged: number;
  others: number;
  failures: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '10' }, connections: { type: 'string', default: '64' }, 'cpu-prof': { type: 'string' } } });
const seconds = Number(values.seconds);
const connections = Number(values.connections);

const db = await benchDatabase('ingest');
const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
const database = `${base.clickhouse.database}_bench_ingest`;
const admin = createClickHouse(base, 'default');
await dropClickHouseDatabase(admin, database);
await ensureClickHouseSchema(admin, database);
const clickhouse = createClickHouse(base, database);

const { userId } = await benchUser(db.knex, 'agency');
const site = await createStorage(db.knex).rumSites.insert({ userId, publicId: newRumSitePublicId(), domain: 'example.com', sampleRate: 100, createdAt: new Date() });

const spoolDir = mkdtempSync(join(tmpdir(), 'bench-ingest-spool-'));
const ingestPort = await freePort();
const ingestEnv: NodeJS.ProcessEnv = {
  ...process.env,
  LOG_LEVEL: 'warn',
  DATABASE_URL: db.databaseUrl,
  CLICKHOUSE_DATABASE: database,
  INGEST_PORT: String(ingestPort),
  INGEST_METRICS_PORT: String(await freePort()),
  INGEST_SPOOL_DIR: spoolDir,
};
// --cpu-prof DIR: the ingest process writes a V8 CPU profile there when it exits (open it in Chrome's DevTools).
const ingest = values['cpu-prof']
  ? { name: 'ingest', readyUrl: `http://127.0.0.1:${ingestPort}/readyz`, child: spawn(process.execPath, ['--cpu-prof', `--cpu-prof-dir=${resolve(values['cpu-prof'])}`, resolve(PROJECT_ROOT, 'ingest/main.ts')], { env: serviceEnvironment('ingest', ingestEnv), stdio: ['ignore', 'inherit', 'inherit'] }) }
  : spawnService('ingest', 'ingest/main.ts', `http://127.0.0.1:${ingestPort}/readyz`, ingestEnv);
const bare = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bench/ingest-bare.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolveLine, reject) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) resolveLine(text.split('\n')[0]!);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before answering`)));
  });
}

function load(url: string, runSeconds: number): Promise<LoadResult> {
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bench/ingest-load.ts'), url, site.publicId, String(connections), String(runSeconds)], { stdio: ['ignore', 'pipe', 'inherit'] });
  return firstLine(child).then((line) => JSON.parse(line) as LoadResult);
}

async function distinctPageViews(): Promise<number> {
  const result = await clickhouse.query({ query: `SELECT uniqExact(page_view_id) AS n FROM ${database}.rum_metrics`, format: 'JSONEachRow' });
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

try {
  await waitReady(ingest);
  const barePort = Number(await firstLine(bare));
  const bareUrl = `http://127.0.0.1:${barePort}/b`;
  const ingestUrl = `http://127.0.0.1:${ingestPort}/b`;
  // Warm-up of both (JIT, the site cache, the monthly count's first read).
  const warm = await load(ingestUrl, 2);
  await load(bareUrl, 2);
  const bareResult = await load(bareUrl, seconds);
  const ingestResult = await load(ingestUrl, seconds);
  const acknowledged = warm.acknowledged + ingestResult.acknowledged;
  await waitUntil('acknowledged beacons in ClickHouse', async () => (await distinctPageViews()) >= acknowledged, 120_000, 500).catch(() => undefined);
  const stored = await distinctPageViews();
  console.log(`connections: ${connections}, ${seconds} s each, one beacon (3 metrics) per request`);
  console.log(`bare JSON server: ${format(bareResult)}`);
  console.log(`ingest:           ${format(ingestResult)}`);
  console.log(`ratio ingest / bare = ${(ingestResult.perSecond / bareResult.perSecond).toFixed(2)} (target >= 0.8)`);
  console.log(`acknowledged ${acknowledged}, in ClickHouse ${stored} distinct page views: lost ${acknowledged - Math.min(stored, acknowledged)}`);
  console.log(`ingest peak RSS: ${peakRssMiB(ingest.child.pid!).toFixed(0)} MiB`);
} finally {
  bare.kill('SIGTERM');
  await stopService(ingest);
  await clickhouse.close();
  await dropClickHouseDatabase(admin, database);
  await admin.close();
  await db.drop();
  rmSync(spoolDir, { recursive: true, force: true });
}
