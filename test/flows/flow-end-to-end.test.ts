import type { FlowStep } from '../../core/flows/flow.ts';
import { REDACTED } from '../../core/redaction.ts';
import { flowRunWorkflowId } from '../../core/temporal.ts';
import { createProcessFlowRunner } from '../../activities/flows/process-flow-runner.ts';
import { loadConfig } from '../../infra/config.ts';
import { SHOP_PASSWORD, SHOP_USER, SLOW_CLICK_MS, startShop, type Shop } from '../../fixtures/shop.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { formsIn, secretRunForms } from '../harness/secret-forms.ts';
import { startInProcessWorker, type InProcessWorker } from '../harness/scan-worker.ts';
import { WebClient } from '../harness/web.ts';
import { FLOW_PATHS } from '../../web/flows/model.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * A flow from a Chrome DevTools Recorder export to its measured steps, through the API, the workflow on the
 * region's slot, the worker's real flow runner (its own process and Chromium, Lighthouse's user-flow API) and
 * the fixture shop: the imported journey, a timespan added around the slow "add to cart" click, a wrong
 * password that ends the run at the step after the sign-in, then the right one. The password is searched for in
 * every API answer, the Temporal histories, every stored row and the logs of the API and the worker. Last, a
 * secret typed into the shop's GET search form, searched for in every encoding (any run of 12 characters) in
 * step URLs, answers, pages, rows, the history and the account export; that run ends at a click on an element
 * the page does not have. The flow tests whose subject is not the runner (flow-alerts, flow-monitoring) replay
 * recorded runs of such failures; these runs are the real ones.
 */
const config = loadConfig(baseTestEnv());
/** As in the runner's own test: INP of a click busy for SLOW_CLICK_MS is at least that, plus input delay and the next paint. */
const INP_TOLERANCE_MS = 200;
const WRONG_PASSWORD = 'not-the-sh0p-password';
registerSecret(SHOP_PASSWORD);
registerSecret(WRONG_PASSWORD);

let shop: Shop;
let api: TestApi;
let worker: InProcessWorker;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
const flowRunner = createProcessFlowRunner({
  chromiumPath: config.chromiumPath,
  allowLoopback: true,
  scanUser: config.scanUser,
});
/** Every body the API answered in this file, searched for the passwords at the end. */
const answers: string[] = [];

beforeAll(async () => {
  shop = await startShop();
  api = await startTestApi();
  worker = await startInProcessWorker(api, { flowRunner });
  conforms = await openApiContract(api);
});

afterAll(async () => {
  await worker?.close();
  flowRunner.close();
  await api?.close();
  await shop?.close();
});

/** The shop's journey as the Recorder exports it (Export → JSON): sign in with Enter, add a cup, open the cart. */
function recording(origin: string) {
  return {
    title: 'Buy an espresso cup',
    steps: [
      {
        type: 'setViewport',
        width: 1280,
        height: 800,
        deviceScaleFactor: 1,
        isMobile: false,
        hasTouch: false,
        isLandscape: false,
      },
      {
        type: 'navigate',
        url: `${origin}/login?next=/products/1`,
        assertedEvents: [{ type: 'navigation', url: `${origin}/login?next=/products/1`, title: 'Sign in · Test shop' }],
      },
      { type: 'click', target: 'main', selectors: [['aria/User name'], ['#user']], offsetX: 40, offsetY: 10 },
      { type: 'change', value: SHOP_USER, selectors: [['aria/User name'], ['#user']], target: 'main' },
      { type: 'click', target: 'main', selectors: [['aria/Password'], ['#password']], offsetX: 40, offsetY: 10 },
      { type: 'change', value: SHOP_PASSWORD, selectors: [['aria/Password'], ['#password']], target: 'main' },
      {
        type: 'keyDown',
        target: 'main',
        key: 'Enter',
        assertedEvents: [{ type: 'navigation', url: `${origin}/products/1`, title: 'Espresso cup · Test shop' }],
      },
      { type: 'keyUp', key: 'Enter', target: 'main' },
      { type: 'waitForElement', target: 'main', selectors: [['#signed-in']] },
      { type: 'click', target: 'main', selectors: [['aria/Add to cart'], ['#add-to-cart']], offsetX: 30, offsetY: 12 },
      { type: 'navigate', url: `${origin}/cart` },
    ],
  };
}

async function api_<T = Record<string, unknown>>(
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: T }> {
  const res = await call(api, path, { token, method, ...(body === undefined ? {} : { body }) });
  answers.push(JSON.stringify(res.body));
  return { status: res.status, data: res.body.data as T };
}

async function runToEnd(token: string, flowId: string): Promise<Record<string, unknown>> {
  const started = await api_<{ id: string }>(token, 'POST', `/flows/${flowId}/runs`, {});
  expect(started.status).toBe(202);
  const runId = started.data.id;
  for (let i = 0; i < 600; i++) {
    const res = await call(api, `/flows/${flowId}/runs/${runId}`, { token });
    expect(conforms('GET', '/flows/{id}/runs/{run_id}', res)).toEqual([]);
    answers.push(JSON.stringify(res.body));
    const run = res.body.data as Record<string, unknown>;
    if (run.status === 'finished' || run.status === 'failed') return run;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`run ${runId} did not end`);
}

const WEB_PASSWORD = 'flow-e2e-web-password';
let token: string;
let flowId: string;
let steps: FlowStep[];

it('imports a Recorder export: the password becomes a secret to set, Enter a click on the submit button, the viewport is left out', async () => {
  ({ token } = await createTestUser(api, 'pro', WEB_PASSWORD));
  const created = await api_<{ id: string; steps: FlowStep[]; warnings: string[]; secrets: unknown[] }>(
    token,
    'POST',
    '/flows',
    { form_factor: 'desktop', recording: recording(shop.origin) },
  );
  expect(created.status).toBe(201);
  flowId = created.data.id;
  steps = created.data.steps;
  expect(steps).toEqual([
    { type: 'navigate', url: `${shop.origin}/login?next=/products/1` },
    { type: 'click', selector: '#user' },
    { type: 'type', selector: '#user', text: SHOP_USER },
    { type: 'click', selector: '#password' },
    { type: 'type', selector: '#password', secret: 'password' },
    { type: 'click', selector: 'form:has(#password) [type="submit"]' },
    { type: 'wait_for_navigation' },
    { type: 'wait_for_selector', selector: '#signed-in' },
    { type: 'click', selector: '#add-to-cart' },
    { type: 'navigate', url: `${shop.origin}/cart` },
  ]);
  expect(created.data.warnings.join('\n')).toMatch(/setViewport|viewport/i);
  expect(JSON.stringify(created.data)).not.toContain(SHOP_PASSWORD);
});

it('ends the run at the first step after a wrong password, with the page at that moment', async () => {
  // The import is edited as a user would: a timespan around the slow click, a snapshot of the cart.
  const clickAt = steps.findIndex((s) => s.type === 'click' && s.selector === '#add-to-cart');
  steps = [
    ...steps.slice(0, clickAt),
    { type: 'start_timespan', name: 'Add to cart' },
    steps[clickAt]!,
    { type: 'wait_for_selector', selector: '#cart-status:not(:empty)' },
    { type: 'end_timespan' },
    { ...(steps[clickAt + 1] as Extract<FlowStep, { type: 'navigate' }>), name: 'Cart' },
    { type: 'snapshot', name: 'Cart contents' },
  ];
  expect((await api_(token, 'PATCH', `/flows/${flowId}`, { steps })).status).toBe(200);
  expect(
    (await api_(token, 'PUT', `/flows/${flowId}/secrets/password`, { kind: 'password', value: WRONG_PASSWORD })).status,
  ).toBe(201);
  const run = await runToEnd(token, flowId);
  expect(run.status).toBe('failed');
  expect(run.failure).toMatchObject({
    step_index: 7,
    step_type: 'wait_for_selector',
    code: 'selector_not_found',
    message: 'no element matches "#signed-in" within 10 s',
    screenshot_url: expect.stringMatching(/\/assets\/\w+\/flow-\w+-step-7-failure\.jpg\?expires=/),
  });
  const shot = await fetch((run.failure as { screenshot_url: string }).screenshot_url);
  expect(shot.status).toBe(200);
  expect(shot.headers.get('content-type')).toBe('image/jpeg');
  // The first navigation was measured before the run stopped.
  expect((run.steps as Array<{ index: number }>).map((s) => s.index)).toEqual([0]);
});

it('measures every step with the right password: the timespan INP is the slow click handler', async () => {
  expect(
    (await api_(token, 'PUT', `/flows/${flowId}/secrets/password`, { kind: 'password', value: SHOP_PASSWORD })).status,
  ).toBe(200);
  const run = await runToEnd(token, flowId);
  expect(run).toMatchObject({ status: 'finished', failure: null });
  const measured = run.steps as Array<{
    index: number;
    mode: string;
    name: string;
    metrics: Record<string, number | null>;
    scores: Record<string, number | null>;
    screenshot_url: string | null;
  }>;
  expect(measured.map((s) => [s.index, s.mode, s.name])).toEqual([
    [0, 'navigation', `${shop.origin}/login?next=/products/1`],
    [8, 'timespan', 'Add to cart'],
    [12, 'navigation', 'Cart'],
    [13, 'snapshot', 'Cart contents'],
  ]);
  const [login, timespan, cart, snapshot] = measured;
  for (const key of ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'speed_index_ms', 'ttfb_ms'])
    expect(login!.metrics[key]).toEqual(expect.any(Number));
  expect(login!.scores.performance).toEqual(expect.any(Number));
  expect(timespan!.metrics.inp_ms).toBeGreaterThanOrEqual(SLOW_CLICK_MS);
  expect(timespan!.metrics.inp_ms).toBeLessThanOrEqual(SLOW_CLICK_MS + INP_TOLERANCE_MS);
  expect(cart!.metrics.lcp_ms).toEqual(expect.any(Number));
  expect(snapshot!.scores.accessibility).toEqual(expect.any(Number));
  for (const step of measured) {
    const image = await fetch(step.screenshot_url!);
    expect([image.status, image.headers.get('content-type')]).toEqual([200, 'image/jpeg']);
  }
});

