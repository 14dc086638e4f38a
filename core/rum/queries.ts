import type { Device, NavigationType, RumMetric } from './metrics.ts';
import type { TimeWindow } from './periods.ts';

/**
 * What the live-data queries answer (db/clickhouse/rum-queries.ts implements them on ClickHouse). The API,
 * the web area and the alert check depend on this contract, not on ClickHouse.
 */

export type DeviceFilter = Device | 'all';

/** ClickHouse did not answer (down, unreachable, timed out): the API's 503, the dashboard's notice. */
export class RumDataUnavailable extends Error {}

export interface MetricStats {
  p75: number | null;
  samples: number;
  /** Deduplicated values by Google's rating of each value (core/rum/metrics.ts thresholds). */
  good: number;
  needsImprovement: number;
  poor: number;
}

export interface HistoryDay {
  /** UTC calendar day, YYYY-MM-DD. */
  date: string;
  p75: number;
  p50: number;
  samples: number;
}

export interface PageAttribution {
  /** The element (LCP element, INP interaction target, CLS largest shift target); '' when unknown. */
  target: string;
  /** LCP resource URL (origin and path); '' when none. */
  url: string;
  /** INP interaction type; '' when none. */
  type: string;
}

export interface SlowPage {
  path: string;
  p75: number;
  samples: number;
  /** The most frequent attribution among the page's values that carry one; null when none does. */
  attribution: PageAttribution | null;
}

export interface NavigationShare {
  navigation: NavigationType;
  /** Page views measured (not scaled by the sample rate). */
  pageViews: number;
}

export interface RumQueries {
  /**
   * Per metric: p75, samples and the values per rating; every metric is present (samples 0, p75 null without data).
   * With `path`, only the values of that page (the path exactly as the collector sends it, location.pathname).
   */
  summary(
    siteId: number,
    window: TimeWindow,
    device: DeviceFilter,
    path?: string,
  ): Promise<Record<RumMetric, MetricStats>>;
  /** One item per UTC day with data, newest first. */
  history(siteId: number, metric: RumMetric, window: TimeWindow, device: DeviceFilter): Promise<HistoryDay[]>;
  /** The slowest paths by p75 (ties: more samples first, then path), at most `limit`. */
  pages(
    siteId: number,
    metric: RumMetric,
    window: TimeWindow,
    limit: number,
    device?: DeviceFilter,
  ): Promise<SlowPage[]>;
  /** Page views by navigation type, most first; with `path`, only that page's (as in `summary`). */
  navigationSplit(siteId: number, window: TimeWindow, device: DeviceFilter, path?: string): Promise<NavigationShare[]>;
  /** Page views this UTC month per site (one query for all), each counted 100 / sample_rate times; sites without any are 0. */
  pageviewsThisMonth(siteIds: readonly number[], now: Date): Promise<Map<number, number>>;
  /** Beacons refused this UTC month per site, by reason; sites without any get {}. */
  rejectionsThisMonth(siteIds: readonly number[], now: Date): Promise<Map<number, Record<string, number>>>;
}
