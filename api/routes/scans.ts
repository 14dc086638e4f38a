import type { Client } from '@temporalio/client';
import type { Clock } from '../../core/clock.ts';
import { isoTimestamp } from '../../core/clock.ts';
import type { Config } from '../../infra/config.ts';
import { negotiateLocale } from '../../core/i18n/locale.ts';
import { PUBLIC_ID_PATTERN } from '../../core/ids.ts';
import { hasFeature, PLAN_KEYS, PLANS } from '../../core/plans.ts';
import { MAX_RUNS } from '../../core/scan/lifecycle.ts';
import { shareRefusal, type Scan, type ScanStatus, type ShareRefusal } from '../../core/scan/scan.ts';
import type { ScanStore } from '../../db/store/scans.ts';
import {
  DEPENDENCY_RETRY_AFTER_S,
  type HttpError,
  notFound,
  planRequired,
  serviceUnavailable,
  tooManyRequests,
  upgradeRequired,
  validationFailed,
} from '../../http/errors.ts';
import { submitScan, type ScanSubmission } from '../../services/scan-submission.ts';
import { setSharing } from '../../services/scans.ts';
import { compareWithPrevious } from '../../services/scan-comparison.ts';
import { pageMetaSchema, pageQuerySchema, type PageQuery } from '../pagination.ts';
import type { ApiContext, ApiRoute, AnyRoute, RouteInput } from '../route.ts';
import { recordLogIds } from '../../http/middleware.ts';
import { envelope, type JsonSchema } from '../validation.ts';
import { creationView, detailView, listItemView, shareUrl, type ViewContext } from '../views/scans.ts';
import { previousView } from '../views/scan-previous.ts';
import { scanCreationSchema, scanDetailSchema, scanListItemSchema, shareStateSchema } from '../views/scan-schemas.ts';

export interface ScanRouteDeps {
  scans: ScanStore;
  temporal: Client;
  config: Config;
  clock: Clock;
}

const STATUSES = ['queued', 'running', 'finished', 'failed'] as const;
const idParam = { id: { pattern: PUBLIC_ID_PATTERN, description: 'The scan public_id.', logAs: 'scanId' as const } };

// Credentials become an HTTP header: RFC 9110 field syntax, so nothing can end the header or start another.
const HEADER_NAME = "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$";
const HEADER_VALUE = '^[\\x21-\\x7E](?:[\\t\\x20-\\x7E]*[\\x21-\\x7E])?$';
// Basic credentials are base64-encoded, so any text is safe on the wire; control characters and, in the
// user name, the colon that separates it from the password are refused (RFC 7617).
const BASIC_USERNAME = '^[^\\x00-\\x1F\\x7F-\\x9F:]+$';
const BASIC_PASSWORD = '^[^\\x00-\\x1F\\x7F-\\x9F]*$';

// The spec leaves this body open; it follows the daily limit's shape, with a sentence and its own error code.
export const hourlyScanLimitSchema: JsonSchema = {
  type: 'object',
  required: ['message', 'error', 'limit', 'reset_at'],
  properties: {
    message: { type: 'string' },
    error: { const: 'hourly_scan_limit' },
    limit: { type: 'integer' },
    reset_at: { type: 'string', format: 'date-time' },
  },
};

function createBodySchema(regions: string[]): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['url'],
    properties: {
      url: {
        type: 'string',
        minLength: 1,
        maxLength: 8192,
        description: 'http(s) URL; normalised (see docs/scans-and-scoring.md).',
      },
      region: { type: 'string', enum: regions, description: 'Scan location code.' },
      public: { type: 'boolean', default: false },
      force: { type: 'boolean', default: false },
      runs: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RUNS,
        default: 1,
        description: `Extension: page loads per form factor, each in a fresh browser profile; the result is the median run (closest to the median FCP and TTI, as Lighthouse CI picks it), every run is listed in \`result.runs\`. Plans allow up to: ${PLAN_KEYS.map((key) => `${PLANS[key].label} ${PLANS[key].maxRunsPerScan}`).join(', ')} (403 with \`required_plan\` above that). A cached result is reused only if it had at least as many runs.`,
      },
      auth: {
        type: 'object',
        additionalProperties: false,
        required: ['type'],
        description:
          'Credentials for protected pages (Pro plan or higher). Sent only to the scanned origin; never returned.',
        examples: [{ type: 'basic', username: 'preview', password: 'staging-password' }],
        properties: {
          type: { type: 'string', enum: ['basic', 'header'] },
          username: {
            type: 'string',
            minLength: 1,
            maxLength: 256,
            pattern: BASIC_USERNAME,
            description: 'No control characters and no colon (RFC 7617).',
          },
          password: { type: 'string', maxLength: 1024, pattern: BASIC_PASSWORD, description: 'No control characters.' },
          header_name: {
            type: 'string',
            minLength: 1,
            maxLength: 100,
            pattern: HEADER_NAME,
            description: 'An HTTP field name (an RFC 9110 token).',
          },
          header_value: {
            type: 'string',
            minLength: 1,
            maxLength: 4096,
            pattern: HEADER_VALUE,
            description:
              'Visible ASCII characters, with spaces and tabs only between them (RFC 9110 field value; no CR, LF or other control characters).',
          },
        },
        allOf: [
          { if: { properties: { type: { const: 'basic' } } }, then: { required: ['username', 'password'] } },
          { if: { properties: { type: { const: 'header' } } }, then: { required: ['header_name', 'header_value'] } },
        ],
      },
    },
  };
}

