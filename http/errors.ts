import { cheapestPlanWith, type Feature, type Plan } from '../core/plans.ts';

/**
 * Errors that carry their HTTP status and a body in the spec's shapes; one middleware renders them (JSON for
 * the API, an HTML page for the web area). Shared by both areas, so neither imports the other.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}, cause?: unknown) {
    super(
      typeof body.message === 'string' ? body.message : `HTTP ${status}`,
      cause === undefined ? undefined : { cause },
    );
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export const notFound = (): HttpError => new HttpError(404, { message: 'Not found.' });
export const unauthenticated = (): HttpError => new HttpError(401, { message: 'Unauthenticated.' });
export const forbidden = (message: string): HttpError => new HttpError(403, { message });

/**
 * The 403 for a feature the caller's plan lacks: `{"message", "required_plan"}`, naming the cheapest plan
 * that has it. `message` words it for the caller, given that plan.
 */
export function planRequired(feature: Feature, message: (needed: Plan) => string): HttpError {
  return upgradeRequired(cheapestPlanWith(feature), message);
}

/** The same 403 for a limit rather than a feature: `needed` is the cheapest plan whose limit allows the request. */
export function upgradeRequired(needed: Plan, message: (needed: Plan) => string): HttpError {
  return new HttpError(403, { message: message(needed), required_plan: needed.key });
}

/**
 * The 403 for a plan's limit (as many targets as the plan keeps, say), in the same shape: `required_plan`
 * names the cheapest plan that allows more, and is left out when no plan does.
 */
export function planLimitReached(
  limit: { plan: Plan; limit: number; upgrade: Plan | undefined },
  things: string,
): HttpError {
  const message = limit.upgrade
    ? `Your plan (${limit.plan.label}) keeps at most ${limit.limit} ${things}. Upgrade to ${limit.upgrade.label} to keep more, or remove one first.`
    : `Your plan (${limit.plan.label}) keeps at most ${limit.limit} ${things}; remove one first.`;
  return new HttpError(403, limit.upgrade ? { message, required_plan: limit.upgrade.key } : { message });
}

export const validationFailed = (errors: Record<string, string[]>): HttpError =>
  new HttpError(422, { message: firstMessage(errors) ?? 'The given data was invalid.', errors });

function firstMessage(errors: Record<string, string[]>): string | undefined {
  const all = Object.values(errors).flat();
  if (all.length === 0) return undefined;
  return all.length === 1 ? all[0] : `${all[0]} (and ${all.length - 1} more error${all.length > 2 ? 's' : ''})`;
}

/** The `Retry-After` value (whole seconds, at least 1) for a limit that lifts at `until`. */
export const retryAfterSeconds = (until: Date, now: Date): number =>
  Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));

/**
 * Sets `Retry-After` on a response answered in place (a web form re-rendered with its status): `after` whole
 * seconds, or the seconds until a limit lifts at `until`. Returns the seconds, for the page to word them.
 */
export function setRetryAfter(
  ctx: { set(field: string, value: string): void },
  after: number | { until: Date; now: Date },
): number {
  const seconds = typeof after === 'number' ? Math.max(1, Math.ceil(after)) : retryAfterSeconds(after.until, after.now);
  ctx.set('Retry-After', String(seconds));
  return seconds;
}

/** How long a client should wait when a dependency (Temporal, ClickHouse) is away for now. */
export const DEPENDENCY_RETRY_AFTER_S = 30;

/** A 429 whose limit lifts at `until`: the body as given, plus `Retry-After` (and any other headers). */
export const tooManyRequests = (
  body: Record<string, unknown>,
  until: Date,
  now: Date,
  headers: Record<string, string> = {},
): HttpError => new HttpError(429, body, { ...headers, 'Retry-After': String(retryAfterSeconds(until, now)) });

/** A 503 for a dependency that is away for now: the client may retry after `retryAfterS` seconds. */
export const serviceUnavailable = (message: string, retryAfterS: number, cause?: unknown): HttpError =>
  new HttpError(503, { message }, { 'Retry-After': String(retryAfterS) }, cause);
