import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ScheduleNotFoundError } from '@temporalio/client';
import type { Browser, Page } from 'puppeteer-core';
import type { FlowRunOutcome } from '../../core/flows/flow.ts';
import { newPublicId } from '../../core/ids.ts';
import { flowRunWorkflowId, flowScheduleId, scanDispatcherWorkflowId } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import { SIGN_IN_FLOW, sampleStepResults } from '../../fixtures/flow-pages.ts';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { createAssetStore } from '../../services/asset-store.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { launchBrowser, signedInPage, submit } from '../harness/browser.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { rawRequest, WebClient, type RawResponse } from '../harness/web.ts';

/**
 * The flow pages against the real API process, Postgres and Temporal (no worker: Run now queues the run and
 * starts its workflow; finished runs are stored through the flow store, their screenshots through the asset
 * store). A flow is built in Chromium with the editor's buttons and a Recorder export is imported and saved;
 * the rest through HTTP: field errors beside their step, secrets never shown, plan gate and limits, reports,
 * comparison, and other people's flows.
 */
let api: TestApi;
let browser: Browser;
let closeBrowser: () => Promise<void>;
const PASSWORD = 'a-long-password-1';
const SECRET = 'flow-page-secret-5e1b77';
registerSecret(SECRET);
const recording = readFileSync(join(PROJECT_ROOT, 'test/unit/fixtures/recorder-shop-checkout.json'), 'utf8');
/** Every page any test saw, searched for the secret at the end. */
const seen: string[] = [];
const started: string[] = [];
/** Schedules a test may leave behind when it fails half way. */
const schedules: string[] = [];

beforeAll(async () => {
  api = await startTestApi();
  ({ browser, close: closeBrowser } = await launchBrowser());
}, 30_000);

afterAll(async () => {
  await closeBrowser?.();
  if (!api) return;
  for (const id of schedules)
    await api.temporal.schedule
      .getHandle(id)
      .delete()
      .catch(() => undefined);
  for (const id of started)
    await api.temporal.workflow
      .getHandle(flowRunWorkflowId(id))
      .terminate('test finished')
      .catch(() => undefined);
  await api.temporal.workflow
    .getHandle(scanDispatcherWorkflowId(api.config.temporal.taskQueuePrefix, api.config.regions.default))
    .terminate('test finished')
    .catch(() => undefined);
  await api.close();
});

const storage = () => createStorage(api.db.knex);

async function signedIn(plan: 'free' | 'starter' | 'pro') {
  const { user, token } = await createTestUser(api, plan, PASSWORD);
  const client = new WebClient(api.url, api.config.baseUrl);
  expect((await client.signIn(user.email, PASSWORD)).status).toBe(303);
  return { user, token, client };
}

const keep = (res: RawResponse): RawResponse => (seen.push(res.text), res);
const get = async (client: WebClient, path: string) => keep(await client.get(path));
const post = async (client: WebClient, path: string, fields: Record<string, string>) =>
  keep(await client.post(path, fields));
const location = (res: RawResponse) => String(res.headers.location ?? '');
const count = (text: string, pattern: RegExp) => [...text.matchAll(pattern)].length;
const value = (page: Page, selector: string) =>
  page.$eval(selector, (el) => (el as unknown as { value: string }).value);
/** Picks the new step's type and presses Add step (the page comes back with the new row). */
async function addStep(page: Page, type: string): Promise<void> {
  await page.select('#new_step_type', type);
  expect(await submit(page, '#add-step')).toBe(200);
}

/** A finished (or crashed) run stored as the worker would store it, with a real JPEG for its first step. */
async function storedRun(flowId: number, userId: number, at: string, outcome: FlowRunOutcome | 'crashed') {
  const flows = storage().flows;
  const run = await flows.insertRun({
    publicId: newPublicId(new Date(at)),
    flowId,
    userId,
    region: api.config.regions.default,
    trigger: 'api',
    definition: SIGN_IN_FLOW,
    requestedAt: new Date(at),
  });
  if (outcome === 'crashed')
    await flows.failRun(
      run.publicId,
      { index: null, step_type: null, code: 'run_error', message: 'The runner crashed twice.', screenshot: null },
      new Date(at),
    );
  else await flows.finishRun(run.publicId, outcome, new Date(at));
  return run.publicId;
}

