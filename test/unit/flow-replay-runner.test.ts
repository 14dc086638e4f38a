import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseFlowRunnerMessage, type FlowRunnerMessage } from '../../activities/flows/flow-protocol.ts';
import { BLOCKED_ADDRESS_MESSAGE, type FlowRunInput } from '../../core/flows/flow.ts';
import {
  readFlowRecording,
  recordedFlowDefinition,
  SIGN_IN_FLOW,
  SIGN_IN_WRONG_PASSWORD_FLOW,
  type RecordedFlow,
} from '../../fixtures/recorded-flows.ts';
import { installedLighthouseVersion, RECORD_COMMAND } from '../../fixtures/recorded-lighthouse.ts';
import { FLOW_REPLAY_RUNNER_SCRIPT } from '../../worker/runners.ts';
import { runFlowRunnerScript } from '../harness/flow-runner-script.ts';

/**
 * The flow replay runner (fixtures/flow-replay-runner.ts) as the worker starts it (arguments, minimal
 * environment, input on stdin), against a site of the test's own that stands in for the fixture shop (a recording
 * is replayed on any host): the recorded real run in the flow runner's protocol under the run's id, each
 * navigation fetched for real through the egress proxy, its failures as a real run has them, and no recording
 * failing the run with the command that makes one. The worker's side (scan user, process groups) is the same
 * as the real runner's (test/flows/flow-runner.test.ts); the replayed flow tests run it through the worker.
 */
const version = installedLighthouseVersion();

/** A site that answers every request with `status` (and a page), counting the requests by path. */
async function site(status = 200): Promise<{ origin: string; requests: string[]; server: Server }> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(status, { 'content-type': 'text/html' }).end('<!doctype html><title>Shop</title>');
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests, server };
}
const closed = (server: Server) => new Promise((done) => server.close(done));

async function replay(
  input: FlowRunInput,
  allowLoopback = true,
): Promise<{ code: number | null; stdout: string; stderr: string; messages: FlowRunnerMessage[] }> {
  const { code, stdout, stderr } = await runFlowRunnerScript(
    FLOW_REPLAY_RUNNER_SCRIPT,
    { chromiumPath: '/nonexistent/chromium', allowLoopback },
    input,
  );
  const messages = stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => parseFlowRunnerMessage(line));
  return { code, stdout, stderr, messages };
}

const inputFor = (flow: RecordedFlow, origin: string, runId: string): FlowRunInput => ({
  runId,
  definition: recordedFlowDefinition(flow, origin, 'Any name'),
  secrets: flow.secrets,
});
const outcomeOf = (messages: FlowRunnerMessage[]) => {
  const last = messages.at(-1);
  if (last?.kind !== 'flow_outcome') throw new Error(`the last message is ${last?.kind}`);
  return last.outcome;
};

it('hands back the recorded run in the runner protocol, under the run id and the site asked for, after fetching each page', async () => {
  const shop = await site();
  try {
    const input = inputFor(SIGN_IN_FLOW, shop.origin, 'replayrun1');
    const { code, stderr, stdout, messages } = await replay(input);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    // The navigation's document, fetched through the egress proxy; the rest of the journey is the recording's.
    expect(shop.requests).toEqual(['/login']);
    expect(messages.filter((m) => m.kind === 'progress').map((m) => m.step)).toEqual([
      '0:navigate',
      '1:type',
      '2:type',
      '3:click',
      '4:wait_for_navigation',
      '5:wait_for_selector',
    ]);
    const outcome = outcomeOf(messages);
    expect(outcome).toEqual(readFlowRecording(version, input)!.outcome);
    expect(outcome.failure).toBeNull();
    expect(outcome.steps.map((s) => [s.index, s.mode, s.url])).toEqual([[0, 'navigation', `${shop.origin}/login`]]);
    const images = messages.filter((m) => m.kind === 'image');
    expect(images.map((i) => i.name)).toEqual(['flow-replayrun1-step-0.jpg']);
    expect(Buffer.from(images[0]!.base64, 'base64').subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
    expect(stdout).not.toContain(SIGN_IN_FLOW.secrets.password!.value);
  } finally {
    await closed(shop.server);
  }
});

it('fails a navigation whose page answers with an HTTP error or is refused, as a real run does, before the recorded end', async () => {
  const broken = await site(500);
  try {
    const { code, messages } = await replay(inputFor(SIGN_IN_WRONG_PASSWORD_FLOW, broken.origin, 'replayrun2'));
    expect(code).toBe(0);
    expect(outcomeOf(messages)).toMatchObject({
      steps: [],
      failure: {
        index: 0,
        step_type: 'navigate',
        code: 'navigation_failed',
        message: `${broken.origin}/login answered HTTP 500`,
        screenshot: null,
      },
    });
    expect(messages.some((m) => m.kind === 'image')).toBe(false);
  } finally {
    await closed(broken.server);
  }
  // A runner that may not reach loopback addresses checks the host as the real one does, naming neither it nor its address.
  const { messages } = await replay(inputFor(SIGN_IN_FLOW, 'http://localhost:9', 'replayrun3'), false);
  expect(outcomeOf(messages)).toMatchObject({
    steps: [],
    failure: { index: 0, code: 'blocked_address', message: BLOCKED_ADDRESS_MESSAGE },
  });
});

it('fails the run, naming the command that records it, for a flow with no recording', async () => {
  const shop = await site();
  try {
    const input = inputFor(SIGN_IN_FLOW, shop.origin, 'replayrun4');
    input.definition.steps.push({ type: 'snapshot', name: 'Signed in' });
    const { code, stderr, messages } = await replay(input);
    expect(code).toBe(1);
    expect(stderr).toContain(RECORD_COMMAND);
    expect(stderr).toContain('RECORDED_FLOWS');
    expect(messages.some((m) => m.kind === 'flow_outcome')).toBe(false);
    // The same steps with a password they were not recorded with have no recording either.
    const other = await replay({ ...inputFor(SIGN_IN_FLOW, shop.origin, 'replayrun5'), secrets: {} });
    expect([other.code, other.stderr.includes(RECORD_COMMAND)]).toEqual([1, true]);
  } finally {
    await closed(shop.server);
  }
});
