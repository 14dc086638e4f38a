import Router from '@koa/router';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type Provider from 'oidc-provider';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import { DEFAULT_SCOPES, parseScopes } from '../core/oauth/scopes.ts';
import type { OAuthStore } from '../db/store/oauth.ts';
import { setRetryAfter } from '../http/errors.ts';
import { decodeUtf8, notUtf8Message, unstorableField, unstorableMessage } from '../http/input-guard.ts';
import { authorizationServerMetadata } from './metadata.ts';
import { OAUTH_PATHS } from '../core/oauth/paths.ts';

const REGISTRATION_WINDOW_MS = 60 * 60_000;
const REGISTRATION_BODY_LIMIT = 16 * 1024;

/**
 * The protocol endpoints, answered by oidc-provider (its own Koa app, handed the raw request): authorize (and
 * its resume), token, register, revoke; plus the RFC 8414 metadata, which is ours. They sit outside the web
 * area: third-party clients POST here without our pages' Origin. Two things happen before the library: an
 * authorization request that names none of our scopes asks for the default ones (an app that names none can use every
 * endpoint), and registrations are throttled per client address.
 */
export function oauthProtocolRouter(deps: ProtocolDeps): Router {
  const withHandle: ProtocolRouteDeps = { ...deps, handle: deps.provider.callback() };
  const on = (handler: (deps: ProtocolRouteDeps, ctx: Context) => Promise<void> | void) => (ctx: Context) =>
    handler(withHandle, ctx);
  const router = new Router();
  router.get('/.well-known/oauth-authorization-server', on(serveMetadata));
  // GET only (the metadata promises nothing more): the default-scope rule below reads the query string.
  router.get(OAUTH_PATHS.authorize, on(authorize));
  router.get(`${OAUTH_PATHS.authorize}/:uid`, on(delegate));
  router.post(OAUTH_PATHS.token, on(delegate));
  router.post(OAUTH_PATHS.revoke, on(delegate));
  router.post(OAUTH_PATHS.register, on(register));
  return router;
}

interface ProtocolDeps {
  provider: Provider;
  config: Config;
  clock: Clock;
  oauth: OAuthStore;
}

/** The handlers' dependencies: the router's, and oidc-provider's request handler. */
type ProtocolRouteDeps = ProtocolDeps & { handle: ReturnType<Provider['callback']> };

/** The request goes to oidc-provider as it is (its own Koa app answers it). */
async function delegate(deps: ProtocolRouteDeps, ctx: Context): Promise<void> {
  ctx.respond = false;
  await deps.handle(ctx.req, ctx.res);
}

function serveMetadata(deps: ProtocolRouteDeps, ctx: Context): void {
  ctx.set('Cache-Control', 'public, max-age=3600');
  ctx.body = authorizationServerMetadata(deps.config.baseUrl);
}

/** An authorization request that names none of our scopes asks for the default ones. */
async function authorize(deps: ProtocolRouteDeps, ctx: Context): Promise<void> {
  const asked = typeof ctx.query.scope === 'string' ? ctx.query.scope : '';
  if (parseScopes(asked).length === 0) {
    const query = new URLSearchParams(ctx.querystring);
    query.set('scope', [asked, ...DEFAULT_SCOPES].filter(Boolean).join(' '));
    ctx.req.url = `${ctx.path}?${query}`;
  }
  await delegate(deps, ctx);
}

/** Dynamic client registration (RFC 7591), throttled per client address; public clients only. */
async function register(deps: ProtocolRouteDeps, ctx: Context): Promise<void> {
  const now = deps.clock();
  const since = new Date(now.getTime() - REGISTRATION_WINDOW_MS);
  const limit = deps.config.oauth.registrationsPerHour;
  const times = await deps.oauth.registrationTimes(ctx.ip, since, limit);
  if (times.length >= limit) {
    const until = new Date(times.at(-1)!.getTime() + REGISTRATION_WINDOW_MS);
    ctx.status = 429;
    setRetryAfter(ctx, { until, now });
    ctx.set('Cache-Control', 'no-store');
    ctx.body = {
      error: 'too_many_requests',
      error_description: `At most ${limit} client registrations per address and hour; try again later.`,
    };
    return;
  }
  await deps.oauth.recordRegistration(ctx.ip, now);
  await deps.oauth.deleteRegistrationsBefore(since);
  if (ctx.is('application/json')) {
    // Public clients only: a registration that names no authentication method is one with none. (Left
    // out, the library would issue a client secret the client could never use.)
    let metadata: unknown;
    let text: string | null;
    try {
      text = decodeUtf8(await getRawBody(ctx.req, { limit: REGISTRATION_BODY_LIMIT }));
      metadata = text === null ? undefined : JSON.parse(text);
    } catch {
      return refuseMetadata(ctx, 'The registration request must be a JSON object of at most 16 KB.');
    }
    // Text that is not well-formed (http/input-guard.ts) would reach Postgres with the client: refused here.
    if (text === null) return refuseMetadata(ctx, notUtf8Message('registration request'));
    const unstorable = unstorableField(metadata, 'registration request');
    if (unstorable) return refuseMetadata(ctx, unstorableMessage(unstorable));
    if (
      metadata &&
      typeof metadata === 'object' &&
      !Array.isArray(metadata) &&
      !('token_endpoint_auth_method' in metadata)
    )
      Object.assign(metadata, { token_endpoint_auth_method: 'none' });
    (ctx.req as typeof ctx.req & { body?: unknown }).body = metadata;
  }
  await delegate(deps, ctx);
}

/** RFC 7591's answer to client metadata it will not register. */
function refuseMetadata(ctx: Context, description: string): void {
  ctx.status = 400;
  ctx.set('Cache-Control', 'no-store');
  ctx.body = { error: 'invalid_client_metadata', error_description: description };
}

/** The paths this router answers, which the web area must leave alone (no session, no same-origin rule). */
export const isOAuthProtocolPath = (path: string): boolean =>
  path === '/.well-known/oauth-authorization-server' ||
  path === OAUTH_PATHS.token ||
  path === OAUTH_PATHS.register ||
  path === OAUTH_PATHS.revoke ||
  path === OAUTH_PATHS.authorize ||
  path.startsWith(`${OAUTH_PATHS.authorize}/`);
