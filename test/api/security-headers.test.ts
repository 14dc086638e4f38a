import { HSTS } from '../../core/security-headers.ts';
import { createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { rawRequest } from '../harness/web.ts';

/**
 * Every response of the API process's app (the API, the web area, health, the OAuth protocol, MCP), whatever
 * its route or status, says `nosniff`; HSTS too when BASE_URL is https, never when it is plain http. The real
 * app, started once with each kind of BASE_URL.
 */
let secure: TestApi;
let plain: TestApi;
const tokens = new Map<TestApi, string>();
beforeAll(async () => {
  [secure, plain] = await Promise.all([
    startTestApi({ env: { BASE_URL: 'https://perf.example.test' } }),
    startTestApi(),
  ]);
  for (const app of [secure, plain]) tokens.set(app, (await createTestUser(app, 'pro')).token);
});
afterAll(async () => {
  await secure?.close();
  await plain?.close();
});

/** One request of each kind the app answers: JSON and HTML, success and errors, the library-served OAuth routes. */
const requests = (auth: string) => [
  { what: 'API JSON, 200', path: '/api/v1/me', headers: { authorization: `Bearer ${auth}` }, status: 200 },
  { what: 'API JSON, 401', path: '/api/v1/me', status: 401 },
  { what: 'API JSON, 404', path: '/api/v1/nothing-here', status: 404 },
  {
    what: 'API JSON, 405',
    path: '/api/v1/me',
    method: 'DELETE',
    headers: { authorization: `Bearer ${auth}` },
    status: 405,
  },
  {
    what: 'API JSON, 422',
    path: '/api/v1/scans',
    method: 'POST',
    headers: { authorization: `Bearer ${auth}`, 'content-type': 'application/json' },
    body: '{}',
    status: 422,
  },
  { what: 'OpenAPI document', path: '/api/v1/openapi.json', status: 200 },
  { what: 'health', path: '/livez', status: 200 },
  { what: 'web page', path: '/login', status: 200 },
  { what: 'web error page', path: '/no-such-page', status: 404 },
  { what: 'OAuth metadata', path: '/.well-known/oauth-authorization-server', status: 200 },
  {
    what: 'OAuth token endpoint (the library answers)',
    path: '/oauth/token',
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=nonsense',
    status: 400,
  },
  {
    what: 'MCP, 401',
    path: '/mcp',
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
    status: 401,
  },
];

describe.each([
  ['https', () => secure, HSTS],
  ['http', () => plain, undefined],
] as const)('with an %s BASE_URL', (_kind, app, hsts) => {
  it.each(requests('TOKEN'))('$what: nosniff, and HSTS only over https', async (request) => {
    const res = await rawRequest(`${app().url}${request.path}`, {
      method: request.method,
      headers: Object.fromEntries(
        Object.entries(request.headers ?? {}).map(([k, v]) => [k, v.replace('TOKEN', tokens.get(app())!)]),
      ),
      body: request.body,
    });
    expect(res.status).toBe(request.status);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['strict-transport-security']).toBe(hsts);
  });
});
