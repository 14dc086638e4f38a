import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import proto from '@temporalio/proto';
import { DefaultLogger, Runtime, Worker, type WorkflowBundle } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../../infra/config.ts';
import { workflowBundle } from './bundle.ts';

/**
 * Workflows under way when a new version is deployed must replay on it. Each file in fixtures/histories/ is a
 * history recorded by test/harness/record-histories.ts from a released version of the workflow code (stand-in
 * activities, the region's real dispatcher); every one of them must replay on today's code. A replay needs the
 * workflow bundle only (./bundle.ts: from workflows/index.ts, as the worker's is), no Temporal server.
 */
const HISTORIES = resolve(PROJECT_ROOT, 'fixtures/histories');
const recorded = readdirSync(HISTORIES).filter((file) => file.endsWith('.bin'));

let bundle: WorkflowBundle;
beforeAll(async () => {
  try {
    // The replay workers' state changes are the SDK's information, not the test's.
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    // Installed already in this process.
  }
  bundle = await workflowBundle();
}, 60_000);

it('has recorded histories of the scan, the target-scan and the dispatcher workflow', () => {
  expect(recorded.some((file) => file.startsWith('scan-workflow-'))).toBe(true);
  expect(recorded.some((file) => file.startsWith('target-scan-workflow-'))).toBe(true);
  expect(recorded.some((file) => file.startsWith('scan-dispatcher-'))).toBe(true);
});

it.each(recorded)('replays %s on the current workflow code', async (file) => {
  const history = proto.temporal.api.history.v1.History.decode(readFileSync(resolve(HISTORIES, file)));
  expect(history.events!.length).toBeGreaterThan(10);
  await expect(Worker.runReplayHistory({ workflowBundle: bundle }, history)).resolves.toBeUndefined();
});
