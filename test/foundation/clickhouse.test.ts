import { loadConfig } from '../../infra/config.ts';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import {
  dropClickHouseDatabase,
  ensureClickHouseSchema,
  LATEST_CLICKHOUSE_VERSION,
} from '../../db/clickhouse/schema.ts';
import { RUM_METRIC_COLUMNS, type RumMetricColumn } from '../../db/clickhouse/rum-ingest.ts';
import { ClickHouseSqlError, ident, int, oneOf, sql, str, timestamp } from '../../db/clickhouse/sql.ts';
import { uniqueName } from '../harness/isolated.ts';
import { baseTestEnv } from '../harness/shared.ts';

const config = loadConfig(baseTestEnv());
const admin = createClickHouse(config, 'default');
const database = uniqueName('t');
afterAll(async () => {
  await dropClickHouseDatabase(admin, database);
  await admin.close();
});

describe('ClickHouse schema', () => {
  it('is created once and is a no-op afterwards', async () => {
    expect(await ensureClickHouseSchema(admin, database)).toEqual(
      Array.from({ length: LATEST_CLICKHOUSE_VERSION }, (_, i) => i + 1),
    );
    expect(await ensureClickHouseSchema(admin, database)).toEqual([]);
    const rows = await (
      await admin.query({
        query: sql`SELECT count() AS n FROM ${ident(database)}.schema_versions`,
        format: 'JSONEachRow',
      })
    ).json<{ n: string }>();
    expect(Number(rows[0]!.n)).toBe(LATEST_CLICKHOUSE_VERSION);
  });

  it('stores beacons and answers a p75 query', async () => {
    const client = createClickHouse(config, database);
    const base = Date.UTC(2026, 10, 1) / 1000;
    const values = Array.from({ length: 100 }, (_, i) => i + 1);
    await client.insert({
      table: 'rum_metrics',
      format: 'JSONEachRow',
      columns: [...RUM_METRIC_COLUMNS],
      values: values.map(
        (v, i) =>
          ({
            site_id: 7,
            ts: base + i,
            page_view_id: `p${i}`,
            seq: 1,
            metric_id: `m${i}`,
            metric: 'LCP',
            value: v * 100,
            device: 'mobile',
            navigation: 'navigate',
            path: '/',
            sample_rate: 100,
            attr_target: '',
            attr_url: '',
            attr_type: '',
            source: i,
            keep_one_in: 1,
            phases: [],
            script_urls: [],
            script_functions: [],
            script_invokers: [],
            script_durations: [],
          }) satisfies Record<RumMetricColumn, unknown>,
      ),
    });
    const query = sql`SELECT quantileExact(0.75)(value) AS p75, count() AS n FROM rum_metrics
      WHERE site_id = ${int(7, 0, 2 ** 32 - 1)} AND metric = ${oneOf('LCP', ['LCP', 'CLS'] as const)} AND ts >= ${timestamp(new Date(base * 1000))}`;
    const [row] = await (await client.query({ query, format: 'JSONEachRow' })).json<{ p75: number; n: string }>();
    expect(Number(row!.n)).toBe(100);
    expect(row!.p75).toBe(7600);
    await client.close();
  });
});

describe('ClickHouse SQL formatting', () => {
  it('escapes strings so input cannot end the literal', async () => {
    const hostile = "x' OR 1=1 -- \\";
    const [row] = await (
      await admin.query({ query: sql`SELECT ${str(hostile)} AS s`, format: 'JSONEachRow' })
    ).json<{ s: string }>();
    expect(row!.s).toBe(hostile);
  });

  it('refuses untyped values, bad identifiers, out-of-range integers and unknown enum values', () => {
    const untyped = 'raw' as unknown as ReturnType<typeof str>;
    expect(() => sql`SELECT ${untyped}`).toThrow(ClickHouseSqlError);
    expect(() => ident('rum_events; DROP')).toThrow(ClickHouseSqlError);
    expect(() => int(1.5)).toThrow(ClickHouseSqlError);
    expect(() => int(-1, 0, 10)).toThrow(ClickHouseSqlError);
    expect(() => oneOf('XSS', ['LCP'] as const)).toThrow(ClickHouseSqlError);
    expect(() => timestamp(new Date(Number.NaN))).toThrow(ClickHouseSqlError);
  });
});
