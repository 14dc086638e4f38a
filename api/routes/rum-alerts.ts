import { okOrThrow } from '../outcomes.ts';
import { isoTimestamp } from '../../core/clock.ts';
import { hasFeature } from '../../core/plans.ts';
import { RUM_ALERT_LIMITS, RUM_ALERT_MODES, RUM_ALERT_STATUSES, type RumAlert } from '../../core/rum/alert-check.ts';
import { RUM_METRICS } from '../../core/rum/metrics.ts';
import { notFound, planRequired } from '../../http/errors.ts';
import {
  type RumAlertDeps,
  createRumAlert,
  deleteRumAlert,
  listRumAlerts,
  updateRumAlert,
  type RumAlertInput,
  type RumAlertOutcome,
  type RumAlertUpdate,
} from '../../services/rum-alerts.ts';
import type { AnyRoute, ApiContext, ApiRoute } from '../route.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { envelope, type JsonSchema } from '../validation.ts';

/** The routes need exactly what the service needs. */
export type RumAlertRouteDeps = RumAlertDeps;

const ID = '^[1-9][0-9]{0,14}$';
const siteParam = {
  id: { pattern: ID, description: 'The live-data site id from GET /rum/sites.', logAs: 'rumSiteId' as const },
};
const alertParams = {
  ...siteParam,
  alert_id: { pattern: ID, description: 'The alert configuration id.', logAs: 'rumAlertId' as const },
};

const nullable = (schema: JsonSchema): JsonSchema => ({ oneOf: [schema, { type: 'null' }] });
const timestampOrNull = nullable({ type: 'string', format: 'date-time' });

/** The spec's live-data alert configuration, field for field. */
export const rumAlertSchema: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: [
    'id',
    'title',
    'mode',
    'metric',
    'threshold',
    'window_minutes',
    'min_samples',
    'consecutive_threshold',
    'status',
    'emailed_at',
    'resolved_at',
    'created_at',
  ],
  properties: {
    id: { type: 'integer' },
    title: { type: 'string' },
    mode: {
      enum: [...RUM_ALERT_MODES],
      description:
        "`auto`: LCP, INP and CLS against Google's poor thresholds (p75 above 4000 ms, 500 ms, 0.25); `manual`: `metric` against `threshold`.",
    },
    metric: { ...nullable({ enum: [...RUM_METRICS] }), description: 'Manual mode; null in auto mode.' },
    threshold: {
      ...nullable({ type: 'number' }),
      description: 'Manual mode: p75 above it breaches (ms, or unitless for CLS); null in auto mode.',
    },
    window_minutes: { type: 'integer', description: 'p75 over this many minutes before each check.' },
    min_samples: {
      type: 'integer',
      description: 'Fewer samples of a metric in the window: that metric is not judged (nothing changes).',
    },
    consecutive_threshold: {
      type: 'integer',
      description: 'Breaching checks in a row that trigger; recovered checks in a row that resolve.',
    },
    status: { enum: [...RUM_ALERT_STATUSES], description: '`active`: never triggered; `triggered`; `resolved`.' },
    emailed_at: {
      ...timestampOrNull,
      description: 'When the e-mail about the current triggering was accepted by the mail server.',
    },
    resolved_at: {
      ...timestampOrNull,
      description: 'When it last resolved; null while triggered or before the first resolution.',
    },
    created_at: { type: 'string', format: 'date-time' },
  },
};

const date = (value: Date | null) => (value ? isoTimestamp(value) : null);

export function rumAlertView(alert: RumAlert) {
  return {
    id: alert.id,
    title: alert.title,
    mode: alert.mode,
    metric: alert.metric,
    threshold: alert.threshold,
    window_minutes: alert.windowMinutes,
    min_samples: alert.minSamples,
    consecutive_threshold: alert.consecutiveThreshold,
    status: alert.status,
    emailed_at: date(alert.emailedAt),
    resolved_at: date(alert.resolvedAt),
    created_at: isoTimestamp(alert.createdAt),
  };
}

const { windowMinutes, minSamples, consecutiveThreshold } = RUM_ALERT_LIMITS;
const fields = {
  title: { type: 'string', minLength: 1, maxLength: RUM_ALERT_LIMITS.titleLength },
  mode: { type: 'string', enum: [...RUM_ALERT_MODES] },
  metric: { type: 'string', enum: [...RUM_METRICS], description: 'Manual mode only.' },
  threshold: {
    type: 'number',
    minimum: 0,
    description: 'Manual mode only: ms for LCP, INP, FCP and TTFB, unitless for CLS.',
  },
  window_minutes: { type: 'integer', minimum: windowMinutes.min, maximum: windowMinutes.max },
  min_samples: { type: 'integer', minimum: minSamples.min, maximum: minSamples.max },
  consecutive_threshold: { type: 'integer', minimum: consecutiveThreshold.min, maximum: consecutiveThreshold.max },
};

