/**
 * A flow's steps on one page, in order: the measurement markers through Lighthouse's user flow, the actions
 * through puppeteer. A step that cannot be done throws FlowStepError (step-checks.ts) with the failure's code;
 * the runner (flow-runner-process.ts) ends the run there.
 */
import type { UserFlow } from 'lighthouse/core/user-flow.js';
import { TimeoutError, type ElementHandle, type HTTPRequest, type Page } from 'puppeteer-core';
import type { FlowFailure, FlowRunInput, FlowStep } from '../../core/flows/flow.ts';
import type { EgressProxy } from '../lighthouse/egress-proxy.ts';
import { FLOW_TIMESPAN_CATEGORIES } from '../lighthouse/settings.ts';
import type { MeasuredStep } from './flow-results.ts';
import {
  checkNavigationHost,
  documentHttpError,
  documentNotLoaded,
  FlowStepError,
  secretToType,
} from './step-checks.ts';

/** How long an action waits for its element (click, type, select, wait_for_selector). */
export const ACTION_TIMEOUT_MS = 10_000;
/** How long wait_for_navigation waits for the page to load. */
export const NAVIGATION_TIMEOUT_MS = 30_000;
/**
 * Before a timespan ends: two frames and this long for the last interaction's paint to be presented. An
 * interaction is in the trace only once its next paint is, and on a busy machine that came after the trace
 * stopped (INP missing) without it.
 */
export const TIMESPAN_SETTLE_MS = 100;

export interface StepContext {
  page: Page;
  flow: UserFlow;
  proxy: EgressProxy;
  input: FlowRunInput;
  allowLoopback: boolean;
  /** The page as it is now, named for a step; null when it could not be taken. */
  screenshot(index: number): Promise<string | null>;
  /** Called with what is typed that is not a stored secret value (a TOTP code), before it is typed. */
  onTyped(value: string): void;
}

/** The page's URL without user name and password. */
function pageUrl(page: Page): string {
  try {
    const url = new URL(page.url());
    url.username = '';
    url.password = '';
    return url.href;
  } catch {
    return page.url();
  }
}

/** Turns puppeteer's timeouts into the flow's codes; anything else passes. */
async function withTimeouts<T>(action: Promise<T>, code: FlowFailure['code'], message: string): Promise<T> {
  try {
    return await action;
  } catch (error) {
    if (error instanceof TimeoutError) throw new FlowStepError(code, message);
    throw error;
  }
}

/** Resolves after two animation frames and TIMESPAN_SETTLE_MS (at most a second: a page may never paint). */
async function nextPaint(page: Page): Promise<void> {
  const painted = page
    .evaluate(
      (settleMs) =>
        new Promise<void>((resolve) => {
          const window = globalThis as unknown as { requestAnimationFrame(f: () => void): void };
          window.requestAnimationFrame(() => window.requestAnimationFrame(() => setTimeout(resolve, settleMs)));
        }),
      TIMESPAN_SETTLE_MS,
    )
    .catch(() => undefined);
  await Promise.race([painted, new Promise((resolve) => setTimeout(resolve, 1000))]);
}

const seconds = (ms: number) => `${ms / 1000} s`;

async function elementFor(page: Page, selector: string): Promise<ElementHandle> {
  return withTimeouts(
    page.locator(selector).setTimeout(ACTION_TIMEOUT_MS).waitHandle(),
    'selector_not_found',
    `no element matches ${JSON.stringify(selector)} within ${seconds(ACTION_TIMEOUT_MS)}`,
  );
}

/**
 * The last main-frame document that failed to load since `reset()`: refused by the egress proxy, unreachable,
 * or (for a navigate step) answered with an HTTP error.
 */
function documentWatch(page: Page) {
  let failed: { url: string; errorText: string } | null = null;
  let status: { url: string; code: number } | null = null;
  const isDocument = (request: HTTPRequest) => request.isNavigationRequest() && request.frame() === page.mainFrame();
  page.on('requestfailed', (request) => {
    if (isDocument(request)) failed = { url: request.url(), errorText: request.failure()?.errorText ?? 'failed' };
  });
  page.on('response', (response) => {
    if (isDocument(response.request())) status = { url: response.url(), code: response.status() };
  });
  return {
    reset() {
      failed = status = null;
    },
    check(proxy: EgressProxy, withStatus: boolean): void {
      if (failed) throw documentNotLoaded(proxy, failed.url, failed.errorText);
      if (withStatus && status && status.code >= 400) throw documentHttpError(status.url, status.code);
    },
  };
}

