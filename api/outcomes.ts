import type { Plan } from '../core/plans.ts';
import {
  DEPENDENCY_RETRY_AFTER_S,
  notFound,
  planLimitReached,
  upgradeRequired,
  serviceUnavailable,
  validationFailed,
  type HttpError,
} from '../http/errors.ts';

/** The failures the resource services (targets, live-data sites, their alerts) share, each with one HTTP answer. */
export type ServiceFailure =
  | { kind: 'invalid'; errors: Record<string, string[]> }
  | { kind: 'not_found' }
  | { kind: 'plan_limit'; limit: number; plan: Plan; upgrade: Plan | undefined }
  | { kind: 'plan_required'; plan: Plan; needed: Plan }
  | { kind: 'schedule_unavailable'; cause: unknown };

/** What the messages call the resource: "monitored targets", "live-data sites". */
export interface ResourceWords {
  things: string;
  /** The feature a `plan_required` names: "Live data". */
  feature?: string;
}

export function failureError(failure: ServiceFailure, words: ResourceWords): HttpError {
  switch (failure.kind) {
    case 'invalid':
      return validationFailed(failure.errors);
    case 'not_found':
      return notFound();
    case 'plan_limit':
      return planLimitReached(failure, words.things);
    case 'plan_required':
      return upgradeRequired(
        failure.needed,
        (needed) =>
          `${words.feature ?? words.things} needs the ${needed.label} plan or higher. Your plan is ${failure.plan.label}.`,
      );
    case 'schedule_unavailable':
      return serviceUnavailable(
        `${capitalised(words.things)} cannot be changed right now; try again shortly.`,
        DEPENDENCY_RETRY_AFTER_S,
        failure.cause,
      );
  }
}

/** The outcome when it succeeded; otherwise its failure's HTTP error, thrown. */
export function okOrThrow<Ok extends { kind: 'ok' }>(outcome: Ok | ServiceFailure, words: ResourceWords): Ok {
  if (outcome.kind === 'ok') return outcome as Ok;
  throw failureError(outcome as ServiceFailure, words);
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
