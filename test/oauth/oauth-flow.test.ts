import * as oauth from 'oauth4webapi';
import { createStorage } from '../../db/store/index.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import {
  authorizationUrl,
  authorizeInWeb,
  discover,
  insecure,
  obtainTokens,
  registerClient,
} from '../harness/oauth.ts';
import { WebClient } from '../harness/web.ts';

const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:8976/callback';

let api: TestApi;
let as: oauth.AuthorizationServer;
const clock = new TestClock();
beforeAll(async () => {
  // Many registrations from one address in this file; the throttle has a test of its own below.
  api = await startTestApi({ clock, env: { OAUTH_REGISTRATIONS_PER_HOUR: '1000' } });
  as = await discover(api);
});
afterAll(async () => {
  await api.close();
});

async function signedInUser(plan: 'free' | 'starter' | 'pro' = 'starter') {
  const { user } = await createTestUser(api, plan, PASSWORD);
  const web = new WebClient(api.url, api.config.baseUrl);
  const res = await web.signIn(user.email, PASSWORD);
  expect(res.status).toBe(303);
  return { user, web };
}

const me = (token: string) => call(api, '/me', { token });

describe('authorization server metadata (RFC 8414)', () => {
  it('says exactly what is supported, and nothing of OpenID Connect', async () => {
    const res = await fetch(`${api.url}/.well-known/oauth-authorization-server`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    const base = api.config.baseUrl;
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
    expect((await fetch(`${api.url}/.well-known/openid-configuration`)).status).toBe(404);
  });
});

describe('the authorization code flow with oauth4webapi', () => {
  it('registers, authorises with consent, exchanges the code; the token works on the API like a personal one', async () => {
    const { user, web } = await signedInUser('starter');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    expect(client.client_secret).toBeUndefined();
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.expires_in).toBe(3600);
    expect(tokens.refresh_token).toEqual(expect.any(String));
    expect(tokens).not.toHaveProperty('id_token');
    expect(tokens.scope?.split(' ').sort()).toEqual(['read', 'write']);

    const res = await me(tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { email: user.email } });
    // The same daily counter as personal tokens.
    expect(res.headers.get('x-ratelimit-limit')).toBe('500');
    // Full scope: a write endpoint gets past authentication (and fails validation instead).
    expect((await call(api, '/scans', { token: tokens.access_token, method: 'POST', body: {} })).status).toBe(422);
  });

  it('stores no token or code value: only hashes', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    for (const value of [tokens.access_token, tokens.refresh_token!]) {
      const rows = await api.db
        .knex('oauth_artifacts')
        .whereRaw('key_hash = ? or payload::text like ?', [value, `%${value}%`])
        .count<Array<{ count: string }>>('* as count');
      expect(Number(rows[0]!.count)).toBe(0);
    }
  });

  it('a read-only grant reads but cannot act (403 naming the scope)', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT, { scope: 'read' });
    expect(tokens.scope).toBe('read');
    expect((await me(tokens.access_token)).status).toBe(200);
    const post = await call(api, '/scans', { token: tokens.access_token, method: 'POST', body: {} });
    expect(post.status).toBe(403);
    expect(String(post.body.message)).toMatch(/needs "write"/);
  });

  it('loopback redirect URIs match on any port (RFC 8252)', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: ['http://127.0.0.1:1111/cb'] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, 'http://127.0.0.1:52345/cb');
    expect((await me(tokens.access_token)).status).toBe(200);
  });

  it('the redirect carries state and iss', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url);
    expect(landed.searchParams.get('state')).toBe(attempt.state);
    expect(landed.searchParams.get('iss')).toBe(api.config.baseUrl);
    expect(landed.searchParams.get('code')).toEqual(expect.any(String));
  });
});

describe('refresh tokens', () => {
  it('rotate on every use; reusing a rotated one revokes the whole grant', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    const second = await oauth.processRefreshTokenResponse(
      as,
      client,
      await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure),
    );
    expect(second.refresh_token).toEqual(expect.any(String));
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await me(second.access_token)).status).toBe(200);

    const reuse = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, reuse)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    // The grant is gone: the newest tokens stop too.
    expect((await me(second.access_token)).status).toBe(401);
    const after = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), second.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, after)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });

  it('two concurrent refreshes with one token: exactly one succeeds', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    const results = await Promise.allSettled(
      [0, 1, 2].map(async () =>
        oauth.processRefreshTokenResponse(
          as,
          client,
          await oauth.refreshTokenGrantRequest(as, client, oauth.None(), first.refresh_token!, insecure),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const failed of results.filter((r) => r.status === 'rejected'))
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ error: 'invalid_grant' });
  });

  it('a user downgraded below Starter cannot refresh, and loses API access through the app at once', async () => {
    const { user, web } = await signedInUser('starter');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    await createStorage(api.db.knex).users.setPlan(user.id, 'free', clock.read());
    expect((await me(tokens.access_token)).status).toBe(403);
    const refresh = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, refresh)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
  });
});

describe('revocation', () => {
  it('revoking the refresh token (RFC 7009) ends the grant', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.refresh_token!, insecure),
    );
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it('revoking an access token ends that token', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    await oauth.processRevocationResponse(
      await oauth.revocationRequest(as, client, oauth.None(), tokens.access_token, insecure),
    );
    expect((await me(tokens.access_token)).status).toBe(401);
  });
});

