/** One wait before a retry, for logging or a progress line. */
export interface RetryNotice {
  status: number;
  attempt: number;
  waitMs: number;
  url: string;
}

const RETRIED = new Set([429, 503]);

/** Retry-After as milliseconds: delta-seconds or an HTTP date; null when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim()) * 1000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/**
 * fetch that retries a 429 or 503 answer up to `retries` times, waiting as Retry-After says (1 s, 2 s, 4 s …
 * without one). A wait longer than `maxWaitMs` (the daily limit's reset at midnight) is not waited for: that
 * answer is returned as it is. The request is cloned for each attempt, so bodies are sent again intact.
 */
export function politeFetch(options: {
  fetch: typeof fetch;
  retries: number;
  maxWaitMs: number;
  onRetry?: (notice: RetryNotice) => void;
}): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 1; ; attempt++) {
      const response = await options.fetch(request.clone());
      if (!RETRIED.has(response.status) || attempt > options.retries) return response;
      const waitMs = retryAfterMs(response.headers.get('retry-after')) ?? 1000 * 2 ** (attempt - 1);
      if (waitMs > options.maxWaitMs) return response;
      options.onRetry?.({ status: response.status, attempt, waitMs, url: request.url });
      await response.body?.cancel();
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
}
