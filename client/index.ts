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
  /** The longest wait for one retry; a longer `Retry-After` (the daily limit's reset) is returned at once (default 60 s). */
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
    fetch: politeFetch({ fetch: options.fetch ?? globalThis.fetch, retries: options.retries ?? 3, maxWaitMs: options.maxRetryWaitMs ?? 60_000, onRetry: options.onRetry }),
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

/** An error answer of the API, with what each status carries: `errors` (422), `required_plan` (403), `resetAt` and `retryAfterSeconds` (429). */
export class WebPerfApiError extends Error {
  readonly status: number;
  readonly body: unknown;
  /** 422: the messages by field. */
  readonly fieldErrors: Record<string, string[]>;
  /** 403: the cheapest plan that allows the call. */
  readonly requiredPlan: string | null;
  /** 429 (daily limit): when the limit resets. */
  readonly resetAt: Date | null;
  /** 429 and 503: the server's Retry-After, in seconds. */
  readonly retryAfterSeconds: number | null;

  constructor(response: Response, body: unknown) {
    const record = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
    const message = typeof record.message === 'string' ? record.message : typeof record.error === 'string' ? record.error : `HTTP ${response.status}`;
    super(message);
    this.name = 'WebPerfApiError';
    this.status = response.status;
    this.body = body;
    this.fieldErrors = (record.errors as Record<string, string[]> | undefined) ?? {};
    this.requiredPlan = typeof record.required_plan === 'string' ? record.required_plan : null;
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
export async function* paginate<T>(fetchPage: (page: number) => Promise<{ data?: Page<T>; error?: unknown; response: Response }>): AsyncGenerator<T> {
  for (let page = 1; ; page++) {
    const body = unwrap(await fetchPage(page));
    yield* body.data;
    if (!body.meta || page >= body.meta.last_page) return;
  }
}
