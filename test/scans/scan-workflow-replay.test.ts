import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../infra/config.ts';
import { harnessInfo } from '../harness/shared.ts';

/**
 * Workflows under way when a new version is deployed must replay on it. Each file in fixtures/histories/ is a
 * history recorded by test/harness/record-histories.ts from a released version of the workflow code (stand-in
 * activities, the region's real dispatcher); every one of them must replay on today's code.
 */
const HISTORIES = resolve(PROJECT_ROOT, 'fixtures/histories');
const recorded = readdirSync(HISTORIES).filter((file) => file.endsWith('.bin'));

it('has recorded histories of the scan and the target-scan workflow', () => {
  expect(recorded.some((file) => file.startsWith('scan-workflow-'))).toBe(true);
  expect(recorded.some((file) => file.startsWith('target-scan-workflow-'))).toBe(true);
});

it.each(recorded)('replays %s on the current workflow code', async (file) => {
  const history = proto.temporal.api.history.v1.History.decode(readFileSync(resolve(HISTORIES, file)));
  expect(history.events!.length).toBeGreaterThan(10);
  await expect(
    Worker.runReplayHistory({ workflowBundle: { codePath: harnessInfo().workflowBundlePath } }, history),
  ).resolves.toBeUndefined();
});
