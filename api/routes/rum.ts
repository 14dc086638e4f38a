import type { Clock } from '../../core/clock.ts';
import type { Config } from '../../infra/config.ts';
import { DEVICES, RUM_METRICS, type RumMetric } from '../../core/rum/metrics.ts';
import { historyWindow, periodWindow, RUM_HISTORY_DAYS, RUM_PERIODS, type RumPeriod } from '../../core/rum/periods.ts';
import { RumDataUnavailable, type DeviceFilter, type RumQueries } from '../../core/rum/queries.ts';
import type { RumSite } from '../../core/rum/site.ts';
import type { RumSiteStore } from '../../db/store/rum-sites.ts';
import { DEPENDENCY_RETRY_AFTER_S, notFound, planRequired, serviceUnavailable } from '../../http/errors.ts';
import {
  createRumSite,
  deleteRumSite,
  getRumSite,
  listRumSites,
  mayUseLiveData,
  updateRumSite,
  type RumSiteInput,
  type RumSiteOutcome,
  type RumSiteUpdate,
} from '../../services/rum-sites.ts';
import { pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import { okOrThrow } from '../outcomes.ts';
import type { ApiContext, AnyRoute, ApiRoute, RouteInput } from '../route.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { envelope } from '../validation.ts';
import {
  rumHistoryItemSchema,
  rumHistoryMetaSchema,
  rumInpCulpritsMetaSchema,
  rumInpCulpritsSchema,
  rumLcpPhasesMetaSchema,
  rumLcpPhasesSchema,
  rumPageItemSchema,
  rumPagesMetaSchema,
  rumSiteDetailSchema,
  rumSiteSchema,
  rumSummarySchema,
} from '../views/rum-schemas.ts';
import { rumInpCulpritsView, rumLcpPhasesView } from '../views/rum-diagnostics.ts';
import {
  rumHistoryItemView,
  rumPageItemView,
  rumSiteDetailView,
  rumSiteView,
  rumSummaryView,
  type RumSiteViewContext,
} from '../views/rum-sites.ts';

export interface RumRouteDeps {
  rumSites: RumSiteStore;
  /** Live-data queries (ClickHouse). */
  rum: RumQueries;
  config: Config;
  clock: Clock;
}

const idParam = {
  id: { pattern: '^[1-9][0-9]{0,14}$', description: 'The site id from GET /rum/sites.', logAs: 'rumSiteId' as const },
};
const message = { type: 'object', required: ['message'], properties: { message: { type: 'string' } } };
const unavailable = {
  description: 'The live-data store (ClickHouse) is unreachable. Retry after `Retry-After` seconds.',
  schema: message,
};

const device = {
  type: 'string',
  enum: ['all', ...DEVICES],
  default: 'all',
  description: 'Only page views from this kind of device.',
};
const PAGE_METRICS = ['LCP', 'FCP', 'TTFB'] as const satisfies readonly RumMetric[];
const PAGE_PERIODS = ['24h', '7d'] as const satisfies readonly RumPeriod[];
const pagesPeriod = {
  type: 'string',
  enum: [...PAGE_PERIODS],
  default: '24h',
  description: '24h: the last 24 hours up to now. 7d: the 7 whole UTC days before today, and today up to now.',
};

interface SummaryQuery {
  period: RumPeriod;
  device: DeviceFilter;
}
interface HistoryQuery {
  metric: RumMetric;
  days: number;
  device: DeviceFilter;
}
interface CulpritsQuery {
  period: RumPeriod;
  device: DeviceFilter;
  path?: string;
}
interface PhasesQuery {
  period: RumPeriod;
  device: DeviceFilter;
  limit: number;
}
interface PagesQuery {
  metric: RumMetric;
  period: RumPeriod;
  limit: number;
  device: DeviceFilter;
}

/** Every /rum/sites endpoint but the alerts (api/routes/rum-alerts.ts). Starter and up; other users' sites are 404. */
export function rumRoutes(deps: RumRouteDeps): AnyRoute[] {
  const common = { tag: 'Live data', guard: requireLiveData };

  const list: ApiRoute<PageQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites',
    summary: "The caller's live-data sites, oldest first.",
    query: pageQuerySchema({ max: 50, default: 20 }),
    responses: {
      200: {
        description: 'A page of sites.',
        schema: envelope({ type: 'array', items: rumSiteSchema }, pageMetaSchema),
      },
    },
    handle: (ctx, input) => listSites(deps, ctx, input),
  };

  const create: ApiRoute<Record<string, never>, RumSiteInput> = {
    ...common,
    method: 'post',
    path: '/rum/sites',
    extension: true,
    summary: 'Add a live-data site for a domain; paste its `embed_snippet` into the pages.',
    description:
      'The domain is reduced to its host name (a URL is accepted; lower-cased, IDN as punycode). 403 when the plan keeps no more sites (`required_plan` names the plan that keeps more); 422 for an IP address, `localhost`, an invalid name, or a domain that already has a site.',
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['domain'],
      properties: {
        domain: {
          type: 'string',
          minLength: 1,
          maxLength: 2048,
          description: 'Host name, or a URL whose host is taken.',
        },
        sample_rate: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          default: 100,
          description: 'Percentage of page views the script reports.',
        },
      },
    },
    responses: { 201: { description: 'The new site.', schema: envelope(rumSiteDetailSchema) } },
    handle: (ctx, input) => respond(deps, ctx, 201, createRumSite(deps, owner(ctx), input.body)),
  };

  const show: ApiRoute = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id',
    summary:
      'One live-data site: the list fields, then `public_id`, `sample_rate`, `alert_count`, `rejected_this_month`, `updated_at` (extensions).',
    params: idParam,
    responses: { 200: { description: 'The site.', schema: envelope(rumSiteDetailSchema) } },
    handle: async (ctx, { params }) => {
      const site = await getRumSite(deps, owner(ctx), Number(params.id));
      if (!site) throw notFound();
      ctx.body = { data: await siteDetail(deps, ctx, site) };
    },
  };

  const update: ApiRoute<Record<string, never>, RumSiteUpdate> = {
    ...common,
    method: 'patch',
    path: '/rum/sites/:id',
    extension: true,
    summary: 'Turn collection off or on (`active`) or change the sample rate.',
    params: idParam,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        active: { type: 'boolean', description: 'False: beacons of the site are refused (reason `inactive`).' },
        sample_rate: {
          type: 'integer',
          minimum: 1,
          maximum: 100,
          description: 'Percentage of page views the script reports.',
        },
      },
    },
    responses: { 200: { description: 'The site.', schema: envelope(rumSiteDetailSchema) } },
    handle: (ctx, input) =>
      respond(deps, ctx, 200, updateRumSite(deps, owner(ctx), Number(input.params.id), input.body)),
  };

  const remove: ApiRoute = {
    ...common,
    method: 'delete',
    path: '/rum/sites/:id',
    extension: true,
    summary: 'Remove the site and its alert configurations; its beacons are refused from then on.',
    params: idParam,
    responses: { 204: { description: 'Deleted.' } },
    handle: (ctx, input) => respond(deps, ctx, 204, deleteRumSite(deps, owner(ctx), Number(input.params.id))),
  };

  const summary: ApiRoute<SummaryQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id/summary',
    summary: 'p75 per metric with its rating and sample count, and the Core Web Vitals verdict, over a rolling period.',
    params: idParam,
    query: {
      period: {
        type: 'string',
        enum: [...RUM_PERIODS],
        default: '24h',
        description:
          '24h: the last 24 hours up to now. 7d, 30d: the 7 or 30 whole UTC days before today, and today up to now.',
      },
      device,
    },
    responses: { 200: { description: 'The summary.', schema: envelope(rumSummarySchema) }, 503: unavailable },
    handle: async (ctx, { params, query }) => {
      const site = await ownedSite(deps, ctx, params);
      const window = periodWindow(query.period, deps.clock());
      const [metrics, navigation] = await live(
        Promise.all([
          deps.rum.summary(site.id, window, query.device),
          deps.rum.navigationSplit(site.id, window, query.device),
        ]),
      );
      ctx.body = { data: rumSummaryView(site, query.period, query.device, metrics, navigation) };
    },
  };

  const history: ApiRoute<HistoryQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id/history',
    summary: 'Daily p75 and p50 of one metric: one item per UTC day with data, newest first.',
    description: '`days` counts calendar days (UTC) including today.',
    params: idParam,
    query: {
      metric: { type: 'string', enum: [...RUM_METRICS] },
      days: {
        type: 'integer',
        enum: [...RUM_HISTORY_DAYS],
        default: 30,
        description: 'Calendar days (UTC) up to and including today.',
      },
      device,
    },
    requiredQuery: ['metric'],
    responses: {
      200: {
        description: 'History items.',
        schema: envelope({ type: 'array', items: rumHistoryItemSchema }, rumHistoryMetaSchema),
      },
      503: unavailable,
    },
    handle: async (ctx, { params, query }) => {
      const site = await ownedSite(deps, ctx, params);
      const days = await live(
        deps.rum.history(site.id, query.metric, historyWindow(query.days, deps.clock()), query.device),
      );
      ctx.body = {
        data: days.map(rumHistoryItemView),
        meta: { metric: query.metric, days: query.days, device: query.device },
      };
    },
  };

  const pages: ApiRoute<PagesQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id/pages',
    summary: 'The slowest paths by p75 of one metric, with their sample counts (ties: more samples first, then path).',
    params: idParam,
    query: {
      metric: { type: 'string', enum: [...PAGE_METRICS], default: 'LCP' },
      period: pagesPeriod,
      limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 },
      device: { ...device, description: 'Extension: only page views from this kind of device.' },
    },
    responses: {
      200: {
        description: 'Page items, slowest first.',
        schema: envelope({ type: 'array', items: rumPageItemSchema }, rumPagesMetaSchema),
      },
      503: unavailable,
    },
    handle: async (ctx, { params, query }) => {
      const site = await ownedSite(deps, ctx, params);
      const items = await live(
        deps.rum.pages(site.id, query.metric, periodWindow(query.period, deps.clock()), query.limit, query.device),
      );
      ctx.body = {
        data: items.map(rumPageItemView),
        meta: { metric: query.metric, period: query.period, device: query.device },
      };
    },
  };

  const culprits: ApiRoute<CulpritsQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id/inp-culprits',
    extension: true,
    summary:
      'The scripts behind slow INP interactions (above 200 ms), grouped into culprits, most slow interactions first.',
    description:
      "From the INP interactions' long-animation-frame scripts (current collectors, Chromium). A first-party script (the site's domain or a subdomain) is its own culprit; third-party scripts group by entity (third-party-web, as Lighthouse), or by host when it names none; scripts without a URL are the culprit `inline`. `share`: the culprit's slow interactions over all slow interactions of the period; `inp_p75` and `script_time_p75` are exact p75s over the culprit's slow interactions.",
    params: idParam,
    query: {
      period: pagesPeriod,
      device,
      path: {
        type: 'string',
        minLength: 1,
        maxLength: 1024,
        pattern: '^/',
        description: 'Only this page (the path as the collector sends it, location.pathname).',
      },
    },
    responses: {
      200: {
        description: 'Culprits of slow interactions.',
        schema: envelope(rumInpCulpritsSchema, rumInpCulpritsMetaSchema),
      },
      503: unavailable,
    },
    handle: async (ctx, { params, query }) => {
      const site = await ownedSite(deps, ctx, params);
      const window = periodWindow(query.period, deps.clock());
      const result = await live(deps.rum.inpCulprits(site, window, query.device, query.path));
      ctx.body = {
        data: rumInpCulpritsView(result),
        meta: { period: query.period, device: query.device, path: query.path ?? null },
      };
    },
  };

  const phases: ApiRoute<PhasesQuery> = {
    ...common,
    method: 'get',
    path: '/rum/sites/:id/lcp-phases',
    extension: true,
    summary: 'LCP p75 and the p75 of each of its four phases, for the whole site and its slowest pages by LCP.',
    params: idParam,
    query: { period: pagesPeriod, device, limit: { type: 'integer', minimum: 1, maximum: 100, default: 25 } },
    responses: {
      200: { description: 'LCP phases.', schema: envelope(rumLcpPhasesSchema, rumLcpPhasesMetaSchema) },
      503: unavailable,
    },
    handle: async (ctx, { params, query }) => {
      const site = await ownedSite(deps, ctx, params);
      const window = periodWindow(query.period, deps.clock());
      const result = await live(deps.rum.lcpPhases(site.id, window, query.limit, query.device));
      ctx.body = {
        data: rumLcpPhasesView(result),
        meta: { period: query.period, device: query.device, limit: query.limit },
      };
    },
  };

  return [list, create, show, update, remove, summary, history, pages, culprits, phases];
}

