import { envelope } from '../validation.ts';
import { negotiateLocale } from '../../core/i18n/locale.ts';
import {
  ALERT_SEVERITIES,
  ALERT_STATUS_FILTERS,
  type AlertSeverity,
  type AlertStatusFilter,
} from '../../core/monitoring/alert.ts';
import { notFound } from '../../http/errors.ts';
import {
  type AlertActionDeps,
  dismissAlert as dismissOwnedAlert,
  markAlertsRead as markOwnedAlertsRead,
} from '../../services/alert-actions.ts';
import { pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import type { AnyRoute, ApiContext, ApiRoute, RouteInput } from '../route.ts';
import { alertSchema, alertView } from '../views/alerts.ts';

/** The routes need exactly what the service needs. */
export type AlertRouteDeps = AlertActionDeps;

/** Alert ids are positive integers of at most 15 digits (below 2^53); anything else names no alert: 404. */
const idParam = { id: { pattern: '^[1-9][0-9]{0,14}$', description: 'The alert id.', logAs: 'alertId' as const } };
const MAX_SAFE_ID = Number.MAX_SAFE_INTEGER;

type ListQuery = PageQuery & { status?: AlertStatusFilter; severity?: AlertSeverity };
type MarkReadBody = { ids?: number[] };

/** Every /alerts endpoint: the router mounts these objects and the OpenAPI document is built from them. */
export function alertRoutes(deps: AlertRouteDeps): AnyRoute[] {
  const list: ApiRoute<ListQuery> = {
    method: 'get',
    path: '/alerts',
    tag: 'Alerts',
    summary: "The caller's score alerts, newest first.",
    query: {
      ...pageQuerySchema({ max: 50, default: 20 }),
      status: {
        type: 'string',
        enum: [...ALERT_STATUS_FILTERS],
        description: '`open`: neither resolved nor dismissed; `resolved`; `unread`.',
      },
      severity: { type: 'string', enum: [...ALERT_SEVERITIES] },
    },
    responses: {
      200: {
        description: 'A page of alerts.',
        schema: envelope({ type: 'array', items: alertSchema }, pageMetaSchema),
      },
    },
    handle: (ctx, input) => listAlerts(deps, ctx, input),
  };

  const detail: ApiRoute = {
    method: 'get',
    path: '/alerts/:id',
    tag: 'Alerts',
    summary: 'One alert.',
    params: idParam,
    responses: { 200: { description: 'The alert.', schema: envelope(alertSchema) } },
    handle: (ctx, input) => showAlert(deps, ctx, input),
  };

  const markRead: ApiRoute<Record<string, never>, MarkReadBody> = {
    method: 'post',
    path: '/alerts/mark-read',
    tag: 'Alerts',
    summary: 'Mark alerts read: those in `ids`, or, without `ids`, every unread alert of the caller.',
    description:
      "Ids of other users' alerts and unknown ids are ignored; `marked_read` counts only alerts that were unread and are now read. An empty `ids` marks nothing.",
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        ids: {
          type: 'array',
          maxItems: 1000,
          items: { type: 'integer', minimum: 1, maximum: MAX_SAFE_ID },
          description: 'Alert ids (at most 1000).',
        },
      },
    },
    responses: {
      200: {
        description: 'How many alerts were marked.',
        schema: envelope({
          type: 'object',
          additionalProperties: false,
          required: ['marked_read'],
          properties: { marked_read: { type: 'integer', minimum: 0 } },
        }),
      },
    },
    handle: (ctx, input) => markAlertsRead(deps, ctx, input),
  };

  const dismiss: ApiRoute = {
    method: 'post',
    path: '/alerts/:id/dismiss',
    tag: 'Alerts',
    extension: true,
    summary:
      'Dismiss an alert: it leaves the `open` list, is marked read and sends no more e-mail; it still resolves when the score recovers.',
    description:
      'While it is unresolved it stays the one alert of its type for its target, so no new one is raised. Dismissing twice is harmless.',
    params: idParam,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {},
      description: 'No fields; send no body or `{}`.',
    },
    responses: { 200: { description: 'The dismissed alert.', schema: envelope(alertSchema) } },
    handle: (ctx, input) => dismissAlert(deps, ctx, input),
  };

  return [list, markRead, detail, dismiss];
}

const locale = (ctx: ApiContext) => negotiateLocale(ctx.get('accept-language'));

async function listAlerts(
  deps: AlertRouteDeps,
  ctx: ApiContext,
  { query }: RouteInput<ListQuery, undefined>,
): Promise<void> {
  const { items, meta } = await deps.alerts.listOwned(
    ctx.state.user.id,
    { status: query.status, severity: query.severity },
    { limit: query.limit, page: query.page },
  );
  const language = locale(ctx);
  ctx.body = { data: items.map((alert) => alertView(alert, language)), meta };
}

async function showAlert(
  deps: AlertRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const alert = await deps.alerts.findOwned(ctx.state.user.id, Number(params.id));
  if (!alert) throw notFound();
  ctx.body = { data: alertView(alert, locale(ctx)) };
}

async function markAlertsRead(
  deps: AlertRouteDeps,
  ctx: ApiContext,
  { body }: RouteInput<Record<string, never>, MarkReadBody>,
): Promise<void> {
  const marked = await markOwnedAlertsRead(deps, ctx.state.user.id, body.ids ?? null);
  ctx.body = { data: { marked_read: marked } };
}

async function dismissAlert(
  deps: AlertRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const alert = await dismissOwnedAlert(deps, ctx.state.user.id, Number(params.id));
  if (!alert) throw notFound();
  ctx.body = { data: alertView(alert, locale(ctx)) };
}
