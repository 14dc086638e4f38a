import { Client as McpClient } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import * as oauth from 'oauth4webapi';
import { createStorage } from '../../db/store/index.ts';
import { artifactKey } from '../../oauth/adapter.ts';
import { OAUTH_TTL } from '../../oauth/provider.ts';
import { sweepExpiredOAuth } from '../../services/oauth-apps.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { registerSecret } from '../harness/log-sink.ts';
import {
  discover,
  followWithin,
  insecure,
  authorizationUrl,
  obtainTokens,
  obtainTokensWithDPoP,
  registerClient,
  watchingFetch,
} from '../harness/oauth.ts';
import { WebClient } from '../harness/web.ts';

/**
 * OAuth on the whole API: the Postgres adapter (oauth/adapter.ts over db/store/oauth.ts) end to end, every
 * model it stores with its lifetime, its consumption and its expiry, and what needs the API's own stores
 * (the daily counter, scopes enforced on real calls, a downgraded account, the apps page, the bearer scheme,
 * MCP). The protocol itself (PKCE, rotation, revocation, registration, consent decisions, metadata
 * documents, DPoP) is tested in the unit lane, test/unit/oauth/.
 */
const PASSWORD = 'correct horse battery staple';
const REDIRECT = 'http://127.0.0.1:8976/callback';

