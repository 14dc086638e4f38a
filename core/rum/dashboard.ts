import type { Device, NavigationType, Rating, RumMetric } from './metrics.ts';

/**
 * The numbers of a live-data site's dashboard as plain data: what the web area's dashboard draws and what the
 * ClickHouse side (db/clickhouse/rum-dashboard.ts) answers. Values are as the API reports them (whole ms,
 * CLS to four decimals); every percentile follows core/rum/metrics.ts.
 */

export const RUM_PERIODS = ['24h', '7d', '30d'] as const;
export type RumPeriod = (typeof RUM_PERIODS)[number];
export type RumDeviceFilter = 'all' | Device;
export const RUM_DEVICE_FILTERS: readonly RumDeviceFilter[] = ['all', 'desktop', 'mobile', 'tablet'];

export const PERIOD_HOURS: Readonly<Record<RumPeriod, number>> = { '24h': 24, '7d': 7 * 24, '30d': 30 * 24 };

export interface RumMetricNumbers {
  p75: number | null;
  samples: number;
  /** Measurements rated good, needs improvement and poor; they add up to `samples`. */
  shares: Readonly<Record<Rating, number>>;
}

export interface RumHistoryDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  p75: number;
  samples: number;
}

export interface RumSlowPage {
  path: string;
  p75: number;
  samples: number;
  /** The most frequent attribution on this path (LCP element, INP target), when the beacons carried one. */
  target: string | null;
  /** The LCP resource (origin + path), when there was one. */
  url: string | null;
}

export interface RumDashboardNumbers {
  metrics: Readonly<Record<RumMetric, RumMetricNumbers>>;
  /** Daily p75 per metric over the last 30 days (UTC), oldest first. */
  history: Readonly<Record<RumMetric, readonly RumHistoryDay[]>>;
  /** Slowest paths by p75 (at most 10 each). */
  slowest: { LCP: readonly RumSlowPage[]; INP: readonly RumSlowPage[] };
  /** Page views per navigation type. */
  navigation: ReadonlyArray<{ type: NavigationType; pageviews: number }>;
  /** Beacons refused this UTC month, by reason. */
  rejections: ReadonlyArray<{ reason: string; beacons: number }>;
}

/** What the dashboard and the sites list ask of the measurements. */
export interface RumDashboardSource {
  /** Page views this UTC month per site (each counted 100 / sample_rate times). */
  pageviewsThisMonth(siteIds: readonly number[], now: Date): Promise<Map<number, number>>;
  dashboard(siteId: number, period: RumPeriod, device: RumDeviceFilter, now: Date): Promise<RumDashboardNumbers>;
}
