import * as oauth from 'oauth4webapi';
import type { WebClient } from './web.ts';
import { type RawResponse } from './web.ts';
import { registerSecret } from './log-sink.ts';

/** oauth4webapi against the test app on plain http (loopback): the library insists on https unless told. */
export const insecure = { [oauth.allowInsecureRequests]: true } as const;

/** The authorization server's RFC 8414 metadata, as oauth4webapi reads it (the API, or the unit lane's OAuth server). */
export async function discover(server: { config: { baseUrl: string } }): Promise<oauth.AuthorizationServer> {
  const issuer = new URL(server.config.baseUrl);
  return oauth.processDiscoveryResponse(
    issuer,
    await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }),
  );
}

/** A public client registered through RFC 7591 by oauth4webapi. */
export async function registerClient(
  as: oauth.AuthorizationServer,
  metadata: Partial<oauth.Client> & { redirect_uris: string[] },
): Promise<oauth.Client> {
  const response = await oauth.dynamicClientRegistrationRequest(
    as,
    { token_endpoint_auth_method: 'none', client_name: 'Test app', ...metadata },
    insecure,
  );
  return oauth.processDynamicClientRegistrationResponse(response);
}

export interface AuthorizationAttempt {
  url: URL;
  verifier: string;
  state: string;
}

/** An authorization request as oauth4webapi's user would build it: PKCE S256 and a state. */
export async function authorizationUrl(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<AuthorizationAttempt> {
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const url = new URL(as.authorization_endpoint!);
  url.search = new URLSearchParams({
    client_id: client.client_id,
    redirect_uri: redirectUri,
    response_type: 'code',
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    ...extra,
  }).toString();
  return { url, verifier, state };
}

/** Follows the site's redirects from `path` until one leaves it (the app's redirect URI) or a page answers. */
export async function followWithin(
  web: WebClient,
  baseUrl: string,
  path: string,
): Promise<{ landed: URL } | { page: RawResponse; path: string }> {
  let next = path;
  for (let hop = 0; hop < 10; hop += 1) {
    const res = await web.get(next);
    const location = res.headers.location;
    if (res.status < 300 || res.status >= 400 || typeof location !== 'string') return { page: res, path: next };
    const target = new URL(location, `${baseUrl}${next}`);
    if (target.origin !== new URL(baseUrl).origin) return { landed: target };
    next = `${target.pathname}${target.search}`;
  }
  throw new Error(`too many redirects from ${path}`);
}

/** Walks a signed-in web client through authorize → consent → decision, returning where the app got sent. */
export async function authorizeInWeb(
  web: WebClient,
  baseUrl: string,
  url: URL,
  decision: 'approve' | 'deny' = 'approve',
): Promise<URL> {
  const first = await followWithin(web, baseUrl, `${url.pathname}${url.search}`);
  if ('landed' in first) return first.landed;
  if (first.page.status !== 200 || !first.path.startsWith('/oauth/consent/'))
    throw new Error(
      `expected the consent page, got ${first.page.status} at ${first.path}: ${first.page.text.slice(0, 300)}`,
    );
  const posted = await web.post(first.path, { decision });
  const location = posted.headers.location;
  if (posted.status !== 303 || typeof location !== 'string')
    throw new Error(`consent answered ${posted.status}: ${posted.text.slice(0, 300)}`);
  const after = await followWithin(
    web,
    baseUrl,
    new URL(location, baseUrl).pathname + new URL(location, baseUrl).search,
  );
  if (!('landed' in after))
    throw new Error(
      `expected a redirect to the app, got ${after.page.status} at ${after.path}: ${after.page.text.slice(0, 300)}`,
    );
  return after.landed;
}

/** The full code flow for a signed-in user: authorize (approve), then exchange the code with oauth4webapi. */
export async function obtainTokens(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  web: WebClient,
  baseUrl: string,
  redirectUri: string,
  extra: Record<string, string> = {},
): Promise<oauth.TokenEndpointResponse> {
  const attempt = await authorizationUrl(as, client, redirectUri, extra);
  const landed = await authorizeInWeb(web, baseUrl, attempt.url);
  const params = oauth.validateAuthResponse(as, client, landed, attempt.state);
  registerSecret(params.get('code'));
  const response = await oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.None(),
    params,
    redirectUri,
    attempt.verifier,
    { ...insecure, ...(extra.resource ? { additionalParameters: { resource: extra.resource } } : {}) },
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  registerSecret(tokens.access_token);
  registerSecret(tokens.refresh_token);
  return tokens;
}

/** Records the DPoP header of every request oauth4webapi makes, then sends it as it is. */
export function watchingFetch(proofs: Array<string | null>) {
  return {
    [oauth.customFetch]: (url: string, init: RequestInit) => {
      proofs.push(new Headers(init.headers).get('dpop'));
      return fetch(url, init);
    },
  };
}

/**
 * The code flow as a client that uses DPoP runs it: registered with `dpop_bound_access_tokens`, a DPoP key
 * made by oauth4webapi, and the code exchanged with a DPoP proof (every proof sent is in `proofs`; `options`
 * sends further token requests the same way). The server does not support DPoP: what it issues is the test's.
 */
export async function obtainTokensWithDPoP(
  as: oauth.AuthorizationServer,
  web: WebClient,
  baseUrl: string,
  redirectUri: string,
  extra: Record<string, string> = {},
) {
  const client = await registerClient(as, { redirect_uris: [redirectUri], dpop_bound_access_tokens: true });
  const dpop = oauth.DPoP(client, await oauth.generateKeyPair('ES256'));
  const attempt = await authorizationUrl(as, client, redirectUri, extra);
  const params = oauth.validateAuthResponse(as, client, await authorizeInWeb(web, baseUrl, attempt.url), attempt.state);
  registerSecret(params.get('code'));
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
    redirectUri,
    attempt.verifier,
    options,
  );
  const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
  registerSecret(tokens.access_token);
  registerSecret(tokens.refresh_token);
  return { client, dpop, tokens, proofs, options };
}
