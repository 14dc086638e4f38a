import { flowBudgetsSchema } from '../views/budget-schemas.ts';
import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { PLANS } from '../../core/plans.ts';
import type { FlowStore } from '../../db/store/flows.ts';
import {
  DEPENDENCY_RETRY_AFTER_S,
  notFound,
  planLimitReached,
  serviceUnavailable,
  upgradeRequired,
  validationFailed,
  type HttpError,
} from '../../http/errors.ts';
import type { Config } from '../../infra/config.ts';
import type { AssetStore } from '../../services/assets.ts';
import {
  createFlow,
  deleteFlow,
  deleteFlowSecret,
  flowHistory,
  flowsAllowed,
  getFlow,
  setFlowSecret,
  startFlowRun,
  updateFlow,
  type FlowFailureOutcome,
  type FlowInput,
  type FlowServiceDeps,
  type FlowUpdate,
  type SecretInput,
} from '../../services/flows.ts';
import { pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import type { AnyRoute, ApiContext, ApiRoute } from '../route.ts';
import { envelope, type JsonSchema } from '../validation.ts';
import {
  EXAMPLE_STEPS,
  flowCreatedSchema,
  flowSchema,
  formFactorSchema,
  runDetailSchema,
  runSummarySchema,
  secretInfoSchema,
  secretInputSchema,
  secretName,
  stepSeriesSchema,
  stepsSchema,
} from '../views/flow-schemas.ts';
import { flowView, runDetailView, runSummaryView, stepSeriesView } from '../views/flows.ts';

export interface FlowRouteDeps {
  flows: FlowStore;
  temporal: Client;
  config: Config;
  clock: Clock;
  assets: AssetStore;
}

const flowId = { id: { pattern: PUBLIC_ID_PATTERN, description: 'The flow id from GET /flows.' } };
const secretParam = { name: { pattern: secretName.pattern, description: 'The secret name the steps refer to.' } };
const runParam = { run_id: { pattern: PUBLIC_ID_PATTERN, description: 'The run id from GET /flows/{id}/runs.' } };
const unavailable = {
  description: 'Temporal is unreachable; nothing was started. Retry after `Retry-After` seconds.',
  schema: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
};
// The schema's limit is the largest plan's; each plan's own is checked after it (403 with `required_plan`).
const MOST_STEPS = Math.max(...Object.values(PLANS).map((plan) => plan.maxFlowSteps));

const flowFields = (): Record<string, JsonSchema> => ({
  name: { type: 'string', minLength: 1, maxLength: 120 },
  form_factor: formFactorSchema,
  steps: stepsSchema(MOST_STEPS),
  monitored: {
    type: 'boolean',
    description:
      "Run the flow daily on a Temporal Schedule of its own (trigger `schedule`; default false). A monitored flow counts against the plan's monitored-target limit: 403 with `required_plan` like a target past it.",
  },
  budgets: flowBudgetsSchema,
});
/** History windows the API answers, in days. */
const HISTORY_DAYS = { minimum: 1, maximum: 90, default: 30 } as const;

/** Every /flows endpoint (an extension of the spec): flows, their secrets and their runs. */
export function flowRoutes(deps: FlowRouteDeps): AnyRoute[] {
  const list: ApiRoute<PageQuery> = {
    method: 'get',
    path: '/flows',
    tag: 'Flows',
    extension: true,
    summary: "The caller's user flows, oldest first.",
    query: pageQuerySchema({ max: 50, default: 20 }),
    responses: {
      200: { description: 'A page of flows.', schema: envelope({ type: 'array', items: flowSchema }, pageMetaSchema) },
    },
    guard: requireFlows,
    handle: async (ctx, { query }) => {
      const { items, meta } = await deps.flows.listOwned(ctx.state.user.id, query);
      const secrets = await Promise.all(items.map((flow) => deps.flows.secrets(flow.id)));
      ctx.body = { data: items.map((flow, i) => flowView(flow, secrets[i]!)), meta };
    },
  };

  const create: ApiRoute<Record<string, never>, FlowInput> = {
    method: 'post',
    path: '/flows',
    tag: 'Flows',
    extension: true,
    summary: 'Create a user flow from steps, or import it from a Chrome DevTools Recorder export.',
    description:
      "Send `steps`, or `recording` (the Recorder's JSON export; `name` defaults to its title): the import's `warnings` name each recorded step that was changed or left out, and fields whose selectors mention a password or a one-time code type a secret (`password`, `totp`) instead of the recorded value, which is not kept. `secrets` sets secret values at once (write-only). 403 without the flows feature, when the plan keeps no more flows, or for more steps than the plan allows per flow; 422 for invalid steps (the first must be `navigate`; URLs are normalised like scan URLs and must point to public addresses).",
    body: {
      type: 'object',
      additionalProperties: false,
      required: ['form_factor'],
      examples: [
        {
          name: 'Sign in',
          form_factor: 'desktop',
          steps: EXAMPLE_STEPS,
          secrets: { password: { kind: 'password', value: 'correct horse battery staple' } },
        },
      ],
      properties: {
        ...flowFields(),
        recording: {
          type: 'object',
          description: 'A Chrome DevTools Recorder export (`title`, `steps`), instead of `steps`.',
        },
        secrets: {
          type: 'object',
          maxProperties: 20,
          propertyNames: secretName,
          additionalProperties: secretInputSchema,
          description: 'Secret values by name (write-only), e.g. `{"password": {"kind": "password", "value": "…"}}`.',
        },
      },
    },
    responses: {
      201: { description: 'The flow, with the import warnings.', schema: envelope(flowCreatedSchema) },
      503: unavailable,
    },
    guard: requireFlows,
    handle: async (ctx, { body }) => {
      const outcome = orThrow(await createFlow(services(deps), owner(ctx), body));
      ctx.status = 201;
      ctx.body = { data: { ...flowView(outcome.flow, outcome.secrets), warnings: outcome.warnings } };
    },
  };

  const show: ApiRoute = {
    method: 'get',
    path: '/flows/:id',
    tag: 'Flows',
    extension: true,
    summary: 'A flow: its steps, and its secrets by name and kind.',
    params: flowId,
    responses: { 200: { description: 'The flow.', schema: envelope(flowSchema) } },
    guard: requireFlows,
    handle: async (ctx, { params }) => {
      const outcome = orThrow(await getFlow(services(deps), owner(ctx), params.id!));
      ctx.body = { data: flowView(outcome.flow, outcome.secrets) };
    },
  };

  const update: ApiRoute<Record<string, never>, FlowUpdate> = {
    method: 'patch',
    path: '/flows/:id',
    tag: 'Flows',
    extension: true,
    summary:
      'Rename a flow, change its form factor, replace its steps (checked as on creation), or turn its monitoring on or off.',
    params: flowId,
    body: { type: 'object', additionalProperties: false, properties: flowFields() },
    responses: { 200: { description: 'The flow.', schema: envelope(flowSchema) }, 503: unavailable },
    guard: requireFlows,
    handle: async (ctx, { params, body }) => {
      const outcome = orThrow(await updateFlow(services(deps), owner(ctx), params.id!, body));
      ctx.body = { data: flowView(outcome.flow, outcome.secrets) };
    },
  };

  const remove: ApiRoute = {
    method: 'delete',
    path: '/flows/:id',
    tag: 'Flows',
    extension: true,
    summary: 'Delete a flow with its secrets, runs and their screenshots; runs in flight are stopped.',
    params: flowId,
    responses: { 204: { description: 'Deleted.' }, 503: unavailable },
    guard: requireFlows,
    handle: async (ctx, { params }) => {
      orThrow(await deleteFlow(services(deps), owner(ctx), params.id!));
      ctx.status = 204;
    },
  };

  const putSecret: ApiRoute<Record<string, never>, SecretInput> = {
    method: 'put',
    path: '/flows/:id/secrets/:name',
    tag: 'Flows',
    extension: true,
    summary: "Set a secret of the flow (a password, or a TOTP's base32 seed); its value is never returned.",
    description:
      "Stored encrypted; decrypted only by the worker that runs the flow, and typed only on the origin of the first `navigate` step (or the step's `secret_origin`). The answer lists the flow's secrets by name and kind.",
    params: { ...flowId, ...secretParam },
    body: secretInputSchema,
    responses: {
      200: { description: 'The secret was replaced.', schema: envelope({ type: 'array', items: secretInfoSchema }) },
      201: { description: 'The secret was new.', schema: envelope({ type: 'array', items: secretInfoSchema }) },
    },
    guard: requireFlows,
    handle: async (ctx, { params, body }) => {
      const outcome = orThrow(await setFlowSecret(services(deps), owner(ctx), params.id!, params.name!, body));
      ctx.status = outcome.created ? 201 : 200;
      ctx.body = { data: flowView(outcome.flow, outcome.secrets).secrets };
    },
  };

  const removeSecret: ApiRoute = {
    method: 'delete',
    path: '/flows/:id/secrets/:name',
    tag: 'Flows',
    extension: true,
    summary: 'Remove a secret of the flow.',
    params: { ...flowId, ...secretParam },
    responses: { 204: { description: 'Removed.' } },
    guard: requireFlows,
    handle: async (ctx, { params }) => {
      orThrow(await deleteFlowSecret(services(deps), owner(ctx), params.id!, params.name!));
      ctx.status = 204;
    },
  };

  const run: ApiRoute = {
    method: 'post',
    path: '/flows/:id/runs',
    tag: 'Flows',
    extension: true,
    summary: 'Run the flow now: queued, then measured step by step in one browser session.',
    description:
      "A run waits for a Lighthouse slot of the region like a scan (the plan's scans in flight per region count runs too). While a run of the flow is queued or running, that run is the answer. 422 naming each secret the steps type that is not set; 503 when the run cannot be started (it is recorded as failed). Follow it with GET /flows/{id}/runs/{run_id}.",
    params: flowId,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {},
      description: 'No fields; send no body or `{}`.',
    },
    responses: {
      202: {
        description: 'The run, queued (or the one already queued or running).',
        schema: envelope(runSummarySchema),
      },
      503: unavailable,
    },
    guard: requireFlows,
    handle: async (ctx, { params }) => {
      const outcome = orThrow(await startFlowRun(services(deps), owner(ctx), params.id!));
      ctx.status = 202;
      ctx.body = { data: runSummaryView(outcome.run) };
    },
  };

  const runs: ApiRoute<PageQuery> = {
    method: 'get',
    path: '/flows/:id/runs',
    tag: 'Flows',
    extension: true,
    summary: "The flow's runs, newest first.",
    params: flowId,
    query: pageQuerySchema({ max: 50, default: 20 }),
    responses: {
      200: {
        description: 'A page of runs.',
        schema: envelope({ type: 'array', items: runSummarySchema }, pageMetaSchema),
      },
    },
    guard: requireFlows,
    handle: async (ctx, { params, query }) => {
      const flow = await deps.flows.findOwned(ctx.state.user.id, params.id!);
      if (!flow) throw notFound();
      const { items, meta } = await deps.flows.listRuns(flow.id, query);
      ctx.body = { data: items.map(runSummaryView), meta };
    },
  };

  const runDetail: ApiRoute = {
    method: 'get',
    path: '/flows/:id/runs/:run_id',
    tag: 'Flows',
    extension: true,
    summary: 'A run: each measured step with its scores, metrics, findings and screenshot, or the step it failed at.',
    description:
      "Screenshot URLs are signed for the owner and work for 24 hours, like a private scan's images. `failure.step` names the failing step (a measured step by its name, an action by what it does).",
    params: { ...flowId, ...runParam },
    responses: { 200: { description: 'The run.', schema: envelope(runDetailSchema) } },
    guard: requireFlows,
    handle: async (ctx, { params }) => {
      const flow = await deps.flows.findOwned(ctx.state.user.id, params.id!);
      const found = flow && (await deps.flows.findRunOfFlow(flow.id, params.run_id!));
      if (!found) throw notFound();
      const steps = await deps.flows.runSteps(found.id);
      const view = { baseUrl: deps.config.baseUrl, keys: deps.config.keys, now: deps.clock() };
      ctx.body = { data: runDetailView(found, steps, view) };
    },
  };

  const history: ApiRoute<{ days: number }> = {
    method: 'get',
    path: '/flows/:id/history',
    tag: 'Flows',
    extension: true,
    summary: "Each measured step's metrics and scores over the flow's finished runs of the last `days` days.",
    description:
      'One series per measured step, known by its index, mode and name together: a step renamed, moved or changed to another mode starts a new series (the old one keeps its runs). Points are oldest first (newest last), one per finished run; failed runs are left out. The series are ordered by step index.',
    params: flowId,
    query: {
      days: { type: 'integer', ...HISTORY_DAYS, description: 'Runs finished in this many days up to now.' },
    },
    responses: {
      200: {
        description: 'The step series.',
        schema: envelope(
          { type: 'array', items: stepSeriesSchema },
          {
            type: 'object',
            required: ['days'],
            additionalProperties: false,
            properties: { days: { type: 'integer' } },
          },
        ),
      },
    },
    guard: requireFlows,
    handle: async (ctx, { params, query }) => {
      const outcome = orThrow(await flowHistory(deps, owner(ctx), params.id!, query.days));
      ctx.body = { data: outcome.series.map(stepSeriesView), meta: { days: query.days } };
    },
  };

  return [list, create, show, update, remove, putSecret, removeSecret, run, runs, runDetail, history];
}

