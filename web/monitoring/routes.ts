import { withDefaultScheme } from '../../core/url.ts';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { alertText } from '../../core/i18n/alerts.ts';
import type { Locale } from '../../core/i18n/locale.ts';
import { ALERT_SEVERITIES, type Alert, type AlertSeverity } from '../../core/monitoring/alert.ts';
import { nextScheduledScan } from '../../core/monitoring/schedule.ts';
import type { ScanTarget } from '../../core/monitoring/target.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../core/monitoring/thresholds.ts';
import { planFor } from '../../core/plans.ts';
import { DEPENDENCY_RETRY_AFTER_S, notFound, setRetryAfter } from '../../http/errors.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { createTarget, deleteTarget, updateTarget, type TargetOutcome } from '../../services/targets.ts';
import { runTargetNow } from '../../services/target-runs.ts';
import { dismissAlert, markAlertsRead, targetAlerts, undismissAlert } from '../../services/alert-actions.ts';
import { alertsPage, WEB_ALERT_STATUS_FILTERS, type WebAlertStatusFilter } from './alerts-page.ts';
import { LABELS, type Labels, type Notice } from './labels.ts';
import type { AlertRow, FieldErrors, HistoryScan, TargetSummary } from './model.ts';
import { targetPage } from './target-page.ts';
import { labChartsSection } from './lab-charts.ts';
import type { BudgetEdit } from './target-budgets.ts';
import { targetsPage, type TargetFormValues, type TargetRow } from './targets-page.ts';
import { chromeFor, html, pageText, type WorkflowPageDeps } from '../chrome.ts';
import { html as markup, type SafeHtml } from '../html.ts';
import { planLink } from '../plan/link.ts';
import { dashboardAlerts, dashboardTargets } from './dashboard-sections.ts';
import { localPath, pageLocale } from '../locale.ts';
import { readForm, webUser } from '../session.ts';
import { t } from '../text.ts';
import { rescanOfField } from '../scans/report-rescan.ts';

export type MonitoringPageDeps = WorkflowPageDeps;

type Ctx = RouterContext;
const HISTORY_LENGTH = 30;
const ALERTS_PER_PAGE = 20;

/** Targets, a target's history and the alerts, in the browser: the same services as the API's /domains and /alerts. */
export function mountMonitoringPages(router: Router, deps: MonitoringPageDeps): void {
  const on = (handler: (deps: MonitoringPageDeps, ctx: Ctx) => Promise<void>) => (ctx: Ctx) => handler(deps, ctx);
  router.get('/targets', on(showTargets));
  router.post('/targets', on(addTarget));
  router.get('/targets/:id', on(showTarget));
  router.post('/targets/:id/pause', on(pauseTarget));
  router.post('/targets/:id/resume', on(resumeTarget));
  router.post('/targets/:id/delete', on(removeTarget));
  router.post('/targets/:id/thresholds', on(changeThresholds));
  router.post('/targets/:id/run', on(runNow));
  router.get('/alerts', on(showAlerts));
  router.post('/alerts/read-all', on(markAllRead));
  router.post('/alerts/:id/read', on(markRead));
  router.post('/alerts/:id/dismiss', on(dismiss));
  router.post('/alerts/:id/undismiss', on(undismiss));
}

