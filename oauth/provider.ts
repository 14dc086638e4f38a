import { generateKeyPairSync } from 'node:crypto';
import type { Context } from 'koa';
import Provider, { errors, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';
import type { Config } from '../infra/config.ts';
import { keysOf, purposeKey } from '../core/keys.ts';
import { SCOPES } from '../core/oauth/scopes.ts';
import { resourceKindOf, resourceUrl } from '../core/oauth/resources.ts';
import { hasFeature, planFor } from '../core/plans.ts';
import type { UserStore } from '../db/store/users.ts';
import type { AdapterClass } from './adapter.ts';
import { checkRedirectUris } from './redirect-uris.ts';
import { CLIENT_METADATA_CACHE_S, metadataRefusal } from './client-metadata.ts';
import { CLIENT_METADATA_MAX_BYTES } from './provider-limits.ts';
import { OAUTH_PATHS } from '../core/oauth/paths.ts';

/** The protocol's timings (spec: access tokens 1 hour, refresh tokens 30 days). */
export const OAUTH_TTL = {
  accessTokenS: 60 * 60,
  refreshTokenS: 30 * 24 * 60 * 60,
  authorizationCodeS: 60,
  interactionS: 30 * 60,
  /** A grant outlives its refresh tokens: it ends when revoked, or a year after consent. */
  grantS: 365 * 24 * 60 * 60,
} as const;

export interface ProviderDeps {
  config: Config;
  /** Where the library keeps its artifacts (codes, tokens, grants, sessions, interactions, registered clients): oauth/adapter.ts. */
  adapter: AdapterClass;
  /** The accounts tokens are issued for (and whose plan decides whether they still may be). */
  users: Pick<UserStore, 'findById'>;
  /** Fetches Client ID Metadata Documents (services/outbound-fetch.ts: public addresses only, no redirects, capped). */
  fetchClientMetadata: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Answers a refused authorization request in the browser: the web area's error page (web/error-page.ts). */
  renderErrorPage: (ctx: Context, status: number, message: string) => void;
}

/**
 * The OAuth 2.1 authorization server (oidc-provider): public clients only, PKCE S256 always, exact redirect
 * URIs (any port on loopback, RFC 8252), dynamic registration and Client ID Metadata Documents, opaque access
 * tokens bound to one resource (the REST API or the MCP server), refresh tokens that rotate on every use
 * (reuse revokes the grant), `iss` in every authorization response. No OpenID Connect: no id_token, no
 * userinfo. Consent is our own web page (web/oauth/routes.ts); the user is whoever is signed in there.
 */
export function createOAuthProvider(deps: ProviderDeps): Provider {
  const { config, users } = deps;
  const apiResource = resourceUrl(config.baseUrl, 'api');
  const configuration: Configuration = {
    adapter: deps.adapter,
    clients: [],
    // No signed artifacts are issued (opaque tokens, no id_token), but the library wants a key: one per process.
    jwks: { keys: [generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'jwk' }) as never] },
    cookies: {
      keys: keysOf(config.keys).map((key) => purposeKey(key, 'oauth-cookies')),
      names: { session: 'wps_oauth_session', interaction: 'wps_oauth_interaction', resume: 'wps_oauth_resume' },
      long: { signed: true, httpOnly: true, sameSite: 'lax' },
      short: { signed: true, httpOnly: true, sameSite: 'lax' },
    },
    routes: {
      authorization: OAUTH_PATHS.authorize,
      token: OAUTH_PATHS.token,
      registration: OAUTH_PATHS.register,
      revocation: OAUTH_PATHS.revoke,
    },
    // read and write are the resources' scopes (getResourceServerInfo); they are listed here too so that client
    // metadata may name them (`scope` in a registration or metadata document), and consent grants them both ways.
    scopes: [...SCOPES],
    claims: {},
    responseTypes: ['code'],
    clientAuthMethods: ['none'],
    clientDefaults: {
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      id_token_signed_response_alg: 'ES256',
    },
    enabledJWA: { idTokenSigningAlgValues: ['ES256'] },
    pkce: { required: () => true },
    allowOmittingSingleRegisteredRedirectUri: false,
    extraClientMetadata: {
      // Registered so that the validator runs for every client (registered or metadata document); it checks redirect URIs.
      properties: ['software_id'],
      validator(_ctx, key, _value, metadata) {
        if (key !== 'software_id') return;
        const problem = checkRedirectUris(metadata.redirect_uris);
        if (problem) throw new errors.InvalidRedirectUri(problem);
      },
    },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: false },
      introspection: { enabled: false },
      rpInitiatedLogout: { enabled: false },
      revocation: { enabled: true },
      // Off: access tokens are plain Bearer tokens. The API and the MCP server check a bearer token only (no
      // DPoP proof), so a token the library bound to a DPoP key (`token_type: DPoP`) would still be accepted
      // without its proof. With the feature off, a DPoP header on the token endpoint is ignored: the token
      // issued is unbound and says `token_type: Bearer`, and the `DPoP` authorization scheme is refused.
      dPoP: { enabled: false },
      registration: { enabled: true, initialAccessToken: false, issueRegistrationAccessToken: false },
      clientIdMetadataDocument: {
        enabled: true,
        ack: 'draft-02',
        allowFetch: () => true,
        allowClient: () => true,
        // Decided per document by clientMetadataFetch (no-store and no-cache honoured, max-age within bounds).
        cacheDuration: { min: 0, max: CLIENT_METADATA_CACHE_S.max },
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: () => apiResource,
        useGrantedResource: () => true,
        getResourceServerInfo(_ctx, resource) {
          if (!resourceKindOf(config.baseUrl, resource))
            throw new errors.InvalidTarget(
              `unknown resource; this server protects ${apiResource} and ${resourceUrl(config.baseUrl, 'mcp')}`,
            );
          return {
            scope: SCOPES.join(' '),
            audience: resource,
            accessTokenTTL: OAUTH_TTL.accessTokenS,
            accessTokenFormat: 'opaque',
          };
        },
      },
    },
    fetch: (url, init) => deps.fetchClientMetadata(url instanceof Request ? url.url : url, init),
    fetchResponseBodyLimits: { 'client_id metadata document': CLIENT_METADATA_MAX_BYTES },
    ttl: {
      AccessToken: OAUTH_TTL.accessTokenS,
      AuthorizationCode: OAUTH_TTL.authorizationCodeS,
      RefreshToken: OAUTH_TTL.refreshTokenS,
      Grant: OAUTH_TTL.grantS,
      Interaction: OAUTH_TTL.interactionS,
      Session: OAUTH_TTL.interactionS,
    },
    rotateRefreshToken: () => true,
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    expiresWithSession: async () => false,
    // Every authorization asks the signed-in user: only the grant this very interaction's consent made counts,
    // never one from an earlier authorization (no silent re-authorisation).
    loadExistingGrant: async (ctx) => {
      const grantId = ctx.oidc.result?.consent?.grantId;
      return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
    },
    interactions: { url: (_ctx, interaction) => `${OAUTH_PATHS.consent}/${interaction.uid}` },
    async findAccount(ctx, sub) {
      const user = /^\d{1,15}$/.test(sub) ? await users.findById(Number(sub)) : undefined;
      if (!user) return undefined;
      // Issuing tokens (code exchange, refresh) needs the plan that allows apps: a downgraded user's apps stop.
      if (ctx.oidc.route === 'token' && !hasFeature(planFor(user.plan), 'oauth_authorize')) {
        throw new errors.InvalidGrant(
          `the account's plan (${planFor(user.plan).label}) no longer allows apps; the Starter plan or higher does`,
        );
      }
      return { accountId: String(user.id), claims: async () => ({ sub: String(user.id) }) };
    },
    async renderError(ctx: KoaContextWithOIDC, out, error) {
      const description = metadataRefusal(error) ?? out.error_description ?? out.error;
      deps.renderErrorPage(ctx, ctx.status >= 400 ? ctx.status : 400, description);
    },
  };
  const provider = new Provider(config.baseUrl, configuration);
  provider.proxy = config.trustedProxies.length > 0;
  return provider;
}
