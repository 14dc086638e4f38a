/**
 * The plan table and every plan rule. Nothing else in the code compares plan names: it asks this module.
 *
 * Unlimited is represented as -1 in the integer fields the spec types (`api_daily_limit`, `limit_today`);
 * an unlimited plan never gets the daily 429 and its responses carry no X-RateLimit-* headers.
 */

export const PLAN_KEYS = ['free', 'starter', 'pro', 'agency'] as const;
export type PlanKey = (typeof PLAN_KEYS)[number];

export type Feature = 'api' | 'share_links' | 'live_data' | 'scan_auth' | 'webhooks' | 'oauth_authorize' | 'flows';

export const UNLIMITED = -1;

export interface Plan {
  key: PlanKey;
  label: string;
  /** Requests per UTC day; UNLIMITED (-1) for none. */
  apiDailyLimit: number;
  /** Scans a user may start per rolling hour (the spec leaves the number open). */
  hourlyScanLimit: number;
  /**
   * Scans of one account a region runs or has handed to its workers at once; the rest wait their turn
   * (`queued`) so other accounts' scans keep moving (see the region dispatcher, workflows/scan-dispatch.ts).
   */
  scansInFlightPerRegion: number;
  /**
   * Monitored scan targets (the spec's domains) an account may keep, active or paused. Free keeps one, managed
   * in the web area (Free has no API). A downgrade keeps the targets already there; only new ones are refused.
   */
  maxTargets: number;
  /** Page loads per form factor of a target's scheduled scan (median of runs, core/scan/median-run.ts). */
  scheduledRuns: number;
  /** The most page loads per form factor an on-demand scan may ask for (`runs` in POST /scans). */
  maxRunsPerScan: number;
  /** Live-data sites an account may keep (0 without the live_data feature). */
  maxRumSites: number;
  /** Page views per site and calendar month (UTC) the ingest service accepts; the spec's `monthly_limit`. */
  rumMonthlyPageviews: number;
  /**
   * Days a scan's stored Lighthouse results (the whole report, per form factor) are kept after the scan; the
   * retention sweep deletes older ones by the owner's current plan (services/lighthouse-reports.ts).
   */
  lighthouseReportDays: number;
  /** User flows (docs/flows.md) an account may keep (0 without the flows feature); a downgrade keeps those there. */
  maxFlows: number;
  /** Steps (actions and measurement markers) one flow may have; checked when a flow is saved. */
  maxFlowSteps: number;
  features: ReadonlySet<Feature>;
}

const STARTER_FEATURES: Feature[] = ['api', 'share_links', 'live_data', 'oauth_authorize', 'flows'];
const PRO_FEATURES: Feature[] = [...STARTER_FEATURES, 'scan_auth', 'webhooks'];

export const PLANS: Readonly<Record<PlanKey, Plan>> = {
  free: {
    key: 'free',
    label: 'Free',
    apiDailyLimit: 0,
    hourlyScanLimit: 5,
    scansInFlightPerRegion: 1,
    maxTargets: 1,
    scheduledRuns: 1,
    maxRunsPerScan: 1,
    maxRumSites: 0,
    rumMonthlyPageviews: 0,
    lighthouseReportDays: 7,
    maxFlows: 0,
    maxFlowSteps: 0,
    features: new Set(),
  },
  starter: {
    key: 'starter',
    label: 'Starter',
    apiDailyLimit: 500,
    hourlyScanLimit: 30,
    scansInFlightPerRegion: 2,
    maxTargets: 5,
    scheduledRuns: 3,
    maxRunsPerScan: 3,
    maxRumSites: 2,
    rumMonthlyPageviews: 100_000,
    lighthouseReportDays: 30,
    maxFlows: 2,
    maxFlowSteps: 15,
    features: new Set(STARTER_FEATURES),
  },
  pro: {
    key: 'pro',
    label: 'Pro',
    apiDailyLimit: 5000,
    hourlyScanLimit: 120,
    scansInFlightPerRegion: 3,
    maxTargets: 25,
    scheduledRuns: 3,
    maxRunsPerScan: 5,
    maxRumSites: 5,
    rumMonthlyPageviews: 1_000_000,
    lighthouseReportDays: 90,
    maxFlows: 10,
    maxFlowSteps: 30,
    features: new Set(PRO_FEATURES),
  },
  agency: {
    key: 'agency',
    label: 'Agency',
    apiDailyLimit: UNLIMITED,
    hourlyScanLimit: 600,
    scansInFlightPerRegion: 6,
    maxTargets: 1000,
    scheduledRuns: 5,
    maxRunsPerScan: 5,
    maxRumSites: 50,
    rumMonthlyPageviews: 10_000_000,
    lighthouseReportDays: 365,
    maxFlows: 50,
    maxFlowSteps: 50,
    features: new Set(PRO_FEATURES),
  },
};

