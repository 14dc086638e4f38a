import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { systemClock } from '../../../core/clock.ts';
import type { ResourceKind } from '../../../core/oauth/resources.ts';
import type { PlanKey } from '../../../core/plans.ts';
import type { Verified } from '../../../core/token-verifier.ts';
import type { User } from '../../../core/user.ts';
import { clientAddress } from '../../../http/client-address.ts';
import { errorHandler } from '../../../http/middleware.ts';
import { loadConfig, type Config } from '../../../infra/config.ts';
import { createLogger } from '../../../infra/logger.ts';
import { oauthTokenVerifier } from '../../../oauth/access-tokens.ts';
import { storeAdapter } from '../../../oauth/adapter.ts';
import { clientMetadataFetch } from '../../../oauth/client-metadata.ts';
import { createOAuthProvider } from '../../../oauth/provider.ts';
import { isOAuthProtocolPath, oauthProtocolRouter } from '../../../oauth/routes.ts';
import { renderErrorPage } from '../../../web/error-page.ts';
import { mountOAuthPages } from '../../../web/oauth/routes.ts';
import { sameOriginOnly } from '../../../web/session.ts';
import { watchLogs } from '../../harness/log-sink.ts';
import { WebClient } from '../../harness/web.ts';
import { MemoryOAuthStore } from './memory-oauth-store.ts';

/** The stand-in for the web area's session cookie: it names a signed-in user of this server (below). */
const SIGNED_IN_COOKIE = 'test_signed_in';

export interface OAuthTestServer {
  /** http://127.0.0.1:PORT, also the issuer (BASE_URL). */
  url: string;
  config: Config;
  /** Every artifact, app and registration the server stored, and the accounts. */
  store: MemoryOAuthStore;
  /** The API's and MCP server's check of an OAuth access token (oauth/access-tokens.ts) for `resource`, at `now`. */
  verify(token: string, resource?: ResourceKind, now?: Date): Promise<Verified | null>;
  /** A signed-in visitor of the consent pages, with an account on `plan`. */
  signedIn(plan?: PlanKey): Promise<{ user: User; web: WebClient }>;
  /** A visitor who is not signed in. */
  visitor(): WebClient;
  close(): Promise<void>;
}

let users = 0;

/**
 * The OAuth 2.1 authorization server as the API process composes it (server/app.ts), without the rest of
 * the API: oidc-provider configured by oauth/provider.ts on the real adapter (oauth/adapter.ts) over the
 * in-memory store, the protocol routes (oauth/routes.ts: metadata, registration and its throttle, authorize,
 * token, revoke), the real Client ID Metadata Document fetch (oauth/client-metadata.ts: the outbound address
 * rule; loopback allowed here only because `CALLBACKS_ALLOW_LOOPBACK` is set below, as the integration lane's
 * environment sets it), the web area's consent pages (web/oauth/routes.ts) and error page, and the access
 * token verifier. What stands in: the web area's session. A visitor is signed in when it carries a cookie
 * this server handed out for one of its users (the consent pages read the user as the real session sets it;
 * CSRF tokens and the same-origin rule are the real ones). Nothing here needs Postgres, ClickHouse or Temporal.
 */
export async function startOAuthServer(options: { env?: Record<string, string> } = {}): Promise<OAuthTestServer> {
  const server = createServer();
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    APP_ENV: 'test',
    BASE_URL: url,
    SECRET_KEY: randomBytes(32).toString('base64'),
    CALLBACKS_ALLOW_LOOPBACK: 'true',
    ...options.env,
  });
  const clock = systemClock;
  const store = new MemoryOAuthStore();
  let logs = '';
  const log = createLogger({ logLevel: 'info' }, 'oauth', { write: (line: string) => void (logs += line) });
  const logSink = watchLogs('unit-lane OAuth server', () => logs);

  const provider = createOAuthProvider({
    config,
    adapter: storeAdapter(store, clock),
    users: { findById: async (id) => store.users.get(id) },
    fetchClientMetadata: clientMetadataFetch(config),
    renderErrorPage,
  });
  const sessions = new Map<string, number>();
  const sameOrigin = sameOriginOnly(config);
  const signedInVisitor = (ctx: Context, next: Next) =>
    sameOrigin(ctx, async () => {
      const session = ctx.cookies.get(SIGNED_IN_COOKIE);
      const user = session === undefined ? undefined : store.users.get(sessions.get(session) ?? -1);
      if (session && user) {
        // What web/session.ts loadSession sets for a live session.
        ctx.state.webUser = { ...user };
        ctx.state.webEmailVerified = true;
        ctx.state.webSessionHash = createHash('sha256').update(session).digest('hex');
      }
      await next();
    });

  const koa = new Koa({ proxy: false });
  koa.use(clientAddress(config.trustedProxies));
  koa.use(errorHandler(log, { html: { for: (path) => !isOAuthProtocolPath(path), render: renderErrorPage } }));
  koa.use(oauthProtocolRouter({ provider, config, clock, oauth: store }).routes());
  koa.use((ctx, next) => (isOAuthProtocolPath(ctx.path) ? next() : signedInVisitor(ctx, next)));
  const pages = new Router();
  mountOAuthPages(pages, { provider, storage: { oauth: store }, config, clock });
  koa.use(pages.routes());
  server.on('request', koa.callback());

  const verifier = oauthTokenVerifier(store, config.baseUrl);
  return {
    url,
    config,
    store,
    verify: (token, resource = 'api', now = clock()) => verifier(token, now, resource),
    async signedIn(plan = 'starter') {
      users += 1;
      const user: User = { id: users, name: `User ${users}`, email: `user-${users}@example.com`, plan };
      store.users.set(user.id, user);
      const session = randomBytes(32).toString('base64url');
      sessions.set(session, user.id);
      const web = new WebClient(url, config.baseUrl);
      web.cookies.set(SIGNED_IN_COOKIE, session);
      return { user, web };
    },
    visitor: () => new WebClient(url, config.baseUrl),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      logSink.check();
    },
  };
}
