import * as oauth from 'oauth4webapi';
import { artifactKey } from '../../../oauth/adapter.ts';
import { registerSecret } from '../../harness/log-sink.ts';
import {
  authorizationUrl,
  authorizeInWeb,
  discover,
  insecure,
  obtainTokens,
  registerClient,
} from '../../harness/oauth.ts';
import type { WebClient } from '../../harness/web.ts';
import { startOAuthServer, type OAuthTestServer } from './oauth-server.ts';

/**
 * The OAuth 2.1 protocol as oauth4webapi, a client written by others, sees it: the authorization server as
 * the API composes it (oauth/provider.ts, oauth/routes.ts, the consent pages), on the real adapter over an
 * in-memory store (./oauth-server.ts). "The token works" is asked of the verifier the API and the MCP server
 * use (oauth/access-tokens.ts). What needs the API's own stores (the daily counter, scopes enforced on real
 * calls, a downgraded account, the apps page) and the Postgres adapter end to end: test/oauth/oauth-flow.test.ts.
 */
const REDIRECT = 'http://127.0.0.1:8976/callback';

let server: OAuthTestServer;
let as: oauth.AuthorizationServer;
beforeAll(async () => {
  // Many registrations from one address in this file; the throttle has a test of its own below.
  server = await startOAuthServer({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });
  as = await discover(server);
});
afterAll(async () => {
  await server.close();
});

const tokensFor = (client: oauth.Client, web: WebClient, redirect = REDIRECT, extra: Record<string, string> = {}) =>
  obtainTokens(as, client, web, server.config.baseUrl, redirect, extra);

describe('authorization server metadata (RFC 8414)', () => {
  it('says exactly what is supported, and nothing of OpenID Connect', async () => {
    const res = await fetch(`${server.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const base = server.config.baseUrl;
    expect(body).toMatchObject({
      issuer: base,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      registration_endpoint: `${base}/oauth/register`,
      revocation_endpoint: `${base}/oauth/revoke`,
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      response_types_supported: ['code'],
      authorization_response_iss_parameter_supported: true,
      client_id_metadata_document_supported: true,
      scopes_supported: ['read', 'write'],
    });
    for (const oidc of [
      'jwks_uri',
      'userinfo_endpoint',
      'id_token_signing_alg_values_supported',
      'subject_types_supported',
      'claims_supported',
      'end_session_endpoint',
    ])
      expect(body).not.toHaveProperty(oidc);
    expect((await fetch(`${server.url}/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe('the authorization code flow with oauth4webapi', () => {
  it('registers, authorises with consent, exchanges the code; the token is the user’s, for the REST API, with both scopes', async () => {
    const { user, web } = await server.signedIn('starter');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    expect(client.client_secret).toBeUndefined();
    const tokens = await tokensFor(client, web);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens).not.toHaveProperty('id_token');
    expect(tokens.scope?.split(' ').sort()).toEqual(['read', 'write']);

    expect(await server.verify(tokens.access_token)).toEqual({
      principal: {
        userId: user.id,
        kind: 'oauth',
        tokenId: expect.any(String),
        scopes: ['read', 'write'],
        clientId: client.client_id,
      },
      user: expect.objectContaining({ id: user.id, email: user.email }),
    });
  });

  it('stores no token or code value: only hashes', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const params = oauth.validateAuthResponse(
      as,
      client,
      await authorizeInWeb(web, server.config.baseUrl, attempt.url),
      attempt.state,
    );
    const code = params.get('code')!;
    registerSecret(code);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
    );
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    const stored = [...server.store.artifacts.values()];
    for (const [model, value] of [
      ['AuthorizationCode', code],
      ['AccessToken', tokens.access_token],
      ['RefreshToken', tokens.refresh_token!],
    ] as const) {
      // Found under the hash of its value, and the value itself is nowhere.
      expect(await server.store.find(model, artifactKey(value))).toBeDefined();
      expect(stored.filter((row) => row.keyHash === value || JSON.stringify(row.payload).includes(value))).toEqual([]);
    }
  });

  it('a read-only grant gives a token with the read scope only', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await tokensFor(client, web, REDIRECT, { scope: 'read' });
    expect(tokens.scope).toBe('read');
    expect((await server.verify(tokens.access_token))?.principal.scopes).toEqual(['read']);
  });

  it('loopback redirect URIs match on any port (RFC 8252)', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: ['http://127.0.0.1:1111/cb'] });
    const tokens = await tokensFor(client, web, 'http://127.0.0.1:52345/cb');
    expect(await server.verify(tokens.access_token)).not.toBeNull();
  });

  it('the redirect carries state and iss', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url);
    expect(landed.searchParams.get('state')).toBe(attempt.state);
    expect(landed.searchParams.get('iss')).toBe(server.config.baseUrl);
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
  });
});

