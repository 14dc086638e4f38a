import { withDefaultScheme } from '../../core/url.ts';
import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { utcDay } from '../../core/clock.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { cheapestPlanAllowingRuns, hasFeature, isUnlimited, planFor, type Plan } from '../../core/plans.ts';
import { MAX_RUNS } from '../../core/scan/lifecycle.ts';
import type { Scan, ScanStatus } from '../../core/scan/scan.ts';
import { HISTORY_SCANS } from '../../core/verdicts/verdict.ts';
import { DEPENDENCY_RETRY_AFTER_S, notFound, setRetryAfter } from '../../http/errors.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { assetUrl } from '../../services/assets.ts';
import { submitScan } from '../../services/scan-submission.ts';
import { chromeFor, html, type WorkflowPageDeps } from '../chrome.ts';
import { html as markup } from '../html.ts';
import { planLink } from '../plan/link.ts';
import { dashboardSections } from '../monitoring/routes.ts';
import { isLocale, localPath, pageLocale, rememberLocale } from '../locale.ts';
import { comparePage } from './compare-page.ts';
import { dashboardPage } from './dashboard-page.ts';
import { homePage } from './home-page.ts';
import { scanListPage } from './list-page.ts';
import { progressPage, progressState, PROGRESS_SCRIPT, PROGRESS_SCRIPT_VERSION } from './progress-page.ts';
import type { UrlBox } from './url-box.ts';
import { rescanOfField } from './report-rescan.ts';
import { readForm, webUser } from '../session.ts';
import { t } from '../text.ts';
import { scanText } from './labels.ts';
import { runsText } from './runs-labels.ts';

export type ScanPageDeps = WorkflowPageDeps;

type Ctx = RouterContext;
const SCAN_ID = new RegExp(PUBLIC_ID_PATTERN);
const STATUSES: readonly ScanStatus[] = ['queued', 'running', 'finished', 'failed'];

/** The product's pages around scanning: home and dashboard with the URL box, progress, the scans list, compare, language. */
export function mountScanPages(router: Router, deps: ScanPageDeps): void {
  const on = (handler: (deps: ScanPageDeps, ctx: Ctx) => Promise<void> | void) => (ctx: Ctx) => handler(deps, ctx);
  router.get('/', on(home));
  router.get('/scans/new', on(newScan));
  router.post('/scans', on(startScan));
  router.get('/scans', on(listScans));
  router.get('/scans/:id', on(showProgress));
  router.get('/scans/:id/events', on(streamProgress));
  router.get('/compare', on(compare));
  router.get('/language/:locale', on(switchLanguage));
  router.get('/static/progress.js', serveProgressScript);
}

