import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { freePort } from '../harness/isolated.ts';

/**
 * ClickHouse unreachable (the app pointed at a port where nothing listens; the shared server is never
 * stopped): the live-data queries answer 503 with Retry-After, never 500; the sites themselves are still
 * listed, created and shown, with pageviews_this_month and rejected_this_month null.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi({ env: { CLICKHOUSE_URL: `http://127.0.0.1:${await freePort()}` } });
});
afterAll(async () => {
  await api?.close();
});

it('queries are 503 with Retry-After; sites work with null live figures', async () => {
  const conforms = await openApiContract(api);
  const { token } = await createTestUser(api, 'pro');
  const created = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: 'down.example' } });
  expect(created.status).toBe(201);
  expect(created.body.data).toMatchObject({
    domain: 'down.example',
    pageviews_this_month: null,
    rejected_this_month: null,
    alert_count: 0,
  });
  const id = (created.body.data as { id: number }).id;

  const list = await call(api, '/rum/sites', { token });
  expect(list.status).toBe(200);
  expect(conforms('get', '/rum/sites', list)).toEqual([]);
  expect((list.body.data as Array<{ pageviews_this_month: number | null }>).map((s) => s.pageviews_this_month)).toEqual(
    [null],
  );

  for (const [template, path] of [
    ['/rum/sites/{id}/summary', `/rum/sites/${id}/summary`],
    ['/rum/sites/{id}/history', `/rum/sites/${id}/history?metric=LCP`],
    ['/rum/sites/{id}/pages', `/rum/sites/${id}/pages`],
    ['/rum/sites/{id}/inp-culprits', `/rum/sites/${id}/inp-culprits`],
    ['/rum/sites/{id}/lcp-phases', `/rum/sites/${id}/lcp-phases`],
  ] as const) {
    const res = await call(api, path, { token });
    expect([path, res.status, res.headers.get('retry-after')]).toEqual([path, 503, '30']);
    expect(conforms('get', template, res)).toEqual([]);
  }
  // Validation and ownership come first: no ClickHouse needed to say 422 or 404.
  expect((await call(api, `/rum/sites/${id}/history`, { token })).status).toBe(422);
  expect((await call(api, `/rum/sites/${id + 1}/summary`, { token })).status).toBe(404);
});
