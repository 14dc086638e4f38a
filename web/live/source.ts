import type { Clock } from '../../core/clock.ts';
import type { RumDashboardSource } from '../../core/rum/dashboard.ts';
import { cwvVerdict } from '../../core/rum/metrics.ts';
import { planFor, type PlanKey } from '../../core/plans.ts';
import { collectorScriptUrl, embedSnippet, normaliseRumDomain, type RumSite } from '../../core/rum/site.ts';
import type { RumAlertStore } from '../../db/store/rum-alerts.ts';
import type { RumSiteStore } from '../../db/store/rum-sites.ts';
import { createRumAlert, deleteRumAlert, listRumAlerts } from '../../services/rum-alerts.ts';
import { createRumSite, deleteRumSite, getRumSite, listRumSites, updateRumSite } from '../../services/rum-sites.ts';
import type { LiveDataSource } from '../live-routes.ts';
import type { LiveSite } from './model.ts';

export interface LiveSourceDeps {
  rumSites: RumSiteStore;
  rumAlerts: RumAlertStore;
  clock: Clock;
  ingestPublicUrl: string;
  /** The measurements (ClickHouse): page views this month, the dashboard's numbers. */
  numbers: RumDashboardSource;
}

const MAX_LISTED = 50;

/** The pages' data source from the site service (services/rum-sites.ts) and the ClickHouse numbers. */
export function liveDataSource(deps: LiveSourceDeps): LiveDataSource {
  const service = { rumSites: deps.rumSites, clock: deps.clock };
  const alertService = { rumSites: deps.rumSites, rumAlerts: deps.rumAlerts, clock: deps.clock };
  const toView = (site: RumSite, plan: PlanKey, pageviews: number, alertCount: number): LiveSite => ({
    id: site.id,
    domain: site.domain,
    active: site.active,
    sampleRate: site.sampleRate,
    embedSnippet: embedSnippet(collectorScriptUrl(deps.ingestPublicUrl), site.publicId),
    pageviewsThisMonth: pageviews,
    monthlyLimit: planFor(plan).rumMonthlyPageviews,
    alertCount,
    createdAt: site.createdAt,
  });
  const views = async (sites: RumSite[], plan: PlanKey) => {
    const counts = sites.length ? await deps.numbers.pageviewsThisMonth(sites.map((s) => s.id), deps.clock()) : new Map<number, number>();
    const alerts = await Promise.all(sites.map((site) => deps.rumSites.countAlerts(site.id)));
    return sites.map((site, i) => toView(site, plan, counts.get(site.id) ?? 0, alerts[i]!));
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
      if (outcome.kind === 'ok') return { site: toView(outcome.site, user.plan, 0, 0) };
      if (outcome.kind === 'plan_limit' || outcome.kind === 'plan_required') return { error: 'limit' };
      // The service refuses a well-formed domain only when the owner already has it.
      return { error: normaliseRumDomain(domain).ok ? 'duplicate' : 'invalid' };
    },
    async setActive(user, siteId, active) {
      return (await updateRumSite(service, { id: user.id, plan: planFor(user.plan) }, siteId, { active })).kind === 'ok';
    },
    async setSampleRate(user, siteId, sampleRate) {
      return (await updateRumSite(service, { id: user.id, plan: planFor(user.plan) }, siteId, { sample_rate: sampleRate })).kind === 'ok';
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
    async dashboard(site, period, device, now) {
      const numbers = await deps.numbers.dashboard(site.id, period, device, now);
      const verdict = cwvVerdict(numbers.metrics);
      return { ...numbers, cwv: { pass: verdict.cwv_pass, insufficient: verdict.cwv_insufficient_data }, today: now.toISOString().slice(0, 10) };
    },
  };
}
