import type { Clock } from '../core/clock.ts';
import type { Page, PageQuery } from '../core/pagination.ts';
import { cheapestPlanWith, cheapestPlanWithMoreRumSites, hasFeature, type Plan } from '../core/plans.ts';
import { newRumSitePublicId, normaliseRumDomain, type RumSite } from '../core/rum/site.ts';
import type { RumSiteStore } from '../db/store/rum-sites.ts';

/**
 * Live-data sites: creating (plan feature, the plan's count, one site per domain and owner), changing,
 * removing and reading them. Shared by the API and the web area; knows nothing of HTTP. Measurements are in
 * ClickHouse (db/clickhouse/rum-queries.ts); removing a site leaves them there until their month is dropped,
 * unreachable (queries are by site id, and ids are never reused).
 */

export interface RumSiteServiceDeps {
  rumSites: RumSiteStore;
  clock: Clock;
}

export interface RumSiteOwner {
  id: number;
  plan: Plan;
}

/** A new site as asked for (the API's body or the web form, already checked for types). */
export interface RumSiteInput {
  domain: string;
  /** Share of page views the script reports, 1–100 (%); 100 when not given. */
  sample_rate?: number;
}

export interface RumSiteUpdate {
  active?: boolean;
  sample_rate?: number;
}

export type RumSiteOutcome =
  | { kind: 'ok'; site: RumSite }
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_found' }
  /** The plan has no live data; `needed`: the cheapest plan that has it. */
  | { kind: 'plan_required'; plan: Plan; needed: Plan }
  /** The plan keeps no more sites; `upgrade`: the cheapest plan that keeps more (none above the top plan). */
  | { kind: 'plan_limit'; limit: number; plan: Plan; upgrade: Plan | undefined };

export const MIN_SAMPLE_RATE = 1;
export const MAX_SAMPLE_RATE = 100;
export const DEFAULT_SAMPLE_RATE = 100;

/** Whether the plan includes live data (the API's 403 for every /rum endpoint, the web area's notice). */
export const mayUseLiveData = (plan: Plan): boolean => hasFeature(plan, 'live_data');

const invalid = (field: string, message: string): RumSiteOutcome => ({
  kind: 'invalid',
  errors: { [field]: [message] },
});

function sampleRateProblem(rate: number | undefined): RumSiteOutcome | null {
  if (rate === undefined) return null;
  if (!Number.isInteger(rate) || rate < MIN_SAMPLE_RATE || rate > MAX_SAMPLE_RATE) {
    return invalid(
      'sample_rate',
      `The sample_rate must be a whole number from ${MIN_SAMPLE_RATE} to ${MAX_SAMPLE_RATE}.`,
    );
  }
  return null;
}

/** Normalise the domain, check the plan (feature, then count) and duplicates, store the site with a fresh public id. */
export async function createRumSite(
  deps: RumSiteServiceDeps,
  owner: RumSiteOwner,
  input: RumSiteInput,
): Promise<RumSiteOutcome> {
  if (!mayUseLiveData(owner.plan))
    return { kind: 'plan_required', plan: owner.plan, needed: cheapestPlanWith('live_data') };
  const normalised = normaliseRumDomain(input.domain);
  if (!normalised.ok) return invalid('domain', normalised.error);
  const rateProblem = sampleRateProblem(input.sample_rate);
  if (rateProblem) return rateProblem;

  return deps.rumSites.underOwnerLock(owner.id, async (locked) => {
    const count = await locked.countOwned(owner.id);
    if (count >= owner.plan.maxRumSites) {
      return {
        kind: 'plan_limit',
        limit: owner.plan.maxRumSites,
        plan: owner.plan,
        upgrade: cheapestPlanWithMoreRumSites(count),
      };
    }
    if (await locked.findOwnedByDomain(owner.id, normalised.domain))
      return invalid('domain', 'You already have a live-data site for this domain.');
    const site = await locked.insert({
      userId: owner.id,
      publicId: newRumSitePublicId(),
      domain: normalised.domain,
      sampleRate: input.sample_rate ?? DEFAULT_SAMPLE_RATE,
      createdAt: deps.clock(),
    });
    return { kind: 'ok', site };
  });
}

/** Turn collection on or off (the ingest service refuses beacons of inactive sites) or change the sample rate. */
export async function updateRumSite(
  deps: RumSiteServiceDeps,
  owner: RumSiteOwner,
  id: number,
  update: RumSiteUpdate,
): Promise<RumSiteOutcome> {
  const rateProblem = sampleRateProblem(update.sample_rate);
  if (rateProblem) return rateProblem;
  const site = await deps.rumSites.update(
    owner.id,
    id,
    { active: update.active, sampleRate: update.sample_rate },
    deps.clock(),
  );
  return site ? { kind: 'ok', site } : { kind: 'not_found' };
}

/** Removes the site and its alert configurations (cascade). */
export async function deleteRumSite(
  deps: RumSiteServiceDeps,
  owner: RumSiteOwner,
  id: number,
): Promise<RumSiteOutcome> {
  const site = await deps.rumSites.findOwned(owner.id, id);
  if (!site || !(await deps.rumSites.delete(owner.id, id))) return { kind: 'not_found' };
  return { kind: 'ok', site };
}

/** The owner's site, or undefined for an unknown id or another user's site. */
export function getRumSite(
  deps: Pick<RumSiteServiceDeps, 'rumSites'>,
  owner: Pick<RumSiteOwner, 'id'>,
  id: number,
): Promise<RumSite | undefined> {
  return deps.rumSites.findOwned(owner.id, id);
}

/** The owner's sites, oldest first. */
export function listRumSites(
  deps: Pick<RumSiteServiceDeps, 'rumSites'>,
  owner: Pick<RumSiteOwner, 'id'>,
  page: PageQuery,
): Promise<Page<RumSite>> {
  return deps.rumSites.listOwned(owner.id, page);
}
