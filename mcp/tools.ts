import type { Scope } from '../core/oauth/scopes.ts';
import type { JsonSchema } from '../api/validation.ts';
import { querySchema, type AnyRoute } from '../api/route.ts';

/** An MCP tool: one REST endpoint, called through its route object (same schemas, services and views). */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  method: AnyRoute['method'];
  /** The route's path, as the API router knows it. */
  path: string;
  /** start_scan: may wait for the scan to end, with progress notifications. */
  waits?: boolean;
  annotations: { readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint?: boolean };
}

export const TOOLS: readonly ToolDefinition[] = [
  {
    name: 'start_scan',
    title: 'Start a scan',
    method: 'post',
    path: '/scans',
    waits: true,
    description:
      'Scans a page with Lighthouse in Chromium (desktop and mobile). With wait=true, waits for the result (progress notifications while it runs) and returns the finished scan; otherwise returns its id at once. Counts against the hourly scan limit and the daily API limit.',
    annotations: { readOnlyHint: false, openWorldHint: true },
  },
  {
    name: 'get_scan',
    title: 'Get a scan',
    method: 'get',
    path: '/scans/:id',
    description: 'One scan: status, scores, metrics for both form factors, findings with recommendations, report URL.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_scans',
    title: 'List scans',
    method: 'get',
    path: '/scans',
    description: 'Recent scans, newest first, with paging and filters.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_targets',
    title: 'List monitored targets',
    method: 'get',
    path: '/domains',
    description: 'Monitored targets (scanned daily) with their latest scores.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'get_target_history',
    title: 'Target history',
    method: 'get',
    path: '/domains/:id/history',
    description: "A monitored target's daily scores over time.",
    annotations: { readOnlyHint: true },
  },
  {
    name: 'list_alerts',
    title: 'List alerts',
    method: 'get',
    path: '/alerts',
    description: 'Score alerts of monitored targets, newest first.',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'mark_alerts_read',
    title: 'Mark alerts read',
    method: 'post',
    path: '/alerts/mark-read',
    description: 'Marks alerts as read.',
    annotations: { readOnlyHint: false, idempotentHint: true },
  },
  {
    name: 'list_rum_sites',
    title: 'List live-data sites',
    method: 'get',
    path: '/rum/sites',
    description: 'Sites measured with live data (real-user Core Web Vitals).',
    annotations: { readOnlyHint: true },
  },
  {
    name: 'rum_summary',
    title: 'Live-data summary',
    method: 'get',
    path: '/rum/sites/:id/summary',
    description: "A live-data site's p75 Core Web Vitals and their ratings over a period, by device.",
    annotations: { readOnlyHint: true },
  },
  {
    name: 'rum_history',
    title: 'Live-data history',
    method: 'get',
    path: '/rum/sites/:id/history',
    description: "A metric's daily p75 for a live-data site.",
    annotations: { readOnlyHint: true },
  },
  {
    name: 'rum_slowest_pages',
    title: 'Slowest pages',
    method: 'get',
    path: '/rum/sites/:id/pages',
    description: 'The slowest pages of a live-data site by p75.',
    annotations: { readOnlyHint: true },
  },
];

/**
 * A tool's input schema, from its route's: path parameters, query parameters and body properties as one
 * object (start_scan adds `wait`). The route's own schemas validate the call.
 */
export function inputSchemaOf(tool: ToolDefinition, route: AnyRoute): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, param] of Object.entries(route.params ?? {})) {
    properties[name] = { type: 'string', pattern: param.pattern, description: param.description };
    required.push(name);
  }
  const query = querySchema(route);
  if (query) {
    Object.assign(properties, query.properties as Record<string, JsonSchema>);
    required.push(...((query.required as string[] | undefined) ?? []));
  }
  if (route.body) {
    Object.assign(properties, (route.body.properties as Record<string, JsonSchema> | undefined) ?? {});
    required.push(...((route.body.required as string[] | undefined) ?? []));
  }
  if (tool.waits)
    properties.wait = {
      type: 'boolean',
      description: 'Wait for the scan to finish (up to 10 minutes) and return the result.',
      default: false,
    };
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** Splits a tool call's arguments into the route's path parameters, query and body. */
export function routeInput(
  route: AnyRoute,
  args: Record<string, unknown>,
): { params: Record<string, string>; query: Record<string, unknown>; body: unknown } {
  const params: Record<string, string> = {};
  for (const name of Object.keys(route.params ?? {})) params[name] = String(args[name] ?? '');
  const queryNames = Object.keys(route.query ?? {});
  const query = Object.fromEntries(Object.entries(args).filter(([name]) => queryNames.includes(name)));
  const taken = new Set([...Object.keys(params), ...queryNames, 'wait']);
  const body = route.body ? Object.fromEntries(Object.entries(args).filter(([name]) => !taken.has(name))) : undefined;
  return { params, query, body };
}

export const scopeOf = (tool: ToolDefinition): Scope => (tool.method === 'get' ? 'read' : 'write');
