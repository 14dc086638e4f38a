import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ApiState } from './auth.ts';
import { readJsonBody } from './body.ts';
import { notFound } from '../http/errors.ts';
import { assertUtf8Query } from '../http/input-guard.ts';
import { recordLogIds, type LogIdName } from '../http/middleware.ts';
import { precompile, validate, type JsonSchema } from './validation.ts';

export type ApiContext = Context & { state: ApiState };

/** Numeric ids are logged as numbers, as the handlers and the worker log them. */
const NUMERIC_LOG_IDS: ReadonlySet<LogIdName> = new Set(['targetId', 'alertId', 'rumSiteId', 'rumAlertId']);

export interface RouteInput<Q, B> {
  query: Q;
  body: B;
  params: Record<string, string>;
}

/**
 * One endpoint: its documentation, its request schemas and its handler, in one object. The same schemas
 * validate requests and feed the OpenAPI document, so the two cannot drift apart.
 */
export interface ApiRoute<Q = Record<string, unknown>, B = undefined> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Router path, e.g. `/scans/:id`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** False for the few public endpoints (the OpenAPI document). */
  auth?: boolean;
  /** True for endpoints the spec does not describe. */
  extension?: boolean;
  /**
   * Path parameters that do not match their pattern are unknown resources: 404. `logAs` names the id in the
   * request's access log line (runRoute records it once the parameter matched its pattern).
   */
  params?: Record<string, { pattern: string; description: string; logAs?: LogIdName }>;
  query?: Record<string, JsonSchema>;
  requiredQuery?: string[];
  body?: JsonSchema;
  responses: Record<number, { description: string; schema?: JsonSchema }>;
  /** Runs on the raw body before validation: for rules the spec ranks above 422 (a plan's 403, say). */
  guard?(ctx: ApiContext, rawBody: unknown): void;
  handle(ctx: ApiContext, input: RouteInput<Q, B>): Promise<void> | void;
}

// Route objects differ in their Q and B; the registry only needs their common shape.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = ApiRoute<any, any>;

export function querySchema(route: AnyRoute): JsonSchema | null {
  if (!route.query) return null;
  return { type: 'object', properties: route.query, required: route.requiredQuery ?? [] };
}

export function mountRoutes(router: Router, routes: AnyRoute[], authenticate: Middleware): void {
  for (const route of routes) {
    const query = querySchema(route);
    if (query) precompile('query', query);
    if (route.body) precompile('body', route.body);

    const handler: Middleware = async (ctx) => {
      // The parsed query has U+FFFD where the query string had bytes that are not UTF-8: refused from the raw text.
      if (query) assertUtf8Query(ctx.querystring);
      const rawBody: unknown = route.body ? ((await readJsonBody(ctx)) ?? {}) : undefined;
      await runRoute(route, ctx as ApiContext, {
        params: ctx.params as Record<string, string>,
        query: { ...ctx.query },
        body: rawBody,
      });
    };
    const stack = route.auth === false ? [handler] : [authenticate, handler];
    router[route.method](route.path, ...stack);
  }
}

const patterns = new Map<string, RegExp>();
const patternOf = (source: string): RegExp =>
  patterns.get(source) ?? patterns.set(source, new RegExp(source)).get(source)!;

/**
 * One call of a route with its raw input, as the router and the MCP server make it: path parameters that do
 * not match their pattern are a 404, then the guard, then the query and body validated by the route's own
 * schemas, then the handler.
 */
export async function runRoute(
  route: AnyRoute,
  ctx: ApiContext,
  raw: { params: Record<string, string>; query: Record<string, unknown>; body: unknown },
): Promise<void> {
  const ids: Partial<Record<LogIdName, string | number>> = {};
  for (const [name, p] of Object.entries(route.params ?? {})) {
    const value = raw.params[name] ?? '';
    if (!patternOf(p.pattern).test(value)) throw notFound();
    if (p.logAs) ids[p.logAs] = NUMERIC_LOG_IDS.has(p.logAs) ? Number(value) : value;
  }
  // Before the handler, so the line names the resource whatever the outcome (404 and errors included).
  if (Object.keys(ids).length > 0) recordLogIds(ctx, ids);
  route.guard?.(ctx, raw.body);
  const query = querySchema(route);
  const input = {
    params: raw.params,
    query: query ? validate('query', query, raw.query) : {},
    body: route.body ? validate('body', route.body, raw.body ?? {}) : undefined,
  };
  await route.handle(ctx, input);
}
