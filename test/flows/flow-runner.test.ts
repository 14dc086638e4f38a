import {
  BLOCKED_ADDRESS_MESSAGE,
  type FlowDefinition,
  type FlowRunInput,
  type FlowStep,
} from '../../core/flows/flow.ts';
import { parseFlowRunnerMessage, type FlowRunnerMessage } from '../../activities/flows/flow-protocol.ts';
import { createProcessFlowRunner, FLOW_RUNNER_SCRIPT } from '../../activities/flows/process-flow-runner.ts';
import { loadConfig } from '../../infra/config.ts';
import { SHOP_PASSWORD, SHOP_USER, SLOW_CLICK_MS, startShop, type Shop } from '../../fixtures/shop.ts';
import { runFlowRunnerScript } from '../harness/flow-runner-script.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The flow runner against real Chromium and Lighthouse on the fixture shop: sign in with a secret password,
 * a timespan around a deliberately slow "add to cart" click, the cart, a snapshot. The happy path runs the
 * runner script directly, to read every byte it writes; the failures go through the worker's runner (the
 * scan user, the work folder, the process groups). A refused sign-in is test/flows/flow-end-to-end.test.ts's,
 * through the worker.
 */
const config = loadConfig(baseTestEnv());
/** INP of a click whose handler is busy for SLOW_CLICK_MS: at least that, plus input delay and the next paint (desktop: no CPU slowdown). */
const INP_TOLERANCE_MS = 200;

let shop: Shop;
const runner = createProcessFlowRunner({
  chromiumPath: config.chromiumPath,
  allowLoopback: true,
  scanUser: config.scanUser,
});
beforeAll(async () => {
  shop = await startShop();
});
afterAll(async () => {
  runner.close();
  await shop.close();
});

const signIn = (origin: string): FlowStep[] => [
  { type: 'navigate', url: `${origin}/login?next=/products/1`, name: 'Sign-in page' },
  { type: 'type', selector: '#user', text: SHOP_USER },
  { type: 'type', selector: '#password', secret: 'shop' },
  { type: 'click', selector: '#sign-in' },
  { type: 'wait_for_navigation' },
  { type: 'wait_for_selector', selector: '#signed-in' },
];

function definition(steps: FlowStep[]): FlowDefinition {
  return { name: 'Buy a cup', form_factor: 'desktop', steps };
}

const input = (runId: string, steps: FlowStep[], password = SHOP_PASSWORD): FlowRunInput => ({
  runId,
  definition: definition(steps),
  secrets: { shop: { kind: 'password', value: password } },
});

/** The runner script fed as the worker feeds it, every byte of its stdout and stderr kept. */
const runDirectly = (run: FlowRunInput) =>
  runFlowRunnerScript(FLOW_RUNNER_SCRIPT, { chromiumPath: config.chromiumPath, allowLoopback: true }, run);

const isJpeg = (bytes: Buffer) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));
/** Width and height from a JPEG's start-of-frame segment. */
function jpegSize(bytes: Buffer): [number, number] | null {
  for (let i = 2; i + 8 < bytes.length; i++)
    if (bytes[i] === 0xff && (bytes[i + 1] === 0xc0 || bytes[i + 1] === 0xc2))
      return [bytes.readUInt16BE(i + 7), bytes.readUInt16BE(i + 5)];
  return null;
}

