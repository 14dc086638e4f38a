import { deleteTargetSchedulesOf } from '../../infra/temporal-client.ts';
import { scanWorkflowId } from '../../core/temporal.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Every request that names a scan, target, alert or live-data site by id carries that id in its access log
 * line (as the worker's lines do), from the API and from the web area's pages, whatever the answer.
 */
let api: TestApi;
// The live-data site's detail reads ClickHouse: the file's own database, as every test with live data has.
let ch: IsolatedClickHouse;
beforeAll(async () => {
  ch = await isolatedClickHouse();
  api = await startTestApi({ env: { CLICKHOUSE_DATABASE: ch.database } });
});
afterAll(async () => {
  await deleteTargetSchedulesOf(api.temporal, api.config.temporal.taskQueuePrefix).catch(() => undefined);
  await api?.close();
  await ch?.drop();
});

type Line = Record<string, unknown>;
const requestLines = (): Line[] =>
  api
    .logs()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line)
    .filter((line) => line.msg === 'request');
const lineFor = (method: string, path: string): Line | undefined =>
  requestLines().findLast((line) => line.method === method && line.path === path);

it('API routes record the scan, target, alert, live-data site and alert configuration they name', async () => {
  const password = 'correct horse battery';
  const { token } = await createTestUser(api, 'pro', password);
  const scan = await call(api, '/scans', { token, method: 'POST', body: { url: 'http://127.0.0.1:9/log-ids' } });
  expect(scan.status).toBe(202);
  const scanId = (scan.body.data as { id: string }).id;
  try {
    const target = await call(api, '/domains', {
      token,
      method: 'POST',
      body: { url: 'https://log-ids.example.com/' },
    });
    expect(target.status).toBe(201);
    const targetId = (target.body.data as { id: number }).id;
    const site = await call(api, '/rum/sites', { token, method: 'POST', body: { domain: 'log-ids.example.org' } });
    expect(site.status).toBe(201);
    const siteId = (site.body.data as { id: number }).id;

    const cases: Array<{ method: string; path: string; status: number; ids: Line }> = [
      { method: 'GET', path: `/scans/${scanId}`, status: 200, ids: { scanId } },
      { method: 'POST', path: `/scans/${scanId}/share/enable`, status: 200, ids: { scanId } },
      { method: 'GET', path: `/domains/${targetId}/history`, status: 200, ids: { targetId } },
      { method: 'PATCH', path: `/domains/${targetId}`, status: 200, ids: { targetId } },
      { method: 'GET', path: '/domains/999999/history', status: 404, ids: { targetId: 999999 } },
      { method: 'GET', path: '/alerts/424242', status: 404, ids: { alertId: 424242 } },
      { method: 'GET', path: `/rum/sites/${siteId}`, status: 200, ids: { rumSiteId: siteId } },
      { method: 'GET', path: `/rum/sites/${siteId}/alerts`, status: 200, ids: { rumSiteId: siteId } },
      {
        method: 'DELETE',
        path: `/rum/sites/${siteId}/alerts/777`,
        status: 404,
        ids: { rumSiteId: siteId, rumAlertId: 777 },
      },
    ];
    let shareUrl = '';
    for (const c of cases) {
      const body = c.method === 'PATCH' ? { is_active: false } : c.method === 'POST' ? {} : undefined;
      const answer = await call(api, c.path, { token, method: c.method, body });
      if (c.path.endsWith('/share/enable')) shareUrl = (answer.body.data as { share_url: string }).share_url;
      expect({ path: c.path, status: answer.status }).toEqual({ path: c.path, status: c.status });
      expect(lineFor(c.method, `/api/v1${c.path}`)).toEqual(
        expect.objectContaining({
          status: c.status,
          requestId: expect.any(String),
          userId: expect.any(Number),
          ...c.ids,
        }),
      );
    }
    // A creation names what it created.
    const rumAlert = await call(api, `/rum/sites/${siteId}/alerts`, {
      token,
      method: 'POST',
      body: { title: 'Core Web Vitals', mode: 'auto', window_minutes: 5, min_samples: 5, consecutive_threshold: 2 },
    });
    expect(rumAlert.status).toBe(201);
    expect(lineFor('POST', `/api/v1/rum/sites/${siteId}/alerts`)).toEqual(
      expect.objectContaining({
        status: 201,
        rumSiteId: siteId,
        rumAlertId: (rumAlert.body.data as { id: number }).id,
      }),
    );
    // Parameters that cannot be ids are 404s that name nothing.
    expect((await call(api, '/scans/not-a-scan-id', { token })).status).toBe(404);
    expect(lineFor('GET', '/api/v1/scans/not-a-scan-id')).toBeDefined();
    expect(lineFor('GET', '/api/v1/scans/not-a-scan-id')).not.toHaveProperty('scanId');

    // The web area's scan pages: progress (and its event stream's first answer) and report.
    const web = new WebClient(api.url, api.config.baseUrl);
    const me = await call(api, '/me', { token });
    const email = (me.body.data as { email: string }).email;
    expect((await web.signIn(email, password)).status).toBe(303);
    const progress = await web.get(`/scans/${scanId}`);
    expect(progress.status).toBe(200);
    expect(lineFor('GET', `/scans/${scanId}`)).toEqual(
      expect.objectContaining({ status: 200, scanId, userId: expect.any(Number) }),
    );
    await web.get(`/reports/${scanId}`);
    expect(lineFor('GET', `/reports/${scanId}`)).toEqual(expect.objectContaining({ scanId }));
    // A share link's page names the scan, never the token (a bearer secret).
    const sharePath = new URL(shareUrl).pathname;
    expect((await new WebClient(api.url, api.config.baseUrl).get(sharePath)).status).toBe(200);
    expect(lineFor('GET', '/share/[redacted]')).toEqual(expect.objectContaining({ status: 200, scanId }));
    expect(api.logs()).not.toContain(sharePath.split('/').at(-1));
    await web.get(`/targets/${targetId}`);
    expect(lineFor('GET', `/targets/${targetId}`)).toEqual(expect.objectContaining({ targetId }));
  } finally {
    await api.temporal.workflow
      .getHandle(scanWorkflowId(scanId))
      .terminate('test done')
      .catch(() => undefined);
  }
});
