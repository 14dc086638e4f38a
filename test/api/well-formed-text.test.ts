import { METADATA_TEXT_REFUSED } from '../../oauth/client-metadata.ts';
import { notUtf8Message, unstorableMessage } from '../../http/input-guard.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startHttpsServer, type TestHttpsServer } from '../harness/https-server.ts';
import { rawRequest, WebClient } from '../harness/web.ts';

/**
 * Well-formed text at every entry point but the live-data ingest (docs/security.md#well-formed-text): a lone
 * surrogate (a JSON `\ud800` escape, which JSON.parse turns into one), a lone low surrogate and a reversed
 * pair are refused with a clear 4xx and reach no table; bytes that are not UTF-8 (raw, or percent-encoded as
 * the surrogates' CESU-8 `%ED%A0%80`) are refused rather than stored as U+FFFD.
 */
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:8976/callback';
/** The three ill-formed strings, as JSON escapes written into raw bodies. */
const ESCAPES = ['\\ud800', '\\udc00', '\\udc00\\ud800'];
/** The same three as percent-encoded CESU-8, which is not UTF-8. */
const PERCENT = ['%ED%A0%80', '%ED%B0%80', '%ED%B0%80%ED%A0%80'];
const NOT_UTF8 = Buffer.from([0x61, 0xed, 0xa0, 0x80, 0x62]);

let api: TestApi;
let docs: TestHttpsServer;
beforeAll(async () => {
  docs = await startHttpsServer();
  api = await startTestApi({ env: { OAUTH_METADATA_CA_FILE: docs.caFile } });
});
afterAll(async () => {
  await api?.close();
  await docs?.close();
});

const json = (token: string, path: string, body: string | Buffer, method = 'POST') =>
  fetch(`${api.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body,
  });

describe('the REST API', () => {
  let token: string;
  let userId: number;
  beforeAll(async () => {
    const created = await createTestUser(api, 'pro');
    token = created.token;
    userId = created.user.id;
  });
  const scansOf = async (id = userId) => Number((await api.db.knex('scans').where({ user_id: id }).count())[0]!.count);

  it('a JSON body whose bytes are not UTF-8 is a 422 under body, and nothing is stored', async () => {
    const body = Buffer.concat([Buffer.from('{"url":"https://example.com/'), NOT_UTF8, Buffer.from('"}')]);
    const res = await json(token, '/api/v1/scans', body);
    expect(res.status).toBe(422);
    expect(await res.json()).toEqual({
      message: 'The request body is not valid UTF-8.',
      errors: { body: ['The request body is not valid UTF-8.'] },
    });
    expect(await scansOf()).toBe(0);
  });

  it.each(ESCAPES)('the escape %s in a JSON body is a 422 naming the field, at any depth', async (escape) => {
    const { token, user } = await createTestUser(api, 'pro');
    for (const [raw, field] of [
      [`{"url":"https://example.com/${escape}"}`, 'url'],
      [
        `{"url":"https://example.com/","auth":{"type":"header","header_name":"X-Key","header_value":"${escape}"}}`,
        'auth.header_value',
      ],
    ] as const) {
      const res = await json(token, '/api/v1/scans', raw);
      expect([res.status, await res.json()]).toEqual([
        422,
        { message: unstorableMessage(field), errors: { [field]: [unstorableMessage(field)] } },
      ]);
    }
    expect(await scansOf(user.id)).toBe(0);
  });

  it.each(PERCENT)('a query parameter percent-encoding %s (not UTF-8) is a 422 naming it', async (encoded) => {
    const res = await call(api, `/scans?domain=${encoded}`, { token });
    expect([res.status, res.body]).toEqual([
      422,
      { message: notUtf8Message('domain'), errors: { domain: [notUtf8Message('domain')] } },
    ]);
  });

  it('a path segment percent-encoding a surrogate is a 404', async () => {
    const res = await call(api, `/scans/${PERCENT[0]}`, { token });
    expect([res.status, res.body]).toEqual([404, { message: 'Not found.' }]);
  });
});

describe('the MCP server', () => {
  let token: string;
  beforeAll(async () => {
    ({ token } = await createTestUser(api, 'pro'));
  });
  const rpc = (body: string) =>
    fetch(`${api.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        authorization: `Bearer ${token}`,
      },
      body,
    });

  it.each(ESCAPES)('a message holding %s anywhere is a 422 naming where', async (escape) => {
    const init = await rpc(
      `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"${escape}","version":"1"}}}`,
    );
    expect([init.status, ((await init.json()) as { errors: unknown }).errors]).toEqual([
      422,
      { 'params.clientInfo.name': [unstorableMessage('params.clientInfo.name')] },
    ]);
    const tool = await rpc(
      `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"start_scan","arguments":{"url":"https://example.com/${escape}"}}}`,
    );
    expect([tool.status, ((await tool.json()) as { errors: unknown }).errors]).toEqual([
      422,
      { 'params.arguments.url': [unstorableMessage('params.arguments.url')] },
    ]);
  });
});