/** Every /scans endpoint: the router mounts these objects and the OpenAPI document is built from them. */
export function scanRoutes(deps: ScanRouteDeps): AnyRoute[] {
  const list: ApiRoute<ListQuery> = {
    method: 'get',
    path: '/scans',
    tag: 'Scans',
    summary: "The caller's scans, newest first.",
    query: {
      ...pageQuerySchema({ max: 50, default: 20 }),
      domain: { type: 'string', maxLength: 2048, description: 'Only scans whose URL contains this text.' },
      status: { type: 'string', enum: [...STATUSES] },
    },
    responses: {
      200: {
        description: 'A page of scans; `result` carries only `scores`.',
        schema: envelope({ type: 'array', items: scanListItemSchema }, pageMetaSchema),
      },
    },
    handle: (ctx, input) => listScans(deps, ctx, input),
  };

  const create: ApiRoute<Record<string, never>, ScanSubmission> = {
    method: 'post',
    path: '/scans',
    tag: 'Scans',
    summary: 'Start a scan, or get the result of one under 24 hours old for the same URL and region.',
    description:
      '202 with `cached: false` for a new scan (or one already queued/running for the same URL and region); 200 with `cached: true` for a finished result under 24 hours old, unless `force` is true. Results are reused only within one account, never across accounts, and never for authenticated scans. 429 when the hourly scan limit of the plan is reached.',
    body: createBodySchema(deps.config.regions.available),
    guard: refuseAuthWithoutPlan,
    responses: {
      200: { description: 'Cached result.', schema: envelope(scanCreationSchema) },
      202: { description: 'Scan queued.', schema: envelope(scanCreationSchema) },
      429: {
        description:
          'The hourly scan limit of the plan (`error: "hourly_scan_limit"`, with `Retry-After`), or the daily API limit.',
        schema: hourlyScanLimitSchema,
      },
    },
    handle: (ctx, input) => createScan(deps, ctx, input),
  };

  const detail: ApiRoute = {
    method: 'get',
    path: '/scans/:id',
    tag: 'Scans',
    summary: 'One scan by public_id: the running, finished or failed shape.',
    params: idParam,
    responses: { 200: { description: 'The scan.', schema: envelope(scanDetailSchema) } },
    handle: (ctx, input) => showScan(deps, ctx, input),
  };

  const share = (enabled: boolean): ApiRoute => ({
    method: 'post',
    path: `/scans/:id/share/${enabled ? 'enable' : 'disable'}`,
    tag: 'Share links',
    summary: enabled
      ? 'Enable the share link (Starter plan or higher); the same URL every time.'
      : 'Disable the share link; the token is kept for re-enabling.',
    params: idParam,
    body: {
      type: 'object',
      additionalProperties: false,
      properties: {},
      description: 'No fields; send no body or `{}`.',
    },
    responses: enabled
      ? {
          200: { description: 'Sharing state.', schema: envelope(shareStateSchema) },
          422: {
            description:
              'A scan made with credentials whose stored result was not found free of them (in every encoding the redaction rule knows), or was stored without that check: `errors.scan`.',
          },
        }
      : { 200: { description: 'Sharing state.', schema: envelope(shareStateSchema) } },
    handle: (ctx, input) => (enabled ? enableSharing : disableSharing)(deps, ctx, input),
  });

  return [list, create, detail, share(true), share(false)];
}

type ListQuery = PageQuery & { domain?: string; status?: ScanStatus };

const viewContext = (deps: ScanRouteDeps, ctx: ApiContext): ViewContext => ({
  baseUrl: deps.config.baseUrl,
  keys: deps.config.keys,
  locale: negotiateLocale(ctx.get('accept-language')),
  now: deps.clock(),
});

async function listScans(
  deps: ScanRouteDeps,
  ctx: ApiContext,
  { query }: RouteInput<ListQuery, undefined>,
): Promise<void> {
  const { items, meta } = await deps.scans.listOwned(
    ctx.state.user.id,
    { domain: query.domain, status: query.status },
    { limit: query.limit, page: query.page },
  );
  const view = viewContext(deps, ctx);
  ctx.body = { data: items.map((scan) => listItemView(scan, view)), meta };
}

