import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { insertSite } from './rum-alerts-harness.ts';

/** GET /rum/sites/{id}/alerts (spec) and the extensions POST, PATCH, DELETE, on the real app and Postgres. */

let api: TestApi;
const T0 = new Date('2026-11-23T09:00:00Z');

beforeAll(async () => {
  api = await startTestApi({ clock: new TestClock(T0) });
}, 60_000);
afterAll(async () => {
  await api?.close();
});

const valid = {
  title: 'LCP on checkout',
  mode: 'manual',
  metric: 'LCP',
  threshold: 3000,
  window_minutes: 30,
  min_samples: 50,
  consecutive_threshold: 2,
};

it("creates, lists, changes and deletes configurations with exactly the spec's fields", async () => {
  const { user, token } = await createTestUser(api, 'starter');
  const site = await insertSite(api, user.id);
  const path = `/rum/sites/${site.id}/alerts`;
  expect(await call(api, path, { token })).toMatchObject({ status: 200, body: { data: [] } });

  const manual = await call(api, path, { token, method: 'POST', body: valid });
  expect(manual.status).toBe(201);
  const id = (manual.body.data as { id: number }).id;
  expect(manual.body.data).toEqual({
    id,
    title: 'LCP on checkout',
    mode: 'manual',
    metric: 'LCP',
    threshold: 3000,
    window_minutes: 30,
    min_samples: 50,
    consecutive_threshold: 2,
    status: 'active',
    emailed_at: null,
    resolved_at: null,
    created_at: '2026-11-23T09:00:00+00:00',
  });
  // Defaults: a 60-minute window, 20 samples, 3 checks in a row.
  const auto = await call(api, path, { token, method: 'POST', body: { title: 'Vitals', mode: 'auto' } });
  expect(auto.body.data).toMatchObject({
    mode: 'auto',
    metric: null,
    threshold: null,
    window_minutes: 60,
    min_samples: 20,
    consecutive_threshold: 3,
  });
  expect(((await call(api, path, { token })).body.data as Array<{ id: number }>).map((a) => a.id)).toEqual([
    id,
    (auto.body.data as { id: number }).id,
  ]);

  // A changed rule starts its streak again; a new title alone does not.
  await api.db.knex('rum_alerts').where({ id }).update({ streak: 1 });
  const renamed = await call(api, `${path}/${id}`, { token, method: 'PATCH', body: { title: 'Renamed' } });
  expect(renamed).toMatchObject({ status: 200, body: { data: { title: 'Renamed', threshold: 3000 } } });
  expect(await api.db.knex('rum_alerts').where({ id }).first()).toMatchObject({ streak: 1 });
  const toAuto = await call(api, `${path}/${id}`, { token, method: 'PATCH', body: { mode: 'auto', min_samples: 10 } });
  expect(toAuto.body.data).toMatchObject({
    mode: 'auto',
    metric: null,
    threshold: null,
    min_samples: 10,
    window_minutes: 30,
  });
  expect(await api.db.knex('rum_alerts').where({ id }).first()).toMatchObject({ streak: 0 });
  const back = await call(api, `${path}/${id}`, {
    token,
    method: 'PATCH',
    body: { mode: 'manual', metric: 'CLS', threshold: 0.2 },
  });
  expect(back.body.data).toMatchObject({ mode: 'manual', metric: 'CLS', threshold: 0.2 });

  const removed = await fetch(`${api.url}/api/v1${path}/${id}`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${token}` },
  });
  expect(removed.status).toBe(204);
  expect(await call(api, `${path}/${id}`, { token, method: 'PATCH', body: { title: 'gone' } })).toMatchObject({
    status: 404,
    body: { message: 'Not found.' },
  });
  expect((await call(api, path, { token })).body.data).toHaveLength(1);
});

it("answers invalid configurations with 422 in the spec's shape", async () => {
  const { user, token } = await createTestUser(api, 'pro');
  const site = await insertSite(api, user.id);
  const path = `/rum/sites/${site.id}/alerts`;
  const post = (body: unknown) => call(api, path, { token, method: 'POST', body });
  const errorsOf = async (body: unknown) => {
    const response = await post(body);
    expect(response.status).toBe(422);
    expect(typeof response.body.message).toBe('string');
    return response.body.errors as Record<string, string[]>;
  };
  expect(await errorsOf({ mode: 'auto' })).toEqual({ title: ['The title field is required.'] });
  expect(Object.keys(await errorsOf({ ...valid, window_minutes: 4 }))).toEqual(['window_minutes']);
  expect(Object.keys(await errorsOf({ ...valid, window_minutes: 1441 }))).toEqual(['window_minutes']);
  expect(Object.keys(await errorsOf({ ...valid, min_samples: 0 }))).toEqual(['min_samples']);
  expect(Object.keys(await errorsOf({ ...valid, min_samples: 100_001 }))).toEqual(['min_samples']);
  expect(Object.keys(await errorsOf({ ...valid, consecutive_threshold: 13 }))).toEqual(['consecutive_threshold']);
  expect(Object.keys(await errorsOf({ ...valid, consecutive_threshold: 1.5 }))).toEqual(['consecutive_threshold']);
  expect(Object.keys(await errorsOf({ ...valid, mode: 'sometimes' }))).toEqual(['mode']);
  expect(Object.keys(await errorsOf({ ...valid, metric: 'FID' }))).toEqual(['metric']);
  expect(Object.keys(await errorsOf({ ...valid, threshold: -1 }))).toEqual(['threshold']);
  expect(Object.keys(await errorsOf({ ...valid, threshold: '3000' }))).toEqual(['threshold']);
  expect(await errorsOf({ ...valid, colour: 'red' })).toEqual({ colour: ['The colour field is not allowed.'] });
  expect(await errorsOf({ title: 'x', mode: 'manual' })).toEqual({
    metric: ['The metric field is required in manual mode.'],
    threshold: ['The threshold field is required in manual mode.'],
  });
  expect(Object.keys(await errorsOf({ title: 'x', mode: 'auto', metric: 'LCP', threshold: 100 }))).toEqual([
    'metric',
    'threshold',
  ]);
  expect(Object.keys(await errorsOf({ ...valid, threshold: 120_001 }))).toEqual(['threshold']);
  expect(Object.keys(await errorsOf('not json'))).toEqual(['body']);

  const { id } = (await post(valid)).body.data as { id: number };
  const patched = await call(api, `${path}/${id}`, { token, method: 'PATCH', body: { consecutive_threshold: 0 } });
  expect(patched.status).toBe(422);
  expect(Object.keys(patched.body.errors as object)).toEqual(['consecutive_threshold']);

  // At most 20 per site.
  for (let i = 1; i < 20; i++) expect((await post({ title: `a${i}`, mode: 'auto' })).status).toBe(201);
  expect(await errorsOf({ title: 'one too many', mode: 'auto' })).toEqual({
    site: ['A site has at most 20 alert configurations; remove one first.'],
  });
});

it("hides other users' sites and configurations (404) and refuses Free (403)", async () => {
  const owner = await createTestUser(api, 'starter');
  const stranger = await createTestUser(api, 'agency');
  const site = await insertSite(api, owner.user.id);
  const { id } = (await call(api, `/rum/sites/${site.id}/alerts`, { token: owner.token, method: 'POST', body: valid }))
    .body.data as { id: number };
  const path = `/rum/sites/${site.id}/alerts`;
  for (const [method, target, body] of [
    ['GET', path, undefined],
    ['POST', path, valid],
    ['PATCH', `${path}/${id}`, { title: 'mine now' }],
    ['DELETE', `${path}/${id}`, undefined],
  ] as const) {
    expect(await call(api, target, { token: stranger.token, method, body })).toMatchObject({
      status: 404,
      body: { message: 'Not found.' },
    });
  }
  // The stranger's own site does not open the owner's configuration either.
  const strangersSite = await insertSite(api, stranger.user.id);
  expect(
    (
      await call(api, `/rum/sites/${strangersSite.id}/alerts/${id}`, {
        token: stranger.token,
        method: 'PATCH',
        body: { title: 'x' },
      })
    ).status,
  ).toBe(404);
  expect((await call(api, '/rum/sites/0/alerts', { token: owner.token })).status).toBe(404);
  expect((await call(api, '/rum/sites/abc/alerts', { token: owner.token })).status).toBe(404);
  expect((await call(api, `/rum/sites/999999999/alerts`, { token: owner.token })).status).toBe(404);
  expect(await api.db.knex('rum_alerts').where({ id }).first()).toMatchObject({ title: valid.title });

  const free = await createTestUser(api, 'free');
  const response = await call(api, path, { token: free.token });
  expect(response.status).toBe(403);
  expect(response.body).toMatchObject({ required_plan: 'starter' });
  expect((await call(api, path, { token: free.token, method: 'POST', body: valid })).status).toBe(403);
});

it("is documented in the OpenAPI document: the spec's endpoint and the extensions marked", async () => {
  const document = (await (await fetch(`${api.url}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, Record<string, unknown>>>;
  };
  const list = document.paths['/rum/sites/{id}/alerts']!;
  expect(list.get!['x-extension']).toBeUndefined();
  expect(list.post!['x-extension']).toBe(true);
  const one = document.paths['/rum/sites/{id}/alerts/{alert_id}']!;
  expect(one.patch!['x-extension']).toBe(true);
  expect(one.delete!['x-extension']).toBe(true);
});
