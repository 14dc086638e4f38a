import type Router from '@koa/router';
import type { RouterContext } from '@koa/router';
import { isoTimestamp } from '../../core/clock.ts';
import { measuredSteps, referencedSecrets, type FlowDefinition, type FlowStepResult } from '../../core/flows/flow.ts';
import { importRecording, RecordingInvalid, type RecorderImport } from '../../core/flows/recorder.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { cheapestPlanWith, hasFeature, planFor, type Plan } from '../../core/plans.ts';
import type { Flow, FlowRun as StoredRun } from '../../db/store/flows.ts';
import { DEPENDENCY_RETRY_AFTER_S, HttpError, notFound, setRetryAfter } from '../../http/errors.ts';
import { unstorableField } from '../../http/input-guard.ts';
import { flowRunImageUrl, type AssetStore } from '../../services/assets.ts';
import {
  createFlow,
  deleteFlow,
  deleteFlowSecret,
  flowHistory,
  setFlowSecret,
  startFlowRun,
  updateFlow,
  type FlowFailureOutcome,
  type FlowServiceDeps,
} from '../../services/flows.ts';
import { chromeFor, html, type WorkflowPageDeps } from '../chrome.ts';
import { readForm, webUser } from '../session.ts';
import { budgetFormErrors, readBudgetForm } from './budget-form.ts';
import { flowBudgetsPage, type FlowBudgetsPageModel } from './budgets-page.ts';
import { flowComparePage } from './compare-page.ts';
import { flowEditorPage, type FlowEditorPageModel } from './editor-page.ts';
import {
  applyEditorAction,
  editorAction,
  emptyRow,
  FLOW_NAME_MAX,
  parseFlowForm,
  parseSecretForm,
  readFlowForm,
  valuesFromDefinition,
  type FlowFormValues,
} from './form.ts';
import { FLOW_LABELS, type FlowLabels, type FlowNotice } from './labels.ts';
import { flowListPage } from './list-page.ts';
import {
  FLOW_PATHS as P,
  type FlowFormError,
  type FlowFormErrors,
  type FlowPageBase,
  type FlowRun,
  type FlowRunSummary,
} from './model.ts';
import { flowRunPage } from './run-page.ts';

export interface FlowPageDeps extends WorkflowPageDeps {
  assets: AssetStore;
}

type Ctx = RouterContext;
interface Owner {
  id: number;
  plan: Plan;
}

/** The editor's rows, a pasted recording and a long flow's budgets outgrow the web area's 16 KB forms; 200 steps fit well in this. */
export const FLOW_FORM_LIMIT_BYTES = 256 * 1024;
const RUNS_SHOWN = 20;
/** The window of the flow page's charts, the API's default for GET /flows/{id}/history. */
const HISTORY_DAYS = 30;
/** More than any plan keeps, so a downgraded account still sees every flow it has. */
const FLOWS_LISTED = 500;
const PUBLIC_ID = new RegExp(PUBLIC_ID_PATTERN);

/**
 * User flows in the browser (docs/flows.md, docs/web-area.md): the same services as the API's /flows, their
 * errors beside the fields they belong to. Every page but the list is 403 without the plan's flows feature;
 * the list explains which plan has it.
 */
export function mountFlowPages(router: Router, deps: FlowPageDeps): void {
  const on = (handler: (deps: FlowPageDeps, ctx: Ctx, owner: Owner) => Promise<void>) => async (ctx: Ctx) => {
    const owner = signedIn(ctx);
    if (owner) await handler(deps, ctx, owner);
  };
  router.get(P.flows, on(showList));
  router.get(P.newFlow, on(gated(showNewFlow)));
  router.post(P.create, on(gated(create)));
  router.post(P.importRecording, on(gated(importPasted)));
  router.get('/flows/:id', on(gated(showFlow)));
  router.post('/flows/:id', on(gated(save)));
  router.post('/flows/:id/run', on(gated(runNow)));
  router.post('/flows/:id/monitoring', on(gated(setMonitoring)));
  router.post('/flows/:id/delete', on(gated(remove)));
  router.post('/flows/:id/secrets', on(gated(setSecret)));
  router.post('/flows/:id/secrets/:name/delete', on(gated(removeSecret)));
  router.get('/flows/:id/budgets', on(gated(showBudgets)));
  router.post('/flows/:id/budgets', on(gated(saveBudgets)));
  router.get('/flows/:id/runs/:runId', on(gated(showRun)));
  router.get('/flows/:id/compare', on(gated(showCompare)));
}

