import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import type { Clock } from '../../core/clock.ts';
import { isoTimestamp } from '../../core/clock.ts';
import type { Config } from '../../core/config.ts';
import { negotiateLocale } from '../../core/i18n/locale.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { classifyAddress } from '../../core/outbound.ts';
import { hasFeature } from '../../core/plans.ts';
import { HostAttribute, mainTaskQueue, ScanIdAttribute, scanTaskQueue, scanWorkflowId } from '../../core/temporal.ts';
import { normaliseScanUrl } from '../../core/url.ts';
import type { ScanStatus } from '../../db/models/Scan.ts';
import { createOrReuseScan, findUserScan, markFailed, setSharing, userScansQuery, type ScanCredentials } from '../../services/scans.ts';
import { featureRequired, HttpError, notFound, validationFailed } from '../errors.ts';
import { paginate, pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import type { ApiContext, ApiRoute, AnyRoute } from '../route.ts';
import type { JsonSchema } from '../validation.ts';
import { creationView, detailView, listItemView, shareUrl, type ViewContext } from '../views/scans.ts';
import { scanCreationSchema, scanDetailSchema, scanListItemSchema, shareStateSchema } from '../views/scan-schemas.ts';

export interface ScanRouteDeps {
  knex: Knex;
  temporal: Client;
  config: Config;
  clock: Clock;
}

const STATUSES = ['queued', 'running', 'finished', 'failed'] as const;
const idParam = { id: { pattern: PUBLIC_ID_PATTERN, description: 'The scan public_id.' } };
// Headers that would break the request or the browser's connection handling if set by a user.
const FORBIDDEN_HEADERS = /^(host|content-length|connection|transfer-encoding|upgrade|te|trailer|keep-alive|expect|proxy-.*)$/i;

// Credentials become an HTTP header: RFC 9110 field syntax, so nothing can end the header or start another.
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const HEADER_VALUE = '^[\\x21-\\x7E](?:[\\t\\x20-\\x7E]*[\\x21-\\x7E])?$';
// Basic credentials are base64-encoded, so any text is safe on the wire; control characters and, in the
// user name, the colon that separates it from the password are refused (RFC 7617).
const BASIC_USERNAME = '^[^\\x00-\\x1F\\x7F-\\x9F:]+$';
const BASIC_PASSWORD = '^[^\\x00-\\x1F\\x7F-\\x9F]*$';

interface CreateBody {
  url: string;
  region?: string;
  public?: boolean;
  force?: boolean;
  auth?: { type: 'basic' | 'header'; username?: string; password?: string; header_name?: string; header_value?: string };
}

function createBodySchema(regions: string[]): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: { type: 'string', minLength: 1, maxLength: 8192, description: 'http(s) URL; normalised (see README).' },
      region: { type: 'string', enum: regions, description: 'Scan location code.' },
      public: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      auth: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        description: 'Credentials for protected pages (Pro plan or higher). Sent only to the scanned origin; never returned.',
        properties: {
          type: { type: 'string', enum: ['basic', 'header'] },
          username: { type: 'string', minLength: 1, maxLength: 256, pattern: BASIC_USERNAME, description: 'No control characters and no colon (RFC 7617).' },
          password: { type: 'string', maxLength: 1024, pattern: BASIC_PASSWORD, description: 'No control characters.' },
          header_name: { type: 'string', minLength: 1, maxLength: 100, pattern: HEADER_NAME, description: 'An HTTP field name (an RFC 9110 token).' },
          header_value: { type: 'string', minLength: 1, maxLength: 4096, pattern: HEADER_VALUE, description: 'Visible ASCII characters, with spaces and tabs only between them (RFC 9110 field value; no CR, LF or other control characters).' },
        },
        allOf: [
          { if: { properties: { type: { const: 'basic' } } }, then: { required: ['username', 'password'] } },
          { if: { properties: { type: { const: 'header' } } }, then: { required: ['header_name', 'header_value'] } },
        ],
      },
    },
  };
}

const envelope = (data: JsonSchema, meta?: JsonSchema) => ({ type: 'object', required: ['data'], properties: { data, ...(meta ? { meta } : {}) } });

const START_DEADLINE_MS = 5000;

/** An error and the causes it wraps ("Failed to start Workflow" says little on its own), for operators. */
const describeError = (error: unknown): string => {
  const parts: string[] = [];
  for (let current = error; current instanceof Error && parts.length < 4; current = current.cause) parts.push(current.message);
  return parts.join(': ');
};

