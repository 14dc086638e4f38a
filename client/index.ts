import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './schema.ts';
import { politeFetch, type RetryNotice } from './retry.ts';

export type { components, paths } from './schema.ts';
export type { RetryNotice } from './retry.ts';

export interface WebPerfClientOptions {
  /** The service's address (`https://perf.example.com`); the API is under /api/v1. */
  baseUrl: string;
  /** A personal API token (`wpt_…`) or an OAuth access token. */
  token: string;
  /** Retries of a 429 or 503 answer, waiting as `Retry-After` says (default 3). */
  retries?: number;
  /** The longest wait for one retry; a longer `Retry-After` (a daily or hourly limit's reset) is returned at once (default 60 s). */
  maxRetryWaitMs?: number;
  onRetry?: (notice: RetryNotice) => void;
  userAgent?: string;
  fetch?: typeof fetch;
}

export type WebPerfClient = Client<paths>;

/**
 * A typed client of the REST API (openapi-fetch over the generated types in schema.ts): every path, parameter,
 * body and response is checked by TypeScript. Calls answer `{ data, error, response }`; `unwrap` turns an
 * error answer into a thrown `WebPerfApiError`. 429 and 503 are retried politely (see retry.ts).
 */
export function createWebPerfClient(options: WebPerfClientOptions): WebPerfClient {
  return createClient<paths>({
    baseUrl: `${options.baseUrl.replace(/\/+$/, '')}/api/v1`,
    headers: { authorization: `Bearer ${options.token}`, 'user-agent': options.userAgent ?? 'webperf-client/1.0' },
    fetch: politeFetch({
      fetch: options.fetch ?? globalThis.fetch,
      retries: options.retries ?? 3,
      maxWaitMs: options.maxRetryWaitMs ?? 60_000,
      onRetry: options.onRetry,
    }),
  });
}

type Schemas = components['schemas'];
/** The error bodies the API answers with, by status. */
export interface ApiErrorBodies {
  401: Schemas['Message'];
  403: Schemas['PlanError'];
  404: Schemas['Message'];
  422: Schemas['ValidationError'];
  429: Schemas['DailyLimitError'] | Schemas['Message'];
  500: Schemas['ServerError'];
}

/**
 * Which limit a 429 is about, from its body: the daily API request limit (`error` is its message, e.g. "Daily
 * API request limit exceeded."), the hourly scan limit of POST /scans (`error: "hourly_scan_limit"`, with a
 * `message`), or one the client does not know (`other`). `max` is the body's `limit` when it has one.
 */
export interface RateLimit {
  kind: 'daily_requests' | 'hourly_scans' | 'other';
  max: number | null;
}

const rateLimitOf = (status: number, record: Record<string, unknown>): RateLimit | null => {
  if (status !== 429) return null;
  const max = typeof record.limit === 'number' ? record.limit : null;
  if (record.error === 'hourly_scan_limit') return { kind: 'hourly_scans', max };
  if (typeof record.error === 'string' && /\bdaily\b/i.test(record.error)) return { kind: 'daily_requests', max };
  return { kind: 'other', max };
};

/** An error answer of the API, with what each status carries: `errors` (422), `required_plan` (403), `rateLimit`, `resetAt` and `retryAfterSeconds` (429). */
export class WebPerfApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** 422: the messages by field. */
  readonly fieldErrors: Record<string, string[]>;
  /** 403: the cheapest plan that allows the call. */
  readonly requiredPlan: string | null;
  /** 429: which limit was reached (daily API requests or hourly scans), and its size. */
  readonly rateLimit: RateLimit | null;
  /** 429: when the limit lets the next call (or scan) through, from the body's `reset_at`. */
  readonly resetAt: Date | null;
  /** 429 and 503: the server's Retry-After, in seconds. */
  readonly retryAfterSeconds: number | null;

  constructor(response: Response, body: unknown) {
    const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const message =
      typeof record.message === 'string'
        ? record.message
        : typeof record.error === 'string'
          ? record.error
          : `HTTP ${response.status}`;
    super(message);
    this.name = 'WebPerfApiError';
    this.status = response.status;
    this.body = body;
    this.fieldErrors = (record.errors as Record<string, string[]> | undefined) ?? {};
    this.requiredPlan = typeof record.required_plan === 'string' ? record.required_plan : null;
    this.rateLimit = rateLimitOf(response.status, record);
    this.resetAt = typeof record.reset_at === 'string' ? new Date(record.reset_at) : null;
    const retryAfter = response.headers.get('retry-after');
    this.retryAfterSeconds = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  }
}

/** The data of a successful call, or a thrown WebPerfApiError. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) throw new WebPerfApiError(result.response, result.error);
  return result.data;
}

interface Page<T> {
  data: T[];
  meta?: { current_page: number; last_page: number };
}

/**
 * Every item of a paginated list, page after page: `fetchPage(page)` makes the call (typed by the caller, e.g.
 * `(page) => client.GET('/scans', { params: { query: { page, limit: 100 } } })`).
 */
export async function* paginate<T>(
  fetchPage: (page: number) => Promise<{ data?: Page<T>; error?: unknown; response: Response }>,
): AsyncGenerator<T> {
  for (let page = 1; ; page++) {
    const body = unwrap(await fetchPage(page));
    yield* body.data;
    if (!body.meta || page >= body.meta.last_page) return;
  }
}
