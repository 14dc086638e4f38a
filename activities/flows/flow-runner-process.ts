/**
 * One run of a user flow, in its own process and Chromium with a fresh profile, sandboxed as a scan's runner
 * is (activities/lighthouse/runner.ts: started ahead by runner-processes.ts as the scan user, minimal
 * environment, every request through the egress proxy). Reads FlowRunInput on stdin, writes FlowRunnerMessage
 * lines on stdout, exits 0 with the outcome as the last line (a failing step included), non-zero when it
 * crashed. Every message and stderr line goes through scrubFlowSecrets first (flow-runner-output.ts).
 */
import { startFlow } from 'lighthouse';
import lighthousePackage from 'lighthouse/package.json' with { type: 'json' };
import type { Browser, Page } from 'puppeteer-core';
import type { FlowFailure, FlowRunInput, FlowRunOutcome, FlowStepResult } from '../../core/flows/flow.ts';
import type { EgressProxy } from '../lighthouse/egress-proxy.ts';
import { parseRunnerLaunch } from '../lighthouse/protocol.ts';
import { cleanUp, launchAhead, readInput, startLifetime } from '../lighthouse/runner-lifetime.ts';
import { FLOW_LIGHTHOUSE_FLAGS, lighthouseConfigFor } from '../lighthouse/settings.ts';
import { RUN_ID_PATTERN, stepImageName } from './flow-protocol.ts';
import { stepResult, type StepResult } from './flow-results.ts';
import { noteTyped, scrub, scrubWithSecretsOf, send } from './flow-runner-output.ts';
import { flowSteps } from './flow-steps.ts';
import { stepFailure } from './step-checks.ts';

/** JPEG quality of the step screenshots (the scan's final screenshots are Lighthouse's, at about this quality). */
const SCREENSHOT_QUALITY = 70;
/** Their longer side at most, as Lighthouse's final screenshot of a scan (500x348 desktop, 250x498 mobile). */
const SCREENSHOT_MAX_PX = 500;

async function screenshot(page: Page, name: string): Promise<string | null> {
  try {
    const view = await page.evaluate(() => {
      const { visualViewport: v, devicePixelRatio } = globalThis as unknown as {
        visualViewport: { pageLeft: number; pageTop: number; width: number; height: number };
        devicePixelRatio: number;
      };
      return { x: v.pageLeft, y: v.pageTop, width: v.width, height: v.height, dpr: devicePixelRatio };
    });
    const scale = Math.min(1, SCREENSHOT_MAX_PX / (Math.max(view.width, view.height) * view.dpr));
    const bytes = await page.screenshot({
      type: 'jpeg',
      quality: SCREENSHOT_QUALITY,
      optimizeForSpeed: true,
      clip: { x: view.x, y: view.y, width: view.width, height: view.height, scale },
    });
    send({ kind: 'image', name, base64: Buffer.from(bytes).toString('base64') });
    return name;
  } catch {
    return null; // a page that cannot be shown (crashed, closed) still has its results
  }
}

async function runFlow(input: FlowRunInput, browser: Browser, proxy: EgressProxy, allowLoopback: boolean) {
  const page = await browser.newPage();
  const flow = await startFlow(page, {
    config: lighthouseConfigFor(input.definition.form_factor),
    flags: FLOW_LIGHTHOUSE_FLAGS,
    name: input.definition.name,
  });
  const steps = flowSteps({
    page,
    flow,
    proxy,
    input,
    allowLoopback,
    screenshot: (index) => screenshot(page, stepImageName(input.runId, index)),
    onTyped: noteTyped,
  });
  const all = input.definition.steps;
  let failure: FlowFailure | null = null;
  for (let index = 0; index <= all.length && !failure; index++) {
    try {
      if (index === all.length)
        await steps.finish(); // a timespan still open ends with the flow
      else {
        send({ kind: 'progress', step: `${index}:${all[index]!.type}` });
        await steps.run(all[index]!, index, all[index + 1]);
      }
    } catch (error) {
      const at = Math.min(index, all.length - 1);
      failure = {
        ...stepFailure(error, at, input),
        screenshot: await screenshot(page, stepImageName(input.runId, at, true)),
      };
    }
  }
  // The steps measured before a failure keep their results; a navigation that failed has none.
  const measured = steps.measured;
  const flowResult = measured.length ? await flow.createFlowResult() : { steps: [] };
  const results: FlowStepResult[] = [];
  measured.forEach((step, i) => {
    const lhr = flowResult.steps[i]?.lhr;
    if (lhr && step.index !== failure?.index) results.push(stepResult(step, lhr as unknown as StepResult));
  });
  return { results, failure, lighthouseVersion: flowResult.steps[0]?.lhr.lighthouseVersion };
}

async function main(): Promise<void> {
  const workDir = startLifetime();
  const launch = parseRunnerLaunch(process.argv[3]);
  const launched = launchAhead(workDir, launch);
  launched.catch(() => undefined); // awaited below, once the input has come
  const input = await readInput<FlowRunInput>();
  scrubWithSecretsOf(input);
  if (!RUN_ID_PATTERN.test(input.runId)) throw new Error('the flow runner was given a run id it cannot name images by');
  let proxy: EgressProxy | null = null;
  let browser: Browser | null = null;
  try {
    ({ proxy, browser } = await launched);
    const { results, failure, lighthouseVersion } = await runFlow(input, browser, proxy, launch.allowLoopback);
    const outcome: FlowRunOutcome = {
      steps: results,
      failure,
      lighthouseVersion: lighthouseVersion ?? lighthousePackage.version,
      chromiumVersion: await browser.version(),
    };
    send({ kind: 'flow_outcome', outcome });
  } finally {
    await browser?.close().catch(() => undefined);
    await proxy?.close();
    cleanUp();
  }
}

main()
  .then(() => process.exit(0))
  .catch((error: unknown) => {
    process.stderr.write(`${scrub(error instanceof Error ? (error.stack ?? error.message) : String(error))}\n`);
    process.exit(1);
  });
