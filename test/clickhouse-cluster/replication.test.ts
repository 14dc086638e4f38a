import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import { ensureClickHouseSchema, LATEST_CLICKHOUSE_VERSION } from '../../db/clickhouse/schema.ts';
import { ident, sql } from '../../db/clickhouse/sql.ts';
import { startClickHouse, stopClickHouse, type ClickHouseInstance } from '../../stack/clickhouse.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { uniqueName } from '../harness/isolated.ts';
import { HARNESS_DIR } from '../harness/shared.ts';
import { beacon, queryRows, send, startIngest, type IngestProcess } from '../ingest/support.ts';
import { clientFor, startLocalCluster, urlOf, type LocalCluster } from './cluster.ts';

/**
 * Replicated layout on real servers: one ZooKeeper and two ClickHouse replicas of one shard, the schema created
 * replicated on both, the real ingest process and the API configured with replica 1 first and replica 2 to
 * fail over to.
 * Replica 1 (the one the ingest writes to) is stopped under load: beacons are still acknowledged and stored,
 * the API's summary still answers; it is started again, catches up, and both replicas then hold every acknowledged beacon
 * exactly once and give the same summaries.
 */
const DATABASE = uniqueName('rep');
const spoolDir = resolve(HARNESS_DIR, uniqueName('spool'));
const REPLICATED = { kind: 'replicated' } as const;
/** Every schema version, applied in order on a new cluster. */
const ALL_VERSIONS = Array.from({ length: LATEST_CLICKHOUSE_VERSION }, (_, i) => i + 1);
let cluster: LocalCluster;
let replicas: ClickHouseInstance[];
let api: TestApi;
let token: string;
let site: { id: number; publicId: string };
let ingest: IngestProcess | null = null;

const clientOf = (nodes: ClickHouseInstance[]) => clientFor(nodes, DATABASE, REPLICATED);

beforeAll(async () => {
  cluster = await startLocalCluster([1, 1]);
  replicas = cluster.nodes;
  const admins = replicas.map((replica) => clientFor([replica], 'default', REPLICATED));
  expect(await ensureClickHouseSchema(admins, DATABASE, REPLICATED)).toEqual(ALL_VERSIONS);
  await Promise.all(admins.map((admin) => admin.close()));
  // The API as its process runs it, configured with both replicas, replica 1 first.
  api = await startTestApi({ env: clickhouseEnv() });
  ({ token } = await createTestUser(api, 'agency'));
  const created = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: 'https://example.com/' } });
  expect(created.status).toBe(201);
  const id = (created.body.data as { id: number }).id;
  const detail = await call(api, `/rum/sites/${id}`, { token });
  site = { id, publicId: (detail.body.data as { public_id: string }).public_id };
}, 120_000);

afterAll(async () => {
  await ingest?.service.stop();
  rmSync(spoolDir, { recursive: true, force: true });
  await api?.close();
  await cluster?.stop();
});

function clickhouseEnv(): Record<string, string> {
  return {
    CLICKHOUSE_URL: urlOf(replicas[0]!),
    CLICKHOUSE_REPLICA_URLS: urlOf(replicas[1]!),
    CLICKHOUSE_LAYOUT: 'replicated',
    CLICKHOUSE_DATABASE: DATABASE,
  };
}

/** The summary the API answers over HTTP (GET /rum/sites/:id/summary). */
async function apiSummary(): Promise<Record<string, { p75: number | null; samples: number }>> {
  api.clock.set(new Date());
  const res = await call(api, `/rum/sites/${site.id}/summary`, { token });
  expect(res.status).toBe(200);
  return (res.body.data as { metrics: Record<string, { p75: number | null; samples: number }> }).metrics;
}

