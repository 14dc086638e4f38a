import type { Clock } from '../core/clock.ts';
import { RUM_ALERT_LIMITS, type RumAlert, type RumAlertMode } from '../core/rum/alert-check.ts';
import { METRIC_RULES, type RumMetric } from '../core/rum/metrics.ts';
import type { RumAlertChanges, RumAlertStore } from '../db/store/rum-alerts.ts';
import type { RumSiteStore } from '../db/store/rum-sites.ts';

/** A configuration as the API sends it (types and ranges already checked by its JSON Schema). */
export interface RumAlertInput {
  title: string;
  mode: RumAlertMode;
  metric?: RumMetric;
  threshold?: number;
  window_minutes: number;
  min_samples: number;
  consecutive_threshold: number;
}

export type RumAlertUpdate = Partial<RumAlertInput>;

export type RumAlertOutcome =
  | { kind: 'ok'; alert: RumAlert }
  | { kind: 'deleted' }
  | { kind: 'not_found' }
  | { kind: 'invalid'; errors: Record<string, string[]> };

export interface RumAlertDeps {
  rumSites: RumSiteStore;
  rumAlerts: RumAlertStore;
  clock: Clock;
}

/**
 * The rules no JSON Schema says well: manual mode needs `metric` and `threshold` (at most the metric's largest
 * plausible value), auto mode takes neither (its thresholds are Google's, core/rum/alert-check.ts).
 */
function ruleErrors(rule: {
  mode: RumAlertMode;
  metric: RumMetric | null;
  threshold: number | null;
}): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  if (rule.mode === 'auto') {
    if (rule.metric !== null)
      errors.metric = ['The metric field is not allowed in auto mode (it watches LCP, INP and CLS).'];
    if (rule.threshold !== null)
      errors.threshold = ["The threshold field is not allowed in auto mode (it uses Google's poor thresholds)."];
    return errors;
  }
  if (rule.metric === null) errors.metric = ['The metric field is required in manual mode.'];
  if (rule.threshold === null) errors.threshold = ['The threshold field is required in manual mode.'];
  else if (rule.metric !== null && rule.threshold > METRIC_RULES[rule.metric].max) {
    errors.threshold = [`The threshold may not be greater than ${METRIC_RULES[rule.metric].max} for ${rule.metric}.`];
  }
  return errors;
}

const hasErrors = (errors: Record<string, string[]>) => Object.keys(errors).length > 0;

export async function createRumAlert(
  deps: RumAlertDeps,
  userId: number,
  siteId: number,
  input: RumAlertInput,
): Promise<RumAlertOutcome> {
  const site = await deps.rumSites.findOwned(userId, siteId);
  if (!site) return { kind: 'not_found' };
  const rule = { mode: input.mode, metric: input.metric ?? null, threshold: input.threshold ?? null };
  const errors = ruleErrors(rule);
  if (hasErrors(errors)) return { kind: 'invalid', errors };
  // Under the owner's lock, so two requests at once cannot pass the per-site cap together.
  return deps.rumSites.underOwnerLock(userId, async () => {
    if ((await deps.rumAlerts.countForSite(site.id)) >= RUM_ALERT_LIMITS.perSite) {
      return {
        kind: 'invalid',
        errors: { site: [`A site has at most ${RUM_ALERT_LIMITS.perSite} alert configurations; remove one first.`] },
      };
    }
    const alert = await deps.rumAlerts.insert({
      siteId: site.id,
      title: input.title,
      ...rule,
      windowMinutes: input.window_minutes,
      minSamples: input.min_samples,
      consecutiveThreshold: input.consecutive_threshold,
      createdAt: deps.clock(),
    });
    return { kind: 'ok', alert };
  });
}

/**
 * Changes a configuration. Switching to auto drops metric and threshold; switching to manual needs both (sent
 * now or kept from before). Any change to the rule starts its streak again (db/store/rum-alerts.ts).
 */
export async function updateRumAlert(
  deps: RumAlertDeps,
  userId: number,
  siteId: number,
  id: number,
  input: RumAlertUpdate,
): Promise<RumAlertOutcome> {
  const site = await deps.rumSites.findOwned(userId, siteId);
  const current = site && (await deps.rumAlerts.findForSite(site.id, id));
  if (!site || !current) return { kind: 'not_found' };
  const mode = input.mode ?? current.mode;
  const keep = mode === current.mode || mode === 'manual';
  const rule = {
    mode,
    metric: input.metric !== undefined ? input.metric : keep ? current.metric : null,
    threshold: input.threshold !== undefined ? input.threshold : keep ? current.threshold : null,
  };
  const errors = ruleErrors(rule);
  if (hasErrors(errors)) return { kind: 'invalid', errors };
  const changes: RumAlertChanges = {
    title: input.title,
    windowMinutes: input.window_minutes,
    minSamples: input.min_samples,
    consecutiveThreshold: input.consecutive_threshold,
  };
  if (rule.mode !== current.mode || rule.metric !== current.metric || rule.threshold !== current.threshold)
    Object.assign(changes, rule);
  const alert = await deps.rumAlerts.update(site.id, id, changes, deps.clock());
  return alert ? { kind: 'ok', alert } : { kind: 'not_found' };
}

export async function deleteRumAlert(
  deps: RumAlertDeps,
  userId: number,
  siteId: number,
  id: number,
): Promise<RumAlertOutcome> {
  const site = await deps.rumSites.findOwned(userId, siteId);
  if (!site || !(await deps.rumAlerts.delete(site.id, id))) return { kind: 'not_found' };
  return { kind: 'deleted' };
}

/** The site's configurations, or undefined when the caller has no such site. */
export async function listRumAlerts(
  deps: Pick<RumAlertDeps, 'rumSites' | 'rumAlerts'>,
  userId: number,
  siteId: number,
): Promise<RumAlert[] | undefined> {
  const site = await deps.rumSites.findOwned(userId, siteId);
  return site ? deps.rumAlerts.listForSite(site.id) : undefined;
}
