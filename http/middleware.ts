import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../infra/logger.ts';
import { isDatabaseUnavailable } from '../db/store/availability.ts';
import { HttpError, notFound, serviceUnavailable } from './errors.ts';

/** Every response carries a request id; the log lines of that request carry it too. */
export function requestId() {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId as string);
    await next();
  };
}

/** Sets the given headers on every response before anything else runs, so that errors and library-served routes carry them too. */
export function responseHeaders(headers: Record<string, string>) {
  return async (ctx: Context, next: Next) => {
    ctx.set(headers);
    await next();
  };
}

/** Renders an error as an HTML page (the web area's); `requestId` only on a 500. */
export type ErrorPageRenderer = (ctx: Context, status: number, message: string, requestId?: string) => void;

export interface ErrorHandlerOptions {
  /** Paths whose errors are HTML pages (the web area's), and how to render them; every other path answers JSON. */
  html?: { for: (path: string) => boolean; render: ErrorPageRenderer };
}

/** How long a client should wait before retrying while the database is unreachable. */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * Known errors render their own body; an unreachable database is a 503 (it recovers by itself, the client
 * may retry); anything else is logged with its stack and answered with a generic 500 that carries only the
 * request id. JSON bodies, or for the web area's paths an HTML page with the same message.
 */
export function errorHandler(log: Logger, options: ErrorHandlerOptions = {}) {
  const respond = (ctx: Context, status: number, body: Record<string, unknown>): void => {
    if (options.html?.for(ctx.path)) {
      options.html.render(
        ctx,
        status,
        typeof body.message === 'string' ? body.message : 'Something went wrong.',
        body.request_id as string | undefined,
      );
    } else {
      ctx.status = status;
      ctx.body = body;
    }
  };
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      // Nothing answered: an unknown route, or a known one without this method (the router set Allow). A
      // method no route has (TRACE, PROPFIND) is the router's 501: for a known path it is a 405 like any other.
      if (ctx.body == null && ctx.status === 501) {
        if (!ctx.response.get('Allow')) throw notFound();
        ctx.status = 405;
      }
      if (ctx.status === 404 && ctx.body == null) throw notFound();
      if (ctx.status === 405 && ctx.body == null) return respond(ctx, 405, { message: 'Method not allowed.' });
    } catch (caught) {
      const where = { requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) };
      // An HttpError has chosen its answer already (a 503 for ClickHouse away, whose cause looks like a network error too).
      const databaseAway = !(caught instanceof HttpError) && isDatabaseUnavailable(caught);
      const error = databaseAway
        ? serviceUnavailable(
            'The service is temporarily unavailable; try again shortly.',
            DATABASE_RETRY_AFTER_S,
            caught,
          )
        : caught;
      if (error instanceof HttpError) {
        // A 503 (a dependency away) is expected, but operators want its cause.
        if (error.status >= 500)
          log.warn({ err: error.cause ?? error, ...where }, databaseAway ? 'database unavailable' : error.message);
        ctx.set(error.headers);
        return respond(ctx, error.status, error.body);
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        return respond(ctx, status, { message: (error as Error).message });
      }
      log.error({ err: error, ...where }, 'unhandled error');
      respond(ctx, 500, { message: 'Server error.', request_id: ctx.state.requestId });
    }
  };
}

/**
 * The path as logged. A share token is a bearer secret (whoever has the link sees the report), so it is
 * replaced in every variant the router accepts; query strings (image URL signatures) are never logged.
 */
export const loggedPath = (path: string): string => path.replace(/^\/share\/[^/]*/i, '/share/[redacted]');

/**
 * The ids an access log line can carry, named as the worker's lines name them so that one id joins a request
 * to what the worker did with it.
 */
export type LogIdName = 'scanId' | 'targetId' | 'alertId' | 'rumSiteId' | 'rumAlertId';

/** Adds ids to the request's access log line (kept with those recorded before). */
export function recordLogIds(
  ctx: { state: { logIds?: Record<string, string | number> } },
  ids: Partial<Record<LogIdName, string | number>>,
): void {
  ctx.state.logIds = { ...ctx.state.logIds, ...ids };
}

export function accessLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      // The ids a handler recorded (ctx.state.logIds: scanId, targetId, ...) and whose request it was.
      const user = (ctx.state.user ?? ctx.state.webUser) as { id: number } | undefined;
      log.info(
        {
          requestId: ctx.state.requestId,
          ip: ctx.ip,
          method: ctx.method,
          path: loggedPath(ctx.path),
          status: ctx.status,
          ms: Math.round(performance.now() - started),
          ...(user ? { userId: user.id } : {}),
          ...(ctx.state.logIds as Record<string, string | number> | undefined),
        },
        'request',
      );
    }
  };
}
