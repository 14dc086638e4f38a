import { cheapestPlanWith, type Feature } from '../core/plans.ts';

/** Errors that carry their HTTP status and a body in the spec's shapes; one middleware renders them. */
export class HttpError extends Error {
  readonly status: number;
  readonly body: Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}, cause?: unknown) {
    super(typeof body.message === 'string' ? body.message : `HTTP ${status}`, cause === undefined ? undefined : { cause });
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}

export const notFound = (): HttpError => new HttpError(404, { message: 'Not found.' });
export const unauthenticated = (): HttpError => new HttpError(401, { message: 'Unauthenticated.' });
export const forbidden = (message: string, extra: Record<string, unknown> = {}): HttpError => new HttpError(403, { message, ...extra });
/** 403 for a feature the caller's plan lacks, naming the cheapest plan that has it. */
export function featureRequired(feature: Feature, what: string): HttpError {
  const needed = cheapestPlanWith(feature);
  return forbidden(`${what} need the ${needed.label} plan or higher.`, { required_plan: needed.key });
}
export const validationFailed = (errors: Record<string, string[]>): HttpError =>
  new HttpError(422, { message: firstMessage(errors) ?? 'The given data was invalid.', errors });

function firstMessage(errors: Record<string, string[]>): string | undefined {
  const all = Object.values(errors).flat();
  if (all.length === 0) return undefined;
  return all.length === 1 ? all[0] : `${all[0]} (and ${all.length - 1} more error${all.length > 2 ? 's' : ''})`;
}
