import Router from '@koa/router';
import type { Client } from '@temporalio/client';
import Koa from 'koa';
import type { Knex } from 'knex';
import { systemClock, type Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import { FULL_CHECK_SHARED_MS, HealthState, sharedCheck } from '../core/health.ts';
import type { Logger } from '../core/logger.ts';
import { healthCheckWorkflowId, mainTaskQueue } from '../core/temporal.ts';
import { postgresReady } from '../db/knex.ts';
import { authenticateApi, personalTokenVerifier, type TokenVerifier } from './auth.ts';
import { clientAddress } from './client-address.ts';
import { isApiPath, refuseUnstorableInput } from './input-guard.ts';
import { accessLog, errorHandler, requestId } from './middleware.ts';
import { openApiDocument } from './openapi.ts';
import { mountRoutes, type AnyRoute } from './route.ts';
import { apiRoutes } from './routes/index.ts';
import { webRouter } from '../web/routes.ts';
import { localAssetStore } from '../services/assets.ts';

export interface AppDeps {
  config: Config;
  knex: Knex;
  temporal: Client;
  log: Logger;
  clock?: Clock;
  /** Extra bearer-token kinds (OAuth access tokens) tried after personal tokens. */
  extraVerifiers?: TokenVerifier[];
}

export interface App {
  koa: Koa;
  health: HealthState;
}

const OPS_PATHS = new Set(['/livez', '/readyz']);

export function createApp(deps: AppDeps): App {
  const { knex, temporal, log } = deps;
  // Koa's own proxy support believes the left-most X-Forwarded-For, which the client writes; clientAddress()
  // reads the header only through the configured proxies (TRUSTED_PROXIES).
  const koa = new Koa({ proxy: false });
  const health = new HealthState({
    postgres: () => postgresReady(knex),
    temporal: async () => {
      const connection = temporal.connection;
      await connection.withDeadline(Date.now() + 2000, () =>
        connection.workflowService.describeNamespace({ namespace: deps.config.temporal.namespace }),
      );
    },
  }, log);

  const roundTrip = sharedCheck(() => runHealthWorkflow(temporal, mainTaskQueue(deps.config.temporal.taskQueuePrefix)), FULL_CHECK_SHARED_MS);
  const ops = new Router();
  ops.get('/livez', (ctx) => {
    ctx.body = { status: 'alive' };
  });
  ops.get('/readyz', async (ctx) => {
    // ?full=1 also runs a workflow through a worker and back, proving the whole path, not only the connections
    // (one run at most every 5 s, shared by all who ask meanwhile).
    const extra: Record<string, () => Promise<void>> = ctx.query.full === '1' ? { worker_round_trip: roundTrip } : {};
    const readiness = await health.readiness(extra);
    ctx.status = readiness.ready ? 200 : 503;
    ctx.body = readiness;
  });

  const clock = deps.clock ?? systemClock;
  const v1 = new Router({ prefix: '/api/v1' });
  const authenticate = authenticateApi({ knex, clock, verifiers: [personalTokenVerifier(knex), ...(deps.extraVerifiers ?? [])] });
  const openApiRoute: AnyRoute = {
    method: 'get',
    path: '/openapi.json',
    tag: 'Meta',
    summary: 'This OpenAPI 3.1 document. Public; not counted against the daily limit.',
    auth: false,
    extension: true,
    responses: { 200: { description: 'The document.' } },
    handle(ctx) {
      ctx.body = document;
    },
  };
  const routes = [...apiRoutes({ knex, temporal, config: deps.config, clock }), openApiRoute];
  const document = openApiDocument(routes, deps.config.baseUrl);
  mountRoutes(v1, routes, authenticate);

  koa.use(clientAddress(deps.config.trustedProxies));
  koa.use(requestId());
  koa.use(accessLog(log));
  // Errors of the web area are HTML pages; the API and the health endpoints answer JSON.
  koa.use(errorHandler(log, { htmlFor: (path) => !isApiPath(path) && !OPS_PATHS.has(path) }));
  koa.use(refuseUnstorableInput());
  koa.use(ops.routes());
  const web = webRouter({ knex, config: deps.config, clock, assets: localAssetStore(deps.config.assetsDir) });
  koa.use(web.routes());
  koa.use(v1.routes());
  koa.use(v1.allowedMethods());
  return { koa, health };
}

async function runHealthWorkflow(temporal: Client, taskQueue: string): Promise<void> {
  const handle = await temporal.workflow.start('healthCheckWorkflow', {
    taskQueue,
    workflowId: healthCheckWorkflowId(`${Date.now()}-${Math.random().toString(36).slice(2, 8)}`),
    workflowExecutionTimeout: '15 seconds',
  });
  await handle.result();
}