export function scanRoutes(deps: ScanRouteDeps): AnyRoute[] {
  const { knex, temporal, config, clock } = deps;
  const viewContext = (ctx: ApiContext): ViewContext => ({ baseUrl: config.baseUrl, keys: config.keys, locale: negotiateLocale(ctx.get('accept-language')), now: clock() });

  const list: ApiRoute<PageQuery & { domain?: string; status?: ScanStatus }> = {
    method: 'get',
    path: '/scans',
    tag: 'Scans',
    summary: "The caller's scans, newest first.",
    query: {
      ...pageQuerySchema({ max: 50, default: 20 }),
      domain: { type: 'string', maxLength: 2048, description: 'Only scans whose URL contains this text.' },
      status: { type: 'string', enum: [...STATUSES] },
    },
    responses: { 200: { description: 'A page of scans; `result` carries only `scores`.', schema: envelope({ type: 'array', items: scanListItemSchema }, pageMetaSchema) } },
    async handle(ctx, { query }) {
      const { rows, meta } = await paginate(userScansQuery(knex, ctx.state.user.id, { domain: query.domain, status: query.status }), query);
      const view = viewContext(ctx);
      ctx.body = { data: rows.map((scan) => listItemView(scan, view)), meta };
    },
  };

  const create: ApiRoute<Record<string, never>, CreateBody> = {
    method: 'post',
    path: '/scans',
    tag: 'Scans',
    summary: 'Start a scan, or get the result of one under 24 hours old for the same URL and region.',
    description:
      '202 with `cached: false` for a new scan (or one already queued/running for the same URL and region); 200 with `cached: true` for a finished result under 24 hours old, unless `force` is true. Results are reused only within one account, never across accounts, and never for authenticated scans. 429 when the hourly scan limit of the plan is reached.',
    body: createBodySchema(config.regions.available),
    // The spec: "When the plan lacks the scan_auth feature and auth is sent, the response is 403", whatever else is wrong.
    guard(ctx, rawBody) {
      if (typeof rawBody === 'object' && rawBody !== null && 'auth' in rawBody && !hasFeature(ctx.state.plan, 'scan_auth')) {
        throw featureRequired('scan_auth', 'Authenticated scans');
      }
    },
    responses: {
      200: { description: 'Cached result.', schema: envelope(scanCreationSchema) },
      202: { description: 'Scan queued.', schema: envelope(scanCreationSchema) },
    },
    async handle(ctx, { body }) {
      const normalised = normaliseScanUrl(body.url);
      if (!normalised.ok) throw validationFailed({ url: [normalised.error] });
      if (/^[\d.]+$|^\[/.test(normalised.host)) {
        const verdict = classifyAddress(normalised.host);
        if (verdict === 'private' || (verdict === 'loopback' && !config.outboundAllowLoopback)) throw validationFailed({ url: ['The url must point to a public address.'] });
      }
      const { plan, user } = ctx.state;
      let credentials: ScanCredentials | null = null;
      if (body.auth) {
        if (body.auth.type === 'header' && FORBIDDEN_HEADERS.test(body.auth.header_name!)) {
          throw validationFailed({ 'auth.header_name': [`The auth.header_name may not be ${body.auth.header_name}.`] });
        }
        credentials = body.auth.type === 'basic'
          ? { type: 'basic', username: body.auth.username!, password: body.auth.password! }
          : { type: 'header', header_name: body.auth.header_name!, header_value: body.auth.header_value! };
      }
      const now = clock();
      const outcome = await createOrReuseScan(
        knex,
        { userId: user.id, plan, url: normalised.url, host: normalised.host, region: body.region ?? config.regions.default, isPublic: body.public ?? false, force: body.force ?? false, auth: credentials },
        now,
        config.keys,
      );
      if (outcome.kind === 'hourly_limit') {
        throw new HttpError(
          429,
          { message: `Hourly scan limit reached (${outcome.limit} scans per hour on your plan).`, error: 'hourly_scan_limit', limit: outcome.limit, reset_at: isoTimestamp(outcome.resetAt) },
          { 'Retry-After': String(Math.max(1, Math.ceil((outcome.resetAt.getTime() - now.getTime()) / 1000))) },
        );
      }
      if (outcome.kind === 'created') {
        try {
          // Bounded: with Temporal away, the client would keep retrying while the caller waits.
          await temporal.connection.withDeadline(Date.now() + START_DEADLINE_MS, () => temporal.workflow.start('scanWorkflow', {
            workflowId: scanWorkflowId(outcome.scan.public_id),
            taskQueue: mainTaskQueue(config.temporal.taskQueuePrefix),
            args: [{ publicId: outcome.scan.public_id, scanTaskQueue: scanTaskQueue(config.temporal.taskQueuePrefix, outcome.scan.region) }],
            typedSearchAttributes: [
              { key: ScanIdAttribute, value: outcome.scan.public_id },
              { key: HostAttribute, value: outcome.scan.host },
            ],
          }));
        } catch (error) {
          await markFailed(knex, outcome.scan.public_id, 'not_started', `Temporal did not start the workflow: ${describeError(error)}`, clock());
          throw new HttpError(503, { message: 'Scans cannot be started right now; try again shortly.' }, { 'Retry-After': '30' }, error);
        }
      }
      const cached = outcome.kind === 'cached';
      ctx.status = cached ? 200 : 202;
      ctx.body = { data: creationView(outcome.scan, cached) };
    },
  };

  const detail: ApiRoute = {
    method: 'get',
    path: '/scans/:id',
    tag: 'Scans',
    summary: 'One scan by public_id: the running, finished or failed shape.',
    params: idParam,
    responses: { 200: { description: 'The scan.', schema: envelope(scanDetailSchema) } },
    async handle(ctx, { params }) {
      const scan = await findUserScan(knex, ctx.state.user.id, params.id!);
      if (!scan) throw notFound();
      ctx.body = { data: detailView(scan, viewContext(ctx)) };
    },
  };

  const share = (enabled: boolean): ApiRoute => ({
    method: 'post',
    path: `/scans/:id/share/${enabled ? 'enable' : 'disable'}`,
    tag: 'Share links',
    summary: enabled ? 'Enable the share link (Starter plan or higher); the same URL every time.' : 'Disable the share link; the token is kept for re-enabling.',
    params: idParam,
    body: { type: 'object', additionalProperties: false, properties: {}, description: 'No fields; send no body or `{}`.' },
    responses: { 200: { description: 'Sharing state.', schema: envelope(shareStateSchema) } },
    async handle(ctx, { params }) {
      const scan = await findUserScan(knex, ctx.state.user.id, params.id!);
      if (!scan) throw notFound();
      if (enabled && !hasFeature(ctx.state.plan, 'share_links')) throw featureRequired('share_links', 'Share links');
      const updated = await setSharing(knex, scan, enabled);
      ctx.body = { data: enabled ? { share_enabled: true, share_url: shareUrl(config.baseUrl, updated) } : { share_enabled: false } };
    },
  });

  return [list, create, detail, share(true), share(false)];
}
