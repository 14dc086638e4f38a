import type { FailedStep, FlowDefinition, FlowStep } from './flow.ts';
import { normaliseScanUrl } from '../url.ts';

/** A secret's name as steps refer to it and PUT /flows/{id}/secrets/{name} sets it. */
export const SECRET_NAME_PATTERN = '^[a-z][a-z0-9_]{0,39}$';
export const MAX_SELECTOR_CHARS = 1000;
export const MAX_TEXT_CHARS = 2000;
export const MAX_SECRET_CHARS = 1000;
export const MAX_FLOW_NAME_CHARS = 120;

export type StepsCheck = { ok: true; steps: FlowStep[] } | { ok: false; errors: Record<string, string[]> };

/**
 * The rules a flow's steps follow beyond their shape (the API's schema checks that): the first step is a
 * `navigate` (it opens the page and fixes the origin secrets go to); every URL is normalised like a scan's;
 * `secret_origin` is an http(s) origin; `end_timespan` closes a timespan that is open. Answers the steps
 * normalised, or the errors by field (`steps.3.url`).
 */
export function checkSteps(steps: FlowStep[]): StepsCheck {
  const errors: Record<string, string[]> = {};
  const fail = (field: string, message: string) => (errors[field] ??= []).push(message);
  if (steps.length === 0) fail('steps', 'The steps must have at least 1 items.');
  else if (steps[0]!.type !== 'navigate') fail('steps.0.type', 'The first step must be a navigate step.');
  let timespanOpen = false;
  const normalised = steps.map((step, i): FlowStep => {
    switch (step.type) {
      case 'navigate': {
        timespanOpen = false;
        const url = normaliseScanUrl(step.url);
        if (!url.ok) {
          fail(`steps.${i}.url`, url.error);
          return step;
        }
        return { ...step, url: url.url };
      }
      case 'start_timespan':
        timespanOpen = true;
        return step;
      case 'snapshot':
        timespanOpen = false;
        return step;
      case 'end_timespan':
        if (!timespanOpen) fail(`steps.${i}.type`, 'An end_timespan step must follow a start_timespan step.');
        timespanOpen = false;
        return step;
      case 'type': {
        if (!('secret' in step) || step.secret_origin === undefined) return step;
        const origin = originOf(step.secret_origin);
        if (!origin) {
          fail(`steps.${i}.secret_origin`, 'The secret_origin must be an http:// or https:// origin.');
          return step;
        }
        return { ...step, secret_origin: origin };
      }
      default:
        return step;
    }
  });
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, steps: normalised };
}

function originOf(text: string): string | null {
  const url = normaliseScanUrl(text);
  return url.ok ? new URL(url.url).origin : null;
}

/** How a step is named in a failure: a measured step by its name, an action by what it does. */
export function describeStep(step: FlowStep | undefined): string {
  if (!step) return 'the run';
  switch (step.type) {
    case 'navigate':
      return step.name ?? step.url;
    case 'start_timespan':
    case 'snapshot':
      return step.name;
    case 'end_timespan':
      return 'end of timespan';
    case 'click':
      return `click ${step.selector}`;
    case 'type':
      return 'secret' in step ? `type secret "${step.secret}" into ${step.selector}` : `type into ${step.selector}`;
    case 'select':
      return `select in ${step.selector}`;
    case 'wait_for_selector':
      return `wait for ${step.selector}`;
    case 'wait_for_navigation':
      return 'wait for navigation';
  }
}

/** A stored failure of a run of `definition`, with its step in words. */
export function failedStep(failure: Omit<FailedStep, 'step'>, definition: FlowDefinition): FailedStep {
  const { index, step_type, code, message } = failure;
  return { index, step_type, step: describeStep(index === null ? undefined : definition.steps[index]), code, message };
}
