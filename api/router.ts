import { createAssetStore } from '../services/asset-store.ts';
import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import type { Context } from 'koa';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { RumQueries } from '../core/rum/queries.ts';
import type { Storage } from '../db/store/index.ts';
import type { TokenVerifier } from '../core/token-verifier.ts';
import { authenticateApi, personalTokenVerifier, type AuthDeps } from './auth.ts';
import { openApiDocument } from './openapi.ts';
import { mountRoutes, type AnyRoute } from './route.ts';
import { apiRoutes } from './routes/index.ts';

export interface ApiDeps {
  storage: Storage;
  temporal: Client;
  config: Config;
  clock: Clock;
  /** Live-data queries (ClickHouse). */
  rum: RumQueries;
  /** Extra bearer-token kinds (OAuth access tokens) tried after personal tokens. */
  extraVerifiers?: TokenVerifier[];
  /** Told of each call refused for the daily limit. */
  onLimitRefused?: (plan: string) => void;
}

export interface Api {
  router: Router;
  /** The endpoints (the MCP server calls them as its tools). */
  routes: AnyRoute[];
  /** How a call is admitted (the MCP server admits its calls the same way). */
  auth: AuthDeps;
}

/** Everything under /api/v1: the endpoints of routes/, behind authentication, and their OpenAPI document. */
export function apiRouter(deps: ApiDeps): Api {
  const { storage, clock } = deps;
  const router = new Router({ prefix: '/api/v1' });
  const auth: AuthDeps = {
    usage: storage.usage,
    clock,
    verifiers: [personalTokenVerifier(storage.tokens), ...(deps.extraVerifiers ?? [])],
    onLimitRefused: deps.onLimitRefused,
  };
  const authenticate = authenticateApi(auth);
  const routes = [
    ...apiRoutes({
      scans: storage.scans,
      lighthouseReports: storage.lighthouseReports,
      targets: storage.targets,
      alerts: storage.alerts,
      rumSites: storage.rumSites,
      rumAlerts: storage.rumAlerts,
      flows: storage.flows,
      assets: createAssetStore(deps.config),
      rum: deps.rum,
      temporal: deps.temporal,
      config: deps.config,
      clock,
    }),
    openApiRoute(() => document),
  ];
  const document = openApiDocument(routes, deps.config.baseUrl);
  mountRoutes(router, routes, authenticate);
  return { router, routes, auth };
}

function openApiRoute(document: () => unknown): AnyRoute {
  return {
    method: 'get',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document. Public; not counted against the daily limit.',
    auth: false,
    extension: true,
    responses: { 200: { description: 'The document.' } },
    handle: function showOpenApiDocument(ctx: Context) {
      ctx.body = document();
    },
  };
}