/** Live data is a plan feature: 403 before anything else is looked at (validation included). */
function requireLiveData(ctx: ApiContext): void {
  const plan = ctx.state.plan;
  if (!mayUseLiveData(plan))
    throw planRequired(
      'live_data',
      (needed) => `Live data needs the ${needed.label} plan or higher. Your plan is ${plan.label}.`,
    );
}

const owner = (ctx: ApiContext) => ({ id: ctx.state.user.id, plan: ctx.state.plan });
const viewContext = (deps: RumRouteDeps, ctx: ApiContext): RumSiteViewContext => ({
  ingestPublicUrl: deps.config.ingest.publicUrl,
  plan: ctx.state.plan,
});

async function ownedSite(deps: RumRouteDeps, ctx: ApiContext, params: Record<string, string>): Promise<RumSite> {
  const site = await getRumSite(deps, owner(ctx), Number(params.id));
  if (!site) throw notFound();
  return site;
}

/** A live-data query, with ClickHouse being away answered as 503 + Retry-After rather than 500. */
async function live<T>(pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof RumDataUnavailable)
      throw serviceUnavailable(
        'Live data cannot be read right now; try again shortly.',
        DEPENDENCY_RETRY_AFTER_S,
        error,
      );
    throw error;
  }
}

/** A live-data figure that may be left out (null) while ClickHouse is away, for the sites themselves. */
async function optional<T>(pending: Promise<T>): Promise<T | null> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof RumDataUnavailable) return null;
    throw error;
  }
}