let api: TestApi;
let as: oauth.AuthorizationServer;
const clock = new TestClock();
beforeAll(async () => {
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

interface ArtifactRow {
  model: string;
  key_hash: string;
  payload: Record<string, unknown>;
  grant_id: string | null;
  account_id: number | string | null;
  uid: string | null;
  expires_at: Date | null;
  consumed_at: Date | null;
}
const artifacts = () => api.db.knex<ArtifactRow>('oauth_artifacts');
/** The row an artifact is stored in: under the hash of its id. */
const stored = async (model: string, id: string) =>
  (await artifacts()
    .where({ model, key_hash: artifactKey(id) })
    .first()) as ArtifactRow | undefined;
/**
 * A row's expiry is the service clock (which stands still in this file) plus the seconds the library asks for:
 * the model's lifetime when first saved, less the seconds since then when saved again.
 */
function expectLifetime(row: ArtifactRow | undefined, seconds: number): void {
  expect(row?.expires_at).toEqual(expect.any(Date));
  const lifetime = (row!.expires_at!.getTime() - clock.read().getTime()) / 1000;
  expect(lifetime).toBeLessThanOrEqual(seconds);
  expect(lifetime).toBeGreaterThan(seconds - 60);
}

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

describe('the Postgres adapter, end to end', () => {
  it('stores every model of a flow under a hash with its lifetime; the token works on the API like a personal one', async () => {
    const { user, web } = await signedInUser('starter');
    // A registered client: kept under the hash of its id, with its id (the library reads it back), never expiring.
    const client = await registerClient(as, { redirect_uris: [REDIRECT], client_name: 'Stored app' });
    expect(client.client_secret).toBeUndefined();
    const clientRow = await stored('Client', client.client_id);
    expect(clientRow).toMatchObject({
      payload: { client_id: client.client_id, client_name: 'Stored app', token_endpoint_auth_method: 'none' },
      expires_at: null,
    });

    // The authorization request: an interaction (under the hash of its uid, which is not kept) and a session.
    const attempt = await authorizationUrl(as, client, REDIRECT);
    const toConsent = await web.get(`${attempt.url.pathname}${attempt.url.search}`);
    expect(toConsent.status).toBe(303);
    const consentPath = new URL(String(toConsent.headers.location), api.config.baseUrl).pathname;
    const uid = consentPath.split('/').at(-1)!;
    const interaction = await stored('Interaction', uid);
    expect(interaction?.payload).not.toHaveProperty('jti');
    expectLifetime(interaction, OAUTH_TTL.interactionS);
    expect(await artifacts().where({ key_hash: uid })).toEqual([]);

    // Consent: a grant for the user, the app recorded; the interaction is used up, the code issued.
    expect((await web.get(consentPath)).status).toBe(200);
    const approved = await web.post(consentPath, { decision: 'approve' });
    expect(approved.status).toBe(303);
    const resume = new URL(String(approved.headers.location), api.config.baseUrl);
    const after = await followWithin(web, api.config.baseUrl, `${resume.pathname}${resume.search}`);
    if (!('landed' in after)) throw new Error(`no redirect to the app: ${after.page.status} at ${after.path}`);
    const params = oauth.validateAuthResponse(as, client, after.landed, attempt.state);
    const code = params.get('code')!;
    registerSecret(code);
    expect(await stored('Interaction', uid)).toBeUndefined();
    const grants = await artifacts().where({ model: 'Grant', account_id: user.id });
    expect(grants).toHaveLength(1);
    const grantId = grants[0]!.grant_id!;
    expectLifetime(grants[0], OAUTH_TTL.grantS);
    expect(grants[0]!.payload).toMatchObject({ accountId: String(user.id), clientId: client.client_id });
    const codeRow = await stored('AuthorizationCode', code);
    expect(codeRow).toMatchObject({ grant_id: grantId, consumed_at: null });
    expect(Number(codeRow!.account_id)).toBe(user.id);
    expectLifetime(codeRow, OAUTH_TTL.authorizationCodeS);
    // The library's session: kept with its id (it finds sessions by uid), for the signed-in account, short-lived.
    const sessions = await artifacts().where({ model: 'Session', account_id: user.id });
    expect(sessions).toHaveLength(1);
    expect(sessions[0]!.payload).toMatchObject({ jti: expect.any(String), uid: sessions[0]!.uid });
    expectLifetime(sessions[0], OAUTH_TTL.interactionS);

    // The exchange consumes the code (at the service clock's time) and stores both tokens under the grant.
    const tokens = await oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT, attempt.verifier, insecure),
    );
    registerSecret(tokens.access_token);
    registerSecret(tokens.refresh_token);
    expect((await stored('AuthorizationCode', code))?.consumed_at).toEqual(clock.read());
    const access = await stored('AccessToken', tokens.access_token);
    const refreshRow = await stored('RefreshToken', tokens.refresh_token!);
    expect(access).toMatchObject({ grant_id: grantId, consumed_at: null });
    expect(refreshRow).toMatchObject({ grant_id: grantId, consumed_at: null });
    expectLifetime(access, OAUTH_TTL.accessTokenS);
    expectLifetime(refreshRow, OAUTH_TTL.refreshTokenS);
    expect(access!.payload).not.toHaveProperty('jti');

    // No code or token value is stored anywhere: only hashes.
    for (const value of [code, tokens.access_token, tokens.refresh_token!]) {
      const rows = await api.db
        .knex('oauth_artifacts')
        .whereRaw('key_hash = ? or payload::text like ?', [value, `%${value}%`])
        .count<Array<{ count: string }>>('* as count');
      expect(Number(rows[0]!.count)).toBe(0);
    }

    // Found by hash with its owner in one statement (the API's verifier): a personal token's equal.
    const res = await me(tokens.access_token);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ data: { email: user.email } });
    // The same daily counter as personal tokens.
    expect(res.headers.get('x-ratelimit-limit')).toBe('500');
    // Full scope: a write endpoint gets past authentication (and fails validation instead).
    expect((await call(api, '/scans', { token: tokens.access_token, method: 'POST', body: {} })).status).toBe(422);
  });

  it('rotation consumes the refresh token; its reuse deletes the grant, every token under it and the app', async () => {
    const { user, web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    const grantId = (await stored('AccessToken', first.access_token))!.grant_id!;
    const second = await refresh(client, first.refresh_token!);
    expect((await stored('RefreshToken', first.refresh_token!))?.consumed_at).toEqual(clock.read());
    expect(await stored('RefreshToken', second.refresh_token!)).toMatchObject({ grant_id: grantId, consumed_at: null });
    expect(await stored('AccessToken', second.access_token)).toMatchObject({ grant_id: grantId });
    expect((await me(second.access_token)).status).toBe(200);
    expect(await createStorage(api.db.knex).oauth.listApps(user.id)).toHaveLength(1);

    await expect(refresh(client, first.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await artifacts().where({ grant_id: grantId })).toEqual([]);
    expect(await api.db.knex('oauth_apps').where({ grant_id: grantId })).toEqual([]);
    expect((await me(second.access_token)).status).toBe(401);
  });

  it('two concurrent refreshes with one token: exactly one succeeds (one conditional UPDATE)', async () => {
    const { web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const first = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    const results = await Promise.allSettled([0, 1, 2].map(() => refresh(client, first.refresh_token!)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const failed of results.filter((r) => r.status === 'rejected'))
      expect((failed as PromiseRejectedResult).reason).toMatchObject({ error: 'invalid_grant' });
  });

  it('registrations are recorded per client address, and the throttle reads the newest of them', async () => {
    const attempts = () =>
      api.db.knex('oauth_registration_attempts').count<Array<{ count: string }>>('* as count').first();
    const before = Number((await attempts())!.count);
    await registerClient(as, { redirect_uris: [REDIRECT] });
    await registerClient(as, { redirect_uris: [REDIRECT] });
    expect(Number((await attempts())!.count)).toBe(before + 2);

    const store = createStorage(api.db.knex).oauth;
    const now = clock.read().getTime();
    const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000);
    for (const minutes of [90, 30, 10, 5]) await store.recordRegistration('192.0.2.7', minutesAgo(minutes));
    await store.recordRegistration('192.0.2.8', minutesAgo(1));
    const hourAgo = minutesAgo(60);
    expect(await store.registrationTimes('192.0.2.7', hourAgo, 10)).toEqual([
      minutesAgo(5),
      minutesAgo(10),
      minutesAgo(30),
    ]);
    expect(await store.registrationTimes('192.0.2.7', hourAgo, 2)).toEqual([minutesAgo(5), minutesAgo(10)]);
    await store.deleteRegistrationsBefore(hourAgo);
    expect(
      await api.db.knex('oauth_registration_attempts').where({ ip: '192.0.2.7' }).pluck('attempted_at'),
    ).toHaveLength(3);
  });
});

describe('what needs the API’s own stores', () => {
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

  it('a user downgraded below Starter cannot refresh, and loses API access through the app at once', async () => {
    const { user, web } = await signedInUser('starter');
    const client = await registerClient(as, { redirect_uris: [REDIRECT] });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    await createStorage(api.db.knex).users.setPlan(user.id, 'free', clock.read());
    expect((await me(tokens.access_token)).status).toBe(403);
    await expect(refresh(client, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

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
    await expect(refresh(client, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
    expect(await createStorage(api.db.knex).oauth.listApps(user.id)).toEqual([]);
  });
});

describe('DPoP on the API and MCP (the tokens are plain Bearer tokens: test/unit/oauth/oauth-dpop.test.ts)', () => {
  const tokensWithDPoP = async (extra: Record<string, string> = {}) =>
    obtainTokensWithDPoP(as, (await signedInUser('starter')).web, api.config.baseUrl, REDIRECT, extra);

  it('the DPoP authorization scheme is refused, with a Bearer challenge', async () => {
    const { dpop, tokens } = await tokensWithDPoP();
    expect((await me(tokens.access_token)).status).toBe(200);
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

  it('a token for the MCP server, exchanged with a proof, is a plain Bearer token there, stored unbound', async () => {
    const { tokens } = await tokensWithDPoP({ resource: `${api.config.baseUrl}/mcp` });
    expect(tokens.token_type).toBe('bearer');
    expect((await stored('AccessToken', tokens.access_token))?.payload).not.toHaveProperty('jkt');
    // Bound to the MCP resource: the REST API refuses it.
    expect((await me(tokens.access_token)).status).toBe(401);
    const mcp = new McpClient({ name: 'dpop-test', version: '1.0.0' });
    await mcp.connect(
      new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${tokens.access_token}` } },
      }),
    );
    expect((await mcp.listTools()).tools.length).toBeGreaterThan(0);
    await mcp.close();
  });
});

// Last: the sweep deletes every artifact of this file's database that expired before the time it is given.
describe('expiry', () => {
  it('the hourly sweep deletes what expired (codes, access tokens, sessions, then refresh tokens and grants), and apps whose grant is gone', async () => {
    const { user, web } = await signedInUser();
    const client = await registerClient(as, { redirect_uris: [REDIRECT], client_name: 'Expiring app' });
    const tokens = await obtainTokens(as, client, web, api.config.baseUrl, REDIRECT);
    const grantId = (await stored('AccessToken', tokens.access_token))!.grant_id!;
    const models = async () =>
      (
        await artifacts().where({ grant_id: grantId }).orWhere({ model: 'Session', account_id: user.id }).pluck('model')
      ).sort();
    expect(await models()).toEqual(['AccessToken', 'AuthorizationCode', 'Grant', 'RefreshToken', 'Session']);
    const store = createStorage(api.db.knex).oauth;
    const hoursOn = (hours: number) => new Date(clock.read().getTime() + hours * 3600_000);

    // Nothing of it has expired yet.
    await sweepExpiredOAuth(store, clock.read());
    expect(await models()).toEqual(['AccessToken', 'AuthorizationCode', 'Grant', 'RefreshToken', 'Session']);
    // Past an hour: the code, the access token and the session are gone; the grant lives on with its refresh token.
    expect(await sweepExpiredOAuth(store, hoursOn(1.01))).toBeGreaterThanOrEqual(3);
    expect(await models()).toEqual(['Grant', 'RefreshToken']);
    expect((await me(tokens.access_token)).status).toBe(401);
    expect(await store.listApps(user.id)).toHaveLength(1);
    // Past a year: the refresh token and the grant too, and with the grant the app; the registered client stays.
    await sweepExpiredOAuth(store, hoursOn(366 * 24));
    expect(await models()).toEqual([]);
    expect(await api.db.knex('oauth_apps').where({ grant_id: grantId })).toEqual([]);
    expect(await stored('Client', client.client_id)).toBeDefined();
  });
});
