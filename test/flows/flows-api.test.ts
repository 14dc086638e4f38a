import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { decryptFlowSecret } from '../../core/flows/secrets.ts';
import { createStorage } from '../../db/store/index.ts';
import { prepareAccountExport } from '../../services/account-export.ts';
import { flowRunWorkflowId, scanDispatcherWorkflowId } from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { registerSecret } from '../harness/log-sink.ts';

/**
 * The /flows API against the real app, Postgres and Temporal (no worker: a run is queued and its workflow
 * started, and waits for its slot; test/flows/flow-run.test.ts runs one through a worker).
 */
let api: TestApi;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
const started: string[] = [];

// Secret names stay under 6 characters: the log check treats longer values under a `secret` key as secrets.
const SECRET = 'flow-secret-value-7f3a9c';
registerSecret(SECRET);
registerSecret('correct horse battery staple');
const STEPS = [
  { type: 'navigate', url: 'HTTPS://Shop.Example.com/#top', name: 'Home' },
  { type: 'click', selector: 'aria/Sign in' },
  { type: 'wait_for_navigation' },
  { type: 'type', selector: '#email', text: 'ann@example.com' },
  { type: 'type', selector: '#password', secret: 'pw' },
  { type: 'start_timespan', name: 'Sign in' },
  { type: 'click', selector: 'form > button' },
  { type: 'end_timespan' },
  { type: 'snapshot', name: 'Account' },
];
const recording = () =>
  JSON.parse(readFileSync(join(PROJECT_ROOT, 'test/unit/fixtures/recorder-shop-checkout.json'), 'utf8')) as unknown;

beforeAll(async () => {
  api = await startTestApi();
  conforms = await openApiContract(api);
});