describe('refresh tokens', () => {
  const refresh = async (client: oauth.Client, refreshToken: string) => {
    const tokens = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), refreshToken, insecure),
    );
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    return tokens;
  };

  it('rotate on every use; reusing a rotated one revokes the whole grant', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await tokensFor(client, web);
    const second = await refresh(client, first.refresh_token!);
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await server.verify(second.access_token)).not.toBeNull();

    await expect(refresh(client, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The grant is gone: the newest tokens stop too.
    expect(await server.verify(second.access_token)).toBeNull();
    await expect(refresh(client, second.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('two concurrent refreshes with one token: exactly one succeeds (the adapter’s consumption is atomic)', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await tokensFor(client, web);
    const results = await Promise.allSettled([0, 1, 2].map(() => refresh(client, first.refresh_token!)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const failed of results.filter((r) => r.status === 'rejected'))
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ error: 'invalid_grant' });
  });
});

describe('revocation', () => {
  it('revoking the refresh token (RFC 7009) ends the grant', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await tokensFor(client, web);
    expect(await server.verify(tokens.access_token)).not.toBeNull();
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect(await server.verify(tokens.access_token)).toBeNull();
  });

  it('revoking an access token ends that token', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await tokensFor(client, web);
    expect(await server.verify(tokens.access_token)).not.toBeNull();
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure),
    );
    expect(await server.verify(tokens.access_token)).toBeNull();
  });
});