const owner = (ctx: ApiContext) => ({ id: ctx.state.user.id, plan: ctx.state.plan });
const services = (deps: FlowRouteDeps): FlowServiceDeps => deps;

/** Flows are a plan feature: 403 before anything else is looked at (validation included). */
function requireFlows(ctx: ApiContext): void {
  const gated = flowsAllowed(ctx.state.plan);
  if (gated) throw flowError(gated);
}

function orThrow<Ok extends { kind: 'ok' }>(outcome: Ok | FlowFailureOutcome): Ok {
  if (outcome.kind === 'ok') return outcome as Ok;
  throw flowError(outcome as FlowFailureOutcome);
}

function flowError(failure: FlowFailureOutcome): HttpError {
  switch (failure.kind) {
    case 'invalid':
      return validationFailed(failure.errors);
    case 'not_found':
      return notFound();
    case 'plan_required':
      return upgradeRequired(
        failure.needed,
        (needed) => `User flows need the ${needed.label} plan or higher. Your plan is ${failure.plan.label}.`,
      );
    case 'flow_limit':
      // Monitored flows count as monitored targets: past that limit, the same answer as a target past it.
      return planLimitReached(failure, failure.limited === 'targets' ? 'monitored targets' : 'user flows');
    case 'step_limit':
      return failure.upgrade
        ? upgradeRequired(
            failure.upgrade,
            (needed) =>
              `Your plan (${failure.plan.label}) allows at most ${failure.limit} steps per flow; this flow has ${failure.steps}. Upgrade to ${needed.label} for more, or remove steps.`,
          )
        : planLimitReached(failure, 'steps per flow');
    case 'not_started':
      return serviceUnavailable(
        failure.schedule
          ? "The flow's schedule cannot be changed right now; nothing was changed. Try again shortly."
          : 'The flow run cannot be started or stopped right now; try again shortly.',
        DEPENDENCY_RETRY_AFTER_S,
        failure.cause,
      );
  }
}
