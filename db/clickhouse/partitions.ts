import type { ClickHouseClient } from '@clickhouse/client';
import type { ClickHouseLayout } from '../../infra/config.ts';
import { int, oneOf, sql, str } from './sql.ts';
import { rowsTable, SINGLE_LAYOUT, storageDatabase } from './table-engine.ts';

/** The tables partitioned by month (toYYYYMM) whose old months are dropped. */
export const RUM_PARTITIONED_TABLES = ['rum_metrics', 'rum_rejections'] as const;

/** YYYYMM of the oldest month kept when `keepMonths` months are kept, the current one included. */
export function oldestKeptMonth(now: Date, keepMonths: number): number {
  const oldest = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - (keepMonths - 1), 1));
  return oldest.getUTCFullYear() * 100 + oldest.getUTCMonth() + 1;
}

/**
 * Drops the monthly partitions of rum_metrics and rum_rejections older than the last `keepMonths` months (the
 * current month counts as one). ClickHouse 18.16 has no TTL, so this is how old data goes. Harmless when several
 * processes run it at once: a partition already dropped is simply no longer listed, and dropping one that just
 * went away is ignored. Returns the partitions dropped, as `table:YYYYMM`. In the sharded layout the months are
 * those of the shard this node holds (rows spread over shards by hash, so every shard has every month).
 */
export async function dropOldRumPartitions(
  client: ClickHouseClient,
  database: string,
  keepMonths: number,
  now = new Date(),
  layout: ClickHouseLayout = SINGLE_LAYOUT,
): Promise<string[]> {
  if (!Number.isInteger(keepMonths) || keepMonths < 1)
    throw new Error(`keepMonths must be a whole number of at least 1, got ${keepMonths}`);
  const oldest = oldestKeptMonth(now, keepMonths);
  const result = await client.query({
    query: sql`SELECT DISTINCT table, partition FROM system.parts
      WHERE database = ${str(storageDatabase(layout, database))} AND active AND table IN (${oneOf('rum_metrics', RUM_PARTITIONED_TABLES)}, ${oneOf('rum_rejections', RUM_PARTITIONED_TABLES)})`,
    format: 'JSONEachRow',
  });
  const parts = await result.json<{ table: string; partition: string }>();
  const dropped: string[] = [];
  for (const { table, partition } of parts) {
    const month = Number(partition.replace(/'/g, ''));
    if (!Number.isInteger(month) || month >= oldest) continue;
    try {
      await client.command({
        query: sql`ALTER TABLE ${rowsTable(layout, database, table)} DROP PARTITION ${int(month, 190001, 999912)}`,
      });
      dropped.push(`${table}:${month}`);
    } catch (error) {
      if (!/partition|not exist|No such/i.test((error as Error).message)) throw error;
    }
  }
  return dropped;
}