it('keeps the passwords out of every answer, page, Temporal history and stored row', async () => {
  const runs = await api_<Array<{ id: string }>>(token, 'GET', `/flows/${flowId}/runs`);
  expect(runs.data).toHaveLength(2);
  // The owner's pages of both real runs: the flow with its secrets, each report, the two compared.
  const me = await api_<{ email: string }>(token, 'GET', '/me');
  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(me.data.email, WEB_PASSWORD)).status).toBe(303);
  const [newer, older] = runs.data.map((r) => r.id) as [string, string];
  const pages = await Promise.all(
    [
      FLOW_PATHS.flows,
      FLOW_PATHS.flow(flowId),
      FLOW_PATHS.run(flowId, older),
      FLOW_PATHS.run(flowId, newer),
      FLOW_PATHS.compare(flowId, older, newer),
    ].map((path) => web.get(path)),
  );
  expect(pages.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
  expect(pages[3]!.text).toContain('Add to cart');
  answers.push(...pages.map((p) => p.text));
  const histories = await Promise.all(
    runs.data.map(async (r) =>
      JSON.stringify(await api.temporal.workflow.getHandle(flowRunWorkflowId(r.id)).fetchHistory()),
    ),
  );
  // Every row of every table of this file's database, as text.
  const tables = (
    await api.db.knex.raw<{ rows: Array<{ table_name: string }> }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    )
  ).rows.map((r) => r.table_name);
  expect(tables).toEqual(expect.arrayContaining(['flows', 'flow_secrets', 'flow_runs', 'flow_run_steps']));
  const rows = await Promise.all(
    tables.map(async (t) => JSON.stringify((await api.db.knex.raw(`select * from "${t}"`)).rows)),
  );
  for (const password of [SHOP_PASSWORD, WRONG_PASSWORD, encodeURIComponent(SHOP_PASSWORD)])
    for (const [where, text] of [
      ['answers', answers.join('\n')],
      ['histories', histories.join('\n')],
      ['rows', rows.join('\n')],
    ] as const)
      expect({ where, found: text.includes(password) }).toEqual({ where, found: false });
  // The logs of the API and the worker are searched for both passwords by the harness after this file.
});