function signedIn(ctx: Ctx) {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.url)}`);
  return user;
}

const box = (
  deps: ScanPageDeps,
  csrf: string | undefined,
  values: UrlBox['values'] = {},
  errors?: UrlBox['errors'],
  plan?: Plan,
): UrlBox => ({
  csrf,
  regions: deps.config.regions.available,
  values: { region: deps.config.regions.default, ...values },
  errors,
  runs: plan && runsOffer(plan),
});

/** The runs the box offers on a plan (POST /scans's `runs`, up to `maxRunsPerScan`), and the plan that allows more. */
function runsOffer(plan: Plan): UrlBox['runs'] {
  if (plan.maxRunsPerScan > 1) return { max: plan.maxRunsPerScan };
  const more = cheapestPlanAllowingRuns(plan.maxRunsPerScan + 1);
  return { max: plan.maxRunsPerScan, upgrade: more ? { plan: more.label, max: more.maxRunsPerScan } : undefined };
}

/**
 * The form's `runs`: none (one run), or a whole number from 1 to MAX_RUNS as the API's request schema allows;
 * anything else is refused as the API refuses it (422). Over the plan is submitScan's `runs_over_plan`.
 */
function runsField(value: string | null): number | undefined | 'invalid' {
  if (value === null || value === '') return undefined;
  if (!/^\d{1,2}$/.test(value)) return 'invalid';
  const runs = Number(value);
  return runs >= 1 && runs <= MAX_RUNS ? runs : 'invalid';
}

async function renderDashboard(
  deps: ScanPageDeps,
  ctx: Ctx,
  values: UrlBox['values'] = {},
  errors?: UrlBox['errors'],
  status = 200,
): Promise<void> {
  const user = webUser(ctx)!;
  const chrome = chromeFor(deps, ctx, 'dashboard');
  const plan = planFor(user.plan);
  const latest = await deps.storage.scans.listOwned(user.id, {}, { limit: 5, page: 1 });
  const used = await deps.storage.usage.usedOn(user.id, utcDay(deps.clock()).day);
  html(
    ctx,
    dashboardPage({
      chrome,
      box: box(deps, chrome.csrf, values, errors, plan),
      latestScans: latest.items,
      usage: {
        used,
        limit: isUnlimited(plan.apiDailyLimit) ? null : plan.apiDailyLimit,
        hasApi: hasFeature(plan, 'api'),
      },
      sections: await dashboardSections(deps, user.id, chrome.locale),
    }),
    status,
  );
}

async function home(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  if (webUser(ctx)) return renderDashboard(deps, ctx);
  html(ctx, homePage(chromeFor(deps, ctx, 'dashboard'), box(deps, undefined)));
}

/** The signed-out URL box lands here: sign in (or up) first, then the dashboard with the address filled in. */
async function newScan(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const url = typeof ctx.query.url === 'string' ? ctx.query.url.slice(0, 2048) : '';
  if (!webUser(ctx)) {
    const chrome = chromeFor(deps, ctx);
    return html(
      ctx,
      homePage(chrome, box(deps, undefined, { url }), scanText(chrome.locale).signInToScan).replace(
        /href="\/(login|signup)"/g,
        (_, page: string) => `href="/${page}?next=${encodeURIComponent(ctx.url)}"`,
      ),
    );
  }
  await renderDashboard(deps, ctx, { url });
}

async function startScan(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const form = await readForm(ctx, deps.config);
  const locale = pageLocale(ctx, deps.config);
  const region = form.get('region') || deps.config.regions.default;
  const runs = runsField(form.get('runs'));
  const values = {
    url: (form.get('url') ?? '').trim(),
    region,
    isPublic: form.get('public') === '1',
    runs: typeof runs === 'number' ? runs : undefined,
  };
  if (!deps.config.regions.available.includes(region))
    return renderDashboard(deps, ctx, values, { region: t(locale).unknownRegion(region) }, 422);
  // The URL box offers the plan's runs; "Scan again" on a report asks for the runs that scan had.
  if (runs === 'invalid')
    return renderDashboard(deps, ctx, values, { runs: runsText(locale).runsRange(MAX_RUNS) }, 422);
  const outcome = await submitScan(
    { scans: deps.storage.scans, temporal: deps.temporal, config: deps.config, clock: deps.clock },
    { id: user.id, plan: planFor(user.plan) },
    { url: withDefaultScheme(values.url), region, public: values.isPublic, force: form.get('force') === '1', runs },
    { rescanOf: rescanOfField(form) },
  );
  switch (outcome.kind) {
    case 'invalid':
      return renderDashboard(
        deps,
        ctx,
        values,
        Object.fromEntries(
          Object.entries(outcome.errors).map(([field, messages]) => [field.split('.')[0]!, messages[0] ?? '']),
        ),
        422,
      );
    case 'hourly_limit': {
      const seconds = setRetryAfter(ctx, { until: outcome.resetAt, now: deps.clock() });
      return renderDashboard(
        deps,
        ctx,
        values,
        { form: markup`${scanText(locale).hourlyLimit(outcome.limit, Math.ceil(seconds / 60))} ${planLink(locale)}` },
        429,
      );
    }
    case 'runs_over_plan':
      return renderDashboard(
        deps,
        ctx,
        values,
        {
          form: markup`${scanText(locale).runsOverPlan(outcome.runs, outcome.allowed, outcome.needed.label)} ${planLink(locale)}`,
        },
        403,
      );
    case 'not_started':
      setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
      return renderDashboard(deps, ctx, values, { form: scanText(locale).notStarted }, 503);
    case 'accepted':
      ctx.status = 303;
      // A reused result opens its report saying so, with its age and a button to scan now (report-rescan.ts).
      return ctx.redirect(
        outcome.cached ? `/reports/${outcome.scan.publicId}?cached=1` : `/scans/${outcome.scan.publicId}`,
      );
  }
}

async function listScans(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const query = ctx.query as Record<string, string | string[] | undefined>;
  const text = (name: string) => (typeof query[name] === 'string' ? (query[name] as string) : '');
  const domain = text('domain').trim().slice(0, 2048) || undefined;
  const statusValue = text('status');
  const status = (STATUSES as readonly string[]).includes(statusValue) ? (statusValue as ScanStatus) : undefined;
  const page = /^\d{1,6}$/.test(text('page')) && Number(text('page')) > 0 ? Number(text('page')) : 1;
  const found = await deps.storage.scans.listOwned(user.id, { domain, status }, { limit: 20, page });
  const invalid = statusValue !== '' && !status;
  html(
    ctx,
    scanListPage({
      chrome: chromeFor(deps, ctx, 'scans'),
      page: found,
      filters: { domain, status },
      errors: invalid ? { filters: t(pageLocale(ctx, deps.config)).unknownStatus(statusValue) } : undefined,
    }),
    invalid ? 422 : 200,
  );
}

async function ownedScan(deps: ScanPageDeps, ctx: Ctx, userId: number, id: string | undefined): Promise<Scan> {
  // The access log line names the scan, as the API's and the worker's lines do.
  if (id && SCAN_ID.test(id)) recordLogIds(ctx, { scanId: id });
  const scan = id && SCAN_ID.test(id) ? await deps.storage.scans.findOwned(userId, id) : undefined;
  if (!scan) throw notFound();
  return scan;
}

async function showProgress(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const scan = await ownedScan(deps, ctx, user.id, ctx.params.id);
  // Without JavaScript the page refreshes itself; once the scan has finished, the refresh lands on the report.
  if (scan.status === 'finished') {
    ctx.status = 303;
    return ctx.redirect(`/reports/${scan.publicId}`);
  }
  const chrome = chromeFor(deps, ctx, 'scans');
  html(ctx, progressPage(chrome, scan, chrome.csrf!));
}

const POLL_MS = 1000;
const STREAM_LIMIT_MS = 15 * 60_000;

/** Server-sent events: the scan's state whenever it changes (read from Postgres once a second), until it ends. */
async function streamProgress(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const user = webUser(ctx);
  if (!user) throw notFound();
  const first = await ownedScan(deps, ctx, user.id, ctx.params.id);
  const locale = pageLocale(ctx, deps.config);
  ctx.status = 200;
  ctx.type = 'text/event-stream';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Accel-Buffering', 'no');
  // The response is written here, not piped by Koa: a visitor leaving mid-scan closes it, which is no error to report.
  ctx.respond = false;
  const stream = ctx.res;
  stream.flushHeaders();
  ctx.req.socket.setTimeout(0);
  let last = '';
  let closed = false;
  const started = Date.now();
  const send = (scan: Scan) => {
    const data = JSON.stringify(progressState(scan, locale));
    if (data === last) return false;
    last = data;
    stream.write(`event: progress\ndata: ${data}\n\n`);
    return scan.status === 'finished' || scan.status === 'failed';
  };
  const stop = () => {
    if (closed) return;
    closed = true;
    stream.end();
  };
  stream.on('close', stop);
  stream.write('retry: 2000\n\n');
  let ended = send(first);
  void (async () => {
    while (!ended && !closed && Date.now() - started < STREAM_LIMIT_MS) {
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      if (closed) break;
      const scan = await deps.storage.scans.findOwned(user.id, first.publicId).catch(() => undefined);
      if (scan) ended = send(scan);
      else stream.write(': waiting\n\n');
    }
    stop();
  })();
}

function serveProgressScript(ctx: Ctx): void {
  ctx.type = 'application/javascript';
  ctx.set(
    'Cache-Control',
    ctx.query.v === PROGRESS_SCRIPT_VERSION ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
  );
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.body = PROGRESS_SCRIPT;
}

async function compare(deps: ScanPageDeps, ctx: Ctx): Promise<void> {
  const user = signedIn(ctx);
  if (!user) return;
  const picked = ([] as string[]).concat(ctx.query.scan ?? [], ctx.query.a ?? [], ctx.query.b ?? []);
  const chrome = chromeFor(deps, ctx, 'scans');
  // The refusal keeps the list (its first page) on screen with the choice ticked, so the visitor can correct it.
  const problem = async (message: string) =>
    html(
      ctx,
      scanListPage({
        chrome,
        page: await deps.storage.scans.listOwned(user.id, {}, { limit: 20, page: 1 }),
        filters: {},
        errors: { compare: message },
        picked,
      }),
      422,
    );
  if (picked.length !== 2 || picked[0] === picked[1]) return problem(scanText(chrome.locale).pickTwo);
  const scans = await Promise.all(picked.map((id) => ownedScan(deps, ctx, user.id, id)));
  if (scans.some((s) => s.status !== 'finished' || !s.result)) return problem(scanText(chrome.locale).notFinished);
  const [before, after] = scans.sort((x, y) => (x.finishedAt?.getTime() ?? 0) - (y.finishedAt?.getTime() ?? 0)) as [
    Scan,
    Scan,
  ];
  const imageUrl = (scan: Scan, asset: string) =>
    assetUrl(deps.config.baseUrl, deps.config.keys, scan, asset, deps.clock(), 'owner');
  // The noise band of single values is learned from the address's own scans, when both scans are of one address.
  const history =
    before.url === after.url
      ? (await deps.storage.scans.urlHistory(user.id, after.url, after.finishedAt!, HISTORY_SCANS)).map((h) => h.result)
      : [];
  html(ctx, comparePage({ chrome, before, after, imageUrl, history }));
}

function switchLanguage(deps: ScanPageDeps, ctx: Ctx): void {
  const locale = ctx.params.locale;
  if (!isLocale(locale)) throw notFound();
  rememberLocale(ctx, deps.config, locale);
  ctx.status = 303;
  ctx.redirect(localPath(ctx.query.next));
}
