import { SCOPES, SCOPE_TEXT, scopeForMethod } from '../core/oauth/scopes.ts';
import { MAX_BODY_BYTES } from './body.ts';
import { querySchema, type AnyRoute } from './route.ts';
import { acceptsEmptyBody, type JsonSchema } from './validation.ts';
import { webhookOperations } from './webhook-docs.ts';
import { budgetsSchema } from './views/budget-schemas.ts';
import { metricChangeSchema } from './views/scan-schemas.ts';
import { targetSchema } from './views/target-schemas.ts';
import { exampleOf } from './openapi-examples.ts';
import { prose } from './openapi-prose.ts';

const ERROR_SCHEMAS: Record<string, JsonSchema> = {
  Message: { type: 'object', required: ['message'], properties: { message: { type: 'string' } } },
  ValidationError: {
    type: 'object',
    required: ['message', 'errors'],
    properties: {
      message: { type: 'string' },
      errors: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
    },
  },
  PlanError: {
    type: 'object',
    required: ['message'],
    properties: { message: { type: 'string' }, required_plan: { type: 'string', enum: ['starter', 'pro', 'agency'] } },
  },
  DailyLimitError: {
    type: 'object',
    required: ['error', 'limit', 'reset_at'],
    properties: {
      error: { type: 'string' },
      limit: { type: 'integer' },
      reset_at: { type: 'string', format: 'date-time' },
    },
  },
  ServerError: {
    type: 'object',
    required: ['message', 'request_id'],
    properties: { message: { type: 'string' }, request_id: { type: 'string' } },
  },
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: JsonSchema) => ({ 'application/json': { schema } });

/** Schemas several operations share, named once in the components: the routes hold these very objects. */
const SHARED_SCHEMAS: Record<string, JsonSchema> = {
  Target: targetSchema,
  Budgets: budgetsSchema,
  ScanMetricChange: metricChangeSchema,
};

/** A copy of `node` in which every shared schema (found by identity), but `self`, is a reference to its component. */
function referenceShared(node: unknown, names: Map<unknown, string>, self?: unknown): unknown {
  if (!node || typeof node !== 'object') return node;
  const name = names.get(node);
  if (name && node !== self) return ref(name);
  if (Array.isArray(node)) return node.map((item) => referenceShared(item, names));
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, referenceShared(value, names)]));
}

const STANDARD_ERRORS = {
  401: {
    description: 'No token, or an invalid, expired or revoked one: `{"message": "Unauthenticated."}`.',
    content: json(ref('Message')),
  },
  403: {
    description: 'The plan does not include this (`required_plan` names the cheapest plan that does).',
    content: json(ref('PlanError')),
  },
  429: { description: 'Daily API limit reached; resets at midnight UTC.', content: json(ref('DailyLimitError')) },
  500: {
    description: 'Internal error; the body carries only a request id that the logs carry too.',
    content: json(ref('ServerError')),
  },
};