/** A password typed into a GET form (the shop's search): the browser form-encodes it into the next page's URL. */
const GET_FORM_SECRET = `Zebra Quartz Mango 77! & <x> "q" 'y' Grüße`;
registerSecret(GET_FORM_SECRET);

it('keeps a secret typed into a GET form out of step URLs, findings, pages, rows, histories and the export, in any encoding', async () => {
  const created = await api_<{ id: string }>(token, 'POST', '/flows', {
    name: 'Search with a secret',
    form_factor: 'desktop',
    steps: [
      { type: 'navigate', url: `${shop.origin}/`, name: 'Home' },
      { type: 'type', selector: '#q', secret: 'query' },
      { type: 'click', selector: '#search-button' },
      { type: 'wait_for_navigation' },
      { type: 'snapshot', name: 'Results' },
      { type: 'click', selector: '#never-there' },
    ],
  });
  expect(created.status).toBe(201);
  const id = created.data.id;
  expect(
    (await api_(token, 'PUT', `/flows/${id}/secrets/query`, { kind: 'password', value: GET_FORM_SECRET })).status,
  ).toBe(201);
  const run = await runToEnd(token, id);
  // A click on an element the page does not have ends the run there (the replayed flow tests rely on it).
  expect(run.failure).toMatchObject({
    step_index: 5,
    step_type: 'click',
    code: 'selector_not_found',
    message: 'no clickable element matches "#never-there" within 10 s',
  });
  const results = (run.steps as Array<{ name: string; url: string }>).find((s) => s.name === 'Results')!;
  // The page was reached through the form: its URL had the secret, form-encoded, which stands redacted.
  expect(results.url).toBe(`${shop.origin}/search?q=${REDACTED}`);

  const me = await api_<{ email: string }>(token, 'GET', '/me');
  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(me.data.email, WEB_PASSWORD)).status).toBe(303);
  const pages = await Promise.all(
    [FLOW_PATHS.flow(id), FLOW_PATHS.run(id, run.id as string), '/settings/data/export'].map((p) => web.get(p)),
  );
  expect(pages.map((p) => p.status)).toEqual([200, 200, 200]);
  const histories = JSON.stringify(
    await api.temporal.workflow.getHandle(flowRunWorkflowId(run.id as string)).fetchHistory(),
  );
  const tables = (
    await api.db.knex.raw<{ rows: Array<{ table_name: string }> }>(
      "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'",
    )
  ).rows.map((r) => r.table_name);
  const rows = await Promise.all(
    tables.map(async (t) => JSON.stringify((await api.db.knex.raw(`select * from "${t}"`)).rows)),
  );
  const forms = secretRunForms([GET_FORM_SECRET]);
  const found = [
    ['answers', answers.join('\n')],
    ['run page', pages[1]!.text],
    ['flow page', pages[0]!.text],
    ['export', pages[2]!.text],
    ['history', histories],
    ['rows', rows.join('\n')],
  ].flatMap(([where, text]) => formsIn(text!, forms).map((form) => ({ where, form })));
  expect(found).toEqual([]);
}, 240_000);
