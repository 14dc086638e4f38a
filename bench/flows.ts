/**
 * Flow benchmark. The same 5-step shop flow (sign in with a secret password, a timespan around the slow "add
 * to cart" click, the cart, a snapshot; fixtures/shop.ts) through the service's flow runner (a runner process
 * started ahead, as the scan user, egress proxy, fresh profile, screenshots, results, secrets scrubbed:
 * activities/flows/process-flow-runner.ts) against a bare Lighthouse user-flow script in one long-lived
 * process with its Chromium already running (bench/flows-bare.ts), in alternating rounds in the same run.
 * Prints the medians and the ratio (lower is better). Target: runner/bare <= 1.2.
 *
 *   npm run bench:flows -- --rounds 5
 */
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import type { FlowRunInput } from '../core/flows/flow.ts';
import { createProcessFlowRunner } from '../activities/flows/process-flow-runner.ts';
import { loadConfig, PROJECT_ROOT } from '../infra/config.ts';
import { SHOP_PASSWORD, SHOP_USER, startShop } from '../fixtures/shop.ts';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const config = loadConfig({ ...process.env, OUTBOUND_ALLOW_LOOPBACK: 'true' });
const shop = await startShop();
const runner = createProcessFlowRunner({
  chromiumPath: config.chromiumPath,
  allowLoopback: true,
  scanUser: config.scanUser,
});
const bare = spawn(process.execPath, [resolve(PROJECT_ROOT, 'bench/flows-bare.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, CHROMIUM_PATH: config.chromiumPath },
});
const bareTimes = createInterface({ input: bare.stdout })[Symbol.asyncIterator]();

function flowInput(round: number): FlowRunInput {
  return {
    runId: `benchflow${round}`,
    definition: {
      name: 'Buy a cup',
      form_factor: 'desktop',
      steps: [
        { type: 'navigate', url: `${shop.origin}/login?next=/products/1`, name: 'Sign-in page' },
        { type: 'type', selector: '#user', text: SHOP_USER },
        { type: 'type', selector: '#password', secret: 'shop' },
        { type: 'click', selector: '#sign-in' },
        { type: 'wait_for_navigation' },
        { type: 'start_timespan', name: 'Add to cart' },
        { type: 'click', selector: '#add-to-cart' },
        { type: 'wait_for_selector', selector: '#cart-status:not(:empty)' },
        { type: 'end_timespan' },
        { type: 'navigate', url: `${shop.origin}/cart`, name: 'Cart' },
        { type: 'snapshot', name: 'Cart contents' },
      ],
    },
    secrets: { shop: { kind: 'password', value: SHOP_PASSWORD } },
  };
}

const ours: number[] = [];
const theirs: number[] = [];
try {
  // One unmeasured round each: Chromium's and Lighthouse's first-use costs.
  for (let round = -1; round < rounds; round++) {
    const started = performance.now();
    const { outcome } = await runner.run(flowInput(round + 1), {
      onProgress: () => undefined,
      signal: new AbortController().signal,
    });
    const runnerMs = performance.now() - started;
    if (outcome.failure || outcome.steps.length !== 4)
      throw new Error(`runner flow failed: ${JSON.stringify(outcome.failure)}`);
    bare.stdin.write(`${shop.origin}\n`);
    const bareMs = Number((await bareTimes.next()).value);
    if (!Number.isFinite(bareMs)) throw new Error('the bare flow script ended');
    const inp = outcome.steps.find((s) => s.mode === 'timespan')?.metrics.inp_ms;
    console.log(
      `round ${round < 0 ? 'warm-up' : round + 1}: runner ${Math.round(runnerMs)} ms, bare ${bareMs} ms (INP ${inp} ms)`,
    );
    if (round < 0) continue;
    ours.push(runnerMs);
    theirs.push(bareMs);
  }
  console.log(
    `medians over ${rounds} rounds: runner ${Math.round(median(ours))} ms, bare ${Math.round(median(theirs))} ms`,
  );
  console.log(`ratio runner/bare: ${(median(ours) / median(theirs)).toFixed(2)} (target <= 1.2)`);
} finally {
  bare.stdin.end();
  runner.close();
  await shop.close();
}
