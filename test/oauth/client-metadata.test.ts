import net from 'node:net';
import * as oauth from 'oauth4webapi';
import { METADATA_ADDRESS_REFUSED } from '../../oauth/client-metadata.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { startHttpsServer, type TestHttpsServer } from '../harness/https-server.ts';
import { authorizationUrl, authorizeInWeb, discover, insecure } from '../harness/oauth.ts';
import { WebClient } from '../harness/web.ts';

/**
 * Apps identified by a Client ID Metadata Document: the client id is an https URL (here a server on loopback
 * with a self-signed certificate the service is told to trust), fetched under the outbound rule.
 */
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:8976/callback';

let api: TestApi;
let docs: TestHttpsServer;
let as: oauth.AuthorizationServer;
const fetched: string[] = [];
beforeAll(async () => {
  docs = await startHttpsServer();
  api = await startTestApi({ env: { OAUTH_METADATA_CA_FILE: docs.caFile } });
  as = await discover(api);
  const serve = (path: string, body: (url: string) => unknown, headers: Record<string, string> = {}) =>
    docs.route(path, (req, res) => {
      fetched.push(path);
      res.writeHead(200, { 'content-type': 'application/json', ...headers });
      res.end(JSON.stringify(body(`${docs.url}${path}`)));
    });
  serve(
    '/apps/good.json',
    (url) => ({
      client_id: url,
      client_name: 'Metadata app',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
    { 'cache-control': 'max-age=300' },
  );
  serve(
    '/apps/no-store.json',
    (url) => ({
      client_id: url,
      client_name: 'No-store app',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
    { 'cache-control': 'no-store' },
  );
  serve(
    '/apps/no-cache.json',
    (url) => ({
      client_id: url,
      client_name: 'No-cache app',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
    { 'cache-control': 'no-cache, max-age=300' },
  );
  serve('/apps/mismatch.json', () => ({
    client_id: `${docs.url}/apps/other.json`,
    client_name: 'Impostor',
    redirect_uris: [REDIRECT],
  }));
  serve('/apps/no-redirects.json', (url) => ({ client_id: url, client_name: 'No redirects' }));
  serve('/apps/large.json', (url) => ({
    client_id: url,
    client_name: 'Large',
    redirect_uris: [REDIRECT],
    padding: 'x'.repeat(6000),
  }));
  docs.route('/apps/moved.json', (_req, res) => {
    fetched.push('/apps/moved.json');
    res.writeHead(302, { location: `${docs.url}/apps/good.json` });
    res.end();
  });
});
afterAll(async () => {
  await api.close();
  await docs.close();
});

async function signedIn(): Promise<WebClient> {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  return web;
}

it('the metadata server advertises metadata documents', () => {
  expect(as.client_id_metadata_document_supported).toBe(true);
});

it('an app identified by its document is authorised, shown with its host as verified, and its token works', async () => {
  const web = await signedIn();
  const client: oauth.Client = { client_id: `${docs.url}/apps/good.json`, token_endpoint_auth_method: 'none' };
  const attempt = await authorizationUrl(as, client, REDIRECT);
  const authorize = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
  const consentPath = new URL(String(authorize.headers.location), api.config.baseUrl).pathname;
  const consent = await web.get(consentPath);
  expect(consent.status).toBe(200);
  expect(consent.text).toContain('Metadata app');
  expect(consent.text).toContain(`id="client-host">${new URL(docs.url).host}<`);
  expect(consent.text).not.toContain('id="unverified"');

  const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url);
  const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
  );
  expect((await call(api, '/me', { token: tokens.access_token })).status).toBe(200);
  // Cached per its Cache-Control: one fetch served both authorizations.
  expect(fetched.filter((path) => path === '/apps/good.json')).toHaveLength(1);
});

it.each([
  ['no-store', '/apps/no-store.json'],
  ['no-cache', '/apps/no-cache.json'],
])(
  'a document served with Cache-Control: %s is fetched again for the next authorization request',
  async (_label, path) => {
    const web = await signedIn();
    const client: oauth.Client = { client_id: `${docs.url}${path}`, token_endpoint_auth_method: 'none' };
    const count = () => fetched.filter((p) => p === path).length;
    const toConsent = async () => {
      const attempt = await authorizationUrl(as, client, REDIRECT);
      const res = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
      expect(res.status).toBe(303);
      expect(String(res.headers.location)).toMatch(/\/oauth\/consent\//);
    };
    await toConsent();
    const afterFirst = count();
    expect(afterFirst).toBeGreaterThanOrEqual(1);
    await toConsent();
    expect(count()).toBeGreaterThan(afterFirst);
  },
);

describe('documents that are refused', () => {
  it.each([
    ['whose client_id differs from its URL', `/apps/mismatch.json`],
    ['without redirect URIs', `/apps/no-redirects.json`],
    ['behind a redirect', `/apps/moved.json`],
    ['larger than 5 KB', `/apps/large.json`],
  ])('a document %s: an error page here, no redirect to the app', async (_label, path) => {
    const web = await signedIn();
    const attempt = await authorizationUrl(
      as,
      { client_id: `${docs.url}${path}`, token_endpoint_auth_method: 'none' },
      REDIRECT,
    );
    const res = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers.location).toBeUndefined();
    expect(fetched).toContain(path);
  });

  it('a document on a private address is never fetched: refused for its address, with no connection attempted', async () => {
    const web = await signedIn();
    const attempt = await authorizationUrl(
      as,
      { client_id: 'https://10.1.2.3/apps/client.json', token_endpoint_auth_method: 'none' },
      REDIRECT,
    );
    // Every TCP connection this process opens (the in-process API's outgoing fetches included) goes through here.
    const connectedTo: string[] = [];
    const connect = net.Socket.prototype.connect;
    net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
      const [first, second] = args as [unknown, unknown];
      connectedTo.push(
        String(
          typeof first === 'object' && first !== null
            ? ((first as { host?: string; path?: string }).host ?? (first as { path?: string }).path)
            : second,
        ),
      );
      return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
    } as typeof connect;
    // The control: a document that is fetched every time (no-store), whose fetch the watch must see.
    const control = await authorizationUrl(
      as,
      { client_id: `${docs.url}/apps/no-store.json`, token_endpoint_auth_method: 'none' },
      REDIRECT,
    );
    let res: Awaited<ReturnType<WebClient['get']>>;
    try {
      res = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
      expect((await web.get(`${control.url.pathname}${control.url.search}`)).status).toBe(303);
    } finally {
      net.Socket.prototype.connect = connect;
    }
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain(METADATA_ADDRESS_REFUSED);
    expect(connectedTo).toContain('127.0.0.1');
    expect(connectedTo).not.toContain('10.1.2.3');
  });
});
