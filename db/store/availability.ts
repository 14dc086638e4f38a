/** Telling "Postgres cannot be reached" from "the query was wrong", for callers that wait out an outage. */

// Network failures, Postgres's connection-exception class (08xxx), shutdown or not yet accepting (57P0x), too many connections.
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Timeout acquiring a connection|Client has encountered a connection error|Connection ended/i;

/** True when an error (or one it wraps, as its cause) says Postgres cannot be reached, not that a query was wrong. */
export function isDatabaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const { code, message, name, nativeError, cause } = current as {
      code?: unknown;
      message?: unknown;
      name?: unknown;
      nativeError?: unknown;
      cause?: unknown;
    };
    if (name === 'KnexTimeoutError') return true;
    if (typeof code === 'string' && (UNAVAILABLE_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message)) return true;
    current = nativeError ?? cause;
  }
  return false;
}

/**
 * Runs a database step, and again (with backoff) while Postgres cannot be reached, until `waitMs` has
 * passed; any other error is thrown at once. `onUnavailable` hears of the first failure.
 */
export async function retryWhileDatabaseUnavailable<T>(
  step: () => Promise<T>,
  options: { waitMs: number; sleep: (ms: number) => Promise<void>; onUnavailable?: (error: unknown) => void },
): Promise<T> {
  const deadline = Date.now() + options.waitMs;
  for (let retry = 1; ; retry++) {
    try {
      return await step();
    } catch (error) {
      if (!isDatabaseUnavailable(error) || Date.now() > deadline) throw error;
      if (retry === 1) options.onUnavailable?.(error);
      await options.sleep(Math.min(5000, 250 * 2 ** retry));
    }
  }
}