async function listSites(
  deps: RumRouteDeps,
  ctx: ApiContext,
  { query }: RouteInput<PageQuery, undefined>,
): Promise<void> {
  const { items, meta } = await listRumSites(deps, owner(ctx), { limit: query.limit, page: query.page });
  const pageviews = await optional(
    deps.rum.pageviewsThisMonth(
      items.map((site) => site.id),
      deps.clock(),
    ),
  );
  const context = viewContext(deps, ctx);
  ctx.body = { data: items.map((site) => rumSiteView(site, context, pageviews?.get(site.id) ?? null)), meta };
}

async function siteDetail(deps: RumRouteDeps, ctx: ApiContext, site: RumSite) {
  const now = deps.clock();
  const [pageviews, rejections, alertCount] = await Promise.all([
    optional(deps.rum.pageviewsThisMonth([site.id], now)),
    optional(deps.rum.rejectionsThisMonth([site.id], now)),
    deps.rumSites.countAlerts(site.id),
  ]);
  return rumSiteDetailView(site, viewContext(deps, ctx), pageviews?.get(site.id) ?? null, {
    alertCount,
    rejectedThisMonth: rejections?.get(site.id) ?? null,
  });
}

async function respond(
  deps: RumRouteDeps,
  ctx: ApiContext,
  status: 200 | 201 | 204,
  pending: Promise<RumSiteOutcome>,
): Promise<void> {
  const { site } = okOrThrow(await pending, { things: 'live-data sites', feature: 'Live data' });
  recordLogIds(ctx, { rumSiteId: site.id });
  ctx.status = status;
  if (status !== 204) ctx.body = { data: await siteDetail(deps, ctx, site) };
}
