import { utcDay } from '../core/clock.ts';
import { type Plan } from '../core/plans.ts';
import { RumDataUnavailable, type RumQueries } from '../core/rum/queries.ts';
import type { RumSiteStore } from '../db/store/rum-sites.ts';
import type { ScanStore } from '../db/store/scans.ts';
import type { TargetStore } from '../db/store/targets.ts';
import type { UsageStore } from '../db/store/usage.ts';
import { HOUR_MS } from './scans.ts';

export interface PlanUsageDeps {
  usage: UsageStore;
  scans: ScanStore;
  targets: TargetStore;
  rumSites: RumSiteStore;
  rum: RumQueries;
}

/** What an account has used of its plan's limits, counted as each limit is enforced. */
export interface PlanUsage {
  /** API calls counted today (UTC day, the daily counter). */
  apiCallsToday: number;
  /** Scans of the rolling hour that count against the hourly limit (as POST /scans counts them). */
  scansThisHour: number;
  targets: number;
  rumSites: number;
  /** Page views this UTC month per live-data site (the limit is per site); null while ClickHouse is away. */
  pageviews: Array<{ siteId: number; domain: string; pageviews: number }> | null;
}

/** Reads the account's use from the stores that enforce each limit, and the page views from the live-data queries. */
export async function planUsage(deps: PlanUsageDeps, user: { id: number; plan: Plan }, now: Date): Promise<PlanUsage> {
  const rumSiteCount = await deps.rumSites.countOwned(user.id);
  const [apiCallsToday, recentScans, targets, sites] = await Promise.all([
    deps.usage.usedOn(user.id, utcDay(now).day),
    deps.scans.requestTimesSince(user.id, new Date(now.getTime() - HOUR_MS)),
    deps.targets.countMonitored(user.id),
    rumSiteCount ? deps.rumSites.listOwned(user.id, { page: 1, limit: rumSiteCount }) : null,
  ]);
  let pageviews: PlanUsage['pageviews'] = [];
  if (sites?.items.length) {
    const counts = await deps.rum
      .pageviewsThisMonth(
        sites.items.map((site) => site.id),
        now,
      )
      .catch((error: unknown) => {
        if (error instanceof RumDataUnavailable) return null;
        throw error;
      });
    pageviews = counts
      ? sites.items.map((site) => ({ siteId: site.id, domain: site.domain, pageviews: counts.get(site.id) ?? 0 }))
      : null;
  }
  return { apiCallsToday, scansThisHour: recentScans.length, targets, rumSites: rumSiteCount, pageviews };
}
