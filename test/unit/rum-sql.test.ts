import { ClickHouseSqlError, int, ints, join, num, part, sql, str } from '../../db/clickhouse/sql.ts';

/** The typed fragments the live-data queries compose (db/clickhouse/sql.ts): still nothing untyped gets in. */
describe('ClickHouse SQL fragments', () => {
  it('compose typed values', () => {
    const condition = join(
      [part`site_id IN ${ints([1, 2, 3], 0, 10)}`, part`value <= ${num(0.1)}`, part`path = ${str("a'b")}`],
      ' AND ',
    );
    expect(sql`SELECT 1 WHERE ${condition} LIMIT ${int(5)}`).toBe(
      "SELECT 1 WHERE site_id IN (1, 2, 3) AND value <= 0.1 AND path = 'a\\'b' LIMIT 5",
    );
  });
  it('refuse empty lists, out-of-range members, non-finite numbers and untyped parts', () => {
    expect(() => ints([])).toThrow(ClickHouseSqlError);
    expect(() => ints([1, 11], 0, 10)).toThrow(ClickHouseSqlError);
    expect(() => num(Number.NaN)).toThrow(ClickHouseSqlError);
    expect(() => num(Infinity)).toThrow(ClickHouseSqlError);
    expect(() => join(['1; DROP TABLE x' as unknown as ReturnType<typeof str>])).toThrow(ClickHouseSqlError);
    expect(() => part`a ${'x' as unknown as ReturnType<typeof str>}`).toThrow(ClickHouseSqlError);
  });
});