/** GET /rum/sites/{id}/alerts (spec) and the extensions that manage configurations. Starter and up. */
export function rumAlertRoutes(deps: RumAlertRouteDeps): AnyRoute[] {
  const list: ApiRoute = {
    method: 'get',
    path: '/rum/sites/:id/alerts',
    tag: 'Live data',
    summary: "The site's live-data alert configurations, oldest first.",
    params: siteParam,
    responses: {
      200: { description: 'Alert configurations.', schema: envelope({ type: 'array', items: rumAlertSchema }) },
    },
    handle: async (ctx, { params }) => {
      requireLiveData(ctx);
      const alerts = await listRumAlerts(deps, ctx.state.user.id, Number(params.id));
      if (!alerts) throw notFound();
      ctx.body = { data: alerts.map(rumAlertView) };
    },
  };

  const create: ApiRoute<Record<string, never>, RumAlertInput> = {
    method: 'post',
    path: '/rum/sites/:id/alerts',
    tag: 'Live data',
    extension: true,
    summary: 'Add a live-data alert configuration (checked every 5 minutes).',
    description: `Manual mode needs \`metric\` and \`threshold\`; auto mode takes neither. At most ${RUM_ALERT_LIMITS.perSite} per site (422 on \`site\`).`,
    params: siteParam,
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['title', 'mode'],
      properties: {
        ...fields,
        window_minutes: { ...fields.window_minutes, default: 60 },
        min_samples: { ...fields.min_samples, default: 20 },
        consecutive_threshold: { ...fields.consecutive_threshold, default: 3 },
      },
    },
    guard: (ctx) => requireLiveData(ctx),
    responses: { 201: { description: 'The new configuration.', schema: envelope(rumAlertSchema) } },
    handle: async (ctx, { params, body }) =>
      respond(ctx, 201, await createRumAlert(deps, ctx.state.user.id, Number(params.id), body)),
  };

  const update: ApiRoute<Record<string, never>, RumAlertUpdate> = {
    method: 'patch',
    path: '/rum/sites/:id/alerts/:alert_id',
    tag: 'Live data',
    extension: true,
    summary: 'Change a live-data alert configuration; a changed rule starts its streak again.',
    description:
      'Switching to auto drops `metric` and `threshold`; switching to manual needs both. The status stays as it is until the next checks move it.',
    params: alertParams,
    body: { type: 'object', additionalProperties: false, properties: fields },
    guard: (ctx) => requireLiveData(ctx),
    responses: { 200: { description: 'The configuration.', schema: envelope(rumAlertSchema) } },
    handle: async (ctx, { params, body }) =>
      respond(
        ctx,
        200,
        await updateRumAlert(deps, ctx.state.user.id, Number(params.id), Number(params.alert_id), body),
      ),
  };

  const remove: ApiRoute = {
    method: 'delete',
    path: '/rum/sites/:id/alerts/:alert_id',
    tag: 'Live data',
    extension: true,
    summary: 'Remove a live-data alert configuration.',
    params: alertParams,
    responses: { 204: { description: 'Deleted.' } },
    handle: async (ctx, { params }) => {
      requireLiveData(ctx);
      respond(ctx, 204, await deleteRumAlert(deps, ctx.state.user.id, Number(params.id), Number(params.alert_id)));
    },
  };

  return [list, create, update, remove];
}

/** Starter and up have live data (and the API); a plan with the API but without it would get this 403. */
function requireLiveData(ctx: ApiContext): void {
  if (!hasFeature(ctx.state.plan, 'live_data'))
    throw planRequired('live_data', (needed) => `Live data needs the ${needed.label} plan or higher.`);
}

function respond(ctx: ApiContext, status: 200 | 201 | 204, outcome: RumAlertOutcome): void {
  if (outcome.kind === 'deleted') {
    ctx.status = 204;
    return;
  }
  const { alert } = okOrThrow(outcome, { things: 'live-data alerts' });
  recordLogIds(ctx, { rumAlertId: alert.id });
  ctx.status = status;
  ctx.body = { data: rumAlertView(alert) };
}
