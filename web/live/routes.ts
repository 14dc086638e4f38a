import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { planFor, type PlanKey } from '../../core/plans.ts';
import type { Config } from '../../infra/config.ts';
import type { Clock } from '../../core/clock.ts';
import { RUM_ALERT_LIMITS, RUM_ALERT_MODES, type RumAlert, type RumAlertMode } from '../../core/rum/alert-check.ts';
import { BEACON_LIMITS } from '../../core/rum/beacon.ts';
import { isRumMetric, METRIC_RULES, type RumMetric } from '../../core/rum/metrics.ts';
import { DEPENDENCY_RETRY_AFTER_S, notFound, serviceUnavailable } from '../../http/errors.ts';
import { RumDataUnavailable } from '../../core/rum/queries.ts';
import type { RumAlertInput } from '../../services/rum-alerts.ts';
import { chromeFor, html } from '../chrome.ts';
import { ALERT_LABELS, type AlertNotice } from './alert-labels.ts';
import { alertsPage, DEFAULT_ALERT_FORM, type AlertFormValues } from './alerts-page.ts';
import { dashboardPage } from './dashboard-page.ts';
import { LIVE_LABELS, type LiveNotice } from './labels.ts';
import {
  DEVICE_FILTERS,
  LIVE_PATHS as P,
  PERIODS,
  type DashboardModel,
  type DeviceFilter,
  type DomainError,
  type LiveSite,
  type Period,
} from './model.ts';
import { COPY_SCRIPT, sitesPage } from './sites-page.ts';
import { pageLocale } from '../locale.ts';
import { readForm, webUser } from '../session.ts';

/**
 * What the live-data pages ask of the site service and the ClickHouse queries (web/live/source.ts builds it
 * from them); owner-scoped throughout: another user's site is `undefined`, which the pages answer with 404.
 */
export interface LiveUser {
  id: number;
  plan: PlanKey;
}

export interface LiveDataSource {
  listSites(user: LiveUser): Promise<LiveSite[]>;
  getSite(user: LiveUser, siteId: number): Promise<LiveSite | undefined>;
  createSite(user: LiveUser, domain: string): Promise<{ site: LiveSite } | { error: DomainError }>;
  setActive(user: LiveUser, siteId: number, active: boolean): Promise<boolean>;
  setSampleRate(user: LiveUser, siteId: number, sampleRate: number): Promise<boolean>;
  deleteSite(user: LiveUser, siteId: number): Promise<boolean>;
  /** The site's alert configurations; undefined for another user's site. */
  listAlerts(user: LiveUser, siteId: number): Promise<RumAlert[] | undefined>;
  createAlert(
    user: LiveUser,
    siteId: number,
    input: RumAlertInput,
  ): Promise<'created' | 'not_found' | { errors: Record<string, string[]> }>;
  deleteAlert(user: LiveUser, siteId: number, alertId: number): Promise<boolean>;
  /** The dashboard's numbers for one site, period and device; the INP culprits of one page when `culpritPath` is set. */
  dashboard(
    user: LiveUser,
    site: LiveSite,
    period: Period,
    device: DeviceFilter,
    culpritPath: string | null,
    now: Date,
  ): Promise<Omit<DashboardModel, 'locale' | 'chrome' | 'csrf' | 'site' | 'period' | 'device' | 'culpritPath'>>;
}

export interface LivePageDeps {
  config: Config;
  clock: Clock;
  live: LiveDataSource;
}

type Ctx = RouterContext;

/** The live-data sites and their dashboards (`/live/{id}` is the `rum_dashboard_url` of the rum.alert.* webhooks). */
export function mountLivePages(router: Router, deps: LivePageDeps): void {
  const on = (handler: (deps: LivePageDeps, ctx: Ctx) => Promise<void> | void) => (ctx: Ctx) => handler(deps, ctx);
  router.get(P.copyScript, on(serveCopyScript));
  router.get(P.sites, on(showSites));
  router.post(P.sites, on(addSite));
  router.post('/live/:id/active', on(changeActive));
  router.post('/live/:id/sample-rate', on(changeSampleRate));
  router.post('/live/:id/delete', on(removeSite));
  router.get('/live/:id/alerts', on(showAlerts));
  router.post('/live/:id/alerts', on(addAlert));
  router.post('/live/:id/alerts/:alertId/delete', on(removeAlert));
  router.get('/live/:id', on(showDashboard));
}

