import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RumSite } from '../../core/rum/site.ts';
import { rumQueries } from '../../db/clickhouse/rum-queries.ts';
import { dropOldRumPartitions } from '../../db/clickhouse/partitions.ts';
import { eraseRumRows } from '../../db/clickhouse/rum-erase.ts';
import { ensureClickHouseSchema, LATEST_CLICKHOUSE_VERSION } from '../../db/clickhouse/schema.ts';
import { ident, sql } from '../../db/clickhouse/sql.ts';
import { storageDatabase } from '../../db/clickhouse/table-engine.ts';
import type { ClickHouseInstance } from '../../stack/clickhouse.ts';
import { waitUntil } from '../../stack/proc.ts';
import { isolatedPostgres, uniqueName, type IsolatedPostgres } from '../harness/isolated.ts';
import { HARNESS_DIR } from '../harness/shared.ts';
import { beacon, createSite, queryRows, send, startIngest, type IngestProcess } from '../ingest/support.ts';
import { CLUSTER, clientFor, startLocalCluster, urlOf, type LocalCluster } from './cluster.ts';

/**
 * Sharded layout on real servers: two ClickHouse nodes, each its own shard, the schema created with
 * Distributed tables over replicated shard tables, the real ingest writing through node 1's Distributed table.
 * Rows spread over both shards; every query answers the same through either node; a page view sent twice
 * counts once.
 */
const DATABASE = uniqueName('shd');
const spoolDir = resolve(HARNESS_DIR, uniqueName('spool'));
const SHARDED = { kind: 'sharded', cluster: CLUSTER } as const;
/** Every schema version, applied in order on a new cluster. */
const ALL_VERSIONS = Array.from({ length: LATEST_CLICKHOUSE_VERSION }, (_, i) => i + 1);
let cluster: LocalCluster;
let db: IsolatedPostgres;
let site: RumSite;
let ingest: IngestProcess | null = null;

beforeAll(async () => {
  cluster = await startLocalCluster([1, 2]);
  const admins = cluster.nodes.map((node) => clientFor([node], 'default', SHARDED));
  expect(await ensureClickHouseSchema(admins, DATABASE, SHARDED)).toEqual(ALL_VERSIONS);
  expect(await ensureClickHouseSchema(admins, DATABASE, SHARDED)).toEqual([]);
  await Promise.all(admins.map((admin) => admin.close()));
  db = await isolatedPostgres();
  site = await createSite(db.knex, { domain: 'example.com', plan: 'agency' });
}, 120_000);

afterAll(async () => {
  await ingest?.service.stop();
  rmSync(spoolDir, { recursive: true, force: true });
  await cluster?.stop();
  await db?.drop();
});

async function rowsOn(node: ClickHouseInstance, database: string): Promise<{ rows: number; pageViews: number }> {
  const client = clientFor([node], database, SHARDED);
  try {
    const [row] = await queryRows<{ rows: string; pvs: string }>(
      client,
      sql`SELECT count() AS rows, uniqExact(page_view_id) AS pvs FROM ${ident(database)}.rum_metrics`,
    );
    return { rows: Number(row!.rows), pageViews: Number(row!.pvs) };
  } finally {
    await client.close();
  }
}

async function summaryThrough(node: ClickHouseInstance) {
  const client = clientFor([node], DATABASE, SHARDED);
  try {
    const window = { from: new Date(Date.now() - 3_600_000), to: new Date(Date.now() + 3_600_000) };
    return await rumQueries({ client, database: DATABASE }).summary(site.id, window, 'all');
  } finally {
    await client.close();
  }
}

it('spreads the ingest’s rows over both shards and answers the same through either node, each page view once', async () => {
  ingest = await startIngest({
    DATABASE_URL: db.databaseUrl,
    CLICKHOUSE_URL: urlOf(cluster.nodes[0]!),
    CLICKHOUSE_LAYOUT: 'sharded',
    CLICKHOUSE_CLUSTER: CLUSTER,
    CLICKHOUSE_DATABASE: DATABASE,
    INGEST_SPOOL_DIR: spoolDir,
    INGEST_BATCH_MS: '100',
  });
  const sent = Array.from({ length: 40 }, (_, i) => {
    const b = beacon(site.publicId);
    b.metrics[0]!.value = 1000 + i * 50;
    return b;
  });
  for (const b of sent) expect((await send(ingest.url, b)).status).toBe(204);
  // A later send of the same page view (the same metric ids, a higher seq): still one page view.
  expect((await send(ingest.url, { ...sent[0]!, seq: 2 })).status).toBe(204);

  await waitUntil(
    'every row through the Distributed table',
    async () => {
      return (await rowsOn(cluster.nodes[1]!, DATABASE)).rows === (sent.length + 1) * 3;
    },
    30_000,
  );
  const shards = await Promise.all(cluster.nodes.map((node) => rowsOn(node, storageDatabase(SHARDED, DATABASE))));
  expect(shards.every((shard) => shard.rows > 0)).toBe(true);
  expect(shards[0]!.pageViews + shards[1]!.pageViews).toBe(sent.length);

  const [one, two] = [await summaryThrough(cluster.nodes[0]!), await summaryThrough(cluster.nodes[1]!)];
  expect(one).toEqual(two);
  expect(one.LCP.samples).toBe(sent.length);
});

it('erases a site’s rows and drops old months on every shard, through either node', async () => {
  const other = await createSite(db.knex, { domain: 'example.com', plan: 'agency' });
  for (let i = 0; i < 20; i++) expect((await send(ingest!.url, beacon(other.publicId))).status).toBe(204);
  const shardTables = storageDatabase(SHARDED, DATABASE);
  await waitUntil(
    'the other site’s rows',
    async () => (await rowsOn(cluster.nodes[0]!, DATABASE)).pageViews === 60,
    30_000,
  );

  const client = clientFor([cluster.nodes[1]!], DATABASE, SHARDED);
  try {
    expect(await eraseRumRows(client, DATABASE, [other.id], { layout: SHARDED })).toEqual({
      rum_metrics: 0,
      rum_rejections: 0,
      rum_daily: 0,
      rum_today: 0,
    });
    const left = await Promise.all(cluster.nodes.map((node) => rowsOn(node, shardTables)));
    expect(left[0]!.pageViews + left[1]!.pageViews).toBe(40);

    // A month later, with one month kept, this month goes everywhere.
    const nextMonth = new Date(Date.now() + 32 * 24 * 3_600_000);
    const dropped = await dropOldRumPartitions(client, DATABASE, 1, nextMonth, SHARDED);
    expect(dropped).toContain(`rum_metrics:${new Date().toISOString().slice(0, 7).replace('-', '')}`);
    await waitUntil(
      'no rows left on either shard',
      async () =>
        (await Promise.all(cluster.nodes.map((node) => rowsOn(node, shardTables)))).every((n) => n.rows === 0),
      30_000,
    );
  } finally {
    await client.close();
  }
});