const outcome = (slower: boolean): FlowRunOutcome => ({
  steps: sampleStepResults(slower),
  failure: null,
  lighthouseVersion: '13.5.0',
  chromiumVersion: '140.0.7339.80',
});

describe('the flow pages', () => {
  let owner: Awaited<ReturnType<typeof signedIn>>;
  let flowId = '';

  beforeAll(async () => {
    owner = await signedIn('pro');
  });

  it('builds a flow in the editor with its buttons: errors beside their step, then saved', async () => {
    const page = await signedInPage(browser, api.url, owner.user.email, PASSWORD);
    await page.goto(`${api.url}/flows`);
    expect(await page.$eval('nav a[aria-current="page"]', (el) => el.getAttribute('href'))).toBe('/flows');
    await Promise.all([page.waitForNavigation(), page.click('#new-flow')]);
    expect(new URL(page.url()).pathname).toBe('/flows/new');
    await page.type('#name', 'Sign in');
    await page.type('#steps-0-url', 'shop.example.com/');
    await addStep(page, 'click');
    await addStep(page, 'type');
    await page.type('#steps-2-selector', '#password');
    await page.type('#steps-2-secret', 'pw');
    await addStep(page, 'wait_for_navigation');
    await addStep(page, 'start_timespan');
    await page.type('#steps-4-name', 'Search');
    // Removing step 4 (the wait) renumbers the rows after it.
    expect(await submit(page, 'button[value="remove/3"]')).toBe(200);
    expect(await value(page, '#steps-3-name')).toBe('Search');
    expect(await page.$$eval('li.step', (rows) => rows.map((row) => row.getAttribute('data-step-type')))).toEqual([
      'navigate',
      'click',
      'type',
      'start_timespan',
    ]);
    // The click has no selector: the form comes back with the error beside that field, the rest as typed.
    expect(await submit(page, '#save-flow')).toBe(422);
    expect(await page.$eval('#step-1 [data-field="steps/1/selector"]', (el) => el.textContent)).toBe('Fill this in.');
    expect(await page.$eval('#steps-1-selector', (el) => el.getAttribute('aria-invalid'))).toBe('true');
    expect(await value(page, '#steps-2-secret')).toBe('pw');
    await page.type('#steps-1-selector', 'aria/Sign in');
    expect(await submit(page, '#save-flow')).toBe(200);
    expect(await page.$eval('#notice', (el) => el.textContent)).toBe('Flow created.');
    flowId = new URL(page.url()).pathname.split('/')[2]!;
    const stored = await storage().flows.findOwned(owner.user.id, flowId);
    expect(stored?.steps).toEqual([
      { type: 'navigate', url: 'https://shop.example.com/' },
      { type: 'click', selector: 'aria/Sign in' },
      { type: 'type', selector: '#password', secret: 'pw' },
      { type: 'start_timespan', name: 'Search' },
    ]);
    // The steps type a secret that is not set: said, and the form to add it is filled in with its name.
    expect(await page.$eval('#missing-secrets', (el) => el.textContent)).toContain('pw');
    expect(await value(page, '#secret_name')).toBe('pw');
    seen.push(await page.content());
    await page.browserContext().close();
  }, 30_000);

  it("maps the service's rules and the plan's limits onto the editor's fields", async () => {
    await get(owner.client, '/flows/new');
    const ended = await post(owner.client, '/flows', {
      name: 'Broken',
      form_factor: 'mobile',
      'steps/0/type': 'navigate',
      'steps/0/url': 'https://shop.example.com/',
      'steps/1/type': 'end_timespan',
    });
    expect(ended.status).toBe(422);
    expect(ended.text).toContain(
      '<p class="error field-error" id="steps-1-type-error" data-field="steps/1/type">“End the interaction” must follow “Start an interaction”.</p>',
    );
    const starter = await signedIn('starter');
    await get(starter.client, '/flows/new');
    const rows = Object.fromEntries(
      Array.from({ length: 16 }, (_, i) =>
        i === 0
          ? [
              ['steps/0/type', 'navigate'],
              ['steps/0/url', 'https://shop.example.com/'],
            ]
          : [[`steps/${i}/type`, 'wait_for_navigation']],
      ).flat(),
    ) as Record<string, string>;
    const long = await post(starter.client, '/flows', { name: 'Long', form_factor: 'desktop', ...rows });
    expect(long.status).toBe(403);
    expect(long.text).toContain('data-field="steps">Your plan (Starter) allows up to 15 steps per flow.');
    expect(await storage().flows.countOwned(starter.user.id)).toBe(0);
  });

  it('sets, refuses and deletes secrets without ever showing a value', async () => {
    const path = `/flows/${flowId}`;
    await get(owner.client, path);
    const short = await post(owner.client, `${path}/secrets`, {
      secret_name: 'otp',
      secret_kind: 'totp',
      secret_value: 'JBSWY3DP',
    });
    expect(short.status).toBe(422);
    expect(short.text).toContain('data-field="secret_value">A TOTP seed is base32: at least 16');
    const set = await post(owner.client, `${path}/secrets`, {
      secret_name: 'pw',
      secret_kind: 'password',
      secret_value: SECRET,
    });
    expect([set.status, location(set)]).toEqual([303, `${path}?notice=secretSaved#secrets`]);
    const page = await get(owner.client, path);
    expect(page.text).toContain('<tr data-secret="pw">');
    expect(page.text).not.toContain('id="missing-secrets"');
    await post(owner.client, `${path}/secrets`, {
      secret_name: 'spare',
      secret_kind: 'password',
      secret_value: SECRET,
    });
    const removed = await post(owner.client, `${path}/secrets/spare/delete`, {});
    expect(location(removed)).toBe(`${path}?notice=secretDeleted#secrets`);
    expect((await storage().flows.secrets((await storage().flows.find(flowId))!.id)).map((s) => s.name)).toEqual([
      'pw',
    ]);
  });

  it('imports a Recorder export into the editor with its warnings; nothing is stored until saved', async () => {
    const before = await storage().flows.countOwned(owner.user.id);
    await get(owner.client, '/flows/new');
    const bad = await post(owner.client, '/flows/import', { recording: '{"title": "x"' });
    expect(bad.status).toBe(422);
    expect(bad.text).toContain('data-field="recording">This is not a Recorder export in JSON.');
    // Bigger than the web area's 16 KB forms: the editor and import have their own cap.
    const padded = await post(owner.client, '/flows/import', { recording: recording + ' '.repeat(40_000) });
    expect(padded.status).toBe(200);
    expect(count(padded.text, /<li class="step"/g)).toBe(15);
    expect(padded.text).toContain('Step 1 (setViewport) was left out: the flow&#39;s form factor sets the viewport.');
    expect((await post(owner.client, '/flows/import', { recording: recording + ' '.repeat(300_000) })).status).toBe(
      413,
    );
    expect(await storage().flows.countOwned(owner.user.id)).toBe(before);

    const page = await signedInPage(browser, api.url, owner.user.email, PASSWORD);
    await page.goto(`${api.url}/flows/new#import`);
    await page.$eval('#recording', (el, text) => ((el as unknown as { value: string }).value = text), recording);
    expect(await submit(page, '#import-button')).toBe(200);
    expect(await page.$eval('#notice', (el) => el.textContent)).toBe('Recording imported. Check the steps and save.');
    expect(await value(page, '#name')).toBe('Shop: sign in, search, add to cart');
    expect(await page.$$eval('#import-warnings li', (items) => items.length)).toBe(12);
    expect(
      await page.$$eval('#pending-secrets li', (items) => items.map((li) => li.getAttribute('data-secret'))),
    ).toEqual(['password', 'totp']);
    expect(await submit(page, '#save-flow')).toBe(200);
    const imported = new URL(page.url()).pathname.split('/')[2]!;
    expect((await storage().flows.findOwned(owner.user.id, imported))?.steps).toHaveLength(15);
    expect(await page.$eval('#missing-secrets', (el) => el.textContent)).toContain('password, totp');
    // Run now while the secrets are missing: refused, said above the button and beside the steps that type them.
    expect(await submit(page, '#run-now')).toBe(422);
    expect(await page.$eval('#run-error', (el) => el.textContent)).toBe(
      'Set the secrets the steps type before a run: password, totp.',
    );
    expect(await page.$eval('#step-5 [data-field="steps/5/secret"]', (el) => el.textContent)).toContain(
      'No secret of this name',
    );
    seen.push(await page.content());
    await page.browserContext().close();
  }, 30_000);

  it('Run now queues a run and opens its page', async () => {
    await get(owner.client, `/flows/${flowId}`);
    const res = await post(owner.client, `/flows/${flowId}/run`, {});
    expect(res.status).toBe(303);
    const runId = /\/runs\/([0-9a-z]{26})$/.exec(location(res))?.[1];
    expect(runId).toBeDefined();
    started.push(runId!);
    expect(await storage().flows.findRun(runId!)).toMatchObject({ status: 'queued', trigger: 'web' });
    const page = await get(owner.client, location(res));
    expect(page.status).toBe(200);
    expect(page.text).toContain('<meta http-equiv="refresh" content="5">');
    expect(page.text).toContain('data-status="queued"');
    expect((await get(owner.client, `/flows/${flowId}`)).text).toContain(`<tr data-run-id="${runId}">`);
  });

  it('shows a run: steps in order with metrics and signed screenshots; a crashed run names no step', async () => {
    const flow = (await storage().flows.find(flowId))!;
    const runId = await storedRun(flow.id, owner.user.id, '2026-01-10T08:00:00Z', outcome(false));
    const jpeg = await screenshotJpeg();
    await createAssetStore(api.config).put(runId, 'flow-run-step-0.jpg', jpeg);
    const page = await get(owner.client, `/flows/${flowId}/runs/${runId}`);
    expect(page.status).toBe(200);
    expect([...page.text.matchAll(/<li class="flow-step step-(\w+)" id="step-(\d+)"/g)].map((m) => m[2])).toEqual([
      '0',
      '1',
      '7',
      '8',
    ]);
    expect(page.text).toContain('<tr data-metric="lcp_ms">');
    expect(page.text).toContain('<tr data-metric="inp_ms">');
    expect(page.text).toContain('id="versions">Lighthouse 13.5.0, Chromium 140.0.7339.80');
    const src = /<img src="([^"]+flow-run-step-0\.jpg[^"]*)"/.exec(page.text)?.[1]?.replace(/&amp;/g, '&');
    expect(src).toMatch(
      new RegExp(`^${api.config.baseUrl}/assets/${runId}/flow-run-step-0\\.jpg\\?expires=\\d+&signature=`),
    );
    // Signed: it answers without a session too.
    const image = await rawRequest(src!);
    expect([image.status, image.headers['content-type']]).toEqual([200, 'image/jpeg']);

    const crashed = await storedRun(flow.id, owner.user.id, '2026-01-10T09:00:00Z', 'crashed');
    const failed = await get(owner.client, `/flows/${flowId}/runs/${crashed}`);
    expect(failed.text).toContain('data-code="run_error"');
    expect(failed.text).toContain('The run itself failed, before or outside any step: no step is to blame.');
    expect(failed.text).toContain('<span id="failure-message">The runner crashed twice.</span>');
    expect(failed.text).not.toContain('The run stopped at step');
    expect(count(failed.text, /data-state="no-result"/g)).toBe(4);
  });

  it('compares two runs of the flow, the earlier as before', async () => {
    const flow = (await storage().flows.find(flowId))!;
    const fast = await storedRun(flow.id, owner.user.id, '2026-01-11T08:00:00Z', outcome(false));
    const slow = await storedRun(flow.id, owner.user.id, '2026-01-12T08:00:00Z', outcome(true));
    const page = await get(owner.client, `/flows/${flowId}/compare?run=${slow}&run=${fast}`);
    expect(page.status).toBe(200);
    expect(page.text.indexOf(`/runs/${fast}`)).toBeLessThan(page.text.indexOf(`/runs/${slow}`));
    expect(count(page.text, /<li class="flow-step" id="pair-/g)).toBe(4);
    expect(page.text).toMatch(/<tr data-metric="lcp_ms">.*?data-change="worse"/s);
    expect((await get(owner.client, `/flows/${flowId}/compare?run=${fast}`)).status).toBe(400);
    const history = await get(owner.client, `/flows/${flowId}`);
    expect(history.text).toContain(`/compare?run=${fast}&amp;run=${slow}`);
  });

  it('draws the history per step below the runs, its points linking to the runs', async () => {
    const flow = (await storage().flows.find(flowId))!;
    const day = (n: number) => new Date(api.clock.read().getTime() - n * 86_400_000).toISOString();
    const older = await storedRun(flow.id, owner.user.id, day(3), outcome(false));
    const newer = await storedRun(flow.id, owner.user.id, day(1), outcome(true));
    const page = await get(owner.client, `/flows/${flowId}`);
    const history = page.text.indexOf('id="flow-history"');
    expect(history).toBeGreaterThan(page.text.indexOf('id="run-history"'));
    expect(history).toBeLessThan(page.text.indexOf('id="editor"'));
    expect(page.text).toContain('Step 1: Login page');
    expect(page.text).toContain('data-metric="inp_ms"');
    for (const runId of [older, newer]) expect(page.text).toContain(`href="/flows/${flowId}/runs/${runId}"`);
    // A flow that never ran has nothing to draw.
    const fresh = await storage().flows.insert({
      publicId: newPublicId(new Date()),
      userId: owner.user.id,
      name: 'Never run',
      formFactor: 'desktop',
      steps: [{ type: 'navigate', url: 'https://shop.example.com/' }],
      monitored: false,
      createdAt: new Date(),
    });
    expect((await get(owner.client, `/flows/${fresh.publicId}`)).text).not.toContain('id="flow-history"');
    await storage().flows.delete(fresh.id);
  });

  it('sets budgets in the budgets form (no JavaScript), read back through the API and drawn on the history', async () => {
    const page = await signedInPage(browser, api.url, owner.user.email, PASSWORD);
    await page.goto(`${api.url}/flows/${flowId}`);
    expect(await page.$eval('#budgets-summary', (el) => el.textContent)).toBe('No budgets set.');
    await Promise.all([page.waitForNavigation(), page.click('#edit-budgets')]);
    expect(new URL(page.url()).pathname).toBe(`/flows/${flowId}/budgets`);
    // The flow's measured steps, each with its mode's fields only: a navigation, and the timespan "Search".
    expect(
      await page.$$eval('fieldset.step-budgets', (sets) =>
        sets.map((set) => [set.getAttribute('data-index'), set.getAttribute('data-mode')]),
      ),
    ).toEqual([
      ['0', 'navigation'],
      ['3', 'timespan'],
    ]);
    expect(await page.$$eval('#step-budgets-3 input', (inputs) => inputs.map((i) => i.getAttribute('name')))).toEqual([
      'budgets.3.inp_ms',
      'budgets.3.tbt_ms',
      'budgets.3.cls',
    ]);
    await page.type('#budgets-0-lcp_ms', '2500');
    await page.type('#budgets-0-cls', '0,1');
    await page.type('#budgets-0-scores-performance', '80');
    await page.type('#budgets-3-inp_ms', '200');
    expect(await submit(page, '#save-budgets')).toBe(200);
    expect(page.url()).toBe(`${api.url}/flows/${flowId}?notice=budgetsSaved#budgets`);
    expect(await page.$eval('#notice', (el) => el.textContent)).toBe('Budgets saved.');
    expect(await page.$$eval('#budgets-list li', (items) => items.map((li) => li.textContent))).toEqual([
      'Step 1: https://shop.example.com/: LCP ≤ 2,500 ms, CLS ≤ 0.1, Performance ≥ 80',
      'Step 4: Search: INP ≤ 200 ms',
    ]);
    const read = await call(api, `/flows/${flowId}`, { token: owner.token });
    expect((read.body.data as { budgets: unknown }).budgets).toEqual({
      '0': { lcp_ms: 2500, cls: 0.1, scores: { performance: 80 } },
      '3': { inp_ms: 200 },
    });
    // The runs stored above measured step 0 as a navigation: its LCP and CLS charts draw the budget, TBT none.
    const step0 = '.flow-history-step[data-index="0"]';
    expect(
      await page.$eval(`${step0} figure[data-metric="lcp_ms"] line.budget`, (l) => l.getAttribute('data-value')),
    ).toBe('2500');
    expect(
      await page.$$eval(`${step0} figure[data-metric="lcp_ms"] .chart-legend li`, (items) =>
        items.map((li) => li.textContent),
      ),
    ).toContain('Budget 2,500 ms');
    expect(
      await page.$eval(`${step0} figure[data-metric="cls"] line.budget`, (l) => l.getAttribute('data-value')),
    ).toBe('0.1');
    expect(await page.$$(`${step0} figure[data-metric="tbt_ms"] line.budget`)).toHaveLength(0);
    seen.push(await page.content());
    await page.browserContext().close();
  }, 30_000);

  it("refuses in the form what the API refuses, with the API's words beside the field, never a 500", async () => {
    const path = `/flows/${flowId}`;
    const apiError = async (budgets: unknown, field: string) => {
      const res = await call(api, path, { token: owner.token, method: 'PATCH', body: { budgets } });
      expect(res.status).toBe(422);
      return (res.body.errors as Record<string, string[]>)[field]![0];
    };
    const page = await signedInPage(browser, api.url, owner.user.email, PASSWORD);
    await page.goto(`${api.url}${path}/budgets`);
    // Out of range: the service's check, in the API schema's words.
    await page.$eval('#budgets-0-lcp_ms', (el) => ((el as unknown as { value: string }).value = '700000'));
    expect(await submit(page, '#save-budgets')).toBe(422);
    expect(await page.$eval('[data-field="budgets.0.lcp_ms"]', (el) => el.textContent)).toBe(
      await apiError({ '0': { lcp_ms: 700_000 } }, 'budgets.0.lcp_ms'),
    );
    expect(await value(page, '#budgets-0-lcp_ms')).toBe('700000');
    expect(await page.$eval('#budgets-0-lcp_ms', (el) => el.getAttribute('aria-invalid'))).toBe('true');
    // Not a number: the form's own words.
    await page.$eval('#budgets-0-lcp_ms', (el) => ((el as unknown as { value: string }).value = '2.5 s'));
    expect(await submit(page, '#save-budgets')).toBe(422);
    expect(await page.$eval('[data-field="budgets.0.lcp_ms"]', (el) => el.textContent)).toBe(
      'A number such as 2500 or 0.1, or empty.',
    );
    // A budget on a step of the wrong kind: this form still shows step 4 as a timespan, but the steps are changed
    // meanwhile (through the API) so that it is a snapshot.
    await page.goto(`${api.url}${path}/budgets`);
    const { steps } = (await call(api, path, { token: owner.token })).body.data as { steps: unknown[] };
    const changed = await call(api, path, {
      token: owner.token,
      method: 'PATCH',
      body: { steps: [...steps.slice(0, 3), { type: 'snapshot', name: 'Search' }], budgets: {} },
    });
    expect(changed.status).toBe(200);
    await page.$eval('#budgets-3-inp_ms', (el) => ((el as unknown as { value: string }).value = '250'));
    expect(await submit(page, '#save-budgets')).toBe(422);
    expect(await page.$eval('#step-budgets-3', (el) => el.getAttribute('data-mode'))).toBe('snapshot');
    const wrongKind = await apiError({ '3': { inp_ms: 250 } }, 'budgets.3.inp_ms');
    expect(wrongKind).toBe('Step 3 is a snapshot step, which has no inp_ms; its metrics: none.');
    expect(await page.$eval('#step-budgets-3 [data-field="budgets.3"]', (el) => el.textContent)).toBe(wrongKind);
    expect((await storage().flows.find(flowId))?.budgets).toEqual({});
    seen.push(await page.content());
    await page.browserContext().close();
  }, 30_000);

  it('turns daily monitoring on and off with its Temporal schedule', async () => {
    const path = `/flows/${flowId}`;
    const flow = (await storage().flows.find(flowId))!;
    const scheduleId = flowScheduleId(api.config.temporal.taskQueuePrefix, flow.id);
    schedules.push(scheduleId);
    expect((await get(owner.client, path)).text).toContain('data-monitored="false"');
    const on = await post(owner.client, `${path}/monitoring`, { monitored: 'true' });
    expect([on.status, location(on)]).toEqual([303, `${path}?notice=monitoringOn#monitoring`]);
    expect((await storage().flows.find(flowId))?.monitored).toBe(true);
    expect((await api.temporal.schedule.getHandle(scheduleId).describe()).scheduleId).toBe(scheduleId);
    const page = await get(owner.client, location(on));
    expect(page.text).toContain('data-monitored="true"');
    expect(page.text).toContain('Monitoring on: the flow runs once a day.');
    const off = await post(owner.client, `${path}/monitoring`, { monitored: 'false' });
    expect([off.status, location(off)]).toEqual([303, `${path}?notice=monitoringOff#monitoring`]);
    expect((await storage().flows.find(flowId))?.monitored).toBe(false);
    await expect(api.temporal.schedule.getHandle(scheduleId).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
    expect((await post(owner.client, `${path}/monitoring`, { monitored: 'yes' })).status).toBe(400);
  });

  it("refuses monitoring past the plan's target limit, monitored flows counted, with the plan link", async () => {
    const starter = await signedIn('starter');
    const insert = (name: string, monitored: boolean) =>
      storage().flows.insert({
        publicId: newPublicId(new Date()),
        userId: starter.user.id,
        name,
        formFactor: 'desktop',
        steps: [{ type: 'navigate', url: 'https://shop.example.com/' }],
        monitored,
        createdAt: new Date(),
      });
    // Stored directly, past the plan's flows: only the count of monitored ones matters here.
    for (let i = 0; i < 5; i++) await insert(`Monitored ${i}`, true);
    const flow = await insert('One more', false);
    await get(starter.client, `/flows/${flow.publicId}`);
    const refused = await post(starter.client, `/flows/${flow.publicId}/monitoring`, { monitored: 'true' });
    expect(refused.status).toBe(403);
    expect(refused.text).toMatch(
      /id="monitoring-error">Your plan \(Starter\) monitors up to 5 targets, monitored flows included\. The Pro plan monitors more\.[^<]*<a href="\/settings\/plan" class="plan-link">/,
    );
    expect(refused.text).toContain('data-monitored="false"');
    expect((await storage().flows.find(flow.publicId))?.monitored).toBe(false);
    const scheduleId = flowScheduleId(api.config.temporal.taskQueuePrefix, flow.id);
    await expect(api.temporal.schedule.getHandle(scheduleId).describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  });

  it("is a 404 for another user's flow, runs and forms", async () => {
    const other = await signedIn('pro');
    const flow = (await storage().flows.find(flowId))!;
    const [run] = (await storage().flows.listRuns(flow.id, { limit: 1, page: 1 })).items;
    await get(other.client, '/flows');
    for (const path of [
      `/flows/${flowId}`,
      `/flows/${flowId}/runs/${run!.publicId}`,
      `/flows/${flowId}/budgets`,
      '/flows/not-an-id',
    ])
      expect({ path, status: (await get(other.client, path)).status }).toEqual({ path, status: 404 });
    for (const path of [
      `/flows/${flowId}/secrets`,
      `/flows/${flowId}/run`,
      `/flows/${flowId}/delete`,
      `/flows/${flowId}/budgets`,
    ])
      expect({ path, status: (await post(other.client, path, { secret_name: 'pw' })).status }).toEqual({
        path,
        status: 404,
      });
    expect(await storage().flows.find(flowId)).toBeDefined();
  });

  it('shows the Free plan the gate: the list explains it, the rest is 403', async () => {
    const free = await signedIn('free');
    const list = await get(free.client, '/flows');
    expect(list.status).toBe(200);
    expect(list.text).toContain('<a href="/flows" aria-current="page">Flows</a>');
    expect(list.text).toContain(
      'User flows are not part of your plan (Free). They are available from the Starter plan.',
    );
    expect((await get(free.client, '/flows/new')).status).toBe(403);
    expect((await get(free.client, `/flows/${flowId}/budgets`)).status).toBe(403);
    const create = await post(free.client, '/flows', { name: 'x', form_factor: 'desktop' });
    expect([create.status, create.text.includes('id="plan-required"')]).toEqual([403, true]);
  });

  it('deletes a flow from its page', async () => {
    const flow = (await storage().flows.listOwned(owner.user.id, { limit: 10, page: 1 })).items.at(-1)!;
    await get(owner.client, `/flows/${flow.publicId}`);
    const res = await post(owner.client, `/flows/${flow.publicId}/delete`, {});
    expect([res.status, location(res)]).toEqual([303, '/flows?notice=deleted']);
    expect(await storage().flows.find(flow.publicId)).toBeUndefined();
  });

  it('never shows a secret value on any page', () => {
    expect(seen.length).toBeGreaterThan(20);
    for (const text of seen) expect(text).not.toContain(SECRET);
  });
});

async function screenshotJpeg(): Promise<Buffer> {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  await page.setViewport({ width: 40, height: 30 });
  const bytes = Buffer.from(await page.screenshot({ type: 'jpeg' }));
  await context.close();
  return bytes;
}