describe('attacks, each refused', () => {
  let client: oauth.Client;
  let web: WebClient;
  beforeAll(async () => {
    ({ web } = await signedInUser());
    client = await registerClient(as, { redirect_uris: [REDIRECT] });
  });

  /** The error an authorization request ends in: a redirect to the app with error and iss, or a page. */
  async function authorizeError(params: Record<string, string | null>): Promise<URL> {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    for (const [name, value] of Object.entries(params)) {
      if (value === null) attempt.url.searchParams.delete(name);
      else attempt.url.searchParams.set(name, value);
    }
    return authorizeInWeb(web, api.config.baseUrl, attempt.url);
  }

  it('no PKCE: invalid_request back to the app, with iss', async () => {
    const landed = await authorizeError({ code_challenge: null, code_challenge_method: null });
    expect(landed.origin + landed.pathname).toBe(REDIRECT);
    expect(landed.searchParams.get('error')).toBe('invalid_request');
    expect(landed.searchParams.get('iss')).toBe(api.config.baseUrl);
  });

  it('PKCE plain: refused', async () => {
    const landed = await authorizeError({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' });
    expect(landed.searchParams.get('error')).toBe('invalid_request');
  });

  it('wrong verifier: invalid_grant', async () => {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url);
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
      const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url);
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
    expect((await me(tokens.access_token)).status).toBe(200);
  });

  it('code replay: refused, and the tokens it issued are revoked', async () => {
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url);
    const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
    );
    expect((await me(tokens.access_token)).status).toBe(200);
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
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it('an expired access token (past one hour on the service clock): 401', async () => {
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    expect((await me(tokens.access_token)).status).toBe(200);
    const start = clock.read();
    // The token's lifetime runs from when it was issued; the service clock stood still since the file began, which
    // on a loaded machine can be minutes earlier, so the hour is counted from whichever is later.
    clock.set(new Date(Math.max(start.getTime(), Date.now()) + 61 * 60_000));
    try {
      expect((await me(tokens.access_token)).status).toBe(401);
    } finally {
      clock.set(start);
    }
  });

  it('a token for the MCP resource is refused by the REST API', async () => {
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT, {
      resource: `${api.config.baseUrl}/mcp`,
    });
    expect((await me(tokens.access_token)).status).toBe(401);
  });

  it('an unknown resource is refused (invalid_target)', async () => {
    const landed = await authorizeError({ resource: 'https://elsewhere.example/api' });
    expect(landed.searchParams.get('error')).toBe('invalid_target');
  });
});

describe('consent', () => {
  it('deny sends access_denied back with state and iss', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const landed = await authorizeInWeb(web, api.config.baseUrl, attempt.url, 'deny');
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(attempt.state);
    expect(landed.searchParams.get('iss')).toBe(api.config.baseUrl);
  });

  it('a visitor who is not signed in is sent to sign in first, and comes back to the consent page', async () => {
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const web = new WebClient(api.url, api.config.baseUrl);
    const first = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    const consentPath = new URL(String(first.headers.location), api.config.baseUrl).pathname;
    expect(consentPath).toMatch(/^\/oauth\/consent\//);
    const login = await web.get(consentPath);
    expect(login.status).toBe(302);
    expect(login.headers.location).toBe(`/login?next=${encodeURIComponent(consentPath)}`);
  });

  it('a Free user is refused with a clear page, and the app gets access_denied', async () => {
    const { web } = await signedInUser('free');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const first = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    const consentPath = new URL(String(first.headers.location), api.config.baseUrl).pathname;
    const page = await web.get(consentPath);
    expect(page.status).toBe(403);
    expect(page.text).toMatch(/Starter/);
    const continueUrl = /href="([^"]*\/oauth\/authorize\/[^"]+)"/.exec(page.text)?.[1];
    expect(continueUrl).toBeDefined();
    const back = await web.get(new URL(continueUrl!.replace(/&amp;/g, '&'), api.config.baseUrl).pathname);
    const landed = new URL(String(back.headers.location));
    expect(landed.searchParams.get('error')).toBe('access_denied');
    expect(landed.searchParams.get('state')).toBe(attempt.state);
  });
});

describe('registration (RFC 7591)', () => {
  const register = (metadata: Record<string, unknown>) =>
    fetch(`${api.url}/oauth/register`, {
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
    const limited = await startTestApi({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '2' } });
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

describe('the API and apps page', () => {
  it('revoking an app kills every token of its grant at once; another user cannot revoke it', async () => {
    const { user, web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT], client_name: 'Revocable app' });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    expect((await me(tokens.access_token)).status).toBe(200);
    const apps = await createStorage(api.db.knex).oauth.listApps(user.id);
    expect(apps).toEqual([
      expect.objectContaining({
        name: 'Revocable app',
        clientIdHost: '127.0.0.1:8976',
        verified: false,
        scopes: ['read', 'write'],
        lastUsedAt: expect.any(Date),
      }),
    ]);
    const grantId = apps[0]!.grantId;

    const stranger = (await signedInUser()).web;
    await stranger.get('/settings');
    expect((await stranger.post(`/account/api/apps/${grantId}/revoke`, {})).status).toBe(404);
    expect((await me(tokens.access_token)).status).toBe(200);

    await web.get('/settings');
    const revoked = await web.post(`/account/api/apps/${grantId}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect((await me(tokens.access_token)).status).toBe(401);
    const refresh = await oauth.refreshTokenGrantRequest(as, client, oauth.None(), tokens.refresh_token!, insecure);
    await expect(oauth.processRefreshTokenResponse(as, client, refresh)).rejects.toMatchObject({
      error: 'invalid_grant',
    });
    expect(await createStorage(api.db.knex).oauth.listApps(user.id)).toEqual([]);
  });
});

describe('scopes', () => {
  it('a request naming none of our scopes (only unknown ones) gets the default scopes, not an empty token', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT, { scope: 'profile' });
    expect(tokens.scope?.split(' ').sort()).toEqual(['read', 'write']);
    expect((await call(api, '/scans', { token: tokens.access_token, method: 'POST', body: {} })).status).toBe(422);
  });
});
