import * as oauth from 'oauth4webapi';
import { artifactKey } from '../../../oauth/adapter.ts';
import { registerSecret } from '../../harness/log-sink.ts';
import { discover, obtainTokensWithDPoP } from '../../harness/oauth.ts';
import { startOAuthServer, type OAuthTestServer } from './oauth-server.ts';

/**
 * DPoP is not supported: the API and the MCP server check bearer tokens only, so no token may be bound to a
 * DPoP key (a bound token they accepted without its proof would defeat the binding). oauth4webapi, a client
 * written by others, sends DPoP proofs with the code exchange and the refresh; the server must issue plain,
 * unbound Bearer tokens all the same. That the API refuses the `DPoP` authorization scheme, and that such a
 * token works on the MCP server: test/oauth/oauth-flow.test.ts.
 */
const REDIRECT = 'http://127.0.0.1:8976/callback';

let server: OAuthTestServer;
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  server = await startOAuthServer();
  as = await discover(server);
});
afterAll(async () => server.close());

/** The flow with a DPoP proof on the exchange, for a signed-in Starter user. */
async function tokensWithDPoP(extra: Record<string, string> = {}) {
  const { user, web } = await server.signedIn('starter');
  const flow = await obtainTokensWithDPoP(as, web, server.config.baseUrl, REDIRECT, extra);
  // The proof went out with the exchange: the server chose not to bind.
  expect(flow.proofs).toHaveLength(1);
  expect(flow.proofs[0]).toMatch(/^ey[\w-]+\.[\w-]+\.[\w-]+$/);
  return { user, ...flow };
}

/** The stored access token's payload: a DPoP-bound one carries the key's thumbprint (`jkt`). */
async function storedPayload(token: string): Promise<Record<string, unknown>> {
  const found = await server.store.find('AccessToken', artifactKey(token));
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
  expect(await server.verify(tokens.access_token)).toMatchObject({ user: { id: user.id, email: user.email } });
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
  expect(await server.verify(refreshed.access_token)).not.toBeNull();
});

it('a token for the MCP server, exchanged with a proof, is a plain Bearer token for that resource', async () => {
  const { tokens } = await tokensWithDPoP({ resource: `${server.config.baseUrl}/mcp` });
  expect(tokens.token_type).toBe('bearer');
  expect(await storedPayload(tokens.access_token)).not.toHaveProperty('jkt');
  expect(await server.verify(tokens.access_token, 'mcp')).not.toBeNull();
});
