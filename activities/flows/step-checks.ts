/**
 * What a flow's steps decide outside the browser, shared by the runner's steps (flow-steps.ts) and the flow
 * replay runner (fixtures/flow-replay-runner.ts): the failure a step ends a run with, a navigation's host, a
 * document that did not load or answered with an HTTP error, and what a `type` step with a secret types where.
 */
import {
  BLOCKED_ADDRESS_MESSAGE,
  startOrigin,
  type FlowFailure,
  type FlowRunInput,
  type FlowStep,
} from '../../core/flows/flow.ts';
import { totpCode } from '../../core/flows/totp.ts';
import type { EgressProxy } from '../lighthouse/egress-proxy.ts';
import { checkScannedHost, PageFailureError } from '../lighthouse/page-failures.ts';

export class FlowStepError extends Error {
  readonly code: FlowFailure['code'];
  constructor(code: FlowFailure['code'], message: string) {
    super(message);
    this.code = code;
  }
}

/** The failure a step that threw ends the run with (without its screenshot): its own code, or by the step's type. */
export function stepFailure(error: unknown, index: number, input: FlowRunInput): Omit<FlowFailure, 'screenshot'> {
  const step_type = input.definition.steps[index]!.type;
  if (error instanceof FlowStepError) return { index, step_type, code: error.code, message: error.message };
  const message = error instanceof Error ? error.message : String(error);
  return { index, step_type, code: step_type === 'navigate' ? 'navigation_failed' : 'step_error', message };
}

/** A navigation's host, checked as a scan's is before the browser goes there. */
export async function checkNavigationHost(url: string, allowLoopback: boolean): Promise<void> {
  try {
    await checkScannedHost(url, allowLoopback);
  } catch (error) {
    if (!(error instanceof PageFailureError)) throw error;
    if (error.code === 'blocked_address') throw new FlowStepError('blocked_address', BLOCKED_ADDRESS_MESSAGE);
    throw new FlowStepError('navigation_failed', error.message);
  }
}

/** A main-frame document that did not load: refused by the egress proxy (it knows why), or unreachable. */
export function documentNotLoaded(proxy: EgressProxy, url: string, errorText: string): FlowStepError {
  const refused = proxy.failureFor(url);
  if (refused?.code === 'blocked_address') return new FlowStepError('blocked_address', BLOCKED_ADDRESS_MESSAGE);
  return new FlowStepError('navigation_failed', refused?.message ?? `${url} did not load (${errorText})`);
}

/** A navigation whose document answered with an HTTP error. */
export const documentHttpError = (url: string, status: number): FlowStepError =>
  new FlowStepError('navigation_failed', `${url} answered HTTP ${status}`);

/**
 * What a `type` step with a secret types on the page at `pageUrl`: the secret's value, or a TOTP seed's code at
 * `now` (`code: true`: a value that is not stored, which the runner adds to what it scrubs). Refuses a secret the
 * flow does not have, and a page on an origin other than the flow's start origin or the one the step names.
 */
export function secretToType(
  step: Extract<FlowStep, { secret: string }>,
  input: FlowRunInput,
  pageUrl: string,
  now: number,
): { text: string; code: boolean } {
  const secret = input.secrets[step.secret];
  if (!secret) throw new FlowStepError('step_error', `the flow has no secret named ${JSON.stringify(step.secret)}`);
  // Checked on the element's page, once it is there: the page the value is about to go to.
  const allowed = new Set([startOrigin(input.definition)].filter((o): o is string => o !== null));
  if (step.secret_origin) allowed.add(new URL(step.secret_origin).origin);
  const origin = new URL(pageUrl).origin;
  if (!allowed.has(origin))
    throw new FlowStepError(
      'secret_origin',
      `the secret ${JSON.stringify(step.secret)} is typed only on ${[...allowed].join(' or ')}, and the page is on ${origin}`,
    );
  return secret.kind === 'totp'
    ? { text: totpCode(secret.value, now), code: true }
    : { text: secret.value, code: false };
}