/** The signed-in user (with their plan), or a redirect to sign-in. */
function signedIn(ctx: Ctx): LiveUser | undefined {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : P.sites)}`);
  return user && { id: user.id, plan: user.plan as PlanKey };
}

function back(ctx: Ctx, notice: LiveNotice): void {
  ctx.status = 303;
  ctx.redirect(`${P.sites}?notice=${notice}`);
}

const hasLiveData = (plan: PlanKey) => planFor(plan).maxRumSites > 0;

async function renderSites(
  deps: LivePageDeps,
  ctx: Ctx,
  user: LiveUser,
  extra: {
    add?: { domain: string; error: string };
    sampleRateError?: { siteId: number; value: string; error: string };
  } = {},
  status = 200,
): Promise<void> {
  const chrome = chromeFor(deps, ctx, 'live');
  const locale = chrome.locale;
  const plan = planFor(user.plan);
  const allowed = hasLiveData(user.plan);
  const notice =
    typeof ctx.query.notice === 'string' && Object.hasOwn(LIVE_LABELS[locale].notices, ctx.query.notice)
      ? LIVE_LABELS[locale].notices[ctx.query.notice as LiveNotice]
      : undefined;
  html(
    ctx,
    sitesPage({
      locale,
      chrome,
      csrf: chrome.csrf!,
      planLabel: plan.label,
      maxSites: allowed ? plan.maxRumSites : null,
      sites: allowed ? await deps.live.listSites(user) : [],
      notice,
      ...extra,
    }),
    status,
  );
}

function serveCopyScript(_deps: LivePageDeps, ctx: Ctx): void {
  ctx.type = 'application/javascript';
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = COPY_SCRIPT;
}

async function showSites(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (user) await renderSites(deps, ctx, user);
}

async function addSite(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  if (!hasLiveData(user.plan)) return renderSites(deps, ctx, user, {}, 403);
  const domain = (form.get('domain') ?? '').trim();
  const outcome = domain ? await deps.live.createSite(user, domain) : { error: 'required' as const };
  if ('site' in outcome) return back(ctx, 'added');
  const text = LIVE_LABELS[pageLocale(ctx, deps.config)];
  await renderSites(
    deps,
    ctx,
    user,
    { add: { domain, error: text.domainErrors[outcome.error] } },
    outcome.error === 'limit' ? 403 : 422,
  );
}

async function changeActive(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const active = form.get('active') === 'true';
  if (!(await deps.live.setActive(user, siteIdParam(ctx), active))) throw notFound();
  back(ctx, active ? 'resumed' : 'paused');
}

async function changeSampleRate(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const siteId = siteIdParam(ctx);
  const value = (form.get('sample_rate') ?? '').trim();
  const rate = /^\d{1,3}$/.test(value) ? Number(value) : NaN;
  if (!(rate >= 1 && rate <= 100)) {
    if (!(await deps.live.getSite(user, siteId))) throw notFound();
    const text = LIVE_LABELS[pageLocale(ctx, deps.config)];
    return renderSites(deps, ctx, user, { sampleRateError: { siteId, value, error: text.sampleRateInvalid } }, 422);
  }
  if (!(await deps.live.setSampleRate(user, siteId, rate))) throw notFound();
  back(ctx, 'sampleRate');
}

async function removeSite(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  if (!(await deps.live.deleteSite(user, siteIdParam(ctx)))) throw notFound();
  back(ctx, 'removed');
}

async function renderAlerts(
  deps: LivePageDeps,
  ctx: Ctx,
  user: LiveUser,
  siteId: number,
  extra: { values?: AlertFormValues; errors?: Record<string, string> } = {},
  status = 200,
): Promise<void> {
  const site = await deps.live.getSite(user, siteId);
  const alerts = site && (await deps.live.listAlerts(user, siteId));
  if (!site || !alerts) throw notFound();
  const chrome = chromeFor(deps, ctx, 'live');
  const labels = ALERT_LABELS[chrome.locale];
  const notice =
    typeof ctx.query.notice === 'string' && Object.hasOwn(labels.notices, ctx.query.notice)
      ? labels.notices[ctx.query.notice as AlertNotice]
      : undefined;
  html(ctx, alertsPage({ locale: chrome.locale, chrome, csrf: chrome.csrf!, site, alerts, notice, ...extra }), status);
}

async function showAlerts(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (user) await renderAlerts(deps, ctx, user, siteIdParam(ctx));
}

async function addAlert(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const form = await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const siteId = siteIdParam(ctx);
  const labels = ALERT_LABELS[pageLocale(ctx, deps.config)];
  const values = Object.fromEntries(
    Object.keys(DEFAULT_ALERT_FORM).map((name) => [name, (form.get(name) ?? '').trim()]),
  ) as unknown as AlertFormValues;
  const parsed = parseAlertForm(values);
  if ('errors' in parsed)
    return renderAlerts(
      deps,
      ctx,
      user,
      siteId,
      { values, errors: Object.fromEntries(parsed.errors.map((field) => [field, labels.errors[field]!])) },
      422,
    );
  const outcome = await deps.live.createAlert(user, siteId, parsed.input);
  if (outcome === 'not_found') throw notFound();
  if (outcome !== 'created') {
    const errors = Object.fromEntries(
      Object.entries(outcome.errors).map(([field, messages]) =>
        Object.hasOwn(labels.errors, field) ? [field, labels.errors[field]!] : ['form', messages.join(' ')],
      ),
    );
    return renderAlerts(deps, ctx, user, siteId, { values, errors }, 422);
  }
  ctx.status = 303;
  ctx.redirect(`${P.alerts(siteId)}?notice=added`);
}

async function removeAlert(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  await readForm(ctx, deps.config);
  const user = signedIn(ctx);
  if (!user) return;
  const siteId = siteIdParam(ctx);
  const alertId = /^[1-9]\d{0,9}$/.test(ctx.params.alertId ?? '') ? Number(ctx.params.alertId) : NaN;
  if (!Number.isSafeInteger(alertId) || !(await deps.live.deleteAlert(user, siteId, alertId))) throw notFound();
  ctx.status = 303;
  ctx.redirect(`${P.alerts(siteId)}?notice=removed`);
}

async function showDashboard(deps: LivePageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const site = await deps.live.getSite(user, siteIdParam(ctx));
  if (!site) throw notFound();
  const period = oneOf(ctx.query.period, PERIODS, '24h');
  const device = oneOf(ctx.query.device, DEVICE_FILTERS, 'all');
  const culpritPath = pagePath(ctx.query.page);
  const chrome = chromeFor(deps, ctx, 'live');
  const numbers = await deps.live
    .dashboard(user, site, period, device, culpritPath, deps.clock())
    .catch((error: unknown) => {
      throw error instanceof RumDataUnavailable
        ? serviceUnavailable(LIVE_LABELS[chrome.locale].unavailable, DEPENDENCY_RETRY_AFTER_S, error)
        : error;
    });
  html(
    ctx,
    dashboardPage({ locale: chrome.locale, chrome, csrf: chrome.csrf!, site, period, device, culpritPath, ...numbers }),
  );
}

/** The `page` filter: a path as the collector sends it (starts with `/`, at most 1024 characters), else none. */
function pagePath(value: unknown): string | null {
  return typeof value === 'string' && value.startsWith('/') && value.length <= BEACON_LIMITS.pathLength ? value : null;
}

/** The add form's fields as the alert service takes them, or the fields that are wrong. */
function parseAlertForm(values: AlertFormValues): { input: RumAlertInput } | { errors: string[] } {
  const errors: string[] = [];
  const whole = (
    name: 'window_minutes' | 'min_samples' | 'consecutive_threshold',
    range: { min: number; max: number },
  ) => {
    const n = /^\d{1,6}$/.test(values[name]) ? Number(values[name]) : NaN;
    if (!(n >= range.min && n <= range.max)) errors.push(name);
    return n;
  };
  if (!values.title || values.title.length > RUM_ALERT_LIMITS.titleLength) errors.push('title');
  const mode = (RUM_ALERT_MODES as readonly string[]).includes(values.mode) ? (values.mode as RumAlertMode) : 'auto';
  const windowMinutes = whole('window_minutes', RUM_ALERT_LIMITS.windowMinutes);
  const minSamples = whole('min_samples', RUM_ALERT_LIMITS.minSamples);
  const consecutive = whole('consecutive_threshold', RUM_ALERT_LIMITS.consecutiveThreshold);
  let manual: { metric: RumMetric; threshold: number } | undefined;
  if (mode === 'manual') {
    const metric = isRumMetric(values.metric) ? values.metric : undefined;
    const threshold = /^\d+(\.\d+)?$/.test(values.threshold) ? Number(values.threshold) : NaN;
    if (!metric) errors.push('metric');
    if (!(threshold > 0) || (metric && threshold > METRIC_RULES[metric].max)) errors.push('threshold');
    if (metric) manual = { metric, threshold };
  }
  if (errors.length) return { errors };
  return {
    input: {
      title: values.title,
      mode,
      ...manual,
      window_minutes: windowMinutes,
      min_samples: minSamples,
      consecutive_threshold: consecutive,
    },
  };
}

/** A filter value from the query; anything else (absent, repeated, unknown) is the default, as the links never send it. */
function oneOf<T extends string>(value: unknown, allowed: readonly T[], fallback: T): T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

function siteIdParam(ctx: Ctx): number {
  const id = /^[1-9]\d{0,9}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id) || id > 2_147_483_647) throw notFound();
  return id;
}