describe('OAuth', () => {
  const register = (body: string | Buffer) =>
    fetch(`${api.url}/oauth/register`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const clients = async () =>
    Number((await api.db.knex('oauth_artifacts').where({ model: 'Client' }).count())[0]!.count);

  it.each(ESCAPES)(
    'a registration holding %s is refused as invalid_client_metadata, nothing stored',
    async (escape) => {
      for (const [raw, field] of [
        [`{"redirect_uris":["${REDIRECT}"],"client_name":"App ${escape}"}`, 'client_name'],
        [`{"redirect_uris":["${REDIRECT}${escape}"]}`, 'redirect_uris.0'],
        [`{"redirect_uris":["${REDIRECT}"],"x${escape}":"1"}`, `x${'\ufffd'.repeat(escape.length / 6)}`],
      ] as const) {
        const res = await register(raw);
        expect([res.status, await res.json()]).toEqual([
          400,
          { error: 'invalid_client_metadata', error_description: unstorableMessage(field) },
        ]);
      }
      expect(await clients()).toBe(0);
    },
  );

  it('a registration whose bytes are not UTF-8 is refused, nothing stored', async () => {
    const body = Buffer.concat([
      Buffer.from(`{"redirect_uris":["${REDIRECT}"],"client_name":"`),
      NOT_UTF8,
      Buffer.from('"}'),
    ]);
    const res = await register(body);
    expect([res.status, await res.json()]).toEqual([
      400,
      { error: 'invalid_client_metadata', error_description: notUtf8Message('registration request') },
    ]);
    expect(await clients()).toBe(0);
  });

  it.each(ESCAPES)('a client metadata document holding %s is not used: an error page says why', async (escape) => {
    const path = `/apps/ill-formed-${ESCAPES.indexOf(escape)}.json`;
    docs.route(path, (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        `{"client_id":"${docs.url}${path}","client_name":"App ${escape}","redirect_uris":["${REDIRECT}"],"token_endpoint_auth_method":"none"}`,
      );
    });
    const query = new URLSearchParams({
      client_id: `${docs.url}${path}`,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
      scope: 'read',
    });
    const res = await rawRequest(`${api.url}/oauth/authorize?${query}`);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain(METADATA_TEXT_REFUSED);
  });
});

describe('the web area', () => {
  const signUpForm = async () => {
    const web = new WebClient(api.url, api.config.baseUrl);
    await web.get('/signup');
    return { web, fields: `_csrf=${web.csrf}&email=form%40example.com&password=${encodeURIComponent(PASSWORD)}` };
  };
  const postForm = (web: WebClient, path: string, body: string | Buffer) =>
    rawRequest(`${api.url}${path}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: api.config.baseUrl,
        cookie: web.cookieHeader(),
      },
      body,
    });
  const accounts = async () =>
    Number((await api.db.knex('users').where({ email: 'form@example.com' }).count())[0]!.count);

  it.each(PERCENT)(
    'a form field percent-encoding %s (not UTF-8) is a 400 naming it, nothing stored',
    async (encoded) => {
      const { web, fields } = await signUpForm();
      const res = await postForm(web, '/signup', `${fields}&name=${encoded}`);
      expect(res.status).toBe(400);
      expect(res.text).toContain(notUtf8Message('name field'));
      expect(await accounts()).toBe(0);
    },
  );

  it('a form whose raw bytes are not UTF-8 is a 400, nothing stored', async () => {
    const { web, fields } = await signUpForm();
    const res = await postForm(web, '/signup', Buffer.concat([Buffer.from(`${fields}&name=`), NOT_UTF8]));
    expect(res.status).toBe(400);
    expect(res.text).toContain(notUtf8Message('form'));
    expect(await accounts()).toBe(0);
  });

  it.each(PERCENT)('a page query parameter percent-encoding %s is a 400', async (encoded) => {
    const res = await rawRequest(`${api.url}/login?next=${encoded}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain(notUtf8Message('query parameter next'));
  });

  it.each(ESCAPES)('a pasted Recorder export holding %s is refused with the form error', async (escape) => {
    const { user } = await createTestUser(api, 'pro', PASSWORD);
    const web = new WebClient(api.url, api.config.baseUrl);
    expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
    await web.get('/flows/new');
    const recording = `{"title":"Shop ${escape}","steps":[{"type":"navigate","url":"https://shop.example.com/"}]}`;
    const res = await web.post('/flows/import', { recording });
    expect(res.status).toBe(422);
    expect(res.text).toContain('data-field="recording">The recording holds text that is not allowed');
  });
});
