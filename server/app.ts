import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa, { type Context } from 'koa';
import type { Knex } from 'knex';
import { apiRouter } from '../api/router.ts';
import { systemClock, type Clock } from '../core/clock.ts';
import type { TokenVerifier } from '../core/token-verifier.ts';
import type { Config } from '../infra/config.ts';
import { FULL_CHECK_SHARED_MS, HealthState, sharedCheck } from '../infra/health.ts';
import { registerReadyGauge } from '../infra/ready-metric.ts';
import { securityHeaders } from '../core/security-headers.ts';
import type { Logger } from '../infra/logger.ts';
import { runHealthWorkflow, temporalReachable } from '../infra/temporal-client.ts';
import { createClickHouse, type ClickHouseClient } from '../db/clickhouse/client.ts';
import { rumQueries } from '../db/clickhouse/rum-queries.ts';
import { createStorage } from '../db/store/index.ts';
import { isMcpPath, mcpRouter } from '../mcp/route.ts';
import { oauthTokenVerifier } from '../oauth/access-tokens.ts';
import { storeAdapter } from '../oauth/adapter.ts';
import { createOAuthProvider } from '../oauth/provider.ts';
import { isOAuthProtocolPath, oauthProtocolRouter } from '../oauth/routes.ts';
import { clientMetadataFetch } from '../oauth/client-metadata.ts';
import { createAssetStore } from '../services/asset-store.ts';
import { renderErrorPage } from '../web/error-page.ts';
import { webRouter, webVisitor } from '../web/routes.ts';
import { smtpMailer, type Mailer } from '../services/mailer.ts';
import { clientAddress } from '../http/client-address.ts';
import { createHttpMetrics, type HttpMetrics } from '../http/metrics.ts';
import { isApiPath, refuseUnstorableInput } from '../http/input-guard.ts';
import { accessLog, errorHandler, requestId, responseHeaders } from '../http/middleware.ts';

export interface AppDeps {
  config: Config;
  knex: Knex;
  /** The pool for the daily API counter (db/knex.ts createCounterKnex); the main pool when not given. */
  counterKnex?: Knex;
  temporal: Client;
  /** ClickHouse (live data), on config.clickhouse.database; when not given the app makes one and close() closes it. */
  clickhouse?: ClickHouseClient;
  log: Logger;
  clock?: Clock;
  /** Account mail; when not given the app makes one on SMTP_URL (none without it) and close() closes it. */
  mailer?: Mailer | null;
  /** Extra bearer-token kinds tried after personal and OAuth tokens (tests). */
  extraVerifiers?: TokenVerifier[];
}

export interface App {
  koa: Koa;
  /** The operator metrics (served on the operator port by server/main.ts, never on this app's port). */
  metrics: HttpMetrics;
  health: HealthState;
  /** Closes what the app made itself (the ClickHouse client when none was given). */
  close(): Promise<void>;
}

const HEALTH_PATHS = new Set(['/livez', '/readyz']);

/** Paths that answer JSON and skip the web area's visitor (session, same-origin rule): API, health, OAuth protocol, MCP. */
const outsideWebArea = (path: string): boolean =>
  isApiPath(path) || HEALTH_PATHS.has(path) || isOAuthProtocolPath(path) || isMcpPath(path);

/**
 * The API process's one Koa app: the request edge (client address, request id, security headers, access
 * log, errors, input guard: http/), then the health endpoints, the OAuth protocol, MCP, the web area and the
 * API. The areas share only http/ and core/; this root is the one module that mounts them and hands each the
 * parts of another it needs (the web area's error page to OAuth, OAuth's token verifier to the API). Errors
 * are JSON for the API and the health endpoints, HTML pages for the web area.
 */
export function createApp(deps: AppDeps): App {
  const { knex, temporal, log, config } = deps;
  const clock = deps.clock ?? systemClock;
  const storage = createStorage(knex, deps.counterKnex);
  const clickhouse = deps.clickhouse ?? createClickHouse(config);
  const rum = rumQueries({ client: clickhouse, database: config.clickhouse.database });
  const mailer =
    deps.mailer !== undefined
      ? deps.mailer
      : config.mail.smtpUrl
        ? smtpMailer({ url: config.mail.smtpUrl, from: config.mail.from })
        : null;
  const health = new HealthState({ postgres: storage.ping, temporal: () => temporalReachable(temporal) }, log);

  // Koa's own proxy support believes the left-most X-Forwarded-For, which the client writes; clientAddress()
  // reads the header only through the configured proxies (TRUSTED_PROXIES).
  const koa = new Koa({ proxy: false });
  const metrics = createHttpMetrics('api');
  registerReadyGauge(metrics.registry, 'api', health);
  koa.use(metrics.middleware);
  koa.use(clientAddress(config.trustedProxies));
  koa.use(requestId());
  koa.use(responseHeaders(securityHeaders(config.baseUrl)));
  koa.use(accessLog(log));
  koa.use(errorHandler(log, { html: { for: (path) => !outsideWebArea(path), render: renderErrorPage } }));
  koa.use(refuseUnstorableInput());
  koa.use(healthRouter(health, temporal, config).routes());
  const oauthProvider = createOAuthProvider({
    config,
    adapter: storeAdapter(storage.oauth, clock),
    users: storage.users,
    fetchClientMetadata: clientMetadataFetch(config),
    renderErrorPage,
  });
  koa.use(oauthProtocolRouter({ provider: oauthProvider, config, clock, oauth: storage.oauth }).routes());
  const verifiers = [oauthTokenVerifier(storage.oauth, config.baseUrl), ...(deps.extraVerifiers ?? [])];
  const api = apiRouter({
    storage,
    temporal,
    config,
    clock,
    rum,
    extraVerifiers: verifiers,
    onLimitRefused: metrics.dailyLimitRefused,
  });
  koa.use(mcpRouter({ config, routes: api.routes, auth: api.auth }).routes());
  const visitor = webVisitor({ storage, config, clock });
  koa.use((ctx, next) => (outsideWebArea(ctx.path) ? next() : visitor(ctx, next)));
  koa.use(
    webRouter({
      storage,
      config,
      clock,
      temporal,
      log,
      assets: createAssetStore(config),
      rum,
      oauthProvider,
      mailer,
    }).routes(),
  );
  koa.use(api.router.routes());
  koa.use(api.router.allowedMethods());
  return {
    koa,
    health,
    metrics,
    close: async () => {
      if (deps.mailer === undefined) mailer?.close();
      if (!deps.clickhouse) await clickhouse.close();
    },
  };
}

/** `/livez` and `/readyz` (with `?full=1`, also a workflow through a worker and back). */
function healthRouter(health: HealthState, temporal: Client, config: Config): Router {
  // One round trip at most every 5 s, shared by all who ask meanwhile.
  const roundTrip = sharedCheck(
    () => runHealthWorkflow(temporal, config.temporal.taskQueuePrefix),
    FULL_CHECK_SHARED_MS,
  );
  const router = new Router();
  router.get('/livez', function alive(ctx: Context) {
    ctx.body = { status: 'alive' };
  });
  router.get('/readyz', async function ready(ctx: Context) {
    const extra: Record<string, () => Promise<void>> = ctx.query.full === '1' ? { worker_round_trip: roundTrip } : {};
    const readiness = await health.readiness(extra);
    ctx.status = readiness.ready ? 200 : 503;
    ctx.body = readiness;
  });
  return router;
}
