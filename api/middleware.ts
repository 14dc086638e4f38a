import { randomUUID } from 'node:crypto';
import type { Context, Next } from 'koa';
import type { Logger } from '../core/logger.ts';
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

/**
 * Known errors render their own body; anything else is logged with its stack and answered with a generic 500
 * that carries only the request id.
 */
export function errorHandler(log: Logger) {
  return async (ctx: Context, next: Next) => {
    try {
      await next();
      // Nothing answered: an unknown route, or a known one without this method (the router set Allow).
      if (ctx.status === 404 && ctx.body == null) throw notFound();
      if (ctx.status === 405 && ctx.body == null) ctx.body = { message: 'Method not allowed.' };
      if (ctx.status === 501 && ctx.body == null) ctx.body = { message: 'Method not implemented.' };
    } catch (error) {
      if (error instanceof HttpError) {
        ctx.status = error.status;
        ctx.set(error.headers);
        ctx.body = error.body;
        return;
      }
      const status = (error as { status?: number; expose?: boolean }).status;
      if (typeof status === 'number' && status >= 400 && status < 500 && (error as { expose?: boolean }).expose) {
        ctx.status = status;
        ctx.body = { message: (error as Error).message };
        return;
      }
      log.error({ err: error, requestId: ctx.state.requestId, method: ctx.method, path: loggedPath(ctx.path) }, 'unhandled error');
      ctx.status = 500;
      ctx.body = { message: 'Server error.', request_id: ctx.state.requestId };
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