describe('attacks, each refused', () => {
  let client: oauth.Client;
  let web: WebClient;
  beforeAll(async () => {
    ({ web } = await server.signedIn());
    client = await registerClient(as, { redirect_uris: [REDIRECT] });
  });

  /** The error an authorization request ends in: a redirect to the app with error and iss, or a page. */
  async function authorizeError(params: Record<string, string | null>): Promise<URL> {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    for (const [name, value] of Object.entries(params)) {
      if (value === null) attempt.url.searchParams.delete(name);
      else attempt.url.searchParams.set(name, value);
    }
    return authorizeInWeb(web, server.config.baseUrl, attempt.url);
  }

  it('no PKCE: invalid_request back to the app, with iss', async () => {
    const landed = await authorizeError({ code_challenge: null, code_challenge_method: null });
    expect(landed.origin + landed.pathname).toBe(REDIRECT);
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('iss')).toBe(server.config.baseUrl);
  });

  it('PKCE plain: refused', async () => {
    const landed = await authorizeError({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(landed.searchParams.get('error')).toBe('invalid_request');
  });

  it('wrong verifier: invalid_grant', async () => {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url);
    const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
    const res = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      oauth.generateRandomCodeVerifier(),
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, res)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('redirect URI mismatch: an error page here, never a redirect to the unregistered URI', async () => {
    const attempt = await authorizationUrl(as, client, 'http://evil.example/cb');
    const res = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toMatch(/redirect_uri/);
  });

  it('a code is bound to its client and redirect URI: redeemed by another client, or with another redirect URI, invalid_grant', async () => {
    const other = await registerClient(as, { redirect_uris: [REDIRECT] });
    const twoUris = await registerClient(as, { redirect_uris: [REDIRECT, 'http://127.0.0.1:8976/other-callback'] });
    const redeem = async (issuedTo: oauth.Client, redeemer: oauth.Client, redirectUri: string) => {
      const attempt = await authorizationUrl(as, issuedTo, REDIRECT);
      const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url);
      const params = oauth.validateAuthResponse(as, issuedTo, landed, attempt.state);
      const res = await oauth.authorizationCodeGrantRequest(
        as,
        redeemer,
        oauth.None(),
        params,
        redirectUri,
        attempt.verifier,
        insecure,
      );
      return oauth.processAuthorizationCodeResponse(as, redeemer, res);
    };
    // Another public client, with the right verifier and redirect URI.
    await expect(redeem(client, other, REDIRECT)).rejects.toMatchObject({ error: 'invalid_grant' });
    // The same client, with another of its registered redirect URIs, and with the same one on another port.
    await expect(redeem(twoUris, twoUris, 'http://127.0.0.1:8976/other-callback')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    await expect(redeem(twoUris, twoUris, 'http://127.0.0.1:8977/callback')).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The same code flow, redeemed as issued, works (the refusals above are the binding, not the setup).
    const tokens = await redeem(twoUris, twoUris, REDIRECT);
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    expect(await server.verify(tokens.access_token)).not.toBeNull();
  });

  it('code replay: refused, and the tokens it issued are revoked', async () => {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url);
    const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
    );
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    expect(await server.verify(tokens.access_token)).not.toBeNull();
    const replay = await oauth.authorizationCodeGrantRequest(
      as,
      client,
      oauth.None(),
      params,
      REDIRECT,
      attempt.verifier,
      insecure,
    );
    await expect(oauth.processAuthorizationCodeResponse(as, client, replay)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await server.verify(tokens.access_token)).toBeNull();
  });

  it('an expired access token (past one hour of its issue, by the clock the check is given): refused', async () => {
    const before = Date.now();
    const tokens = await tokensFor(client, web);
    const after = Date.now();
    expect(await server.verify(tokens.access_token, 'api', new Date(after))).not.toBeNull();
    // Within the hour from its issue still valid; an hour past it, not.
    expect(await server.verify(tokens.access_token, 'api', new Date(before + 59 * 60_000))).not.toBeNull();
    expect(await server.verify(tokens.access_token, 'api', new Date(after + 61 * 60_000))).toBeNull();
  });

  it('a token for the MCP resource is refused by the REST API (and taken by MCP)', async () => {
    const tokens = await tokensFor(client, web, REDIRECT, { resource: `${server.config.baseUrl}/mcp` });
    expect(await server.verify(tokens.access_token, 'api')).toBeNull();
    expect(await server.verify(tokens.access_token, 'mcp')).not.toBeNull();
  });

  it('an unknown resource is refused (invalid_target)', async () => {
    const landed = await authorizeError({ resource: 'https://elsewhere.example/api' });
    expect(landed.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('consent', () => {
  it('deny sends access_denied back with state and iss', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, server.config.baseUrl, attempt.url, 'deny');
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(attempt.state);
    expect(landed.searchParams.get('iss')).toBe(server.config.baseUrl);
  });

  it('a visitor who is not signed in is sent to sign in first, and comes back to the consent page', async () => {
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const web = server.visitor();
    const first = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    const consentPath = new URL(String(first.headers.location), server.config.baseUrl).pathname;
    expect(consentPath).toMatch(/^\/oauth\/consent\//);
    const login = await web.get(consentPath);
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe(`/login?next=${encodeURIComponent(consentPath)}`);
  });

  it('a Free user is refused with a clear page, and the app gets access_denied', async () => {
    const { web } = await server.signedIn('free');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const first = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    const consentPath = new URL(String(first.headers.location), server.config.baseUrl).pathname;
    const page = await web.get(consentPath);
    expect(page.status).toBe(403);
    expect(page.text).toMatch(/Starter/);
    const continueUrl = /href="([^"]*\/oauth\/authorize\/[^"]+)"/.exec(page.text)?.[1];
    expect(continueUrl).toBeDefined();
    const back = await web.get(new URL(continueUrl!.replace(/&amp;/g, '&'), server.config.baseUrl).pathname);
    const landed = new URL(String(back.headers.location));
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(attempt.state);
  });
});

describe('registration (RFC 7591)', () => {
  const register = (metadata: Record<string, unknown>) =>
    fetch(`${server.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(metadata),
    });

  it.each([
    ['http on a public host', { redirect_uris: ['http://app.example/cb'] }, 'invalid_redirect_uri'],
    ['a custom scheme', { redirect_uris: ['com.example.app:/cb'] }, 'invalid_redirect_uri'],
    ['no redirect URIs', { client_name: 'x' }, 'invalid_redirect_uri'],
    [
      'a client secret method',
      { redirect_uris: [REDIRECT], token_endpoint_auth_method: 'client_secret_basic' },
      'invalid_client_metadata',
    ],
  ])('refuses %s with the RFC error shape', async (_label, metadata, error) => {
    const res = await register(metadata);
    expect(res.status).toBe(400);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body.error).toBe(error);
    expect(body.error_description).toEqual(expect.any(String));
  });

  it('accepts https redirect URIs and answers 201 with a public client', async () => {
    const res = await register({ redirect_uris: ['https://app.example/cb'], client_name: 'Example' });
    expect(res.status).toBe(201);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      client_name: 'Example',
      token_endpoint_auth_method: 'none',
      redirect_uris: ['https://app.example/cb'],
    });
    expect(body).not.toHaveProperty('client_secret');
    expect(body).not.toHaveProperty('registration_access_token');
  });
});

describe('registration throttle', () => {
  it('refuses registrations past the hourly limit per client address with 429 and Retry-After', async () => {
    const limited = await startOAuthServer({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '2' } });
    try {
      const register = () =>
        fetch(`${limited.url}/oauth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ redirect_uris: [REDIRECT] }),
        });
      expect((await register()).status).toBe(201);
      expect((await register()).status).toBe(201);
      const third = await register();
      expect(third.status).toBe(429);
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(3000);
      expect(await third.json()).toMatchObject({ error: 'too_many_requests' });
    } finally {
      await limited.close();
    }
  });
});

describe('scopes', () => {
  it('a request naming none of our scopes (only unknown ones) gets the default scopes, not an empty token', async () => {
    const { web } = await server.signedIn();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await tokensFor(client, web, REDIRECT, { scope: 'profile' });
    expect(tokens.scope?.split(' ').sort()).toEqual(['read', 'write']);
    expect((await server.verify(tokens.access_token))?.principal.scopes).toEqual(['read', 'write']);
  });
});
