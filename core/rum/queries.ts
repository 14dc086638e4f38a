import type { Device, NavigationType, RumMetric } from './metrics.ts';
import type { TimeWindow } from './periods.ts';
import type { LcpPhase } from './diagnostics.ts';
import type { Culprit } from './script-entities.ts';

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

/** One culprit of slow INP interactions (core/rum/script-entities.ts says what groups under it). */
export interface InpCulprit extends Culprit {
  /** Slow interactions whose long-animation-frame scripts include this culprit's. */
  slowInteractions: number;
  /** slowInteractions / all slow interactions of the window (0–1). */
  share: number;
  /** p75 of those interactions' INP values (ms). */
  inpP75: number;
  /** p75 of the culprit's script time inside those interactions (ms; its scripts' durations added per interaction). */
  scriptTimeP75: number;
  /** The most frequent function and invoker type of the culprit's longest script per interaction ('' when unnamed). */
  functionName: string;
  invoker: string;
  /** The culprit's script URLs seen (sorted, at most CULPRIT_SCRIPTS_LISTED). */
  scripts: string[];
}

export interface InpCulprits {
  /** Deduplicated INP values (interactions) of the window. */
  interactions: number;
  /** Of those, above SLOW_INTERACTION_MS. */
  slowInteractions: number;
  /** Slow interactions that carry scripts (collectors that send them, browsers with Long Animation Frames). */
  slowWithScripts: number;
  /** Ranked by share (slow interactions), then INP p75, then key; at most CULPRITS_LISTED. */
  culprits: InpCulprit[];
}

/** p75 per LCP phase over the values that carry phases; null when none does. */
export type PhaseP75s = Record<LcpPhase, number | null>;

export interface LcpPhaseRow {
  p75: number;
  samples: number;
  /** The most frequent LCP element and resource (as SlowPage's); null when no value carries one. */
  attribution: Pick<PageAttribution, 'target' | 'url'> | null;
  /** Values that carry phases. */
  phaseSamples: number;
  phases: PhaseP75s;
}

export interface LcpPhases {
  /** The whole site; null without LCP values. */
  site: LcpPhaseRow | null;
  /** The pages with the slowest LCP p75 (ties: more samples, then path). */
  pages: Array<LcpPhaseRow & { path: string }>;
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
  /**
   * Extension: the scripts behind slow INP interactions, grouped into culprits. `site.domain` decides which
   * scripts are first-party; with `path`, only that page's interactions.
   */
  inpCulprits(
    site: { id: number; domain: string },
    window: TimeWindow,
    device: DeviceFilter,
    path?: string,
  ): Promise<InpCulprits>;
  /** Extension: LCP p75 and each LCP phase's p75, for the site and its slowest pages by LCP (at most `limit`). */
  lcpPhases(siteId: number, window: TimeWindow, limit: number, device: DeviceFilter): Promise<LcpPhases>;
  /** Page views this UTC month per site (one query for all), each counted 100 / sample_rate times; sites without any are 0. */
  pageviewsThisMonth(siteIds: readonly number[], now: Date): Promise<Map<number, number>>;
  /** Beacons refused this UTC month per site, by reason; sites without any get {}. */
  rejectionsThisMonth(siteIds: readonly number[], now: Date): Promise<Map<number, Record<string, number>>>;
}
