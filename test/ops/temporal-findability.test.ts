import { SEARCH_ATTRIBUTES } from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';

/** What operators are told to type into the Temporal UI finds the workflow, and it says what it is doing. */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

it('every search attribute the runbook names is registered on the server', async () => {
  const { customAttributes } = await api.temporal.connection.operatorService.listSearchAttributes({ namespace: api.config.temporal.namespace });
  for (const key of SEARCH_ATTRIBUTES) expect(Object.keys(customAttributes ?? {})).toContain(key.name);
  expect(SEARCH_ATTRIBUTES.map((key) => key.name)).toEqual(expect.arrayContaining(['ScanId', 'Host', 'TargetId', 'UserId', 'WebhookEvent', 'DeliveryId']));
});

it('a scan is found by ScanId and carries a summary naming its host and region', async () => {
  const { token } = await createTestUser(api, 'starter');
  const started = await call(api, '/scans', { token, method: 'POST', body: { url: 'http://127.0.0.1:9/findable' } });
  expect(started.status).toBe(202);
  const id = (started.body.data as { id: string }).id;
  const found: string[] = [];
  // Visibility is eventually consistent: the list catches up within moments.
  for (let attempt = 0; attempt < 50 && found.length === 0; attempt += 1) {
    for await (const execution of api.temporal.workflow.list({ query: `ScanId = "${id}"` })) found.push(execution.workflowId);
    if (found.length === 0) await new Promise((resolve) => setTimeout(resolve, 200));
  }
  expect(found).toEqual([`scan-${id}`]);
  const description = await api.temporal.workflow.getHandle(`scan-${id}`).describe();
  expect(await description.staticSummary()).toBe(`Scan of 127.0.0.1 (region ${api.config.regions.default}), scan ${id}`);
  await api.temporal.workflow.getHandle(`scan-${id}`).terminate('test done');
});
