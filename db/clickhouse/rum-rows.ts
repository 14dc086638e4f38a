import { ClickHouseError, type ClickHouseClient } from '@clickhouse/client';
import { DEVICES, RUM_METRICS, type RumMetric } from '../../core/rum/metrics.ts';
import type { TimeWindow } from '../../core/rum/periods.ts';
import { RumDataUnavailable, type DeviceFilter } from '../../core/rum/queries.ts';
import { ident, int, join, oneOf, part, str, timestamp } from './sql.ts';

/** What the live-data reads (rum-queries.ts, rum-diagnostics.ts) share: the rows of a window, and how a read fails. */

export interface RumDataSource {
  client: ClickHouseClient;
  database: string;
  /** false: long windows read only raw rows (the exact numbers; the benchmark's and tests' reference). */
  rollups?: boolean;
}

export const SITE_ID_MAX = 4_294_967_295; // UInt32

/** `db.rum_metrics WHERE ...`: one site's rows of a window, optionally of one device, metric and path. */
export function rowsOf(
  source: RumDataSource,
  siteId: number,
  window: TimeWindow,
  device: DeviceFilter,
  metric?: RumMetric,
  path?: string,
) {
  const conditions = [
    part`site_id = ${int(siteId, 0, SITE_ID_MAX)}`,
    part`ts >= ${timestamp(window.from)}`,
    part`ts < ${timestamp(window.to)}`,
    ...(device === 'all' ? [] : [part`device = ${oneOf(device, DEVICES)}`]),
    ...(metric ? [part`metric = ${oneOf(metric, RUM_METRICS)}`] : []),
    ...(path === undefined ? [] : [part`path = ${str(path)}`]),
  ];
  return part`${ident(source.database)}.rum_metrics WHERE ${join(conditions, ' AND ')}`;
}

export async function rows<T>(source: RumDataSource, query: string): Promise<T[]> {
  return reach(async () => (await source.client.query({ query, format: 'JSONEachRow' })).json<T>());
}

export async function reach<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    // A server's answer with an error is a bug in the query (a 500); anything else means ClickHouse is away.
    // 18.16 words its errors `Code: 184, e.displayText() = ...`, which the client does not parse into a ClickHouseError.
    if (error instanceof ClickHouseError || (error instanceof Error && /^Code: \d+/.test(error.message))) throw error;
    throw new RumDataUnavailable('ClickHouse is unreachable', { cause: error });
  }
}
