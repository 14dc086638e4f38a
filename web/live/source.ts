import type { Clock } from '../../core/clock.ts';
import { cwvVerdict, RUM_METRICS, type RumMetric } from '../../core/rum/metrics.ts';
import { FIELD_DAYS, historyWindow, periodWindow, rollingDaysWindow } from '../../core/rum/periods.ts';
import {
  RumDataUnavailable,
  type InpCulprits,
  type LcpPhaseRow,
  type LcpPhases,
  type PageAttribution,
  type RumQueries,
  type SlowPage as QueriedPage,
} from '../../core/rum/queries.ts';
import { planFor, type PlanKey } from '../../core/plans.ts';
import { collectorScriptUrl, embedSnippet, normaliseRumDomain, type RumSite } from '../../core/rum/site.ts';
import type { RumAlertStore } from '../../db/store/rum-alerts.ts';
import type { RumSiteStore } from '../../db/store/rum-sites.ts';
import type { ScanStore } from '../../db/store/scans.ts';
import { labScansOfHost, linkLabToField } from '../../services/lab-field-links.ts';
import { createRumAlert, deleteRumAlert, listRumAlerts } from '../../services/rum-alerts.ts';
import { createRumSite, deleteRumSite, getRumSite, listRumSites, updateRumSite } from '../../services/rum-sites.ts';
import type { LiveDataSource } from './routes.ts';
import { utcMonth } from '../../core/rum/over-limit.ts';
import { culpritAnchor, lcpPageAnchor } from '../../core/rum/anchors.ts';
import type { DashboardNumbers, DeviceFilter, LcpPhasesRow, LiveSite, Period, SlowPage } from './model.ts';

export interface LiveSourceDeps {
  rumSites: RumSiteStore;
  rumAlerts: RumAlertStore;
  clock: Clock;
  ingestPublicUrl: string;
  /** The live-data queries (ClickHouse). */
  rum: RumQueries;
  /** The owner's scans, for the links from diagnostics to lab findings. */
  scans: Pick<ScanStore, 'latestPerUrlOnHost'>;
}

const MAX_LISTED = 50;
const HISTORY_DAYS = 30;
const SLOWEST = 10;

const perMetric = <T>(value: (metric: RumMetric) => T): Record<RumMetric, T> =>
  Object.fromEntries(RUM_METRICS.map((metric) => [metric, value(metric)])) as Record<RumMetric, T>;

/** A page of `pages` or of `lcpPhases` (the same ranking and attribution rule), as the dashboard lists it. */
const slowPage = (
  page: Pick<QueriedPage, 'path' | 'p75' | 'samples'> & { attribution: Pick<PageAttribution, 'target' | 'url'> | null },
): SlowPage => ({
  path: page.path,
  p75: page.p75,
  samples: page.samples,
  target: page.attribution?.target || null,
  url: page.attribution?.url || null,
});

const phasesRow = (row: LcpPhaseRow, path: string | null): LcpPhasesRow => ({
  path,
  anchor: path === null ? 'lcp-site' : lcpPageAnchor(path),
  p75: row.p75,
  samples: row.samples,
  target: row.attribution?.target || null,
  url: row.attribution?.url || null,
  phaseSamples: row.phaseSamples,
  phases: row.phases,
});

const lcpPhasesRows = (result: LcpPhases): LcpPhasesRow[] => [
  ...(result.site ? [phasesRow(result.site, null)] : []),
  ...result.pages.map((page) => phasesRow(page, page.path)),
];

const culpritsView = (result: InpCulprits): DashboardNumbers['culprits'] => ({
  ...result,
  culprits: result.culprits.map((culprit) => ({ ...culprit, anchor: culpritAnchor(culprit) })),
});

/**
 * One site's dashboard from the live-data queries: the summary, 30 days of history per metric, the slowest
 * pages by LCP and INP, the INP culprits (of the site or of one page) and LCP phases, navigation types, this
 * month's refusals.
 */
async function dashboardNumbers(
  rum: RumQueries,
  site: LiveSite,
  period: Period,
  device: DeviceFilter,
  culpritPath: string | null,
  now: Date,
): Promise<DashboardNumbers> {
  const siteId = site.id;
  const window = periodWindow(period, now);
  const days = historyWindow(HISTORY_DAYS, now);
  // The slowest pages by LCP are lcpPhases' pages: the same query as `pages`, with the phases beside.
  const [summary, history, slowInp, navigation, rejections, culprits, lcpPhases] = await Promise.all([
    rum.summary(siteId, window, device),
    Promise.all(RUM_METRICS.map((metric) => rum.history(siteId, metric, days, device))),
    rum.pages(siteId, 'INP', window, SLOWEST, device),
    rum.navigationSplit(siteId, window, device),
    rum.rejectionsThisMonth([siteId], now),
    rum.inpCulprits(site, window, device, culpritPath ?? undefined),
    rum.lcpPhases(siteId, window, SLOWEST, device),
  ]);
  return {
    metrics: perMetric((metric) => {
      const stats = summary[metric];
      return {
        p75: stats.p75,
        samples: stats.samples,
        shares: { good: stats.good, 'needs-improvement': stats.needsImprovement, poor: stats.poor },
      };
    }),
    history: perMetric((metric) =>
      history[RUM_METRICS.indexOf(metric)]!.map((day) => ({ date: day.date, p75: day.p75, samples: day.samples })),
    ),
    slowest: { LCP: lcpPhases.pages.map(slowPage), INP: slowInp.map(slowPage) },
    culprits: culpritsView(culprits),
    lcpPhases: lcpPhasesRows(lcpPhases),
    navigation: navigation.map((row) => ({ type: row.navigation, pageviews: row.pageViews })),
    rejections: Object.entries(rejections.get(siteId) ?? {})
      .map(([reason, beacons]) => ({ reason, beacons }))
      .sort((a, b) => b.beacons - a.beacons || a.reason.localeCompare(b.reason)),
  };
}

