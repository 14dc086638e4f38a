import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type Koa from 'koa';
import type Provider from 'oidc-provider';
import type { Context, Next } from 'koa';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { RumQueries } from '../core/rum/queries.ts';
import type { Logger } from '../infra/logger.ts';
import type { Storage } from '../db/store/index.ts';
import type { AssetStore } from '../services/assets.ts';
import { mountAccountPages } from './account/routes.ts';
import { mountAccountMailPages } from './account/mail-routes.ts';
import type { Mailer } from '../services/mailer.ts';
import { mountDocsPages } from './docs/routes.ts';
import { FAVICON_SVG_PATH, serveFaviconIco, serveFaviconSvg } from './favicon.ts';
import { mountFlowPages } from './flows/routes.ts';
import { mountLivePages } from './live/routes.ts';
import { liveDataSource } from './live/source.ts';
import { pageLocale } from './locale.ts';
import { mountMonitoringPages } from './monitoring/routes.ts';
import { mountTargetBudgets } from './monitoring/target-budget-routes.ts';
import { mountOAuthPages } from './oauth/routes.ts';
import { mountReportPages } from './scans/report-routes.ts';
import { mountScanPages } from './scans/routes.ts';
import { csrfToken, loadSession, sameOriginOnly, webUser } from './session.ts';
import { mountSettingsPages } from './settings/routes.ts';
import { serveStylesheet } from './stylesheet.ts';
import { mountWebhookPages } from './webhooks/routes.ts';
import { mountAlertDestinationPages } from './alert-destinations/routes.ts';
import { mountPlanPages } from './plan/routes.ts';
import { mountDataPages } from './account/data-routes.ts';

export interface WebDeps {
  storage: Storage;
  config: Config;
  clock: Clock;
  assets: AssetStore;
  temporal: Client;
  /** The live-data queries (ClickHouse), for the live-data pages. */
  rum: RumQueries;
  /** The OAuth authorization server, for the consent pages. */
  oauthProvider: Provider;
  log?: Logger;
  /** Account mail (reset, verification, e-mail change); null without an SMTP server. */
  mailer: Mailer | null;
}

/**
 * Runs before the web area's routes and also for paths none of them match, so that every page, error pages
 * included, knows the visitor, their language and their sign-out token. Unsafe requests must come from our pages.
 */
export function webVisitor(deps: Pick<WebDeps, 'storage' | 'config' | 'clock'>): Koa.Middleware {
  const session = loadSession(deps);
  const sameOrigin = sameOriginOnly(deps.config);
  return (ctx: Context, next: Next) =>
    sameOrigin(ctx, () =>
      session(ctx, async () => {
        ctx.state.locale = pageLocale(ctx, deps.config);
        const user = webUser(ctx);
        if (user) {
          ctx.state.csrf = csrfToken(ctx, deps.config);
          ctx.state.unreadAlerts = await deps.storage.alerts.countUnread(user.id);
        }
        await next();
      }),
    );
}

/** The server-rendered web area (after webVisitor): every feature's pages, the stylesheet and the icon. */
export function webRouter(deps: WebDeps): Router {
  const router = new Router();
  mountScanPages(router, deps);
  mountMonitoringPages(router, deps);
  mountTargetBudgets(router, deps);
  mountWebhookPages(router, deps);
  mountAlertDestinationPages(router, deps);
  mountOAuthPages(router, {
    provider: deps.oauthProvider,
    storage: deps.storage,
    config: deps.config,
    clock: deps.clock,
  });
  mountDocsPages(router, deps);
  mountLivePages(router, {
    config: deps.config,
    clock: deps.clock,
    live: liveDataSource({
      rumSites: deps.storage.rumSites,
      rumAlerts: deps.storage.rumAlerts,
      clock: deps.clock,
      ingestPublicUrl: deps.config.ingest.publicUrl,
      rum: deps.rum,
      scans: deps.storage.scans,
    }),
  });
  mountFlowPages(router, deps);
  const accountDeps = { ...deps, log: deps.log ?? console };
  mountAccountPages(router, accountDeps);
  mountAccountMailPages(router, accountDeps);
  router.get(FAVICON_SVG_PATH, serveFaviconSvg);
  router.get('/favicon.ico', serveFaviconIco);
  router.get('/assets/:file', serveStylesheet);
  mountReportPages(router, deps);
  mountPlanPages(router, deps);
  mountDataPages(router, deps);
  mountSettingsPages(router, deps);
  return router;
}