/** The signed-in user (with their plan), or a redirect to sign-in. */
export function signedIn(ctx: Ctx) {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : '/targets')}`);
  return user && { id: user.id, plan: planFor(user.plan) };
}

/** The target's or alert's id in the path (404 when it cannot be one), recorded for the access log line. */
export const idParam = (ctx: Ctx, logAs: 'targetId' | 'alertId'): number => {
  const id = /^[1-9]\d{0,14}$/.test(ctx.params.id ?? '') ? Number(ctx.params.id) : NaN;
  if (!Number.isSafeInteger(id)) throw notFound();
  recordLogIds(ctx, { [logAs]: id });
  return id;
};

const noticeOf = (ctx: Ctx, locale: Locale): Notice | undefined => {
  const value = ctx.query.notice;
  return typeof value === 'string' && value in LABELS[locale].notices ? (value as Notice) : undefined;
};

export function backTo(ctx: Ctx, form: URLSearchParams, fallback: string, notice: Notice): void {
  const path = localPath(form.get('next'), fallback);
  ctx.status = 303;
  ctx.redirect(`${path}${path.includes('?') ? '&' : '?'}notice=${notice}`);
}

/** A target as the pages show it, with when its schedule scans it next (the schedule's own rule). */
const summary = (target: ScanTarget, now: Date): TargetSummary => ({
  ...target,
  nextScanAt: nextScheduledScan(target, now),
});

async function history(deps: MonitoringPageDeps, targetId: number): Promise<HistoryScan[]> {
  const items = await deps.storage.targets.history(targetId, HISTORY_LENGTH);
  return items.map((item) => ({
    scanId: item.scanId,
    at: item.createdAt,
    score: item.score,
    runs: item.runOveralls.length > 1 ? item.runOveralls : undefined,
    trigger: item.trigger,
    scoringVersion: item.scoringVersion,
  }));
}

const alertRow = (alert: Alert, locale: Locale): AlertRow => ({
  ...alert,
  ...alertText(alert, locale),
  flowPublicId: alert.details.flow?.id ?? null,
});

/** Targets as the pages list them: each with its history and how many of its alerts are open (all of them, not a page). */
async function targetRows(deps: MonitoringPageDeps, userId: number, targets: ScanTarget[]): Promise<TargetRow[]> {
  const open = await deps.storage.alerts.listOwned(userId, { status: 'open' }, { limit: 1000, page: 1 });
  const counts = new Map<number, number>();
  for (const alert of open.items)
    if (alert.targetId !== null) counts.set(alert.targetId, (counts.get(alert.targetId) ?? 0) + 1);
  return Promise.all(
    targets.map(async (target) => ({
      ...summary(target, deps.clock()),
      history: await history(deps, target.id),
      openAlerts: counts.get(target.id) ?? 0,
    })),
  );
}

type TargetsExtra = {
  add?: { values: TargetFormValues; errors: FieldErrors };
  edit?: { targetId: number; values: { warning: string; critical: string }; errors: FieldErrors };
};

async function renderTargets(
  deps: MonitoringPageDeps,
  ctx: Ctx,
  user: { id: number; plan: ReturnType<typeof planFor> },
  extra: TargetsExtra = {},
  status = 200,
): Promise<void> {
  const chrome = chromeFor(deps, ctx, 'targets');
  const owned = await deps.storage.targets.listOwned(user.id, { limit: Math.max(1, user.plan.maxTargets), page: 1 });
  const targets = await targetRows(deps, user.id, owned.items);
  html(
    ctx,
    targetsPage({
      locale: chrome.locale,
      chrome,
      csrf: chrome.csrf!,
      targets,
      regions: deps.config.regions.available,
      defaultRegion: deps.config.regions.default,
      defaultThresholds: DEFAULT_THRESHOLDS.overall,
      limit: { max: user.plan.maxTargets, planLabel: user.plan.label },
      notice: noticeOf(ctx, chrome.locale),
      ...extra,
    }),
    status,
  );
}

async function showTargets(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (user) await renderTargets(deps, ctx, user);
}

/** Threshold fields of a form: integers 0–100; errors by field name, in the page's words. */
function readThresholds(
  form: URLSearchParams,
  text: Labels,
): { values: { warning: string; critical: string }; thresholds?: Thresholds; errors: FieldErrors } {
  const values = { warning: (form.get('warning') ?? '').trim(), critical: (form.get('critical') ?? '').trim() };
  const errors: FieldErrors = {};
  const parse = (name: 'warning' | 'critical') => {
    const value = values[name];
    if (!/^\d{1,3}$/.test(value) || Number(value) > 100) errors[name] = text.thresholdNumber;
    return Number(value);
  };
  const warning = parse('warning');
  const critical = parse('critical');
  if (!errors.warning && !errors.critical && critical > warning) errors.critical = text.criticalAboveWarning;
  return Object.keys(errors).length
    ? { values, errors }
    : { values, errors, thresholds: { overall: { warning, critical } } };
}

/** A service's field errors (`thresholds.overall.critical`, `url`) on the form's fields. */
function formErrors(outcome: Extract<TargetOutcome, { kind: 'invalid' }>): FieldErrors {
  const errors: FieldErrors = {};
  for (const [field, messages] of Object.entries(outcome.errors)) {
    const name = field.endsWith('.critical')
      ? 'critical'
      : field.endsWith('.warning')
        ? 'warning'
        : ['url', 'region'].includes(field)
          ? field
          : 'form';
    errors[name] ??= messages[0] ?? '';
  }
  return errors;
}

export const serviceDeps = (deps: MonitoringPageDeps) => ({
  targets: deps.storage.targets,
  temporal: deps.temporal,
  config: deps.config,
  clock: deps.clock,
});

export function failureMessage(outcome: TargetOutcome, text: Labels, locale: Locale): string | SafeHtml | null {
  switch (outcome.kind) {
    case 'plan_limit':
      return markup`${text.targetPlanLimit(outcome.plan.label, outcome.limit, outcome.upgrade)} ${planLink(locale)}`;
    case 'schedule_unavailable':
      return text.scheduleUnavailable;
    default:
      return null;
  }
}

/** The monitoring pages' words in the visitor's language. */
export const labelsFor = (deps: MonitoringPageDeps, ctx: Ctx): Labels => LABELS[pageLocale(ctx, deps.config)];

export const failureStatus = (outcome: TargetOutcome): number =>
  outcome.kind === 'plan_limit' ? 403 : outcome.kind === 'schedule_unavailable' ? 503 : 422;

async function addTarget(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  const text = pageText(deps, ctx);
  const region = form.get('region') ?? deps.config.regions.default;
  const read = readThresholds(form, labelsFor(deps, ctx));
  const values: TargetFormValues = { url: (form.get('url') ?? '').trim(), region, ...read.values };
  if (!deps.config.regions.available.includes(region)) read.errors.region = text.unknownRegion(region);
  if (!read.thresholds || read.errors.region)
    return renderTargets(deps, ctx, user, { add: { values, errors: read.errors } }, 422);
  const outcome = await createTarget(serviceDeps(deps), user, {
    url: withDefaultScheme(values.url),
    region,
    thresholds: read.thresholds,
  });
  if (outcome.kind === 'ok') return backTo(ctx, form, '/targets', 'added');
  if (outcome.kind === 'not_found') throw notFound();
  const errors =
    outcome.kind === 'invalid'
      ? formErrors(outcome)
      : { form: failureMessage(outcome, labelsFor(deps, ctx), pageLocale(ctx, deps.config))! };
  if (outcome.kind === 'schedule_unavailable') setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
  await renderTargets(deps, ctx, user, { add: { values, errors } }, failureStatus(outcome));
}

async function showTarget(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  await renderTarget(deps, ctx, user.id, idParam(ctx, 'targetId'));
}

/** Resolved or dismissed alerts shown on a target's page. */
const RECENT_CLOSED_ALERTS = 5;

const alertActions = (deps: MonitoringPageDeps) => ({ alerts: deps.storage.alerts, clock: deps.clock });

export async function renderTarget(
  deps: MonitoringPageDeps,
  ctx: Ctx,
  userId: number,
  id: number,
  edit?: { values: { warning: string; critical: string }; errors: FieldErrors },
  status = 200,
  runError?: string,
  budgetEdit?: BudgetEdit,
): Promise<void> {
  const target = await deps.storage.targets.findOwned(userId, id);
  if (!target) throw notFound();
  const chrome = chromeFor(deps, ctx, 'targets');
  const alerts = await targetAlerts(deps.storage.alerts, userId, id, RECENT_CLOSED_ALERTS);
  html(
    ctx,
    targetPage({
      locale: chrome.locale,
      chrome,
      csrf: chrome.csrf!,
      target: summary(target, deps.clock()),
      scans: await history(deps, id),
      labCharts: labChartsSection(
        await deps.storage.targets.labHistory(id, HISTORY_LENGTH),
        chrome.locale,
        target.budgets,
      ),
      runError,
      openAlerts: alerts.open.map((alert) => alertRow(alert, chrome.locale)),
      recentAlerts: alerts.recent.map((alert) => alertRow(alert, chrome.locale)),
      notice: noticeOf(ctx, chrome.locale),
      edit,
      budgetEdit,
    }),
    status,
  );
}

const pauseTarget = (deps: MonitoringPageDeps, ctx: Ctx): Promise<void> => changeActive(deps, ctx, false);
const resumeTarget = (deps: MonitoringPageDeps, ctx: Ctx): Promise<void> => changeActive(deps, ctx, true);

async function changeActive(deps: MonitoringPageDeps, ctx: Ctx, active: boolean): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'targetId');
  const form = await readForm(ctx, deps.config);
  const outcome = await updateTarget(serviceDeps(deps), user, id, { is_active: active });
  await afterChange(deps, ctx, form, outcome, active ? 'resumed' : 'paused');
}

async function removeTarget(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'targetId');
  const form = await readForm(ctx, deps.config);
  const outcome = await deleteTarget(serviceDeps(deps), user, id);
  // The target's own page is gone: back to the list.
  if (outcome.kind === 'ok') return backTo(ctx, new URLSearchParams({ next: '/targets' }), '/targets', 'removed');
  await afterChange(deps, ctx, form, outcome, 'removed');
}

async function afterChange(
  deps: MonitoringPageDeps,
  ctx: Ctx,
  form: URLSearchParams,
  outcome: TargetOutcome,
  notice: Notice,
): Promise<void> {
  if (outcome.kind === 'ok') return backTo(ctx, form, '/targets', notice);
  if (outcome.kind === 'not_found') throw notFound();
  const user = signedIn(ctx)!;
  if (outcome.kind === 'schedule_unavailable') setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
  const message =
    failureMessage(outcome, labelsFor(deps, ctx), pageLocale(ctx, deps.config)) ??
    (outcome.kind === 'invalid' ? (Object.values(outcome.errors).flat()[0] ?? '') : '');
  await renderTargets(
    deps,
    ctx,
    user,
    {
      add: {
        values: { url: '', region: deps.config.regions.default, warning: '70', critical: '50' },
        errors: { form: message },
      },
    },
    failureStatus(outcome),
  );
}

async function changeThresholds(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'targetId');
  const form = await readForm(ctx, deps.config);
  const read = readThresholds(form, labelsFor(deps, ctx));
  const fromTargetPage = localPath(form.get('next'), '/targets').startsWith(`/targets/${id}`);
  const rejected = (errors: FieldErrors, status: number) =>
    fromTargetPage
      ? renderTarget(deps, ctx, user.id, id, { values: read.values, errors }, status)
      : renderTargets(deps, ctx, user, { edit: { targetId: id, values: read.values, errors } }, status);
  if (!read.thresholds) {
    if (!(await deps.storage.targets.findOwned(user.id, id))) throw notFound();
    return rejected(read.errors, 422);
  }
  const current = await deps.storage.targets.findOwned(user.id, id);
  if (!current) throw notFound();
  // The page edits `overall`; category thresholds set through the API are kept.
  const outcome = await updateTarget(serviceDeps(deps), user, id, {
    thresholds: { ...current.thresholds, overall: read.thresholds.overall },
  });
  if (outcome.kind === 'ok') return backTo(ctx, form, '/targets', 'thresholds');
  if (outcome.kind === 'not_found') throw notFound();
  return rejected(
    outcome.kind === 'invalid'
      ? formErrors(outcome)
      : { form: failureMessage(outcome, labelsFor(deps, ctx), pageLocale(ctx, deps.config))! },
    failureStatus(outcome),
  );
}

/** Run now: a scan of the target at once (services/target-runs.ts), then its progress page. */
async function runNow(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'targetId');
  const form = await readForm(ctx, deps.config);
  const outcome = await runTargetNow(
    {
      scans: deps.storage.scans,
      targets: deps.storage.targets,
      temporal: deps.temporal,
      config: deps.config,
      clock: deps.clock,
    },
    user,
    id,
    { rescanOf: rescanOfField(form) },
  );
  const text = labelsFor(deps, ctx);
  switch (outcome.kind) {
    case 'not_found':
      throw notFound();
    case 'hourly_limit': {
      const seconds = setRetryAfter(ctx, { until: outcome.resetAt, now: deps.clock() });
      const message = text.runNowHourlyLimit(outcome.limit, Math.ceil(seconds / 60));
      return renderTarget(deps, ctx, user.id, id, undefined, 429, message);
    }
    case 'not_started':
      setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
      return renderTarget(deps, ctx, user.id, id, undefined, 503, text.runNowNotStarted);
    case 'ok':
      recordLogIds(ctx, { scanId: outcome.scan.publicId });
      ctx.status = 303;
      return ctx.redirect(`/scans/${outcome.scan.publicId}`);
  }
}

async function showAlerts(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const chrome = chromeFor(deps, ctx, 'alerts');
  const query = ctx.query as Record<string, unknown>;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const errors: FieldErrors = {};
  const statusValue = text('status');
  const severityValue = text('severity');
  const pageValue = text('page');
  const status = (WEB_ALERT_STATUS_FILTERS as readonly string[]).includes(statusValue)
    ? (statusValue as WebAlertStatusFilter)
    : null;
  const severity = (ALERT_SEVERITIES as readonly string[]).includes(severityValue)
    ? (severityValue as AlertSeverity)
    : null;
  const words = t(chrome.locale);
  if (statusValue && !status) errors.status = words.unknownStatus(statusValue);
  if (severityValue && !severity) errors.severity = LABELS[chrome.locale].unknownSeverity(severityValue);
  const page = /^[1-9]\d{0,5}$/.test(pageValue) ? Number(pageValue) : 1;
  if (pageValue && page === 1 && pageValue !== '1') errors.page = LABELS[chrome.locale].pagePositive;
  const found = await deps.storage.alerts.listOwned(
    user.id,
    { status: status ?? undefined, severity: severity ?? undefined },
    { limit: ALERTS_PER_PAGE, page },
  );
  html(
    ctx,
    alertsPage({
      locale: chrome.locale,
      chrome,
      csrf: chrome.csrf!,
      alerts: found.items.map((alert) => alertRow(alert, chrome.locale)),
      filters: { status, severity },
      meta: found.meta,
      // Counted once per request for the navigation's badge (web/routes.ts webVisitor).
      unreadCount: (ctx.state.unreadAlerts as number | undefined) ?? (await deps.storage.alerts.countUnread(user.id)),
      errors: Object.keys(errors).length ? errors : undefined,
      notice: noticeOf(ctx, chrome.locale),
    }),
    Object.keys(errors).length ? 422 : 200,
  );
}

async function markRead(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'alertId');
  const form = await readForm(ctx, deps.config);
  if (!(await deps.storage.alerts.findOwned(user.id, id))) throw notFound();
  await markAlertsRead(alertActions(deps), user.id, [id]);
  backTo(ctx, form, '/alerts', 'read');
}

async function markAllRead(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  await markAlertsRead(alertActions(deps), user.id, null);
  backTo(ctx, form, '/alerts', 'readAll');
}

async function dismiss(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'alertId');
  const form = await readForm(ctx, deps.config);
  if (!(await dismissAlert(alertActions(deps), user.id, id))) throw notFound();
  backTo(ctx, form, '/alerts', 'dismissed');
}

async function undismiss(deps: MonitoringPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const id = idParam(ctx, 'alertId');
  const form = await readForm(ctx, deps.config);
  if (!(await undismissAlert(alertActions(deps), user.id, id))) throw notFound();
  backTo(ctx, form, '/alerts', 'undismissed');
}

const DASHBOARD_ITEMS = 5;

/** The dashboard's monitoring sections: the first targets with their history, and the newest open alerts. */
export async function dashboardSections(deps: MonitoringPageDeps, userId: number, locale: Locale): Promise<SafeHtml[]> {
  const owned = await deps.storage.targets.listOwned(userId, { limit: DASHBOARD_ITEMS, page: 1 });
  const open = await deps.storage.alerts.listOwned(userId, { status: 'open' }, { limit: DASHBOARD_ITEMS, page: 1 });
  return [
    dashboardTargets(await targetRows(deps, userId, owned.items), owned.meta.total, locale),
    dashboardAlerts(
      open.items.map((alert) => alertRow(alert, locale)),
      locale,
    ),
  ];
}
