import type { ClickHouseClient } from '@clickhouse/client';
import { RUM_PARTITIONED_TABLES } from './partitions.ts';
import { ROLLUP_TABLE, TODAY_TABLE } from './rum-rollups.ts';
import type { ClickHouseLayout } from '../../infra/config.ts';
import { ident, ints, sql } from './sql.ts';
import { rowsTable, SINGLE_LAYOUT } from './table-engine.ts';

const SITE_ID_MAX = 4_294_967_295;
/** Every table with rows per site: the raw ones, the daily rollups and today's snapshots. */
const SITE_TABLES = [...RUM_PARTITIONED_TABLES, ROLLUP_TABLE, TODAY_TABLE] as const;

/** Rows left per table for these sites (0 everywhere once an erase has been applied). */
export async function countRumRows(
  client: ClickHouseClient,
  database: string,
  siteIds: readonly number[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  if (siteIds.length === 0) return counts;
  for (const table of SITE_TABLES) {
    const result = await client.query({
      query: sql`SELECT count() AS n FROM ${ident(database)}.${ident(table)} WHERE site_id IN ${ints(siteIds, 0, SITE_ID_MAX)}`,
      format: 'JSONEachRow',
    });
    const [row] = await result.json<{ n: string | number }>();
    counts[table] = Number(row?.n ?? 0);
  }
  return counts;
}

/**
 * Deletes every live-data row of these sites: `ALTER TABLE … DELETE WHERE`, the mutation both ClickHouse 18.16
 * and current versions understand (the lightweight `DELETE FROM` is newer than 18.16; decision 0002). A
 * mutation runs in the background and 18.16 cannot wait for it, so this asks only for the tables that still
 * have rows of the sites and then polls until they are gone or `waitMs` has passed. Returns the rows still
 * there per table (all 0 when done); calling it again is harmless (a second mutation finds nothing to delete).
 */
export async function eraseRumRows(
  client: ClickHouseClient,
  database: string,
  siteIds: readonly number[],
  options: { waitMs?: number; pollMs?: number; layout?: ClickHouseLayout } = {},
): Promise<Record<string, number>> {
  if (siteIds.length === 0) return {};
  const before = await countRumRows(client, database, siteIds);
  for (const table of SITE_TABLES) {
    if (!before[table]) continue;
    await client.command({
      query: sql`ALTER TABLE ${rowsTable(options.layout ?? SINGLE_LAYOUT, database, table)} DELETE WHERE site_id IN ${ints(siteIds, 0, SITE_ID_MAX)}`,
    });
  }
  const deadline = Date.now() + (options.waitMs ?? 30_000);
  for (;;) {
    const left = await countRumRows(client, database, siteIds);
    if (Object.values(left).every((n) => n === 0) || Date.now() >= deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 250));
  }
}
