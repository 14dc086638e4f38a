import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import proto from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { PROJECT_ROOT } from '../../core/config.ts';
import { harnessInfo } from '../harness/shared.ts';

/**
 * Scan workflows under way when a new version is deployed must replay on it. The history was recorded from
 * the scan workflow as it was before scans had runs (commit c3677be, with stand-in activities: a slot
 * request, the grant signal, markScanRunning, scanPage, the release signal) and stored in Temporal's binary
 * form (History.encode). Its markScanRunning returned nothing, so today's workflow takes it for a one-run
 * scan and must issue exactly the commands it issued then.
 */
it('replays a scan workflow recorded before scans had runs', async () => {
  const history = proto.temporal.api.history.v1.History.decode(readFileSync(resolve(PROJECT_ROOT, 'fixtures/histories/scan-workflow-before-runs.bin')));
  expect(history.events).toHaveLength(31);
  await expect(Worker.runReplayHistory({ workflowBundle: { codePath: harnessInfo().workflowBundlePath } }, history)).resolves.toBeUndefined();
});