function signedIn(ctx: Ctx): Owner | undefined {
  const user = webUser(ctx);
  if (!user) ctx.redirect(`/login?next=${encodeURIComponent(ctx.method === 'GET' ? ctx.url : P.flows)}`);
  return user && { id: user.id, plan: planFor(user.plan) };
}

const services = (deps: FlowPageDeps): FlowServiceDeps => ({
  flows: deps.storage.flows,
  temporal: deps.temporal,
  config: deps.config,
  clock: deps.clock,
  assets: deps.assets,
});

const base = (deps: FlowPageDeps, ctx: Ctx): FlowPageBase => {
  const chrome = chromeFor(deps, ctx, 'flows');
  return { chrome, csrf: chrome.csrf! };
};
const labels = (page: FlowPageBase): FlowLabels => FLOW_LABELS[page.chrome.locale];

/** Without the plan's flows feature, every page but the list is the list's explanation, as a 403. */
const gated =
  (handler: (deps: FlowPageDeps, ctx: Ctx, owner: Owner) => Promise<void>) =>
  async (deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> =>
    hasFeature(owner.plan, 'flows') ? handler(deps, ctx, owner) : renderList(deps, ctx, owner, 403);

const flowIdOf = (ctx: Ctx): string => {
  const id = ctx.params.id ?? '';
  if (!PUBLIC_ID.test(id)) throw notFound();
  return id;
};

/** The flow in the path, the owner's own; anyone else's (or none) is a 404 like a missing one. */
async function ownedFlow(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<Flow> {
  const flow = await deps.storage.flows.findOwned(owner.id, flowIdOf(ctx));
  if (!flow) throw notFound();
  return flow;
}

const noticeOf = (ctx: Ctx): FlowNotice | undefined => {
  const value = ctx.query.notice;
  return typeof value === 'string' && value in FLOW_LABELS.en.notices ? (value as FlowNotice) : undefined;
};

function redirect(ctx: Ctx, path: string, notice?: FlowNotice, fragment = ''): void {
  ctx.status = 303;
  ctx.redirect(`${path}${notice ? `?notice=${notice}` : ''}${fragment}`);
}

const definitionOf = (flow: Flow): FlowDefinition => ({
  name: flow.name,
  form_factor: flow.formFactor,
  steps: flow.steps,
});

const runSummary = (run: StoredRun): FlowRunSummary => ({
  id: run.publicId,
  status: run.status,
  requestedAt: isoTimestamp(run.requestedAt),
  finishedAt: run.finishedAt ? isoTimestamp(run.finishedAt) : null,
});

const runModel = (run: StoredRun, steps: FlowStepResult[]): FlowRun => ({
  ...runSummary(run),
  definition: run.definition,
  steps,
  failure: run.failure,
  lighthouseVersion: run.lighthouseVersion,
  chromiumVersion: run.chromiumVersion,
});

async function renderList(deps: FlowPageDeps, ctx: Ctx, owner: Owner, status = 200): Promise<void> {
  const page = base(deps, ctx);
  const allowed = hasFeature(owner.plan, 'flows');
  const owned = allowed ? (await deps.storage.flows.listOwned(owner.id, { limit: FLOWS_LISTED, page: 1 })).items : [];
  const flows = await Promise.all(
    owned.map(async (flow) => {
      const [last] = (await deps.storage.flows.listRuns(flow.id, { limit: 1, page: 1 })).items;
      return { id: flow.publicId, definition: definitionOf(flow), lastRun: last ? runSummary(last) : null };
    }),
  );
  html(
    ctx,
    flowListPage({
      ...page,
      flows,
      allowance: {
        planLabel: owner.plan.label,
        maxFlows: allowed ? owner.plan.maxFlows : 0,
        maxFlowSteps: owner.plan.maxFlowSteps,
        ...(allowed ? {} : { upgradeLabel: cheapestPlanWith('flows').label }),
      },
      notice: noticeOf(ctx),
    }),
    status,
  );
}

const showList = (deps: FlowPageDeps, ctx: Ctx, owner: Owner) => renderList(deps, ctx, owner);

type EditorExtra = Omit<FlowEditorPageModel, keyof FlowPageBase | 'values' | 'maxFlowSteps' | 'flowId'>;

function renderNew(
  deps: FlowPageDeps,
  ctx: Ctx,
  owner: Owner,
  values: FlowFormValues,
  extra: EditorExtra = {},
  status = 200,
): void {
  html(ctx, flowEditorPage({ ...base(deps, ctx), values, maxFlowSteps: owner.plan.maxFlowSteps, ...extra }), status);
}

async function renderFlow(
  deps: FlowPageDeps,
  ctx: Ctx,
  owner: Owner,
  flow: Flow,
  extra: EditorExtra & { values?: FlowFormValues } = {},
  status = 200,
): Promise<void> {
  const secrets = await deps.storage.flows.secrets(flow.id);
  const runs = await deps.storage.flows.listRuns(flow.id, { limit: RUNS_SHOWN, page: 1 });
  const history = await flowHistory(services(deps), owner, flow.publicId, HISTORY_DAYS);
  const set = new Set(secrets.map((secret) => secret.name));
  html(
    ctx,
    flowEditorPage({
      ...base(deps, ctx),
      flowId: flow.publicId,
      values: valuesFromDefinition(definitionOf(flow)),
      maxFlowSteps: owner.plan.maxFlowSteps,
      secrets: secrets.map((secret) => ({ ...secret, updatedAt: isoTimestamp(secret.updatedAt) })),
      missingSecrets: referencedSecrets(definitionOf(flow)).filter((name) => !set.has(name)),
      runs: runs.items.map(runSummary),
      ...(history.kind === 'ok' ? { history: { series: history.series, days: HISTORY_DAYS } } : {}),
      budgets: { steps: measuredSteps(definitionOf(flow)), set: flow.budgets },
      monitored: flow.monitored,
      notice: noticeOf(ctx),
      ...extra,
    }),
    status,
  );
}

async function showNewFlow(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  renderNew(deps, ctx, owner, { name: '', formFactor: 'desktop', steps: [emptyRow('navigate')] });
}

async function showFlow(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  await renderFlow(deps, ctx, owner, await ownedFlow(deps, ctx, owner));
}

/** A service's answer the editor shows: its errors by field and the page's status. */
interface Rejection {
  status: number;
  errors: FlowFormErrors;
}

// The service's words for rules the pages have their own words for (core/flows/definition.ts, services/flows.ts).
const KNOWN_MESSAGES: Array<[RegExp, FlowFormError]> = [
  [/must point to a public address/, { code: 'public_address' }],
  [/end_timespan step must follow/, { code: 'end_timespan' }],
  [/first step must be a navigate/, { code: 'first_navigate' }],
];
const EDITOR_FIELD = /^(name|form_factor|steps|steps\/\d+\/(type|url|name|selector|text|secret|secret_origin|value))$/;

/** The service's `steps.3.url` as the editor's `steps/3/url`; a field the editor does not have is the form's. */
function editorErrors(errors: Record<string, string[]>): FlowFormErrors {
  const out: FlowFormErrors = {};
  for (const [key, messages] of Object.entries(errors)) {
    const message = messages[0] ?? '';
    const pointer = key.replace(/\./g, '/');
    const field = EDITOR_FIELD.test(pointer) ? pointer : 'form';
    out[field] ??= KNOWN_MESSAGES.find(([pattern]) => pattern.test(message))?.[1] ?? { message };
  }
  return out;
}

function rejection(ctx: Ctx, failure: Exclude<FlowFailureOutcome, { kind: 'not_found' }>, t: FlowLabels): Rejection {
  switch (failure.kind) {
    case 'invalid':
      return { status: 422, errors: editorErrors(failure.errors) };
    case 'plan_required':
      return { status: 403, errors: { form: { message: t.planRequired(failure.plan.label, failure.needed.label) } } };
    case 'flow_limit':
      return {
        status: 403,
        errors: { form: { message: t.flowLimit(failure.plan.label, failure.limit, failure.upgrade?.label) } },
      };
    case 'step_limit':
      return {
        status: 403,
        errors: { steps: { message: t.stepLimit(failure.plan.label, failure.limit, failure.upgrade?.label) } },
      };
    case 'not_started':
      setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
      return { status: 503, errors: { form: { message: t.runNotStarted } } };
  }
}

function notFoundOr<T extends FlowFailureOutcome>(failure: T): Exclude<T, { kind: 'not_found' }> {
  if (failure.kind === 'not_found') throw notFound();
  return failure as Exclude<T, { kind: 'not_found' }>;
}

async function create(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const form = await readForm(ctx, deps.config, FLOW_FORM_LIMIT_BYTES);
  const action = editorAction(form);
  if (action.kind !== 'save') return renderNew(deps, ctx, owner, applyEditorAction(readFlowForm(form), action));
  const parsed = parseFlowForm(form);
  if (!parsed.definition) return renderNew(deps, ctx, owner, parsed.values, { errors: parsed.errors }, 422);
  const { name, form_factor, steps } = parsed.definition;
  const outcome = await createFlow(services(deps), owner, { name, form_factor, steps });
  if (outcome.kind === 'ok') return redirect(ctx, P.flow(outcome.flow.publicId), 'created');
  const { status, errors } = rejection(ctx, notFoundOr(outcome), labels(base(deps, ctx)));
  renderNew(deps, ctx, owner, parsed.values, { errors }, status);
}

async function save(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const form = await readForm(ctx, deps.config, FLOW_FORM_LIMIT_BYTES);
  const action = editorAction(form);
  if (action.kind !== 'save')
    return renderFlow(deps, ctx, owner, flow, { values: applyEditorAction(readFlowForm(form), action) });
  const parsed = parseFlowForm(form);
  if (!parsed.definition)
    return renderFlow(deps, ctx, owner, flow, { values: parsed.values, errors: parsed.errors }, 422);
  const { name, form_factor, steps } = parsed.definition;
  const outcome = await updateFlow(services(deps), owner, flow.publicId, { name, form_factor, steps });
  if (outcome.kind === 'ok') return redirect(ctx, P.flow(flow.publicId), 'saved');
  const { status, errors } = rejection(ctx, notFoundOr(outcome), labels(base(deps, ctx)));
  await renderFlow(deps, ctx, owner, flow, { values: parsed.values, errors }, status);
}

/** A pasted Recorder export read into the new-flow editor: nothing is stored until the user saves. */
async function importPasted(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const form = await readForm(ctx, deps.config, FLOW_FORM_LIMIT_BYTES);
  const empty: FlowFormValues = { name: '', formFactor: 'desktop', steps: [emptyRow('navigate')] };
  const refuse = (error: FlowFormError) =>
    renderNew(deps, ctx, owner, empty, { importErrors: { recording: error } }, 422);
  let imported: RecorderImport;
  try {
    const recording = JSON.parse(form.get('recording') ?? '') as unknown;
    // The form's text is well-formed, but a JSON escape (`"\ud800"`) in it can make a lone surrogate.
    if (unstorableField(recording, 'recording')) return refuse({ code: 'recording_text' });
    imported = importRecording(recording);
  } catch (error) {
    if (error instanceof SyntaxError || error instanceof RecordingInvalid) return refuse({ code: 'recording_json' });
    throw error;
  }
  if (!imported.steps.length) return refuse({ code: 'recording_empty' });
  const definition: FlowDefinition = {
    name: imported.title.trim().slice(0, FLOW_NAME_MAX),
    form_factor: 'desktop',
    steps: imported.steps,
  };
  renderNew(deps, ctx, owner, valuesFromDefinition(definition), {
    importWarnings: imported.warnings,
    pendingSecrets: imported.secrets,
    notice: 'imported',
  });
}

async function setSecret(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const parsed = parseSecretForm(await readForm(ctx, deps.config));
  const again = (errors: FlowFormErrors, status: number) =>
    renderFlow(deps, ctx, owner, flow, { secretForm: { values: parsed.values, errors } }, status);
  if (!parsed.secret) return again(parsed.errors, 422);
  const { name, kind, value } = parsed.secret;
  const outcome = await setFlowSecret(services(deps), owner, flow.publicId, name, { kind, value });
  if (outcome.kind === 'ok') return redirect(ctx, P.flow(flow.publicId), 'secretSaved', '#secrets');
  const failure = notFoundOr(outcome);
  // The service's one rule on values: a TOTP seed long enough to be one.
  if (failure.kind === 'invalid') return again({ secret_value: { code: 'totp_seed' } }, 422);
  const { status, errors } = rejection(ctx, failure, labels(base(deps, ctx)));
  await again(errors, status);
}

async function removeSecret(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  await readForm(ctx, deps.config);
  const outcome = await deleteFlowSecret(services(deps), owner, flow.publicId, ctx.params.name ?? '');
  if (outcome.kind !== 'ok') throw notFound();
  redirect(ctx, P.flow(flow.publicId), 'secretDeleted', '#secrets');
}

/** Run now: the run is queued and its page opens (it refreshes until the run has ended). */
async function runNow(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  await readForm(ctx, deps.config);
  const outcome = await startFlowRun(services(deps), owner, flow.publicId, 'web');
  if (outcome.kind === 'ok') return redirect(ctx, P.run(flow.publicId, outcome.run.publicId));
  const failure = notFoundOr(outcome);
  const t = labels(base(deps, ctx));
  if (failure.kind === 'invalid') {
    // Every secret the steps type must be set: said above Run now and beside each step that types one.
    const set = new Set((await deps.storage.flows.secrets(flow.id)).map((secret) => secret.name));
    const errors: FlowFormErrors = {};
    flow.steps.forEach((step, i) => {
      if (step.type === 'type' && 'secret' in step && !set.has(step.secret))
        errors[`steps/${i}/secret`] = { code: 'secret_unknown' };
    });
    const missing = referencedSecrets(definitionOf(flow)).filter((name) => !set.has(name));
    return renderFlow(deps, ctx, owner, flow, { errors, runError: t.runMissingSecrets(missing.join(', ')) }, 422);
  }
  const { status, errors } = rejection(ctx, failure, t);
  await renderFlow(deps, ctx, owner, flow, { runError: errorMessage(errors.form, t) }, status);
}

/** Monitoring on or off (`monitored=true|false`), with its schedule; past the plan's target limit a 403. */
async function setMonitoring(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const value = (await readForm(ctx, deps.config)).get('monitored');
  if (value !== 'true' && value !== 'false')
    throw new HttpError(400, { message: 'Send monitored=true or monitored=false.' });
  const monitored = value === 'true';
  const outcome = await updateFlow(services(deps), owner, flow.publicId, { monitored });
  if (outcome.kind === 'ok')
    return redirect(ctx, P.flow(flow.publicId), monitored ? 'monitoringOn' : 'monitoringOff', '#monitoring');
  const failure = notFoundOr(outcome);
  const t = labels(base(deps, ctx));
  const refuse = (status: number, monitoringError: EditorExtra['monitoringError']) =>
    renderFlow(deps, ctx, owner, flow, { monitoringError }, status);
  if (failure.kind === 'flow_limit' && failure.limited === 'targets')
    return refuse(403, {
      message: t.targetLimit(failure.plan.label, failure.limit, failure.upgrade?.label),
      planLink: true,
    });
  if (failure.kind === 'not_started' && failure.schedule) {
    setRetryAfter(ctx, DEPENDENCY_RETRY_AFTER_S);
    return refuse(503, { message: t.monitoringUnavailable });
  }
  const { status, errors } = rejection(ctx, failure, t);
  await refuse(status, { message: errorMessage(errors.form, t) });
}

function renderBudgets(
  deps: FlowPageDeps,
  ctx: Ctx,
  flow: Flow,
  edit?: FlowBudgetsPageModel['edit'],
  status = 200,
): void {
  const page: FlowBudgetsPageModel = {
    ...base(deps, ctx),
    flowId: flow.publicId,
    flowName: flow.name,
    steps: measuredSteps(definitionOf(flow)),
    budgets: flow.budgets,
    monitored: flow.monitored,
    ...(edit ? { edit } : {}),
  };
  html(ctx, flowBudgetsPage(page), status);
}

async function showBudgets(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  renderBudgets(deps, ctx, await ownedFlow(deps, ctx, owner));
}

/**
 * Replaces the flow's budgets with the form's through the API's service, which judges each against the steps as
 * they are now and against the limits: its errors go beside their fields.
 */
async function saveBudgets(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const steps = measuredSteps(definitionOf(flow));
  const read = readBudgetForm(await readForm(ctx, deps.config, FLOW_FORM_LIMIT_BYTES));
  if (!read.budgets) return renderBudgets(deps, ctx, flow, { values: read.values, errors: read.errors }, 422);
  const outcome = await updateFlow(services(deps), owner, flow.publicId, { budgets: read.budgets });
  if (outcome.kind === 'ok') return redirect(ctx, P.flow(flow.publicId), 'budgetsSaved', '#budgets');
  const failure = notFoundOr(outcome);
  const { status, errors } =
    failure.kind === 'invalid'
      ? { status: 422, errors: budgetFormErrors(failure.errors, steps) }
      : rejection(ctx, failure, labels(base(deps, ctx)));
  renderBudgets(deps, ctx, flow, { values: read.values, errors }, status);
}

const errorMessage = (error: FlowFormError | undefined, t: FlowLabels): string =>
  !error ? '' : 'message' in error ? error.message : String(t.errors[error.code]);

async function remove(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  await readForm(ctx, deps.config);
  const outcome = await deleteFlow(services(deps), owner, flow.publicId);
  if (outcome.kind === 'ok') return redirect(ctx, P.flows, 'deleted');
  const t = labels(base(deps, ctx));
  const { status, errors } = rejection(ctx, notFoundOr(outcome), t);
  await renderFlow(deps, ctx, owner, flow, { runError: errorMessage(errors.form, t) }, status);
}

const imageUrlFor = (deps: FlowPageDeps, runId: string) => (name: string) =>
  flowRunImageUrl(deps.config.baseUrl, deps.config.keys, runId, name, deps.clock());

/** A run of the flow with its steps; a run of another flow is a 404 like a missing one. */
async function ownedRun(deps: FlowPageDeps, flow: Flow, runId: string): Promise<FlowRun> {
  const run = PUBLIC_ID.test(runId) ? await deps.storage.flows.findRunOfFlow(flow.id, runId) : undefined;
  if (!run) throw notFound();
  return runModel(run, await deps.storage.flows.runSteps(run.id));
}

async function showRun(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const run = await ownedRun(deps, flow, ctx.params.runId ?? '');
  html(ctx, flowRunPage({ ...base(deps, ctx), flowId: flow.publicId, run, imageUrl: imageUrlFor(deps, run.id) }));
}

/** Two runs of the flow (`?run=a&run=b`, in either order), the earlier as before. */
async function showCompare(deps: FlowPageDeps, ctx: Ctx, owner: Owner): Promise<void> {
  const flow = await ownedFlow(deps, ctx, owner);
  const ids = ([] as unknown[]).concat(ctx.query.run ?? []);
  if (ids.length !== 2 || ids[0] === ids[1] || !ids.every((id) => typeof id === 'string'))
    throw new HttpError(400, { message: 'Name two different runs of the flow: ?run=<id>&run=<id>.' });
  const runs = await Promise.all((ids as string[]).map((id) => ownedRun(deps, flow, id)));
  const [before, after] = runs.sort((a, b) => a.requestedAt.localeCompare(b.requestedAt)) as [FlowRun, FlowRun];
  html(
    ctx,
    flowComparePage({
      ...base(deps, ctx),
      flowId: flow.publicId,
      before,
      after,
      imageUrl: (run, asset) => imageUrlFor(deps, run.id)(asset),
    }),
  );
}
