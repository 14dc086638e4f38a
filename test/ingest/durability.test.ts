import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import { loadConfig } from '../../infra/config.ts';
import type { RumSite } from '../../core/rum/site.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { ensureClickHouseSchema } from '../../db/clickhouse/schema.ts';
import { spoolFiles } from '../../ingest/spool.ts';
import { startClickHouse, stopClickHouse, type ClickHouseInstance } from '../../stack/clickhouse.ts';
import { waitUntil } from '../../stack/proc.ts';
import { freePort, isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { startReady } from '../harness/processes.ts';
import { baseTestEnv, HARNESS_DIR } from '../harness/shared.ts';
import {
  beacon,
  createSite,
  metric,
  metricCounts,
  queryRows,
  send,
  startIngest,
  type IngestProcess,
} from './support.ts';

/**
 * Nothing acknowledged is lost: a private ClickHouse that the test really stops and starts, and an ingest
 * process killed with SIGKILL in the middle of a load. Every beacon answered 204 must be in rum_metrics once
 * after dedupe (distinct page view and metric id), however often it was inserted.
 */
const base = loadConfig(baseTestEnv());
const DATABASE = 'webperf';
let db: IsolatedPostgres;
let clickhouse: ClickHouseInstance;
let ch: ClickHouseClient;
let site: RumSite;
const spoolRoot = mkdtempSync(join(tmpdir(), 'ingest-durability-'));

beforeAll(async () => {
  db = await isolatedPostgres();
  site = await createSite(db.knex, { domain: 'example.com', plan: 'agency' });
  clickhouse = {
    dir: resolve(HARNESS_DIR, uniqueName('clickhouse')),
    httpPort: await freePort(),
    tcpPort: await freePort(),
  };
  await startClickHouse(clickhouse, () => undefined);
  const admin = createClickHouse({ clickhouse: { ...base.clickhouse, url: clickhouseUrl() } }, 'default');
  await ensureClickHouseSchema(admin, DATABASE);
  await admin.close();
  ch = createClickHouse({ clickhouse: { ...base.clickhouse, url: clickhouseUrl() } }, DATABASE);
}, 120_000);

afterAll(async () => {
  await ch?.close();
  if (clickhouse) {
    await stopClickHouse(clickhouse);
    rmSync(clickhouse.dir, { recursive: true, force: true });
  }
  await db?.drop();
  rmSync(spoolRoot, { recursive: true, force: true });
});

function clickhouseUrl(): string {
  return `http://127.0.0.1:${clickhouse.httpPort}`;
}

/** Beacons from `connections` loops until stopped; each beacon a new page view. Records which were answered 204. */
function load(url: () => string, connections = 8) {
  const acknowledged = new Set<string>();
  let failed = 0;
  let running = true;
  const loops = Array.from({ length: connections }, async () => {
    while (running) {
      const b = beacon(site.publicId);
      try {
        const answer = await send(url(), b);
        if (answer.status === 204) acknowledged.add(b.pv);
        else failed += 1;
      } catch {
        failed += 1;
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  });
  return {
    acknowledged,
    failed: () => failed,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Distinct (page view, metric id) pairs stored for the given page views. */
async function storedPairsOf(pvs: Set<string>): Promise<number> {
  const rows = await queryRows<{ page_view_id: string; n: string }>(
    ch,
    `SELECT page_view_id, uniqExact(metric_id) AS n FROM ${DATABASE}.rum_metrics GROUP BY page_view_id`,
  );
  return rows.filter((r) => pvs.has(r.page_view_id)).reduce((sum, r) => sum + Number(r.n), 0);
}

async function truncate(): Promise<void> {
  await ch.command({ query: `TRUNCATE TABLE ${DATABASE}.rum_metrics` });
}

const env = (spoolDir: string, extra: Record<string, string> = {}) => ({
  DATABASE_URL: db.databaseUrl,
  CLICKHOUSE_URL: clickhouseUrl(),
  CLICKHOUSE_DATABASE: DATABASE,
  INGEST_SPOOL_DIR: spoolDir,
  // The load comes from one address to one site: the per-sender and per-site limits (abuse.test.ts) stay out of the way.
  INGEST_ADDRESS_RATE: '1000000',
  INGEST_ADDRESS_BURST: '1000000',
  INGEST_SITE_RATE: '1000000',
  INGEST_SITE_BURST: '1000000',
  ...extra,
});

it('keeps accepting while ClickHouse is stopped, spools, and replays everything once it is back', async () => {
  await truncate();
  const ingest = await startIngest(env(join(spoolRoot, 'outage'), { INGEST_BATCH_MS: '100' }));
  try {
    const traffic = load(() => ingest.url);
    await waitUntil('some beacons before the outage', async () => traffic.acknowledged.size >= 300, 30_000, 20);
    await stopClickHouse(clickhouse);
    const atStop = traffic.acknowledged.size;
    await waitUntil('beacons during the outage', async () => traffic.acknowledged.size >= atStop + 1000, 60_000, 20);
    expect(await metric(ingest.metricsUrl, 'rum_ingest_spooled_rows')).toBeGreaterThan(0);
    expect(
      await metric(ingest.metricsUrl, 'rum_ingest_clickhouse_insert_errors_total', 'table="rum_metrics"'),
    ).toBeGreaterThan(0);
    await startClickHouse(clickhouse, () => undefined);
    await waitUntil(
      'more beacons after the outage',
      async () => traffic.acknowledged.size >= atStop + 1300,
      60_000,
      20,
    );
    await traffic.stop();
    expect(traffic.failed()).toBe(0);
    const acknowledged = traffic.acknowledged;
    await waitUntil(
      'every acknowledged beacon in ClickHouse',
      async () => (await storedPairsOf(acknowledged)) === acknowledged.size * 3,
      60_000,
      250,
    );
    const counts = await metricCounts(ch, DATABASE);
    expect(counts.distinct).toBe(acknowledged.size * 3);
    await waitUntil(
      'spool emptied',
      async () => (await metric(ingest.metricsUrl, 'rum_ingest_spooled_rows')) === 0,
      30_000,
      200,
    );
  } finally {
    await ingest.service.stop();
  }
}, 240_000);

it('loses no acknowledged beacon when killed with SIGKILL during a load, and a replay counts nothing twice', async () => {
  await truncate();
  const spoolDir = join(spoolRoot, 'kill');
  // Long batches: much is still only in the spool when the process dies.
  let ingest: IngestProcess = await startIngest(
    env(spoolDir, { INGEST_BATCH_MS: '3000', INGEST_BATCH_ROWS: '100000' }),
  );
  let url = ingest.url;
  const traffic = load(() => url);
  try {
    await waitUntil('a load', async () => traffic.acknowledged.size >= 1500, 60_000, 20);
    ingest.service.child.kill('SIGKILL');
    await new Promise((r) => ingest.service.child.once('exit', r));
    const atKill = traffic.acknowledged.size;
    expect(spoolFiles(spoolDir).reduce((sum, f) => sum + f.bytes, 0)).toBeGreaterThan(0);
    const restarted = await startReady('ingest', ingest.env);
    ingest = { ...ingest, service: restarted };
    url = ingest.url;
    await waitUntil('load after the restart', async () => traffic.acknowledged.size >= atKill + 300, 60_000, 20);
    await traffic.stop();
    const acknowledged = traffic.acknowledged;
    await waitUntil(
      'every acknowledged beacon in ClickHouse',
      async () => (await storedPairsOf(acknowledged)) === acknowledged.size * 3,
      60_000,
      250,
    );
    // Beacons synced to the spool but cut before their 204 may be stored too; nothing stored twice after dedupe.
    const counts = await metricCounts(ch, DATABASE);
    expect(counts.distinct).toBeGreaterThanOrEqual(acknowledged.size * 3);
    const [dupes] = await queryRows<{ n: string }>(
      ch,
      `SELECT count() AS n FROM (SELECT page_view_id, metric_id, uniqExact(value, seq, path) AS versions FROM ${DATABASE}.rum_metrics GROUP BY page_view_id, metric_id HAVING versions > 1)`,
    );
    expect(Number(dupes!.n)).toBe(0);
  } finally {
    await traffic.stop();
    await ingest.service.stop();
  }
}, 240_000);

it('replays a spool left from a crash exactly as it was, without a second copy after a clean restart', async () => {
  await truncate();
  const spoolDir = join(spoolRoot, 'replay');
  const ingest = await startIngest(env(spoolDir, { INGEST_BATCH_MS: '60000', INGEST_BATCH_ROWS: '100000' }));
  for (let i = 0; i < 40; i++) expect((await send(ingest.url, beacon(site.publicId))).status).toBe(204);
  ingest.service.child.kill('SIGKILL');
  await new Promise((r) => ingest.service.child.once('exit', r));
  expect((await metricCounts(ch, DATABASE)).rows).toBe(0);
  const again = await startReady('ingest', ingest.env);
  await waitUntil('spool replayed', async () => (await metricCounts(ch, DATABASE)).rows >= 120, 30_000, 200);
  expect(await again.stop()).toBe(0);
  // A second start finds nothing left to insert.
  const third = await startReady('ingest', ingest.env);
  await new Promise((r) => setTimeout(r, 500));
  expect(await third.stop()).toBe(0);
  expect(await metricCounts(ch, DATABASE)).toEqual({ rows: 120, distinct: 120 });
  expect(spoolFiles(spoolDir)).toEqual([]);
}, 120_000);

it('flushes everything to ClickHouse on SIGTERM', async () => {
  await truncate();
  const ingest = await startIngest(
    env(join(spoolRoot, 'term'), { INGEST_BATCH_MS: '60000', INGEST_BATCH_ROWS: '100000' }),
  );
  for (let i = 0; i < 50; i++) expect((await send(ingest.url, beacon(site.publicId))).status).toBe(204);
  expect((await metricCounts(ch, DATABASE)).rows).toBe(0);
  expect(await ingest.service.stop()).toBe(0);
  expect(await metricCounts(ch, DATABASE)).toEqual({ rows: 150, distinct: 150 });
}, 120_000);