afterAll(async () => {
  if (!api) return;
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

type Flow = {
  id: string;
  name: string;
  form_factor: string;
  steps: Array<Record<string, unknown>>;
  secrets: Array<{ name: string; kind: string; updated_at: string }>;
  missing_secrets: string[];
  warnings?: string[];
};

const everything: string[] = [];
/** Calls the API, checks the answer against the OpenAPI document, and keeps it for the secret search. */
async function request(
  token: string,
  method: string,
  path: string,
  template: string,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  if (method === 'DELETE') {
    const res = await fetch(`${api.url}/api/v1${path}`, { method, headers: { authorization: `Bearer ${token}` } });
    const text = await res.text();
    everything.push(text);
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (res.status !== 204) expect(conforms(method, template, { status: res.status, body: parsed })).toEqual([]);
    return { status: res.status, body: parsed };
  }
  const res = await call(api, path, { token, method, body });
  everything.push(JSON.stringify(res.body));
  expect(conforms(method, template, res)).toEqual([]);
  return res;
}

async function createFlow(token: string, body: Record<string, unknown>): Promise<Flow> {
  const res = await request(token, 'POST', '/flows', '/flows', body);
  if (res.status !== 201) throw new Error(`POST /flows answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Flow;
}

describe('a flow', () => {
  it('is created, listed, read, changed and deleted; its steps normalised, its secret stored encrypted and never returned', async () => {
    const { token } = await createTestUser(api, 'pro');
    const flow = await createFlow(token, {
      name: 'Sign in',
      form_factor: 'mobile',
      steps: STEPS,
      secrets: { pw: { kind: 'password', value: SECRET } },
    });
    expect(flow).toMatchObject({
      id: expect.stringMatching(/^[0-9a-z]{26}$/),
      name: 'Sign in',
      form_factor: 'mobile',
      secrets: [{ name: 'pw', kind: 'password', updated_at: expect.any(String) }],
      missing_secrets: [],
      warnings: [],
    });
    expect(flow.steps[0]).toEqual({ type: 'navigate', url: 'https://shop.example.com/', name: 'Home' });
    expect(flow.steps.slice(1)).toEqual(STEPS.slice(1));

    const list = await request(token, 'GET', '/flows', '/flows');
    expect(list.status).toBe(200);
    expect((list.body.data as Flow[]).map((f) => f.id)).toEqual([flow.id]);
    expect(list.body.meta).toEqual({ current_page: 1, per_page: 20, total: 1, last_page: 1 });
    const shown = await request(token, 'GET', `/flows/${flow.id}`, '/flows/{id}');
    expect(shown.body.data).toEqual({ ...flow, warnings: undefined });

    const changed = await request(token, 'PATCH', `/flows/${flow.id}`, '/flows/{id}', {
      name: 'Sign in, desktop',
      form_factor: 'desktop',
    });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ name: 'Sign in, desktop', form_factor: 'desktop', steps: flow.steps });

    // At rest: encrypted, bound to the flow and the name.
    const row = await api.db.knex('flow_secrets').first();
    expect(JSON.stringify(row)).not.toContain(SECRET);
    expect(decryptFlowSecret(api.config.keys, flow.id, 'pw', row.value_encrypted as string)).toBe(SECRET);
    expect(() => decryptFlowSecret(api.config.keys, flow.id, 'other', row.value_encrypted as string)).toThrow();
    const flowsDump = JSON.stringify(await api.db.knex('flows').select());
    expect(flowsDump).not.toContain(SECRET);

    expect((await request(token, 'DELETE', `/flows/${flow.id}`, '/flows/{id}')).status).toBe(204);
    expect((await request(token, 'GET', `/flows/${flow.id}`, '/flows/{id}')).status).toBe(404);
    expect(await api.db.knex('flow_secrets').where({ name: 'pw' }).select()).toEqual([]);
  });

  it('has write-only secrets: set, replaced, checked (a TOTP seed is base32), removed; answers list names and kinds', async () => {
    const { token } = await createTestUser(api, 'starter');
    const flow = await createFlow(token, { name: 'Codes', form_factor: 'desktop', steps: STEPS.slice(0, 5) });
    expect(flow.missing_secrets).toEqual(['pw']);
    const path = `/flows/${flow.id}/secrets/pw`;
    const template = '/flows/{id}/secrets/{name}';
    const first = await request(token, 'PUT', path, template, { kind: 'password', value: SECRET });
    expect(first.status).toBe(201);
    expect(first.body.data).toEqual([{ name: 'pw', kind: 'password', updated_at: expect.any(String) }]);
    expect((await request(token, 'PUT', path, template, { kind: 'password', value: `${SECRET}-2` })).status).toBe(200);
    registerSecret(`${SECRET}-2`);
    const totp = `/flows/${flow.id}/secrets/otp`;
    const bad = await request(token, 'PUT', totp, template, { kind: 'totp', value: 'not a seed!' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      value: ['A TOTP secret must be the base32 seed (at least 16 characters A–Z, 2–7).'],
    });
    expect((await request(token, 'PUT', totp, template, { kind: 'totp', value: 'JBSW Y3DP EHPK 3PXP' })).status).toBe(
      201,
    );
    const shown = (await request(token, 'GET', `/flows/${flow.id}`, '/flows/{id}')).body.data as Flow;
    expect(shown.secrets.map((s) => [s.name, s.kind])).toEqual([
      ['otp', 'totp'],
      ['pw', 'password'],
    ]);
    expect(shown.missing_secrets).toEqual([]);
    expect((await request(token, 'DELETE', totp, template)).status).toBe(204);
    expect((await request(token, 'DELETE', totp, template)).status).toBe(404);
    expect(
      (await request(token, 'PUT', `/flows/${flow.id}/secrets/Bad-Name`, template, { kind: 'password', value: 'x' }))
        .status,
    ).toBe(404);
  });

  it('of another account is not found, for every endpoint', async () => {
    const { token } = await createTestUser(api, 'pro');
    const { token: other } = await createTestUser(api, 'pro');
    const flow = await createFlow(token, { name: 'Mine', form_factor: 'desktop', steps: STEPS.slice(0, 2) });
    const id = flow.id;
    for (const [method, path, template, body] of [
      ['GET', `/flows/${id}`, '/flows/{id}'],
      ['PATCH', `/flows/${id}`, '/flows/{id}', { name: 'Theirs' }],
      ['DELETE', `/flows/${id}`, '/flows/{id}'],
      ['PUT', `/flows/${id}/secrets/pw`, '/flows/{id}/secrets/{name}', { kind: 'password', value: 'x' }],
      ['POST', `/flows/${id}/runs`, '/flows/{id}/runs', {}],
      ['GET', `/flows/${id}/runs`, '/flows/{id}/runs'],
      ['GET', `/flows/${id}/runs/${id}`, '/flows/{id}/runs/{run_id}'],
    ] as const) {
      const res = await request(other, method, path, template, body);
      expect([method, path, res.status, res.body]).toEqual([method, path, 404, { message: 'Not found.' }]);
    }
    expect((await request(token, 'GET', '/flows/not-an-id', '/flows/{id}')).status).toBe(404);
  });
});

describe('plans and validation', () => {
  it('Free has no flows (403 naming Starter); Starter keeps 2 flows of at most 15 steps (403 naming Pro)', async () => {
    const { token: free } = await createTestUser(api, 'free');
    const refused = await call(api, '/flows', { token: free });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ message: expect.any(String), required_plan: 'starter' });

    const { token } = await createTestUser(api, 'starter');
    const body = { name: 'F', form_factor: 'desktop', steps: STEPS.slice(0, 2) };
    await createFlow(token, body);
    await createFlow(token, body);
    const third = await request(token, 'POST', '/flows', '/flows', body);
    expect(third.status).toBe(403);
    expect(third.body).toEqual({
      message: 'Your plan (Starter) keeps at most 2 user flows. Upgrade to Pro to keep more, or remove one first.',
      required_plan: 'pro',
    });

    const { token: starter2 } = await createTestUser(api, 'starter');
    const long = [STEPS[0], ...Array.from({ length: 15 }, () => ({ type: 'click', selector: '#next' }))];
    const tooLong = await request(starter2, 'POST', '/flows', '/flows', { ...body, steps: long });
    expect(tooLong.status).toBe(403);
    expect(tooLong.body).toEqual({
      message:
        'Your plan (Starter) allows at most 15 steps per flow; this flow has 16. Upgrade to Pro for more, or remove steps.',
      required_plan: 'pro',
    });
    const flow = await createFlow(starter2, body);
    const patched = await request(starter2, 'PATCH', `/flows/${flow.id}`, '/flows/{id}', { steps: long });
    expect([patched.status, patched.body.required_plan]).toEqual([403, 'pro']);
  });

  it('refuses malformed steps with 422 naming the field', async () => {
    const { token } = await createTestUser(api, 'agency');
    const post = async (steps: unknown[]) =>
      (await request(token, 'POST', '/flows', '/flows', { name: 'X', form_factor: 'desktop', steps })).body;
    expect((await post([{ type: 'click', selector: '#a' }])).errors).toEqual({
      'steps.0.type': ['The first step must be a navigate step.'],
    });
    expect((await post([{ type: 'navigate', url: 'ftp://example.com/' }])).errors).toEqual({
      'steps.0.url': ['The url must start with http:// or https://.'],
    });
    expect((await post([STEPS[0], { type: 'click' }])).errors).toEqual({
      'steps.1.selector': ['The steps.1.selector field is required.'],
    });
    expect((await post([STEPS[0], { type: 'type', selector: '#a', text: 'x', secret: 'pw' }])).errors).toEqual({
      'steps.1.text': ['The steps.1.text field is not allowed.'],
    });
    expect(Object.keys((await post([STEPS[0], { type: 'jump' }])).errors as object)).toEqual(['steps.1.type']);
    expect((await post([STEPS[0], { type: 'end_timespan' }])).errors).toEqual({
      'steps.1.type': ['An end_timespan step must follow a start_timespan step.'],
    });
    const many = [STEPS[0], ...Array.from({ length: 50 }, () => ({ type: 'wait_for_navigation' }))];
    expect((await post(many)).errors).toEqual({ steps: ['The steps may not have more than 50 items.'] });
  });
});

describe('a Recorder import', () => {
  it('makes the steps, names the flow after the recording, warns, and never keeps the typed password', async () => {
    const { token } = await createTestUser(api, 'pro');
    const flow = await createFlow(token, { form_factor: 'desktop', recording: recording() });
    expect(flow.name).toBe('Shop: sign in, search, add to cart');
    expect(flow.steps).toHaveLength(15);
    expect(flow.warnings).toHaveLength(12);
    expect(flow.missing_secrets).toEqual(['password', 'totp']);
    const stored = JSON.stringify(await api.db.knex('flows').where({ public_id: flow.id }).first());
    for (const text of [JSON.stringify(flow), stored]) {
      expect(text).not.toContain('correct horse battery staple');
      expect(text).not.toContain('492817');
    }
    const both = await request(token, 'POST', '/flows', '/flows', {
      form_factor: 'desktop',
      recording: recording(),
      steps: STEPS,
    });
    expect(both.status).toBe(422);
    const bad = await request(token, 'POST', '/flows', '/flows', { form_factor: 'desktop', recording: { steps: 3 } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({
      recording: [expect.stringMatching(/^This is not a Chrome DevTools Recorder export/)],
    });
  });
});

describe('a run', () => {
  it('is refused while a secret the steps type is not set, then queued (202) with its workflow started, once', async () => {
    const { token, user } = await createTestUser(api, 'pro');
    const flow = await createFlow(token, { name: 'Run me', form_factor: 'desktop', steps: STEPS });
    const runs = `/flows/${flow.id}/runs`;
    const missing = await request(token, 'POST', runs, '/flows/{id}/runs', {});
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({
      secrets: [`The secret "pw" is not set; set it with PUT /flows/${flow.id}/secrets/pw.`],
    });
    await request(token, 'PUT', `/flows/${flow.id}/secrets/pw`, '/flows/{id}/secrets/{name}', {
      kind: 'password',
      value: SECRET,
    });

    const queued = await request(token, 'POST', runs, '/flows/{id}/runs', {});
    expect(queued.status).toBe(202);
    const run = queued.body.data as { id: string; status: string; flow_id: string };
    started.push(run.id);
    expect(run).toMatchObject({
      status: 'queued',
      flow_id: flow.id,
      trigger: 'api',
      region: api.config.regions.default,
    });
    const row = await api.db.knex('flow_runs').where({ public_id: run.id }).first();
    expect(row).toMatchObject({ status: 'queued', user_id: user.id });

    const handle = api.temporal.workflow.getHandle(flowRunWorkflowId(run.id));
    const described = await handle.describe();
    expect(described.type).toBe('flowRunWorkflow');
    expect(described.status.name).toBe('RUNNING');
    expect(described.searchAttributes).toMatchObject({ UserId: [String(user.id)], Host: ['shop.example.com'] });
    // Only ids travel through Temporal: the secret is in no argument, and in no event of the history.
    expect(JSON.stringify(await handle.fetchHistory())).not.toContain(SECRET);

    const again = await request(token, 'POST', runs, '/flows/{id}/runs', {});
    expect([again.status, (again.body.data as { id: string }).id]).toEqual([202, run.id]);
    const list = await request(token, 'GET', runs, '/flows/{id}/runs');
    expect((list.body.data as Array<{ id: string }>).map((r) => r.id)).toEqual([run.id]);
    const detail = await request(token, 'GET', `${runs}/${run.id}`, '/flows/{id}/runs/{run_id}');
    expect(detail.body.data).toMatchObject({ id: run.id, status: 'queued', steps: [], failure: null });
  });

  it('no answer ever carried a secret value', () => {
    expect(everything.length).toBeGreaterThan(20);
    for (const text of everything) expect(text).not.toContain(SECRET);
  });
});

describe("an account's data", () => {
  it('exports its flows with runs and secret names (never values), and deletion removes them', async () => {
    const { token, user } = await createTestUser(api, 'pro');
    const flow = await createFlow(token, {
      name: 'Export me',
      form_factor: 'desktop',
      steps: STEPS,
      secrets: { pw: { kind: 'password', value: SECRET } },
    });
    const storage = createStorage(api.db.knex);
    const unused = () => Promise.reject(new Error('no live-data sites'));
    const archive = await prepareAccountExport(
      { accountData: storage.accountData, rum: { history: unused, pageviewsThisMonth: unused }, clock: api.clock.read },
      user.id,
    );
    if (archive.kind !== 'ready') throw new Error(archive.kind);
    let text = '';
    for await (const part of archive.body) text += part;
    const exported = JSON.parse(text) as { flows: Array<Record<string, unknown>> };
    expect(exported.flows).toEqual([
      expect.objectContaining({
        public_id: flow.id,
        name: 'Export me',
        secrets: [{ name: 'pw', kind: 'password', updated_at: expect.any(String) }],
        runs: [],
      }),
    ]);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('value_encrypted');

    const removed = await storage.accountData.deleteRows(user.id, 100);
    expect(removed.flows).toBe(1);
    expect(
      await api.db
        .knex('flow_secrets')
        .join('flows', 'flows.id', 'flow_secrets.flow_id')
        .where('flows.user_id', user.id),
    ).toEqual([]);
  });
});
