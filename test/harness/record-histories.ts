import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import proto from '@temporalio/proto';
import { NativeConnection, Worker } from '@temporalio/worker';
import { loadConfig, PROJECT_ROOT } from '../../infra/config.ts';
import { newPublicId } from '../../core/ids.ts';
import { createTemporalClient, requestScanSlot } from '../../infra/temporal-client.ts';
import {
  mainTaskQueue,
  SCAN_SLOT_SIGNALS,
  scanDispatcherWorkflowId,
  scanTaskQueue,
  scanWorkflowId,
  slotHolderWorkflowId,
} from '../../core/temporal.ts';
import { buildWorkflowBundle } from '../../worker/build-bundle.ts';
import { baseTestEnv } from './shared.ts';

/**
 * Records the histories that test/unit/workflows/history-replay.test.ts replays: a scan (with its slot from the
 * region's real dispatcher), a target's scheduled scan, and that region's dispatcher (`scan-dispatcher`: a slot
 * granted to each scan and given back, with a holder check, every second here, coming due in between while it
 * is idle; terminated once both scans have ended, since a dispatcher runs on for 10 idle minutes), each run by
 * today's workflow code with stand-in activities on the running Temporal server, stored in Temporal's binary
 * form under fixtures/histories/.
 *
 * A recorded history is never replaced: when a workflow changes in a way that matters to histories under way,
 * record the new version next to the old ones (`node test/harness/record-histories.ts <suffix> [name...]`,
 * naming the histories to store, all when none is named: `scan-workflow`, `target-scan-workflow`,
 * `scan-dispatcher`) and keep every older file replaying (docs/architecture.md, compatibility).
 */
const [suffix = 'v1', ...only] = process.argv.slice(2);
const NAMES = ['scan-workflow', 'target-scan-workflow', 'scan-dispatcher'];
const unknown = only.filter((name) => !NAMES.includes(name));
if (unknown.length) throw new Error(`unknown histories ${unknown.join(', ')}; known: ${NAMES.join(', ')}`);
const wanted = (name: string) => only.length === 0 || only.includes(name);
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
  // The dispatcher's holder check, as the real activity asks Temporal (activities/scan-slots.ts).
  async findEndedScanWorkflows(holders: string[]) {
    const ended: string[] = [];
    for (const holder of holders) {
      const handle = client.workflow.getHandle(slotHolderWorkflowId(holder));
      const status = await handle.describe().then(
        (d) => d.status.name,
        (error: unknown) => {
          if (error instanceof WorkflowNotFoundError) return 'NOT_FOUND';
          throw error;
        },
      );
      if (status !== 'RUNNING') ended.push(holder);
    }
    return ended;
  },
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
  await save(name, workflowId);
}

async function save(name: string, workflowId: string): Promise<void> {
  if (!wanted(name)) return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const file = resolve(PROJECT_ROOT, 'fixtures/histories', `${name}-${suffix}.bin`);
  mkdirSync(resolve(file, '..'), { recursive: true });
  writeFileSync(file, proto.temporal.api.history.v1.History.encode(history).finish());
  console.log(`${file}: ${history.events?.length} events`);
}

const dispatcherId = scanDispatcherWorkflowId(prefix, region);
const dispatcher = client.workflow.getHandle(dispatcherId);

/** Until the holder check due after a scan's grant has come, with the dispatcher idle (its slot given back). */
async function holderCheckAfterRelease(): Promise<void> {
  for (;;) {
    const events = (await dispatcher.fetchHistory()).events ?? [];
    const released = events.findLastIndex(
      (e) => e.workflowExecutionSignaledEventAttributes?.signalName === SCAN_SLOT_SIGNALS.release,
    );
    if (released >= 0 && events.slice(released).some((e) => e.timerFiredEventAttributes)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

try {
  // Started before the first request (which then only signals it), with a holder check every second.
  await client.workflow.start('scanDispatcherWorkflow', {
    workflowId: dispatcherId,
    taskQueue: mainTaskQueue(prefix),
    args: [{ holderCheckEveryMs: 1000 }],
  });
  const scanId = newPublicId(new Date());
  await record('scan-workflow', scanWorkflowId(scanId), () =>
    client.workflow.start('scanWorkflow', {
      workflowId: scanWorkflowId(scanId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ publicId: scanId, scanTaskQueue: scanTaskQueue(prefix, region) }],
    }),
  );
  await holderCheckAfterRelease();
  const targetRunId = `${prefix}-target-7-run`;
  await record('target-scan-workflow', targetRunId, () =>
    client.workflow.start('targetScanWorkflow', {
      workflowId: targetRunId,
      taskQueue: mainTaskQueue(prefix),
      args: [{ targetId: 7 }],
    }),
  );
  await holderCheckAfterRelease();
  // Idle now, it would end only 10 minutes later.
  await dispatcher.terminate('recording done');
  await save('scan-dispatcher', dispatcherId);
} finally {
  await dispatcher.terminate('recording done').catch(() => undefined);
  for (const worker of workers) worker.shutdown();
  await running;
  await connection.close();
  await client.connection.close();
}
