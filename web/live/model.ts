import type { Device, NavigationType, Rating, RumMetric } from '../../core/rum/metrics.ts';
import type { SignedInPage } from '../monitoring/model.ts';

/**
 * What the live-data pages draw, as plain objects. web/live-routes.ts maps the site service's views and the
 * ClickHouse queries' results onto these, so the templates know nothing of either.
 */

export const LIVE_PATHS = {
  sites: '/live',
  dashboard: (id: number) => `/live/${id}`,
  active: (id: number) => `/live/${id}/active`,
  sampleRate: (id: number) => `/live/${id}/sample-rate`,
  remove: (id: number) => `/live/${id}/delete`,
  copyScript: '/live/copy.js',
} as const;

export const PERIODS = ['24h', '7d', '30d'] as const;
export type Period = (typeof PERIODS)[number];
export type DeviceFilter = 'all' | Device;
export const DEVICE_FILTERS: readonly DeviceFilter[] = ['all', 'desktop', 'mobile', 'tablet'];

/** Why a new site's domain was refused. */
export type DomainError = 'required' | 'invalid' | 'duplicate' | 'limit';

/** One site as the list and the dashboard show it. */
export interface LiveSite {
  id: number;
  domain: string;
  active: boolean;
  /** 1–100 (%). */
  sampleRate: number;
  embedSnippet: string;
  pageviewsThisMonth: number;
  monthlyLimit: number;
  createdAt: Date;
}

export interface SitesPageModel extends SignedInPage {
  planLabel: string;
  /** Null when the plan has no live data (Free): the page explains the upgrade instead. */
  maxSites: number | null;
  sites: readonly LiveSite[];
  /** After a rejected add: the domain typed and why. */
  add?: { domain: string; error: string };
  /** After a rejected sample-rate change: which site, the value typed and why. */
  sampleRateError?: { siteId: number; value: string; error: string };
  /** What the last action did (already in the page's language). */
  notice?: string;
}

export interface MetricNumbers {
  p75: number | null;
  samples: number;
  /** Page views (samples) rated good, needs improvement and poor; they add up to `samples`. */
  shares: Readonly<Record<Rating, number>>;
}

export interface HistoryDay {
  /** YYYY-MM-DD (UTC). */
  date: string;
  p75: number;
  samples: number;
}

export interface SlowPage {
  path: string;
  p75: number;
  samples: number;
  /** The most frequent attribution (LCP element, INP target), when the beacons carried one. */
  target?: string | null;
  url?: string | null;
}

export interface DashboardModel extends SignedInPage {
  site: LiveSite;
  period: Period;
  device: DeviceFilter;
  metrics: Readonly<Record<RumMetric, MetricNumbers>>;
  cwv: { pass: boolean | null; insufficient: boolean };
  /** Today (UTC, YYYY-MM-DD): the history charts end here. */
  today: string;
  /** Daily p75 per metric over the last 30 days, any order. */
  history: Readonly<Record<RumMetric, readonly HistoryDay[]>>;
  /** Slowest paths by LCP p75 (with the LCP element) and by INP p75 (with the interaction target). */
  slowest: { LCP: readonly SlowPage[]; INP: readonly SlowPage[] };
  navigation: ReadonlyArray<{ type: NavigationType; pageviews: number }>;
  /** Beacons the ingest service refused this month, by reason; empty when none. */
  rejections: ReadonlyArray<{ reason: string; beacons: number }>;
}
