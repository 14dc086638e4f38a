import type { Clock } from '../core/clock.ts';
import type { Plan } from '../core/plans.ts';
import { BEACON_LIMITS } from '../core/rum/beacon.ts';
import { CWV_MIN_SAMPLES, type RumMetric } from '../core/rum/metrics.ts';
import { FIELD_DAYS, rollingDaysWindow } from '../core/rum/periods.ts';
import { RumDataUnavailable, type RumQueries } from '../core/rum/queries.ts';
import { normaliseScanUrl } from '../core/url.ts';
import type { RumSiteStore } from '../db/store/rum-sites.ts';
import { labEvidence } from '../core/rum/lab-field.ts';
import type { ScanResultRecord } from '../core/scan/result.ts';
import { linkFieldToLab, type FieldLinks } from './lab-field-links.ts';
import { mayUseLiveData } from './rum-sites.ts';

/**
 * A scan's field data: what the owner's live-data site measured for the scanned page, to show beside the
 * report's lab values. Read through the live-data queries (core/rum/queries.ts `summary` and
 * `navigationSplit`, the same p75 as the live-data API and dashboard), over the last FIELD_DAYS days, all devices.
 *
 *  - The site: the owner's own site (never another account's) whose domain is the scan URL's host as
 *    core/url.ts normalises it (lower case, punycode, no trailing dot, no port). Only that exact host:
 *    `www.example.com` and `example.com` are two hosts, and a site for `example.com`, which also accepts
 *    beacons from its subdomains, is not matched for `www.example.com`, because its measurements do not say
 *    which host they came from. Plans without live data get none.
 *  - The page: the scan URL's path (no query), as the collector records location.pathname. With at least
 *    CWV_MIN_SAMPLES page views measured on it in the window, that page's numbers; otherwise the whole
 *    site's, saying so; with no page views at all, `no_data`.
 *  - ClickHouse away: `unavailable` (the report still renders and says so). Any other error is a bug and is thrown.
 */

export const FIELD_METRICS = ['LCP', 'INP', 'CLS'] as const satisfies readonly RumMetric[];
export type FieldMetric = (typeof FIELD_METRICS)[number];

export interface FieldDataDeps {
  rumSites: Pick<RumSiteStore, 'findOwnedByDomain'>;
  rum: Pick<RumQueries, 'summary' | 'navigationSplit' | 'inpCulprits' | 'pages'>;
  clock: Clock;
}

export interface FieldSite {
  id: number;
  domain: string;
}

export interface FieldMetricNumbers {
  p75: number | null;
  samples: number;
}

export type FieldData =
  /** The owner has no live-data site for this host (or no live data on their plan): nothing to show. */
  | { kind: 'no_site' }
  | { kind: 'unavailable'; site: FieldSite; days: number }
  | { kind: 'no_data'; site: FieldSite; days: number }
  | {
      kind: 'measured';
      site: FieldSite;
      days: number;
      /** Whose numbers: the scanned page's, or the whole site's (the page had too few page views). */
      scope: 'page' | 'site';
      /** The scanned page's path (also when the numbers are the site's). */
      path: string;
      /** Page views measured in the window (not scaled by the sample rate), of the page or the site. */
      pageViews: number;
      metrics: Readonly<Record<FieldMetric, FieldMetricNumbers>>;
      /** The site's INP culprits whose scripts the scan's findings name, and the page's LCP element if the lab's. */
      links: FieldLinks;
    };

/** The slowest pages by LCP read for the scanned page's field LCP element. */
const LCP_PAGES_READ = 100;

/** Fewest page views of the page before its own numbers are shown instead of the site's. */
export const FIELD_MIN_PAGE_VIEWS = CWV_MIN_SAMPLES;

/** The host and page of a scan URL as the live data knows them; null for a URL core/url.ts refuses. */
export function fieldPageOf(scanUrl: string): { host: string; path: string } | null {
  const normalised = normaliseScanUrl(scanUrl);
  if (!normalised.ok) return null;
  return { host: normalised.host, path: new URL(normalised.url).pathname.slice(0, BEACON_LIMITS.pathLength) };
}

export async function fieldDataForScan(
  deps: FieldDataDeps,
  owner: { id: number; plan: Plan },
  scan: { url: string; result: Pick<ScanResultRecord, 'findings' | 'diagnostics'> },
): Promise<FieldData> {
  const scanUrl = scan.url;
  const page = fieldPageOf(scanUrl);
  if (!page || !mayUseLiveData(owner.plan)) return { kind: 'no_site' };
  const found = await deps.rumSites.findOwnedByDomain(owner.id, page.host);
  if (!found) return { kind: 'no_site' };
  const site: FieldSite = { id: found.id, domain: found.domain };
  const window = rollingDaysWindow(FIELD_DAYS, deps.clock());

  const numbers = async (path: string | undefined) => {
    const [summary, split] = await Promise.all([
      deps.rum.summary(site.id, window, 'all', path),
      deps.rum.navigationSplit(site.id, window, 'all', path),
    ]);
    const pageViews = split.reduce((sum, share) => sum + share.pageViews, 0);
    const metrics = Object.fromEntries(
      FIELD_METRICS.map((metric) => [metric, { p75: summary[metric].p75, samples: summary[metric].samples }]),
    ) as Record<FieldMetric, FieldMetricNumbers>;
    return { pageViews, metrics };
  };

  // Culprits of the whole site (a script slows every page it runs on); the LCP element of the scanned page.
  const links = async () => {
    const [culprits, lcp] = await Promise.all([
      deps.rum.inpCulprits(site, window, 'all'),
      deps.rum.pages(site.id, 'LCP', window, LCP_PAGES_READ, 'all'),
    ]);
    const lcpPages = lcp.map((row) => ({ path: row.path, element: row.attribution?.target || null }));
    return linkFieldToLab(labEvidence(scan.result), scanUrl, culprits.culprits, lcpPages);
  };

  try {
    const [ofPage, fieldLinks] = await Promise.all([numbers(page.path), links()]);
    if (ofPage.pageViews >= FIELD_MIN_PAGE_VIEWS)
      return { kind: 'measured', site, days: FIELD_DAYS, scope: 'page', path: page.path, ...ofPage, links: fieldLinks };
    const ofSite = await numbers(undefined);
    if (ofSite.pageViews === 0) return { kind: 'no_data', site, days: FIELD_DAYS };
    return { kind: 'measured', site, days: FIELD_DAYS, scope: 'site', path: page.path, ...ofSite, links: fieldLinks };
  } catch (error) {
    if (error instanceof RumDataUnavailable) return { kind: 'unavailable', site, days: FIELD_DAYS };
    throw error;
  }
}