export function isPlanKey(value: string): value is PlanKey {
  return (PLAN_KEYS as readonly string[]).includes(value);
}

export function planFor(key: string): Plan {
  if (!isPlanKey(key)) throw new Error(`unknown plan ${key}`);
  return PLANS[key];
}

export function hasFeature(plan: Plan, feature: Feature): boolean {
  return plan.features.has(feature);
}

export function isUnlimited(limit: number): boolean {
  return limit === UNLIMITED;
}

/** Every plan that has a feature (for queries that filter users by plan, such as the webhook outbox). */
export function plansWith(feature: Feature): PlanKey[] {
  return PLAN_KEYS.filter((key) => hasFeature(PLANS[key], feature));
}

/** The cheapest plan that has a feature, for error messages ("upgrade to Pro"). */
export function cheapestPlanWith(feature: Feature): Plan {
  const plan = PLAN_KEYS.map((key) => PLANS[key]).find((p) => hasFeature(p, feature));
  if (!plan) throw new Error(`no plan has ${feature}`);
  return plan;
}

/** The cheapest plan that keeps more than `count` targets (for "upgrade to Pro"); undefined when none does. */
export function cheapestPlanWithMoreTargets(count: number): Plan | undefined {
  return PLAN_KEYS.map((key) => PLANS[key]).find((p) => p.maxTargets > count);
}

/** The cheapest plan that keeps more than `count` live-data sites; undefined when none does. */
export function cheapestPlanWithMoreRumSites(count: number): Plan | undefined {
  return PLAN_KEYS.map((key) => PLANS[key]).find((p) => p.maxRumSites > count);
}

/** The cheapest plan that keeps more than `count` flows; undefined when none does. */
export function cheapestPlanWithMoreFlows(count: number): Plan | undefined {
  return PLAN_KEYS.map((key) => PLANS[key]).find((p) => p.maxFlows > count);
}

/** The cheapest plan whose flows may have `steps` steps; undefined when none may. */
export function cheapestPlanAllowingFlowSteps(steps: number): Plan | undefined {
  return PLAN_KEYS.map((key) => PLANS[key]).find((p) => hasFeature(p, 'flows') && p.maxFlowSteps >= steps);
}

/** The cheapest plan whose on-demand scans may ask for `runs` page loads, or null when none may. */
export function cheapestPlanAllowingRuns(runs: number): Plan | null {
  return PLAN_KEYS.map((key) => PLANS[key]).find((p) => p.maxRunsPerScan >= runs) ?? null;
}

/** The spec's `plan` object in GET /me. */
export function planView(plan: Plan): { key: PlanKey; label: string; api_enabled: boolean; api_daily_limit: number } {
  return {
    key: plan.key,
    label: plan.label,
    api_enabled: hasFeature(plan, 'api'),
    api_daily_limit: plan.apiDailyLimit,
  };
}

/** The next plan up the table, or undefined for the largest. */
export function nextPlanUp(plan: Plan): Plan | undefined {
  const next = PLAN_KEYS[PLAN_KEYS.indexOf(plan.key) + 1];
  return next ? PLANS[next] : undefined;
}

/** The limits a user sees on the plan page, in its order (each a number field of Plan). */
export const SHOWN_LIMITS = [
  'apiDailyLimit',
  'hourlyScanLimit',
  'maxTargets',
  'maxRunsPerScan',
  'maxRumSites',
  'rumMonthlyPageviews',
  'lighthouseReportDays',
  'maxFlows',
  'maxFlowSteps',
] as const satisfies ReadonlyArray<keyof Plan>;
export type ShownLimit = (typeof SHOWN_LIMITS)[number];

/** What `to` adds over `from`: each shown limit that differs (UNLIMITED counts as the most), and its new features. */
export function planDifferences(
  from: Plan,
  to: Plan,
): { limits: Array<{ limit: ShownLimit; from: number; to: number }>; features: Feature[] } {
  return {
    limits: SHOWN_LIMITS.filter((limit) => from[limit] !== to[limit]).map((limit) => ({
      limit,
      from: from[limit],
      to: to[limit],
    })),
    features: [...to.features].filter((feature) => !from.features.has(feature)),
  };
}