/** Runs steps one by one; `finish()` ends a timespan still open at the end of the flow. */
export function flowSteps(context: StepContext) {
  const { page, flow, proxy, input } = context;
  const measured: MeasuredStep[] = [];
  const documents = documentWatch(page);
  let openTimespan: { index: number; name: string } | null = null;
  let pendingNavigation: Promise<unknown> | null = null;

  async function measuredEnd(index: number, mode: MeasuredStep['mode'], name: string): Promise<void> {
    const step: MeasuredStep = { index, mode, name, url: pageUrl(page), screenshot: null };
    measured.push(step); // in Lighthouse's order of steps, even if what follows fails
    step.screenshot = await context.screenshot(index);
  }

  async function endTimespan(): Promise<void> {
    if (!openTimespan) return;
    const { index, name } = openTimespan;
    openTimespan = null;
    await nextPaint(page);
    await flow.endTimespan();
    await measuredEnd(index, 'timespan', name);
  }

  async function navigate(index: number, url: string, name: string): Promise<void> {
    await endTimespan();
    await checkNavigationHost(url, context.allowLoopback);
    proxy.allowScannedUrl(url);
    await flow.navigate(url, { name });
    await measuredEnd(index, 'navigation', name);
    documents.check(proxy, true);
  }

  async function type(step: Extract<FlowStep, { type: 'type' }>): Promise<void> {
    const element = await elementFor(page, step.selector);
    let text: string;
    if ('secret' in step) {
      // Checked on the element's page, once it is there: the page the value is about to go to.
      const secret = secretToType(step, input, page.url(), Date.now());
      if (secret.code) context.onTyped(secret.text);
      text = secret.text;
    } else text = step.text;
    // Replaces what the field holds, as a person selecting it all and typing would.
    await element.evaluate((el) => {
      const field = el as unknown as { value?: unknown };
      if (typeof field.value === 'string') field.value = '';
    });
    await element.type(text);
  }

  async function run(step: FlowStep, index: number, next: FlowStep | undefined): Promise<void> {
    documents.reset();
    // The navigation a step starts (a submit click) may be over before the next step could wait for it.
    if (next?.type === 'wait_for_navigation' && step.type !== 'wait_for_navigation') {
      pendingNavigation = page.waitForNavigation({ timeout: NAVIGATION_TIMEOUT_MS });
      pendingNavigation.catch(() => undefined);
    }
    switch (step.type) {
      case 'navigate':
        return navigate(index, step.url, step.name ?? step.url);
      case 'start_timespan':
        await endTimespan();
        await flow.startTimespan({ name: step.name, onlyCategories: FLOW_TIMESPAN_CATEGORIES });
        openTimespan = { index, name: step.name };
        return;
      case 'end_timespan':
        return endTimespan();
      case 'snapshot':
        await endTimespan();
        await flow.snapshot({ name: step.name });
        return measuredEnd(index, 'snapshot', step.name);
      case 'click':
        await withTimeouts(
          page.locator(step.selector).setTimeout(ACTION_TIMEOUT_MS).click(),
          'selector_not_found',
          `no clickable element matches ${JSON.stringify(step.selector)} within ${seconds(ACTION_TIMEOUT_MS)}`,
        );
        break;
      case 'type':
        await type(step);
        break;
      case 'select': {
        const chosen = await (await elementFor(page, step.selector)).select(step.value);
        if (chosen.length === 0)
          throw new FlowStepError(
            'step_error',
            `${JSON.stringify(step.selector)} has no option ${JSON.stringify(step.value)}`,
          );
        break;
      }
      case 'wait_for_selector':
        await elementFor(page, step.selector);
        break;
      case 'wait_for_navigation': {
        const waiting = pendingNavigation ?? page.waitForNavigation({ timeout: NAVIGATION_TIMEOUT_MS });
        pendingNavigation = null;
        await withTimeouts(waiting, 'timeout', `no page loaded within ${seconds(NAVIGATION_TIMEOUT_MS)}`);
        break;
      }
    }
    documents.check(proxy, false);
  }

  return { run, finish: endTimespan, measured };
}
