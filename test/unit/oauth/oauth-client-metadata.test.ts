import net from 'node:net';
import * as oauth from 'oauth4webapi';
import { METADATA_ADDRESS_REFUSED } from '../../../oauth/client-metadata.ts';
import { startHttpsServer, type TestHttpsServer } from '../../harness/https-server.ts';
import { registerSecret } from '../../harness/log-sink.ts';
import { authorizationUrl, authorizeInWeb, discover, insecure } from '../../harness/oauth.ts';
import type { WebClient } from '../../harness/web.ts';
import { startOAuthServer, type OAuthTestServer } from './oauth-server.ts';

/**
 * Apps identified by a Client ID Metadata Document: the client id is an https URL (here a server on loopback
 * with a self-signed certificate the service is told to trust), fetched under the outbound rule. The
 * authorization server is the one the API composes (./oauth-server.ts), with its real document fetch.
 */
const REDIRECT = 'http://127.0.0.1:8976/callback';

let server: OAuthTestServer;
let docs: TestHttpsServer;
let as: oauth.AuthorizationServer;
const fetched: string[] = [];
beforeAll(async () => {
  docs = await startHttpsServer();
  server = await startOAuthServer({ env: { OAUTH_METADATA_CA_FILE: docs.caFile } });
  as = await discover(server);
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
  serve('/apps/loopback.json', (url) => ({
    client_id: url,
    client_name: 'Loopback app',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  }));
  docs.route('/apps/moved.json', (_req, res) => {
    fetched.push('/apps/moved.json');
    res.writeHead(302, { location: `${docs.url}/apps/good.json` });
    res.end();
  });
});
afterAll(async () => {
  await server.close();
  await docs.close();
});

const signedIn = async (): Promise<WebClient> => (await server.signedIn('starter')).web;

it('the metadata server advertises metadata documents', () => {
  expect(as.client_id_metadata_document_supported).toBe(true);
});

it('an app identified by its document is authorised, shown with its host as verified, and its token works', async () => {
  const web = await signedIn();
  const client: oauth.Client = { client_id: `${docs.url}/apps/good.json`, token_endpoint_auth_method: 'none' };
  const attempt = await authorizationUrl(as, client, REDIRECT);
  const authorize = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
  const consentPath = new URL(String(authorize.headers.location), server.config.baseUrl).pathname;
  const consent = await web.get(consentPath);
  expect(consent.status).toBe(200);
  expect(consent.text).toContain('Metadata app');
  expect(consent.text).toContain(`id="client-host">${new URL(docs.url).host}<`);
  expect(consent.text).not.toContain('id="unverified"');

  const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url);
  const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
  const tokens = await oauth.processAuthorizationCodeResponse(
    as,
    client,
    await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
  );
  registerSecret(tokens.access_token);
  registerSecret(tokens.refresh_token);
  expect(await server.verify(tokens.access_token)).toMatchObject({ principal: { clientId: client.client_id } });
  // Cached per its Cache-Control: one fetch served both authorizations.
  expect(fetched.filter((path) => path === '/apps/good.json')).toHaveLength(1);
  // A document's client is not stored: it is fetched (or taken from the cache) when needed.
  expect([...server.store.artifacts.values()].filter((row) => row.model === 'Client')).toEqual([]);
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
    // Every TCP connection this process opens (the in-process server's outgoing fetches included) goes through here.
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

  it('a document on loopback is refused for its address unless CALLBACKS_ALLOW_LOOPBACK allows it', async () => {
    const strict = await startOAuthServer({
      env: { OAUTH_METADATA_CA_FILE: docs.caFile, CALLBACKS_ALLOW_LOOPBACK: 'false' },
    });
    try {
      const strictAs = await discover(strict);
      const attempt = await authorizationUrl(
        strictAs,
        { client_id: `${docs.url}/apps/loopback.json`, token_endpoint_auth_method: 'none' },
        REDIRECT,
      );
      const { web } = await strict.signedIn('starter');
      const res = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain(METADATA_ADDRESS_REFUSED);
      expect(fetched).not.toContain('/apps/loopback.json');
    } finally {
      await strict.close();
    }
    // The same document, where loopback is allowed (this file's server): fetched, and the consent page shown.
    const web = await signedIn();
    const allowed = await authorizationUrl(
      as,
      { client_id: `${docs.url}/apps/loopback.json`, token_endpoint_auth_method: 'none' },
      REDIRECT,
    );
    expect((await web.get(`${allowed.url.pathname}${allowed.url.search}`)).status).toBe(303);
    expect(fetched).toContain('/apps/loopback.json');
  });
});
