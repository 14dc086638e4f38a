import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import type { Config } from '../../infra/config.ts';
import { TARGET_HISTORY_LENGTH } from '../../core/monitoring/target.ts';
import type { TargetStore } from '../../db/store/targets.ts';
import { notFound } from '../../http/errors.ts';
import {
  createTarget,
  deleteTarget,
  updateTarget,
  type TargetInput,
  type TargetOutcome,
  type TargetUpdate,
} from '../../services/targets.ts';
import { pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import { okOrThrow } from '../outcomes.ts';
import type { ApiContext, ApiRoute, AnyRoute, RouteInput } from '../route.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { envelope } from '../validation.ts';
import { historyItemSchema, targetSchema, thresholdsSchema } from '../views/target-schemas.ts';
import { historyItemView, targetView } from '../views/targets.ts';

export interface DomainRouteDeps {
  targets: TargetStore;
  temporal: Client;
  config: Config;
  clock: Clock;
}

// Within the safe integer range, so that no id parses into something else; anything else is an unknown target.
const idParam = {
  id: { pattern: '^[1-9][0-9]{0,14}$', description: 'The target id from GET /domains.', logAs: 'targetId' as const },
};
const unavailable = {
  description: 'Temporal is unreachable; nothing was changed. Retry after `Retry-After` seconds.',
  schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
};

/** Every /domains endpoint (the spec's two, and the documented extensions that manage targets without the browser). */
export function domainRoutes(deps: DomainRouteDeps): AnyRoute[] {
  const regions = { type: 'string', enum: deps.config.regions.available, description: 'Scan location code.' };

  const list: ApiRoute<PageQuery> = {
    method: 'get',
    path: '/domains',
    tag: 'Domains',
    summary: "The caller's monitored scan targets, oldest first.",
    query: pageQuerySchema({ max: 50, default: 20 }),
    responses: {
      200: {
        description: 'A page of targets.',
        schema: envelope({ type: 'array', items: targetSchema }, pageMetaSchema),
      },
    },
    handle: (ctx, input) => listTargets(deps, ctx, input),
  };

  const history: ApiRoute = {
    method: 'get',
    path: '/domains/:id/history',
    tag: 'Domains',
    summary: `The target's last ${TARGET_HISTORY_LENGTH} finished scans, newest first.`,
    params: idParam,
    responses: {
      200: {
        description: 'History items.',
        schema: envelope({ type: 'array', maxItems: TARGET_HISTORY_LENGTH, items: historyItemSchema }),
      },
    },
    handle: (ctx, input) => showHistory(deps, ctx, input),
  };

  const create: ApiRoute<Record<string, never>, TargetInput> = {
    method: 'post',
    path: '/domains',
    tag: 'Domains',
    extension: true,
    summary: 'Monitor a URL: a daily scan at a start time spread over the day, with alert thresholds.',
    description:
      "The URL is normalised like a scan's. 403 when the plan keeps no more targets (`required_plan` names the plan that keeps more); 422 for an invalid URL, thresholds whose `critical` is above `warning`, or a URL already monitored in that region; 503 when the schedule cannot be created (nothing is stored).",
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['url'],
      properties: {
        url: { type: 'string', minLength: 1, maxLength: 8192, description: 'http(s) URL; normalised like a scan URL.' },
        region: regions,
        thresholds: thresholdsSchema,
        is_active: { type: 'boolean', default: true, description: 'False: stored paused.' },
      },
    },
    responses: { 201: { description: 'The new target.', schema: envelope(targetSchema) }, 503: unavailable },
    handle: (ctx, input) => respond(ctx, 201, createTarget(deps, owner(ctx), input.body)),
  };

  const update: ApiRoute<Record<string, never>, TargetUpdate> = {
    method: 'patch',
    path: '/domains/:id',
    tag: 'Domains',
    extension: true,
    summary: 'Pause or resume a target (its schedule follows), replace its thresholds, or move it to another region.',
    params: idParam,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {
        is_active: { type: 'boolean' },
        thresholds: thresholdsSchema,
        region: regions,
      },
    },
    responses: { 200: { description: 'The target.', schema: envelope(targetSchema) }, 503: unavailable },
    handle: (ctx, input) => respond(ctx, 200, updateTarget(deps, owner(ctx), Number(input.params.id), input.body)),
  };

  const remove: ApiRoute = {
    method: 'delete',
    path: '/domains/:id',
    tag: 'Domains',
    extension: true,
    summary: 'Stop monitoring: the target and its schedule go; its scans stay in GET /scans.',
    params: idParam,
    responses: { 204: { description: 'Deleted.' }, 503: unavailable },
    handle: (ctx, input) => respond(ctx, 204, deleteTarget(deps, owner(ctx), Number(input.params.id))),
  };

  return [list, create, history, update, remove];
}

const owner = (ctx: ApiContext) => ({ id: ctx.state.user.id, plan: ctx.state.plan });

async function listTargets(
  deps: DomainRouteDeps,
  ctx: ApiContext,
  { query }: RouteInput<PageQuery, undefined>,
): Promise<void> {
  const { items, meta } = await deps.targets.listOwned(ctx.state.user.id, { limit: query.limit, page: query.page });
  ctx.body = { data: items.map(targetView), meta };
}

async function showHistory(
  deps: DomainRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const target = await deps.targets.findOwned(ctx.state.user.id, Number(params.id));
  if (!target) throw notFound();
  ctx.body = { data: (await deps.targets.history(target.id, TARGET_HISTORY_LENGTH)).map(historyItemView) };
}

/** A service outcome as the response: the target (or no body for 204), or the error in the spec's shape. */
async function respond(ctx: ApiContext, status: 200 | 201 | 204, pending: Promise<TargetOutcome>): Promise<void> {
  const { target } = okOrThrow(await pending, { things: 'monitored targets' });
  recordLogIds(ctx, { targetId: target.id });
  ctx.status = status;
  if (status !== 204) ctx.body = { data: targetView(target) };
}