/** OpenAPI 3.1, generated from the same route objects (and JSON Schemas) that validate the requests. */
export function openApiDocument(routes: AnyRoute[], baseUrl: string): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const path = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
    const query = querySchema(route);
    const parameters = [
      ...Object.entries(route.params ?? {}).map(([name, p]) => ({
        name,
        in: 'path',
        required: true,
        description: p.description,
        schema: { type: 'string', pattern: p.pattern },
      })),
      ...Object.entries((query?.properties as Record<string, JsonSchema>) ?? {}).map(([name, schema]) => ({
        name,
        in: 'query',
        required: route.requiredQuery?.includes(name) ?? false,
        description: schema.description,
        schema,
      })),
    ];
    const responses: Record<string, unknown> = {};
    for (const [status, r] of Object.entries(route.responses)) {
      responses[status] = r.schema
        ? { description: r.description, content: json(r.schema) }
        : { description: r.description };
    }
    if (route.body || route.query)
      responses[422] = { description: 'Validation error.', content: json(ref('ValidationError')) };
    if (route.params)
      responses[404] = { description: 'Unknown id, or a resource of another user.', content: json(ref('Message')) };
    if (route.auth !== false) Object.assign(responses, STANDARD_ERRORS);
    else responses[500] = STANDARD_ERRORS[500];
    // A route with a 429 of its own (POST /scans: the hourly scan limit) answers that or the daily limit's.
    const own429 = route.responses[429];
    if (own429?.schema && route.auth !== false)
      responses[429] = {
        description: own429.description,
        content: json({ anyOf: [ref('DailyLimitError'), own429.schema] }),
      };

    (paths[path] ??= {})[route.method] = {
      tags: [route.tag],
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      ...(route.extension ? { 'x-extension': true } : {}),
      security: route.auth === false ? [] : [{ bearer: [] }, { oauth: [scopeForMethod(route.method)] }],
      ...(parameters.length ? { parameters } : {}),
      ...(route.body ? { requestBody: { required: !acceptsEmptyBody(route.body), content: json(route.body) } } : {}),
      responses,
    };
  }
  const names = new Map(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [schema as unknown, name]));
  const shared = Object.fromEntries(
    Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [
      name,
      referenceShared(schema, names, schema) as JsonSchema,
    ]),
  );
  const schemas = { ...ERROR_SCHEMAS, ...shared };
  const namedPaths = referenceShared(paths, names) as typeof paths;
  const webhooks = webhookOperations();
  withExamples(namedPaths, schemas);
  withExamples(webhooks, schemas);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Web Performance Scanning Service API',
      version: '1.0.0',
      description:
        [
          'All responses are JSON. Objects come as `{"data": {...}}`, lists as `{"data": [...]}`, paginated lists add',
          '`meta` (current_page, per_page, total, last_page). `limit` outside its range or a `page` below 1 is a 422.',
          'Unknown query parameters are ignored; unknown body fields are a 422.',
          `Request bodies are JSON (Content-Type: application/json, else 415) of at most ${MAX_BODY_BYTES} bytes (else 413).`,
          'Every authenticated call counts against the daily limit, which resets at midnight UTC; responses carry',
          '`X-RateLimit-Limit/Remaining/Used/Reset/Resource` (GitHub convention; Reset in Unix seconds). Unlimited plans',
          '(Agency) report `api_daily_limit` and `limit_today` as -1 and get no X-RateLimit headers.',
          'Operations marked `x-extension: true` are not part of the published specification.',
        ].join(' ') + prose(baseUrl),
    },
    servers: [{ url: `${baseUrl}/api/v1` }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'A personal API token or an OAuth access token.' },
        oauth: {
          type: 'oauth2',
          description:
            'OAuth 2.1 for apps acting for a user: public clients, PKCE S256, dynamic registration or a Client ID Metadata Document. A GET needs `read`, anything else `write`; an app that asks for no scope gets both.',
          flows: {
            authorizationCode: {
              authorizationUrl: `${baseUrl}/oauth/authorize`,
              tokenUrl: `${baseUrl}/oauth/token`,
              refreshUrl: `${baseUrl}/oauth/token`,
              scopes: Object.fromEntries(SCOPES.map((scope) => [scope, SCOPE_TEXT[scope].en])),
            },
          },
        },
      },
      schemas,
    },
    paths: namedPaths,
    webhooks,
  };
}

/** Adds an example, derived from its schema, to every JSON request and response body that has none. */
function withExamples(node: unknown, components: Record<string, JsonSchema>): void {
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  const media = record['application/json'] as { schema?: JsonSchema; example?: unknown } | undefined;
  if (media?.schema && media.example === undefined) media.example = exampleOf(media.schema, components);
  for (const [key, value] of Object.entries(record))
    if (key !== 'schema' && key !== 'example') withExamples(value, components);
}
