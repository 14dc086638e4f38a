import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../core/logger.ts';
import { isDatabaseUnavailable } from '../db/knex.ts';
import { renderErrorPage } from '../web/error-page.ts';
import { HttpError, notFound } from './errors.ts';

/** Every response carries a request id; the log lines of that request carry it too. */
export function requestId() {
  return async (ctx: Context, next: Next) => {
    const incoming = ctx.get('x-request-id');
    ctx.state.requestId = /^[A-Za-z0-9._-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    ctx.set('X-Request-Id', ctx.state.requestId as string);
    await next();
  };
}

export interface ErrorHandlerOptions {
  /** Paths whose errors are HTML pages (the web area's); every other path answers JSON. */
  htmlFor?: (path: string) => boolean;
}

/** How long a client should wait before retrying while the database is unreachable. */
const DATABASE_RETRY_AFTER_S = 5;

/**
 * Known errors render their own body; an unreachable database is a 503 (it recovers by itself, the client
 * may retry); anything else is logged with its stack and answered with a generic 500 that carries only the
 * request id. JSON bodies, or for `htmlFor` paths an HTML page with the same message.
 */
export function errorHandler(log: Logger, options: ErrorHandlerOptions = {}) {
  const respond = (ctx: Context, status: number, body: Record<string, unknown>): void => {
    if (options.htmlFor?.(ctx.path)) {
      renderErrorPage(ctx, status, typeof body.message === 'string' ? body.message : 'Something went wrong.', body.request_id as string | undefined);
    } else {
      ctx.status = status;
      ctx.body = body;
    }
  };
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      // Nothing answered: an unknown route, or a known one without this method (the router set Allow).
      if (ctx.status === 404 && ctx.body == null) throw notFound();
      if (ctx.status === 405 && ctx.body == null) ctx.body = { message: 'Method not allowed.' };
      if (ctx.status === 501 && ctx.body == null) ctx.body = { message: 'Method not implemented.' };
    } catch (error) {
      if (error instanceof HttpError) {
        // A 503 (a dependency away) is expected, but operators want its cause.
        if (error.status >= 500) log.warn({ err: error.cause ?? error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, error.message);
        ctx.set(error.headers);
        return respond(ctx, error.status, error.body);
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        return respond(ctx, status, { message: (error as Error).message });
      }
      if (isDatabaseUnavailable(error)) {
        log.warn({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: ctx.path }, 'database unavailable');
        ctx.set('Retry-After', String(DATABASE_RETRY_AFTER_S));
        return respond(ctx, 503, { message: 'The service is temporarily unavailable; try again shortly.' });
      }
      log.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) }, 'unhandled error');
      respond(ctx, 500, { message: 'Server error.', request_id: ctx.state.requestId });
    }
  };
}

/**
 * The path as logged. A share token is a bearer secret (whoever has the link sees the report), so it is
 * replaced in every variant the router accepts; query strings (image URL signatures) are never logged.
 */
export const loggedPath = (path: string): string => path.replace(/^\/share\/[^/]*/i, '/share/[redacted]');

export function accessLog(log: Logger) {
  return async (ctx: Context, next: Next) => {
    const started = performance.now();
    try {
      await next();
    } finally {
      log.info(
        { requestId: ctx.state.requestId, ip: ctx.ip, method: ctx.method, path: loggedPath(ctx.path), status: ctx.status, ms: Math.round(performance.now() - started) },
        'request',
      );
    }
  };
}
