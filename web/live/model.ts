import type { LabLink } from '../../services/lab-field-links.ts';
import type { LcpPhase } from '../../core/rum/diagnostics.ts';
import type { NavigationType, Rating, RumMetric } from '../../core/rum/metrics.ts';
import type { CulpritKind } from '../../core/rum/script-entities.ts';
import { RUM_PERIODS, type RumPeriod } from '../../core/rum/periods.ts';
import type { DeviceFilter as RumDeviceFilter } from '../../core/rum/queries.ts';
import type { SignedInPage } from '../monitoring/model.ts';

/**
 * What the live-data pages draw, as plain objects. web/live/routes.ts maps the site service's views and the
 * ClickHouse queries' results onto these, so the templates know nothing of either.
 */

export const LIVE_PATHS = {
  sites: '/live',
  dashboard: (id: number) => `/live/${id}`,
  active: (id: number) => `/live/${id}/active`,
  sampleRate: (id: number) => `/live/${id}/sample-rate`,
  remove: (id: number) => `/live/${id}/delete`,
  alerts: (id: number) => `/live/${id}/alerts`,
  alert: (id: number, alertId: number) => `/live/${id}/alerts/${alertId}`,
  copyScript: '/live/copy.js',
} as const;

export const PERIODS = RUM_PERIODS;
export type Period = RumPeriod;
export type DeviceFilter = RumDeviceFilter;
export const DEVICE_FILTERS: readonly DeviceFilter[] = ['all', 'desktop', 'mobile', 'tablet'];

/** Why a new site's domain was refused. */
export type DomainError = 'required' | 'invalid' | 'ip_address' | 'duplicate' | 'limit';

/** One site as the list and the dashboard show it. */
export interface LiveSite {
  id: number;
  domain: string;
  active: boolean;
  /** 1–100 (%). */
  sampleRate: number;
  embedSnippet: string;
  /** Null while the measurements cannot be read (ClickHouse away). */
  pageviewsThisMonth: number | null;
  monthlyLimit: number;
  /** When the site reached its monthly limit this UTC month (a reduced sample is kept since), else null. */
  limitReachedAt: Date | null;
  /** Its live-data alert configurations. */
  alertCount: number;
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
  /** Measurements rated good, needs improvement and poor; they add up to `samples`. */
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
  /** The most frequent attribution on this path (LCP element, INP target), when the beacons carried one. */
  target: string | null;
  /** The LCP resource (origin + path), when there was one. */
  url: string | null;
}

/** One culprit of slow interactions (core/rum/script-entities.ts groups them). */
export interface CulpritRow {
  /** The row's fragment id (core/rum/anchors.ts). */
  anchor: string;
  kind: CulpritKind;
  /** First party: the script URL; third party: the entity or host; inline: ''. */
  name: string;
  /** third-party-web's entity name; null when it names none. */
  entity: string | null;
  functionName: string;
  invoker: string;
  /** Share of all slow interactions (0–1). */
  share: number;
  slowInteractions: number;
  inpP75: number;
  scriptTimeP75: number;
  /** Third party: the entity's script URLs seen. */
  scripts: readonly string[];
}

export interface InpCulpritsView {
  interactions: number;
  slowInteractions: number;
  slowWithScripts: number;
  culprits: readonly CulpritRow[];
}

/** LCP and its phases for the site (path null) or one page. */
export interface LcpPhasesRow {
  path: string | null;
  /** The row's fragment id: `lcp-site`, or the page's (core/rum/anchors.ts). */
  anchor: string;
  p75: number;
  samples: number;
  target: string | null;
  url: string | null;
  /** LCP values that carry phases. */
  phaseSamples: number;
  /** p75 per phase over those values; null without any. */
  phases: Readonly<Record<LcpPhase, number | null>>;
}

/** The numbers of one site's dashboard for one period and device (web/live/source.ts asks the live-data queries). */
export interface DashboardNumbers {
  metrics: Readonly<Record<RumMetric, MetricNumbers>>;
  /** Daily p75 per metric over the last 30 days (UTC), any order. */
  history: Readonly<Record<RumMetric, readonly HistoryDay[]>>;
  /** Slowest paths by p75, with their LCP element or INP target. */
  slowest: { LCP: readonly SlowPage[]; INP: readonly SlowPage[] };
  /** The scripts behind slow INP interactions, of the whole site or of the page `culpritPath`. */
  culprits: InpCulpritsView;
  /** LCP phases: the site first (when it has LCP values), then the slowest pages by LCP. */
  lcpPhases: readonly LcpPhasesRow[];
  /** Page views measured per navigation type. */
  navigation: ReadonlyArray<{ type: NavigationType; pageviews: number }>;
  /** Beacons refused this UTC month, by reason; empty when none. */
  rejections: ReadonlyArray<{ reason: string; beacons: number }>;
}

export interface DashboardModel extends SignedInPage, DashboardNumbers {
  site: LiveSite;
  period: Period;
  device: DeviceFilter;
  /** The page the culprits are narrowed to (`?page=`), or null for the whole site. */
  culpritPath: string | null;
  cwv: { pass: boolean | null; insufficient: boolean };
  /** The owner's lab scans that name a culprit's script or entity (by culprit anchor) or a page's LCP element (by path). */
  labLinks: { culprits: ReadonlyMap<string, LabLink>; lcpPages: ReadonlyMap<string, LabLink> };
  /** Today (UTC, YYYY-MM-DD): the history charts end here. */
  today: string;
}
