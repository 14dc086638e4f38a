import { RUM_DEVICE_FILTERS, RUM_PERIODS, type RumDashboardNumbers, type RumDeviceFilter, type RumHistoryDay, type RumMetricNumbers, type RumPeriod, type RumSlowPage } from '../../core/rum/dashboard.ts';
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
  alerts: (id: number) => `/live/${id}/alerts`,
  alert: (id: number, alertId: number) => `/live/${id}/alerts/${alertId}`,
  copyScript: '/live/copy.js',
} as const;

export const PERIODS = RUM_PERIODS;
export type Period = RumPeriod;
export type DeviceFilter = RumDeviceFilter;
export const DEVICE_FILTERS = RUM_DEVICE_FILTERS;

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

export type MetricNumbers = RumMetricNumbers;
export type HistoryDay = RumHistoryDay;
export type SlowPage = RumSlowPage;

export interface DashboardModel extends SignedInPage, RumDashboardNumbers {
  site: LiveSite;
  period: Period;
  device: DeviceFilter;
  cwv: { pass: boolean | null; insufficient: boolean };
  /** Today (UTC, YYYY-MM-DD): the history charts end here. */
  today: string;
}
