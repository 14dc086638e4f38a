import type { ClickHouseLayout } from '../../infra/config.ts';
import { ident, identList, join, part, serverSql, sql, str } from './sql.ts';

/**
 * How tables are laid out across ClickHouse nodes (CLICKHOUSE_LAYOUT; docs/clickhouse-cluster.md):
 * - single: plain *MergeTree tables on one server (also right for ClickHouse Cloud, which makes them shared).
 * - replicated: Replicated*MergeTree, one replica per node, coordinated through ZooKeeper or ClickHouse Keeper.
 * - sharded: the replicated tables live in `<database>_shard` on every node, and `<database>.<table>` is a
 *   Distributed table over the cluster, so queries and inserts name the same tables in every layout.
 */
export type EngineFamily =
  'MergeTree' | 'ReplacingMergeTree' | 'SummingMergeTree' | 'AggregatingMergeTree' | 'CollapsingMergeTree';

export type SqlPart = ReturnType<typeof part>;

export const SINGLE_LAYOUT: ClickHouseLayout = { kind: 'single' };

/**
 * The ENGINE clause (what follows `ENGINE =`) of `database.table` in this layout; `args` are the family's
 * own arguments (SummingMergeTree's column, ReplacingMergeTree's version column). Replicated tables get an
 * explicit ZooKeeper path and replica name, which ClickHouse 18.16 requires (24.8 also takes none and then uses
 * default_replica_path); `{shard}` and `{replica}` come from each node's <macros>.
 */
export function tableEngine(
  layout: ClickHouseLayout,
  family: EngineFamily,
  database: string,
  table: string,
  args: readonly string[] = [],
): SqlPart {
  if (layout.kind === 'single')
    return args.length ? part`${ident(family)}(${identList(args)})` : part`${ident(family)}`;
  const path = str(`/clickhouse/tables/{shard}/${ident(database).text}.${ident(table).text}`);
  const tail = args.length ? part`, ${identList(args)}` : part``;
  return part`${ident(`Replicated${family}`)}(${path}, '{replica}'${tail})`;
}

/** Where the layout keeps the tables that hold data: `<database>_shard` when sharded, else the database itself. */
export function storageDatabase(layout: ClickHouseLayout, database: string): string {
  return layout.kind === 'sharded' ? ident(`${database}_shard`).text : ident(database).text;
}

/**
 * How rows spread over shards. All rows of a page view go to one shard, so every send and replay of it (which
 * queries collapse with argMax over page_view_id and metric_id) sits together; other tables by site.
 */
const SHARDING_KEYS: Readonly<Record<string, SqlPart>> = {
  rum_metrics: part`cityHash64(page_view_id)`,
};
const DEFAULT_SHARDING_KEY = part`site_id`;

/** A column of a shard table as system.columns describes it. */
export interface ShardColumn {
  name: string;
  type: string;
  default_kind: string;
  default_expression: string;
}

/**
 * The Distributed table `database.table` over the cluster's `<database>_shard.table` (sharded layout only), with
 * the shard table's columns. A MATERIALIZED column becomes an ALIAS of the same expression: ClickHouse 18.16's
 * Distributed inserts would otherwise compute it and send it along, which the shard refuses; read through the
 * alias, it has the same value.
 */
export function distributedTable(
  layout: Extract<ClickHouseLayout, { kind: 'sharded' }>,
  database: string,
  table: string,
  columns: readonly ShardColumn[],
): string {
  const local = ident(storageDatabase(layout, database));
  const key = SHARDING_KEYS[table] ?? DEFAULT_SHARDING_KEY;
  const definitions = columns.map((column) => {
    const kind = column.default_kind === 'MATERIALIZED' ? 'ALIAS' : column.default_kind;
    const tail =
      kind === 'DEFAULT' || kind === 'ALIAS' ? part` ${ident(kind)} ${serverSql(column.default_expression)}` : part``;
    return part`${ident(column.name)} ${serverSql(column.type)}${tail}`;
  });
  return sql`CREATE TABLE IF NOT EXISTS ${ident(database)}.${ident(table)} (${join(definitions)})
    ENGINE = Distributed(${ident(layout.cluster)}, ${local}, ${ident(table)}, ${key})`;
}

/**
 * The table an ALTER on the rows of `database.table` (a mutation, a partition drop) addresses: the table
 * itself, or in the sharded layout its shard table on every shard (`ON CLUSTER`; ClickHouse runs it on one
 * replica per shard and replication does the rest). A Distributed table takes no such ALTER.
 */
export function rowsTable(layout: ClickHouseLayout, database: string, table: string): SqlPart {
  const name = part`${ident(storageDatabase(layout, database))}.${ident(table)}`;
  return layout.kind === 'sharded' ? part`${name} ON CLUSTER ${ident(layout.cluster)}` : name;
}