/** The spec: "When the plan lacks the scan_auth feature and auth is sent, the response is 403", whatever else is wrong. */
function refuseAuthWithoutPlan(ctx: ApiContext, rawBody: unknown): void {
  if (
    typeof rawBody === 'object' &&
    rawBody !== null &&
    'auth' in rawBody &&
    !hasFeature(ctx.state.plan, 'scan_auth')
  ) {
    throw planRequired('scan_auth', (needed) => `Authenticated scans need the ${needed.label} plan or higher.`);
  }
}

async function createScan(
  deps: ScanRouteDeps,
  ctx: ApiContext,
  { body }: RouteInput<Record<string, never>, ScanSubmission>,
): Promise<void> {
  const now = deps.clock();
  const outcome = await submitScan(deps, { id: ctx.state.user.id, plan: ctx.state.plan }, body);
  switch (outcome.kind) {
    case 'invalid':
      throw validationFailed(outcome.errors);
    case 'hourly_limit':
      throw hourlyScanLimitError(outcome, now);
    case 'runs_over_plan':
      throw upgradeRequired(
        outcome.needed,
        (needed) =>
          `${outcome.runs} runs per scan need the ${needed.label} plan or higher (your plan allows ${outcome.allowed}).`,
      );
    case 'not_started':
      throw scanNotStarted(outcome.cause);
    case 'accepted':
      answerScanCreated(ctx, outcome.scan, outcome.cached);
  }
}

/** A scan Temporal did not take (it is recorded as failed and not counted): 503 with Retry-After. POST /scans and run now. */
export const scanNotStarted = (cause: unknown): HttpError =>
  serviceUnavailable('The scan cannot be started right now; try again shortly.', DEPENDENCY_RETRY_AFTER_S, cause);

/** The creation answer of POST /scans and run now: 202 for a queued or running scan, 200 for a reused result. */
export function answerScanCreated(ctx: ApiContext, scan: Scan, cached: boolean): void {
  // The access log line carries the scan id, which the worker's lines carry too: one id joins them.
  recordLogIds(ctx, { scanId: scan.publicId });
  ctx.status = cached ? 200 : 202;
  ctx.body = { data: creationView(scan, cached) };
}

/** The hourly scan limit's 429 (`hourlyScanLimitSchema`, with Retry-After): POST /scans and a target's run now. */
export function hourlyScanLimitError(outcome: { limit: number; resetAt: Date }, now: Date): HttpError {
  return tooManyRequests(
    {
      message: `Hourly scan limit reached (${outcome.limit} scans per hour on your plan).`,
      error: 'hourly_scan_limit',
      limit: outcome.limit,
      reset_at: isoTimestamp(outcome.resetAt),
    },
    outcome.resetAt,
    now,
  );
}

async function showScan(
  deps: ScanRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const scan = await deps.scans.findOwned(ctx.state.user.id, params.id!);
  if (!scan) throw notFound();
  const view = viewContext(deps, ctx);
  const detail = detailView(scan, view);
  // A finished scan's extension `previous`: its comparison with the previous scan of its URL, or null.
  if (scan.status !== 'finished') ctx.body = { data: detail };
  else {
    const comparison = await compareWithPrevious(deps.scans, scan, 'owner');
    ctx.body = { data: { ...detail, previous: previousView(comparison, scan.publicId, view) } };
  }
}

const SHARE_REFUSED: Record<ShareRefusal, string> = {
  credentials_found:
    'This scan was made with credentials and what was stored of it still contains them in some encoding; it cannot be shared.',
  credentials_unchecked:
    'This scan was made with credentials and what was stored of it was not checked for them; it cannot be shared.',
};
const SHARED_SIGNED_IN =
  'This scan was made with credentials: the shared report shows the page as a signed-in visitor saw it, and its screenshots are not redacted.';

async function enableSharing(
  deps: ScanRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const scan = await deps.scans.findOwned(ctx.state.user.id, params.id!);
  if (!scan) throw notFound();
  if (!hasFeature(ctx.state.plan, 'share_links'))
    throw planRequired('share_links', (needed) => `Share links need the ${needed.label} plan or higher.`);
  const refusal = shareRefusal(scan);
  if (refusal) throw validationFailed({ scan: [SHARE_REFUSED[refusal]] });
  const updated = await setSharing(deps.scans, scan, true);
  ctx.body = {
    data: {
      share_enabled: true,
      share_url: shareUrl(deps.config.baseUrl, updated),
      ...(scan.authType ? { signed_in: SHARED_SIGNED_IN } : {}),
    },
  };
}

async function disableSharing(
  deps: ScanRouteDeps,
  ctx: ApiContext,
  { params }: RouteInput<Record<string, unknown>, undefined>,
): Promise<void> {
  const scan = await deps.scans.findOwned(ctx.state.user.id, params.id!);
  if (!scan) throw notFound();
  await setSharing(deps.scans, scan, false);
  ctx.body = { data: { share_enabled: false } };
}
