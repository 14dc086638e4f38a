import type { ClickHouseClient } from '@clickhouse/client';
import type { Beacon } from '../../core/rum/beacon.ts';
import type { Device, NavigationType, RumMetric } from '../../core/rum/metrics.ts';
import { newRumSitePublicId } from '../../core/rum/site.ts';
import { insertRumMetricRows, RUM_METRIC_COLUMNS } from '../../db/clickhouse/rum-ingest.ts';
import { Rejection } from '../../ingest/reasons.ts';
import { beaconRows, validateBeacon } from '../../ingest/validate.ts';

/** One rum_metrics row as the ingest service writes it; tests insert them directly, every column given. */
export interface MetricRow {
  site: number;
  at: Date;
  metric: RumMetric;
  value: number;
  pageView: string;
  metricId?: string;
  seq?: number;
  device?: Device;
  navigation?: NavigationType;
  path?: string;
  sampleRate?: number;
  target?: string;
  url?: string;
  type?: string;
}

const dateTime = (at: Date) => at.toISOString().slice(0, 19).replace('T', ' ');

export async function insertMetrics(client: ClickHouseClient, database: string, rows: MetricRow[]): Promise<void> {
  await client.insert({
    table: `${database}.rum_metrics`,
    format: 'JSONEachRow',
    values: rows.map((row) => ({
      site_id: row.site,
      ts: dateTime(row.at),
      page_view_id: row.pageView,
      seq: row.seq ?? 1,
      metric_id: row.metricId ?? `${row.pageView}-${row.metric}`,
      metric: row.metric,
      value: row.value,
      device: row.device ?? 'desktop',
      navigation: row.navigation ?? 'navigate',
      path: row.path ?? '/',
      sample_rate: row.sampleRate ?? 100,
      attr_target: row.target ?? '',
      attr_url: row.url ?? '',
      attr_type: row.type ?? '',
    })),
  });
}

/** A beacon as the collector sends it, without the fields every test beacon shares. */
export type TestBeacon = Pick<Beacon, 'pv' | 'metrics'> & Partial<Pick<Beacon, 'seq' | 'path' | 'device'>>;

/**
 * Beacons turned into rows by the ingest's own code (validateBeacon, beaconRows) and inserted by its own
 * statement, so phases and scripts are stored exactly as the ingest stores them. A refused beacon fails the test.
 */
export async function insertBeacons(
  client: ClickHouseClient,
  database: string,
  siteId: number,
  at: Date,
  beacons: TestBeacon[],
): Promise<void> {
  const site = newRumSitePublicId();
  const lines = beacons.map((b) => {
    const valid = validateBeacon({ v: 1, site, seq: 1, path: '/', device: 'desktop', rate: 100, ...b });
    if (valid instanceof Rejection) throw new Error(`test beacon ${b.pv} refused: ${valid.reason}`);
    return beaconRows(valid, { siteId, sampleRate: 100, source: 1, keepOneIn: 1 }, at);
  });
  await insertRumMetricRows(client, database, RUM_METRIC_COLUMNS, Buffer.from(lines.join('')));
}

export async function insertRejections(
  client: ClickHouseClient,
  database: string,
  rows: Array<{ site: number; day: string; reason: string; beacons: number }>,
): Promise<void> {
  await client.insert({
    table: `${database}.rum_rejections`,
    format: 'JSONEachRow',
    values: rows.map((r) => ({ site_id: r.site, day: r.day, reason: r.reason, beacons: r.beacons })),
  });
}

/** p-quantile by nearest rank on the sorted values: the value at 0-based index floor(q × n). Written here, not imported. */
export function nearestRank(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(q * sorted.length)]!;
}

/** A deterministic pseudo-random sequence (tests must fail the same way twice). */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}
