import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import proto from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { newPublicId } from '../../core/ids.ts';
import { createTemporalClient, requestScanSlot } from '../../infra/temporal-client.ts';
import { mainTaskQueue, scanDispatcherWorkflowId, scanTaskQueue, scanWorkflowId } from '../../core/temporal.ts';
import { buildWorkflowBundle } from '../../worker/build-bundle.ts';
import { baseTestEnv } from './shared.ts';

/**
 * Records the histories that test/unit/workflows/history-replay.test.ts replays: a scan (with its slot from the
 * region's real dispatcher) and a target's scheduled scan, each run by today's workflow code with stand-in
 * activities on the running Temporal server, stored in Temporal's binary form under fixtures/histories/.
 *
 * A recorded history is never replaced: when a workflow changes in a way that matters to histories under way,
 * record the new version next to the old ones (`node test/harness/record-histories.ts <suffix>`) and keep
 * every older file replaying (docs/architecture.md, compatibility).
 */
const suffix = process.argv[2] ?? 'v1';
const config = loadConfig(baseTestEnv());
const prefix = `record_${randomBytes(3).toString('hex')}`;
const region = 'local';
const client = createTemporalClient(config.temporal);

const bundlePath = await buildWorkflowBundle(resolve(PROJECT_ROOT, '.state/record/workflow-bundle.js'));
const connection = await NativeConnection.connect({ address: config.temporal.address });
const standIns = {
  async requestScanSlot(publicId: string) {
    return requestScanSlot(client, prefix, region, { scanId: publicId, accountId: 1, accountCap: 1, capacity: 1 });
  },
  async markScanRunning() {
    return { runs: 1 };
  },
  async scanPage() {
    return { status: 'finished' as const };
  },
  async markScanFailed() {},
  async dispatchTargetScan({ publicId }: { publicId: string }) {
    return { publicId, host: 'example.com', region, scanTaskQueue: scanTaskQueue(prefix, region) };
  },
  async evaluateTargetAlerts() {
    return { outcome: 'evaluated' as const, changes: [], emails: [] };
  },
};
const workers = await Promise.all(
  [mainTaskQueue(prefix), scanTaskQueue(prefix, region)].map((taskQueue) =>
    Worker.create({
      connection,
      namespace: config.temporal.namespace,
      taskQueue,
      workflowBundle: { codePath: bundlePath },
      activities: standIns,
    }),
  ),
);
const running = Promise.all(workers.map((worker) => worker.run()));

async function record(name: string, workflowId: string, start: () => Promise<unknown>): Promise<void> {
  await start();
  await client.workflow.getHandle(workflowId).result();
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const file = resolve(PROJECT_ROOT, 'fixtures/histories', `${name}-${suffix}.bin`);
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, proto.temporal.api.history.v1.History.encode(history).finish());
  console.log(`${file}: ${history.events?.length} events`);
}

try {
  const scanId = newPublicId(new Date());
  await record('scan-workflow', scanWorkflowId(scanId), () =>
    client.workflow.start('scanWorkflow', {
      workflowId: scanWorkflowId(scanId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ publicId: scanId, scanTaskQueue: scanTaskQueue(prefix, region) }],
    }),
  );
  const targetRunId = `${prefix}-target-7-run`;
  await record('target-scan-workflow', targetRunId, () =>
    client.workflow.start('targetScanWorkflow', {
      workflowId: targetRunId,
      taskQueue: mainTaskQueue(prefix),
      args: [{ targetId: 7 }],
    }),
  );
} finally {
  await client.workflow
    .getHandle(scanDispatcherWorkflowId(prefix, region))
    .terminate('recording done')
    .catch(() => undefined);
  for (const worker of workers) worker.shutdown();
  await running;
  await connection.close();
  await client.connection.close();
}
