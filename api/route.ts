import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { ApiState } from './auth.ts';
import { readJsonBody } from './body.ts';
import { notFound } from '../http/errors.ts';
import { precompile, validate, type JsonSchema } from './validation.ts';

export type ApiContext = Context & { state: ApiState };

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
  method: 'get' | 'post' | 'patch' | 'delete';
  /** Router path, e.g. `/scans/:id`. */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  /** False for the few public endpoints (the OpenAPI document). */
  auth?: boolean;
  /** True for endpoints the spec does not describe. */
  extension?: boolean;
  /** Path parameters that do not match their pattern are unknown resources: 404. */
  params?: Record<string, { pattern: string; description: string }>;
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
    const patterns = Object.entries(route.params ?? {}).map(([name, p]) => [name, new RegExp(p.pattern)] as const);

    const handler: Middleware = async (ctx) => {
      for (const [name, pattern] of patterns) {
        if (!pattern.test(ctx.params[name] ?? '')) throw notFound();
      }
      const rawBody: unknown = route.body ? ((await readJsonBody(ctx)) ?? {}) : undefined;
      route.guard?.(ctx as ApiContext, rawBody);
      const input = {
        params: ctx.params as Record<string, string>,
        query: query ? validate('query', query, { ...ctx.query }) : {},
        body: route.body ? validate('body', route.body, rawBody) : undefined,
      };
      await route.handle(ctx as ApiContext, input);
    };
    const stack = route.auth === false ? [handler] : [authenticate, handler];
    router[route.method](route.path, ...stack);
  }
}
