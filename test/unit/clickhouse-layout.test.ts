import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../infra/config.ts';
import { clickhouseNodeUrls } from '../../db/clickhouse/client.ts';
import { sql } from '../../db/clickhouse/sql.ts';
import { distributedTable, storageDatabase, tableEngine } from '../../db/clickhouse/table-engine.ts';

const stateDir = mkdtempSync(join(tmpdir(), 'webperf-chlayout-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

const SHARDED = { kind: 'sharded', cluster: 'main' } as const;

describe('ClickHouse layout configuration', () => {
  it('is a single server unless configured otherwise', () => {
    const config = loadConfig({ STATE_DIR: stateDir });
    expect(config.clickhouse.layout).toEqual({ kind: 'single' });
    expect(clickhouseNodeUrls(config)).toEqual(['http://127.0.0.1:8123']);
  });

  it('lists every node, CLICKHOUSE_URL first, for failover and for the schema', () => {
    const config = loadConfig({
      STATE_DIR: stateDir,
      CLICKHOUSE_URL: 'http://ch-1:8123',
      CLICKHOUSE_REPLICA_URLS: ' http://ch-2:8123/, https://ch-3:8443 ,http://ch-1:8123',
      CLICKHOUSE_LAYOUT: 'replicated',
    });
    expect(config.clickhouse.layout).toEqual({ kind: 'replicated' });
    expect(clickhouseNodeUrls(config)).toEqual(['http://ch-1:8123', 'http://ch-2:8123', 'https://ch-3:8443']);
  });

  it('refuses a sharded layout without a cluster, an unknown layout and a replica URL that is not http(s)', () => {
    expect(() => loadConfig({ STATE_DIR: stateDir, CLICKHOUSE_LAYOUT: 'sharded' })).toThrow(ConfigError);
    expect(() => loadConfig({ STATE_DIR: stateDir, CLICKHOUSE_LAYOUT: 'galaxy' })).toThrow(/CLICKHOUSE_LAYOUT/);
    expect(() => loadConfig({ STATE_DIR: stateDir, CLICKHOUSE_REPLICA_URLS: 'tcp://ch-2:9000' })).toThrow(
      /CLICKHOUSE_REPLICA_URLS/,
    );
    const config = loadConfig({ STATE_DIR: stateDir, CLICKHOUSE_LAYOUT: 'sharded', CLICKHOUSE_CLUSTER: 'main' });
    expect(config.clickhouse.layout).toEqual(SHARDED);
  });
});

describe('tableEngine', () => {
  it('keeps plain engines on a single server', () => {
    expect(sql`${tableEngine({ kind: 'single' }, 'MergeTree', 'webperf', 'rum_metrics')}`).toBe('MergeTree');
    expect(sql`${tableEngine({ kind: 'single' }, 'SummingMergeTree', 'webperf', 'rum_rejections', ['beacons'])}`).toBe(
      'SummingMergeTree(beacons)',
    );
  });

  it('gives replicated tables an explicit ZooKeeper path per shard and the replica macro, before the family’s own arguments', () => {
    expect(sql`${tableEngine({ kind: 'replicated' }, 'MergeTree', 'webperf', 'rum_metrics')}`).toBe(
      "ReplicatedMergeTree('/clickhouse/tables/{shard}/webperf.rum_metrics', '{replica}')",
    );
    expect(sql`${tableEngine(SHARDED, 'AggregatingMergeTree', 'webperf_shard', 'rum_daily')}`).toBe(
      "ReplicatedAggregatingMergeTree('/clickhouse/tables/{shard}/webperf_shard.rum_daily', '{replica}')",
    );
    expect(sql`${tableEngine({ kind: 'replicated' }, 'ReplacingMergeTree', 'w', 't', ['version'])}`).toBe(
      "ReplicatedReplacingMergeTree('/clickhouse/tables/{shard}/w.t', '{replica}', version)",
    );
  });

  it('refuses names that are not identifiers', () => {
    expect(() => tableEngine({ kind: 'replicated' }, 'MergeTree', "x'); DROP", 't')).toThrow(/identifier/);
  });
});

describe('Distributed tables (sharded layout)', () => {
  it('keeps the data in <database>_shard and puts a Distributed table with the same columns in front', () => {
    expect(storageDatabase(SHARDED, 'webperf')).toBe('webperf_shard');
    expect(storageDatabase({ kind: 'replicated' }, 'webperf')).toBe('webperf');
    const ddl = distributedTable(SHARDED, 'webperf', 'rum_metrics', [
      { name: 'page_view_id', type: 'String', default_kind: '', default_expression: '' },
      { name: 'keep_one_in', type: 'UInt16', default_kind: 'DEFAULT', default_expression: '1' },
      {
        name: 'dedupe_key',
        type: 'UInt64',
        default_kind: 'MATERIALIZED',
        default_expression: 'cityHash64(page_view_id, metric_id)',
      },
    ]);
    expect(ddl.replace(/\s+/g, ' ')).toBe(
      'CREATE TABLE IF NOT EXISTS webperf.rum_metrics (page_view_id String, keep_one_in UInt16 DEFAULT 1, ' +
        'dedupe_key UInt64 ALIAS cityHash64(page_view_id, metric_id)) ' +
        'ENGINE = Distributed(main, webperf_shard, rum_metrics, cityHash64(page_view_id))',
    );
  });

  it('shards other tables by site', () => {
    const ddl = distributedTable(SHARDED, 'webperf', 'rum_rejections', [
      { name: 'site_id', type: 'UInt32', default_kind: '', default_expression: '' },
    ]);
    expect(ddl).toMatch(/Distributed\(main, webperf_shard, rum_rejections, site_id\)$/);
  });
});