it('measures each step of a signed-in journey, with the slow click as the timespan INP, and never emits the password', async () => {
  const steps: FlowStep[] = [
    ...signIn(shop.origin),
    { type: 'start_timespan', name: 'Add to cart' },
    { type: 'click', selector: '#add-to-cart' },
    { type: 'wait_for_selector', selector: '#cart-status:not(:empty)' },
    { type: 'end_timespan' },
    { type: 'navigate', url: `${shop.origin}/cart`, name: 'Cart' },
    { type: 'snapshot', name: 'Cart contents' },
  ];
  const started = performance.now();
  const { code, stdout, stderr } = await runDirectly(input('happyrun1', steps));
  const elapsed = performance.now() - started;
  expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  const messages = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => parseFlowRunnerMessage(line));
  const last = messages.at(-1) as Extract<FlowRunnerMessage, { kind: 'flow_outcome' }>;
  expect(last.kind).toBe('flow_outcome');
  const { outcome } = last;
  expect(outcome.failure).toBeNull();
  expect(outcome.steps.map((s) => [s.index, s.mode, s.name])).toEqual([
    [0, 'navigation', 'Sign-in page'],
    [6, 'timespan', 'Add to cart'],
    [10, 'navigation', 'Cart'],
    [11, 'snapshot', 'Cart contents'],
  ]);
  const [login, timespan, cart, snapshot] = outcome.steps;

  expect(login!.url).toBe(`${shop.origin}/login?next=/products/1`);
  for (const score of Object.values(login!.scores)) expect(score).toEqual(expect.any(Number));
  for (const key of ['lcp_ms', 'fcp_ms', 'tbt_ms', 'cls', 'speed_index_ms', 'ttfb_ms'])
    expect(login!.metrics).toHaveProperty(key, expect.any(Number));

  const inp = timespan!.metrics.inp_ms!;
  console.log(`timespan INP ${inp} ms for a ${SLOW_CLICK_MS} ms handler; the flow took ${Math.round(elapsed)} ms`);
  expect(inp).toBeGreaterThanOrEqual(SLOW_CLICK_MS);
  expect(inp).toBeLessThanOrEqual(SLOW_CLICK_MS + INP_TOLERANCE_MS);
  expect(timespan!.metrics).toEqual({ inp_ms: inp, cls: expect.any(Number), tbt_ms: expect.any(Number) });
  expect(timespan!.scores.performance).toBeNull();
  expect(timespan!.url).toBe(`${shop.origin}/products/1`);

  expect(cart!.url).toBe(`${shop.origin}/cart`);
  expect(snapshot!.metrics).toEqual({});
  expect(snapshot!.scores.accessibility).toEqual(expect.any(Number));

  const images = messages.filter((m): m is Extract<FlowRunnerMessage, { kind: 'image' }> => m.kind === 'image');
  expect(images.map((i) => i.name)).toEqual(outcome.steps.map((s) => s.screenshot));
  expect(images.map((i) => i.name)).toEqual([0, 6, 10, 11].map((i) => `flow-happyrun1-step-${i}.jpg`));
  for (const image of images) {
    const bytes = Buffer.from(image.base64, 'base64');
    expect(isJpeg(bytes)).toBe(true);
    // Sized as a scan's final screenshot: the desktop viewport (1350x940) at 500 px wide.
    expect(jpegSize(bytes)).toEqual([500, expect.any(Number)]);
  }

  const everything = stdout.replace(/"base64":"[^"]*"/g, '') + stderr;
  expect(everything).not.toContain(SHOP_PASSWORD);
  expect(everything).not.toContain(encodeURIComponent(SHOP_PASSWORD));
}, 240_000);

it('refuses to type a secret on an origin other than the start origin or the one the step names', async () => {
  const steps: FlowStep[] = [
    { type: 'navigate', url: `${shop.origin}/`, name: 'Home' },
    { type: 'navigate', url: `${shop.otherOrigin}/login`, name: 'Elsewhere' },
    { type: 'type', selector: '#password', secret: 'shop' },
  ];
  const { outcome } = await runner.run(input('otherorigin', steps), {
    onProgress: () => undefined,
    signal: new AbortController().signal,
  });
  expect(outcome.failure).toMatchObject({
    index: 2,
    step_type: 'type',
    code: 'secret_origin',
    screenshot: 'flow-otherorigin-step-2-failure.jpg',
  });
  expect(outcome.failure!.message).toContain(`typed only on ${shop.origin}, and the page is on ${shop.otherOrigin}`);
  expect(JSON.stringify(outcome)).not.toContain(SHOP_PASSWORD);

  // Named in the step, the other origin may have it.
  const allowed = await runner.run(
    input('namedorigin', [...steps.slice(0, 2), { ...steps[2]!, secret_origin: shop.otherOrigin } as FlowStep]),
    { onProgress: () => undefined, signal: new AbortController().signal },
  );
  expect(allowed.outcome.failure).toBeNull();
}, 240_000);

it('refuses a loopback address when the runner does not allow it, naming neither the host nor its address', async () => {
  const strict = createProcessFlowRunner({
    chromiumPath: config.chromiumPath,
    allowLoopback: false,
    scanUser: config.scanUser,
  });
  try {
    // A name that resolves to the loopback address: the message must not tell what it resolved to.
    const named = shop.origin.replace('127.0.0.1', 'localhost');
    const { outcome } = await strict.run(input('noloopback', signIn(named)), {
      onProgress: () => undefined,
      signal: new AbortController().signal,
    });
    expect(outcome.steps).toEqual([]);
    expect(outcome.failure).toMatchObject({
      index: 0,
      step_type: 'navigate',
      code: 'blocked_address',
      message: BLOCKED_ADDRESS_MESSAGE,
    });
    expect(outcome.failure!.message).not.toMatch(/127\.0\.0\.1|::1|localhost/);
  } finally {
    strict.close();
  }
}, 120_000);
