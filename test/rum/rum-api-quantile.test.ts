import { exactQuantile } from '../../core/rum/metrics.ts';
import { sql, ident } from '../../db/clickhouse/sql.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { seeded } from './rum-data.ts';

/**
 * The percentile definition the API documents (core/rum/metrics.ts exactQuantile: 0-based rank floor(q × n))
 * is what ClickHouse's quantileExact / quantilesExact compute, checked on the real server for n = 1..10 (where
 * definitions differ most) and on larger random sets with ties.
 */
let ch: IsolatedClickHouse;
beforeAll(async () => {
  ch = await isolatedClickHouse();
  await ch.client.command({
    query: sql`CREATE TABLE ${ident(ch.database)}.q (set_id UInt32, v Float64) ENGINE = MergeTree ORDER BY set_id`,
  });
});
afterAll(async () => {
  await ch?.drop();
});

it('quantileExact matches exactQuantile for every n from 1 to 10 and for random sets', async () => {
  const random = seeded(42);
  const sets: number[][] = [];
  for (let n = 1; n <= 10; n++) sets.push(Array.from({ length: n }, () => Math.floor(random() * 1000)));
  for (const n of [19, 20, 37, 100, 101, 1000])
    sets.push(Array.from({ length: n }, () => Math.floor(random() * 50) / 10));
  await ch.client.insert({
    table: `${ch.database}.q`,
    format: 'JSONEachRow',
    values: sets.flatMap((values, set_id) => values.map((v) => ({ set_id, v }))),
  });
  const rows = await (
    await ch.client.query({
      query: sql`SELECT set_id, quantileExact(0.75)(v) AS p75, quantilesExact(0.5, 0.75)(v) AS q FROM ${ident(ch.database)}.q GROUP BY set_id ORDER BY set_id`,
      format: 'JSONEachRow',
    })
  ).json<{ set_id: number; p75: number; q: [number, number] }>();
  expect(rows).toHaveLength(sets.length);
  for (const row of rows) {
    const sorted = [...sets[row.set_id]!].sort((a, b) => a - b);
    const expected = { n: sorted.length, p75: exactQuantile(sorted, 0.75), p50: exactQuantile(sorted, 0.5) };
    expect({ n: sorted.length, p75: row.p75, p50: row.q[0] }).toEqual(expected);
    expect(row.q[1]).toBe(row.p75);
  }
});
