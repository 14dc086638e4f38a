import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import { createStorage } from '../../db/store/index.ts';
import { artifactKey } from '../../oauth/adapter.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { registerSecret } from '../harness/log-sink.ts';
import { authorizationUrl, authorizeInWeb, discover, insecure, registerClient } from '../harness/oauth.ts';
import { WebClient } from '../harness/web.ts';

/**
 * DPoP is not supported: the API and the MCP server check bearer tokens only, so no token may be bound to a
 * DPoP key (a bound token they accepted without its proof would defeat the binding). oauth4webapi, a client
 * written by others, sends DPoP proofs with the code exchange and the refresh; the server must issue plain,
 * unbound Bearer tokens all the same, and refuse the `DPoP` authorization scheme.
 */
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:8976/callback';

let api: TestApi;
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  api = await startTestApi();
  as = await discover(api);
});
afterAll(async () => api.close());

/** Records the DPoP header of every request oauth4webapi makes, then sends it as it is. */
function watchingFetch(proofs: Array<string | null>) {
  return {
    [oauth.customFetch]: (url: string, init: RequestInit) => {
      proofs.push(new Headers(init.headers).get('dpop'));
      return fetch(url, init);
    },
  };
}

async function tokensWithDPoP(extra: Record<string, string> = {}) {
  const { user } = await createTestUser(api, 'starter', PASSWORD);
  const web = new WebClient(api.url, api.config.baseUrl);
  expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
  const client = await registerClient(as, { redirect_uris: [REDIRECT], dpop_bound_access_tokens: true });
  const dpop = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
  const attempt = await authorizationUrl(as, client, REDIRECT, extra);
  const params = oauth.validateAuthResponse(
    as,
    client,
    await authorizeInWeb(web, api.config.baseUrl, attempt.url),
    attempt.state,
  );
  const proofs: Array<string | null> = [];
  const options = {
    ...insecure,
    DPoP: dpop,
    ...watchingFetch(proofs),
    ...(extra.resource ? { additionalParameters: { resource: extra.resource } } : {}),
  };
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    REDIRECT,
    attempt.verifier,
    options,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  registerSecret(tokens.access_token);
  registerSecret(tokens.refresh_token);
  // The proof went out with the exchange: the server chose not to bind.
  expect(proofs).toHaveLength(1);
  expect(proofs[0]).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
  return { user, client, dpop, tokens, proofs, options };
}

/** The stored access token's payload: a DPoP-bound one carries the key's thumbprint (`jkt`). */
async function storedPayload(token: string): Promise<Record<string, unknown>> {
  const found = await createStorage(api.db.knex).oauth.findAccessToken(artifactKey(token));
  expect(found).toBeDefined();
  return found!.payload;
}

it('a code exchange with a DPoP proof gets a plain Bearer token, not bound to the key', async () => {
  const { user, client, tokens } = await tokensWithDPoP();
  expect(tokens.token_type).toBe('bearer');
  const payload = await storedPayload(tokens.access_token);
  expect(payload).not.toHaveProperty('jkt');
  expect(payload).not.toHaveProperty('cnf');
  // Registration does not take the DPoP-only metadata either.
  expect(client).not.toHaveProperty('dpop_bound_access_tokens');
  const me = await call(api, '/me', { token: tokens.access_token });
  expect(me.status).toBe(200);
  expect(me.body).toMatchObject({ data: { email: user.email } });
});

it('the DPoP authorization scheme is refused, with a Bearer challenge', async () => {
  const { dpop, tokens } = await tokensWithDPoP();
  const sent: Array<string | null> = [];
  const refused = await oauth
    .protectedResourceRequest(tokens.access_token, 'GET', new URL(`${api.url}/api/v1/me`), new Headers(), null, {
      ...insecure,
      DPoP: dpop,
      ...watchingFetch(sent),
    })
    .then(
      () => null,
      (error: unknown) => error,
    );
  expect(sent).toHaveLength(1);
  expect(refused).toBeInstanceOf(oauth.WWWAuthenticateChallengeError);
  const challenge = refused as oauth.WWWAuthenticateChallengeError;
  expect(challenge.response.status).toBe(401);
  expect(challenge.cause.map((c) => c.scheme)).toEqual(['bearer']);
});

it('a refresh with a DPoP proof gets a plain Bearer token too', async () => {
  const { client, tokens, options, proofs } = await tokensWithDPoP();
  const response = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, options);
  const refreshed = await oauth.processRefreshTokenResponse(as, client, response);
  registerSecret(refreshed.access_token);
  registerSecret(refreshed.refresh_token);
  expect(proofs).toHaveLength(2);
  expect(proofs[1]).toMatch(/^ey/);
  expect(refreshed.token_type).toBe('bearer');
  expect(await storedPayload(refreshed.access_token)).not.toHaveProperty('jkt');
  expect((await call(api, '/me', { token: refreshed.access_token })).status).toBe(200);
});

it('a token for the MCP server, exchanged with a proof, is a plain Bearer token there', async () => {
  const { tokens } = await tokensWithDPoP({ resource: `${api.config.baseUrl}/mcp` });
  expect(tokens.token_type).toBe('bearer');
  expect(await storedPayload(tokens.access_token)).not.toHaveProperty('jkt');
  const mcp = new Client({ name: 'dpop-test', version: '1.0.0' });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
  await mcp.close();
});