/** The pages' data source from the site service (services/rum-sites.ts) and the ClickHouse numbers. */
export function liveDataSource(deps: LiveSourceDeps): LiveDataSource {
  const service = { rumSites: deps.rumSites, clock: deps.clock };
  const alertService = { rumSites: deps.rumSites, rumAlerts: deps.rumAlerts, clock: deps.clock };
  const toView = (
    site: RumSite,
    plan: PlanKey,
    pageviews: number | null,
    alertCount: number,
    limitReachedAt: Date | null,
  ): LiveSite => ({
    id: site.id,
    domain: site.domain,
    active: site.active,
    sampleRate: site.sampleRate,
    embedSnippet: embedSnippet(collectorScriptUrl(deps.ingestPublicUrl), site.publicId, site.sampleRate),
    pageviewsThisMonth: pageviews,
    monthlyLimit: planFor(plan).rumMonthlyPageviews,
    limitReachedAt,
    alertCount,
    createdAt: site.createdAt,
  });
  const views = async (sites: RumSite[], plan: PlanKey) => {
    // The list and the snippets stay useful while ClickHouse is away; only the counts are missing then.
    const counts = sites.length
      ? await deps.rum
          .pageviewsThisMonth(
            sites.map((s) => s.id),
            deps.clock(),
          )
          .catch((error: unknown) => {
            if (error instanceof RumDataUnavailable) return null;
            throw error;
          })
      : new Map<number, number>();
    const alerts = await Promise.all(sites.map((site) => deps.rumSites.countAlerts(site.id)));
    const reached = await deps.rumSites.limitReachedAt(
      sites.map((s) => s.id),
      utcMonth(deps.clock()),
    );
    return sites.map((site, i) =>
      toView(site, plan, counts ? (counts.get(site.id) ?? 0) : null, alerts[i]!, reached.get(site.id) ?? null),
    );
  };
  return {
    async listSites(user) {
      const page = await listRumSites(service, user, { page: 1, limit: MAX_LISTED });
      return views(page.items, user.plan);
    },
    async getSite(user, siteId) {
      const site = await getRumSite(service, user, siteId);
      return site ? (await views([site], user.plan))[0] : undefined;
    },
    async createSite(user, domain) {
      const outcome = await createRumSite(service, { id: user.id, plan: planFor(user.plan) }, { domain });
      if (outcome.kind === 'ok') return { site: toView(outcome.site, user.plan, 0, 0, null) };
      if (outcome.kind === 'plan_limit' || outcome.kind === 'plan_required') return { error: 'limit' };
      // The service refuses a well-formed domain only when the owner already has it.
      const normalised = normaliseRumDomain(domain);
      return { error: normalised.ok ? 'duplicate' : normalised.reason === 'ip_address' ? 'ip_address' : 'invalid' };
    },
    async setActive(user, siteId, active) {
      return (
        (await updateRumSite(service, { id: user.id, plan: planFor(user.plan) }, siteId, { active })).kind === 'ok'
      );
    },
    async setSampleRate(user, siteId, sampleRate) {
      return (
        (await updateRumSite(service, { id: user.id, plan: planFor(user.plan) }, siteId, { sample_rate: sampleRate }))
          .kind === 'ok'
      );
    },
    async deleteSite(user, siteId) {
      return (await deleteRumSite(service, { id: user.id, plan: planFor(user.plan) }, siteId)).kind === 'ok';
    },
    async listAlerts(user, siteId) {
      return listRumAlerts(alertService, user.id, siteId);
    },
    async createAlert(user, siteId, input) {
      const outcome = await createRumAlert(alertService, user.id, siteId, input);
      return outcome.kind === 'ok' ? 'created' : outcome.kind === 'invalid' ? { errors: outcome.errors } : 'not_found';
    },
    async deleteAlert(user, siteId, alertId) {
      return (await deleteRumAlert(alertService, user.id, siteId, alertId)).kind === 'deleted';
    },
    async dashboard(user, site, period, device, culpritPath, now) {
      const [numbers, scans] = await Promise.all([
        dashboardNumbers(deps.rum, site, period, device, culpritPath, now),
        labScansOfHost(deps.scans, user.id, site.domain, rollingDaysWindow(FIELD_DAYS, now).from),
      ]);
      const verdict = cwvVerdict(numbers.metrics);
      const lcpPages = numbers.lcpPhases.flatMap((row) =>
        row.path === null ? [] : [{ path: row.path, element: row.target }],
      );
      const links = linkLabToField(scans, numbers.culprits.culprits, lcpPages);
      return {
        ...numbers,
        labLinks: { culprits: links.culprits, lcpPages: links.lcpElements },
        cwv: { pass: verdict.cwv_pass, insufficient: verdict.cwv_insufficient_data },
        today: now.toISOString().slice(0, 10),
      };
    },
  };
}
