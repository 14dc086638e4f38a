import { loadConfig } from '../../infra/config.ts';
import { dropOldRumPartitions, oldestKeptMonth } from '../../db/clickhouse/partitions.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { baseTestEnv } from '../harness/shared.ts';
import { queryRows } from './support.ts';

let ch: IsolatedClickHouse;

beforeAll(async () => {
  ch = await isolatedClickHouse(loadConfig(baseTestEnv()));
});

afterAll(async () => {
  await ch?.drop();
});

it('counts the current month among the months kept', () => {
  expect(oldestKeptMonth(new Date('2026-11-23T12:00:00Z'), 13)).toBe(202511);
  expect(oldestKeptMonth(new Date('2026-01-01T00:00:00Z'), 1)).toBe(202601);
  expect(oldestKeptMonth(new Date('2026-03-31T23:59:59Z'), 4)).toBe(202512);
});

it('drops the monthly partitions older than the months kept, in both RUM tables, and is harmless when run again', async () => {
  const months = ['2025-09-15', '2025-10-31', '2025-11-01', '2026-11-20'];
  const values = months
    .map(
      (day, i) =>
        `(1, toDateTime('${day} 12:00:00', 'UTC'), 'pv${i}', 1, 'm', 'LCP', 1000, 'desktop', 'navigate', '/', 100, '', '', '')`,
    )
    .join(',');
  await ch.client.command({
    query: `INSERT INTO ${ch.database}.rum_metrics (site_id, ts, page_view_id, seq, metric_id, metric, value, device, navigation, path, sample_rate, attr_target, attr_url, attr_type) VALUES ${values}`,
  });
  await ch.client.command({
    query: `INSERT INTO ${ch.database}.rum_rejections (site_id, day, reason, beacons) VALUES (1, '2025-10-02', 'bot', 3), (1, '2026-11-02', 'bot', 4)`,
  });
  const now = new Date('2026-11-23T12:00:00Z');
  const dropped = await dropOldRumPartitions(ch.client, ch.database, 13, now);
  expect(dropped.sort()).toEqual(['rum_metrics:202509', 'rum_metrics:202510', 'rum_rejections:202510']);
  const kept = await queryRows<{ d: string }>(
    ch.client,
    `SELECT toString(toDate(ts)) AS d FROM ${ch.database}.rum_metrics ORDER BY ts`,
  );
  expect(kept.map((r) => r.d)).toEqual(['2025-11-01', '2026-11-20']);
  const rejections = await queryRows<{ day: string }>(
    ch.client,
    `SELECT toString(day) AS day FROM ${ch.database}.rum_rejections`,
  );
  expect(rejections.map((r) => r.day)).toEqual(['2026-11-02']);
  expect(await dropOldRumPartitions(ch.client, ch.database, 13, now)).toEqual([]);
});