/** Beacons from a few loops until stopped, each a new page view with its own LCP; records the ones answered 204. */
function load(url: string, connections = 4) {
  const acknowledged = new Set<string>();
  let failed = 0;
  let running = true;
  let n = 0;
  const loops = Array.from({ length: connections }, async () => {
    while (running) {
      const b = beacon(site.publicId);
      b.metrics[0]!.value = 1000 + ((n++ * 37) % 4000);
      try {
        const answer = await send(url, b);
        if (answer.status === 204) acknowledged.add(b.pv);
        else failed += 1;
      } catch {
        failed += 1;
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

/** Per page view, the distinct metric ids one replica holds, and its physical row count. */
async function storedOn(replica: ClickHouseInstance) {
  const client = clientOf([replica]);
  try {
    const rows = await queryRows<{ page_view_id: string; metrics: string }>(
      client,
      sql`SELECT page_view_id, uniqExact(metric_id) AS metrics FROM ${ident(DATABASE)}.rum_metrics GROUP BY page_view_id ORDER BY page_view_id`,
    );
    return new Map(rows.map((row) => [row.page_view_id, Number(row.metrics)]));
  } finally {
    await client.close();
  }
}

const allThere = (stored: Map<string, number>, acknowledged: Set<string>) =>
  [...acknowledged].every((pv) => stored.get(pv) === 3);

async function summaryThrough(nodes: ClickHouseInstance[]) {
  const client = clientOf(nodes);
  try {
    const window = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) };
    return await rumQueries({ client, database: DATABASE }).summary(site.id, window, 'all');
  } finally {
    await client.close();
  }
}

it('goes on writing and answering while the replica the ingest writes to is stopped; it catches up, nothing lost or doubled', async () => {
  ingest = await startIngest({
    DATABASE_URL: api.db.databaseUrl,
    ...clickhouseEnv(),
    INGEST_SPOOL_DIR: spoolDir,
    INGEST_BATCH_MS: '100',
    INGEST_ADDRESS_RATE: '1000000',
    INGEST_ADDRESS_BURST: '1000000',
    INGEST_SITE_RATE: '1000000',
    INGEST_SITE_BURST: '1000000',
  });
  const traffic = load(ingest.url);
  try {
    // Replica 1 is the one the ingest writes to: its rows arrive there first.
    await waitUntil('beacons stored on replica 1', async () => (await storedOn(replicas[0]!)).size >= 200, 30_000);
    await stopClickHouse(replicas[0]!);
    const atStop = traffic.acknowledged.size;
    await waitUntil(
      'beacons while replica 1 is stopped',
      async () => traffic.acknowledged.size >= atStop + 500,
      60_000,
      20,
    );
    // Acknowledged after replica 1 had stopped, so inserted on replica 2. (Rows replica 1 took just before it
    // stopped and had not yet passed on reach replica 2 when it is back: replication is asynchronous.)
    const during = new Set([...traffic.acknowledged].slice(atStop));
    await waitUntil(
      'them stored on replica 2',
      async () => allThere(await storedOn(replicas[1]!), during),
      30_000,
      250,
    );
    // The API (replica 1 first) answers from replica 2.
    expect((await apiSummary()).LCP!.samples).toBeGreaterThanOrEqual(during.size);

    await startClickHouse(replicas[0]!, () => undefined);
    const atRestart = traffic.acknowledged.size;
    await waitUntil(
      'more beacons after the restart',
      async () => traffic.acknowledged.size >= atRestart + 200,
      60_000,
      20,
    );
    await traffic.stop();
    expect(traffic.failed()).toBe(0);
    const acknowledged = traffic.acknowledged;

    // The ingest now writes to replica 2; replica 1 gets what it missed only through replication.
    await waitUntil(
      'every acknowledged beacon on replica 2',
      async () => allThere(await storedOn(replicas[1]!), acknowledged),
      60_000,
      250,
    );
    const admin = clientOf([replicas[0]!]);
    await admin.command({ query: sql`SYSTEM SYNC REPLICA ${ident(DATABASE)}.rum_metrics` });
    await admin.close();

    // Both replicas hold the same page views, each with its three metrics, and every acknowledged one is there.
    const [one, two] = [await storedOn(replicas[0]!), await storedOn(replicas[1]!)];
    expect([...one.entries()]).toEqual([...two.entries()]);
    expect([...one.values()].every((metrics) => metrics === 3)).toBe(true);
    expect(allThere(one, acknowledged)).toBe(true);
    // Nothing counted twice: each acknowledged beacon is one LCP sample, through either replica alike.
    const [summaryOne, summaryTwo] = [await summaryThrough([replicas[0]!]), await summaryThrough([replicas[1]!])];
    expect(summaryOne).toEqual(summaryTwo);
    expect(summaryOne.LCP.samples).toBe(one.size);
    const throughApi = await apiSummary();
    expect(throughApi.LCP).toMatchObject({ samples: summaryOne.LCP.samples, p75: summaryOne.LCP.p75 });
    expect(one.size).toBe(acknowledged.size);
  } finally {
    await traffic.stop();
  }
}, 180_000);
