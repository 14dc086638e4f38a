import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import type { Config } from '../../infra/config.ts';
import { TARGET_HISTORY_LENGTH } from '../../core/monitoring/target.ts';
import type { ScanStore } from '../../db/store/scans.ts';
import type { TargetStore } from '../../db/store/targets.ts';
import { notFound } from '../../http/errors.ts';
import { runTargetNow } from '../../services/target-runs.ts';
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
import { scanCreationSchema } from '../views/scan-schemas.ts';
import { historyItemSchema, targetSchema, thresholdsSchema } from '../views/target-schemas.ts';
import { budgetsSchema } from '../views/budget-schemas.ts';
import { historyItemView, targetView } from '../views/targets.ts';
import { answerScanCreated, hourlyScanLimitError, hourlyScanLimitSchema, scanNotStarted } from './scans.ts';

export interface DomainRouteDeps {
  targets: TargetStore;
  scans: ScanStore;
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
        budgets: budgetsSchema,
        is_active: { type: 'boolean', default: true, description: 'False: stored paused.' },
      },
    },
    responses: { 201: { description: 'The new target.', schema: envelope(targetSchema) }, 503: unavailable },
    handle: (ctx, input) => respond(deps, ctx, 201, createTarget(deps, owner(ctx), input.body)),
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
        budgets: budgetsSchema,
        region: regions,
      },
    },
    responses: { 200: { description: 'The target.', schema: envelope(targetSchema) }, 503: unavailable },
    handle: (ctx, input) =>
      respond(deps, ctx, 200, updateTarget(deps, owner(ctx), Number(input.params.id), input.body)),
  };

  const remove: ApiRoute = {
    method: 'delete',
    path: '/domains/:id',
    tag: 'Domains',
    extension: true,
    summary: 'Stop monitoring: the target and its schedule go; its scans stay in GET /scans.',
    params: idParam,
    responses: { 204: { description: 'Deleted.' }, 503: unavailable },
    handle: (ctx, input) => respond(deps, ctx, 204, deleteTarget(deps, owner(ctx), Number(input.params.id))),
  };

  const runNow: ApiRoute = {
    method: 'post',
    path: '/domains/:id/scans',
    tag: 'Domains',
    extension: true,
    summary: 'Run now: scan the target at once, as its schedule would (its history, alerts and runs of the plan).',
    description:
      "Starts a scan of the target now, recorded as the target's scan like a scheduled one (`target_id`, `trigger: \"run_now\"`, the plan's page loads per scheduled scan, never a reused result), and sets `last_dispatched_at`; its alerts are evaluated when it finishes. A paused target may be run now; its schedule stays paused. It counts against the hourly scan limit like POST /scans (429 `hourly_scan_limit`), and like any call against the daily API limit. While a scan of the target is queued or running, that scan is the answer (no second one). 404 for a target that is not the caller's; 503 when the scan cannot be started (it is recorded as failed and does not count). Follow it with GET /scans/{id}.",
    params: idParam,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {},
      description: 'No fields; send no body or `{}`.',
    },
    responses: {
      202: {
        description: 'The scan, queued (or the one of the target already queued or running); `cached` is always false.',
        schema: envelope(scanCreationSchema),
      },
      429: { description: 'The hourly scan limit of the plan, or the daily API limit.', schema: hourlyScanLimitSchema },
      503: { ...unavailable, description: 'Temporal did not take the scan; retry after `Retry-After` seconds.' },
    },
    handle: (ctx, input) => startTargetScan(deps, ctx, input),
  };

  return [list, create, history, update, remove, runNow];
}

const owner = (ctx: ApiContext) => ({ id: ctx.state.user.id, plan: ctx.state.plan });

async function listTargets(
  deps: DomainRouteDeps,
  ctx: ApiContext,
  { query }: RouteInput<PageQuery, undefined>,
): Promise<void> {
  const { items, meta } = await deps.targets.listOwned(ctx.state.user.id, { limit: query.limit, page: query.page });
  const now = deps.clock();
  ctx.body = { data: items.map((target) => targetView(target, now)), meta };
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
async function respond(
  deps: DomainRouteDeps,
  ctx: ApiContext,
  status: 200 | 201 | 204,
  pending: Promise<TargetOutcome>,
): Promise<void> {
  const { target } = okOrThrow(await pending, { things: 'monitored targets' });
  recordLogIds(ctx, { targetId: target.id });
  ctx.status = status;
  if (status !== 204) ctx.body = { data: targetView(target, deps.clock()) };
}

async function startTargetScan(
  deps: DomainRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const now = deps.clock();
  const outcome = await runTargetNow(deps, owner(ctx), Number(params.id));
  switch (outcome.kind) {
    case 'not_found':
      throw notFound();
    case 'hourly_limit':
      throw hourlyScanLimitError(outcome, now);
    case 'not_started':
      throw scanNotStarted(outcome.cause);
    case 'ok':
      answerScanCreated(ctx, outcome.scan, false);
  }
}
