import { Client, Connection, ScheduleAlreadyRunning, ScheduleOverlapPolicy, type ScheduleOptions } from '@temporalio/client';
import type { Config } from './config.ts';
import { RECONCILE_EVERY } from './scan/lifecycle.ts';
import type { SlotRequest } from './scan/slots.ts';
import {
  healthCheckWorkflowId,
  HostAttribute,
  mainTaskQueue,
  SCAN_SLOT_SIGNALS,
  scanDispatcherWorkflowId,
  ScanIdAttribute,
  scanReconcilerScheduleId,
  scanTaskQueue,
  scanWorkflowId,
  TEMPORAL_CHANNEL_ARGS,
} from './temporal.ts';

/**
 * The one place that talks to Temporal as a client: connecting, and every workflow we start (scans, the
 * health round trip, the region dispatchers, the reconciler's schedule). Workflow ids, queues and search
 * attributes come from core/temporal.ts.
 */

export type TemporalSettings = Config['temporal'];

/** A lazy client: the process starts (and reports not ready) while Temporal is still coming up. */
export function createTemporalClient(settings: Pick<TemporalSettings, 'address' | 'namespace'>): Client {
  const connection = Connection.lazy({ address: settings.address, channelArgs: TEMPORAL_CHANNEL_ARGS });
  return new Client({ connection, namespace: settings.namespace });
}

/** Readiness: the namespace answers within 2 s. */
export async function temporalReachable(client: Client): Promise<void> {
  await client.connection.withDeadline(Date.now() + 2000, () => client.connection.workflowService.describeNamespace({ namespace: client.options.namespace }));
}

/** With Temporal away the client would keep retrying while the caller waits; a start gives up after this. */
const START_DEADLINE_MS = 5000;

/** Starts `scan-<public id>` on the main queue; its Lighthouse activity goes to the region's scan queue. */
export async function startScanWorkflow(client: Client, prefix: string, scan: { publicId: string; host: string; region: string }): Promise<void> {
  await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
    client.workflow.start('scanWorkflow', {
      workflowId: scanWorkflowId(scan.publicId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ publicId: scan.publicId, scanTaskQueue: scanTaskQueue(prefix, scan.region) }],
      typedSearchAttributes: [
        { key: ScanIdAttribute, value: scan.publicId },
        { key: HostAttribute, value: scan.host },
      ],
    }),
  );
}

/** Runs the health workflow through a worker and back (readiness with ?full=1). */
export async function runHealthWorkflow(client: Client, prefix: string): Promise<void> {
  const handle = await client.workflow.start('healthCheckWorkflow', {
    taskQueue: mainTaskQueue(prefix),
    workflowId: healthCheckWorkflowId(`${Date.now()}-${Math.random().toString(36).slice(2, 8)}`),
    workflowExecutionTimeout: '15 seconds',
  });
  await handle.result();
}

/** Asks the region's dispatcher for a slot, starting the dispatcher when it does not run (signal-with-start). */
export async function requestScanSlot(client: Client, prefix: string, region: string, request: SlotRequest): Promise<{ dispatcherId: string }> {
  const dispatcherId = scanDispatcherWorkflowId(prefix, region);
  await client.workflow.signalWithStart('scanDispatcherWorkflow', {
    workflowId: dispatcherId,
    taskQueue: mainTaskQueue(prefix),
    args: [],
    signal: SCAN_SLOT_SIGNALS.request,
    signalArgs: [request],
  });
  return { dispatcherId };
}

/** The reconciler's schedule: created on first start, brought up to date on every later one. */
export async function ensureReconcilerSchedule(client: Client, prefix: string): Promise<{ scheduleId: string; created: boolean }> {
  const scheduleId = scanReconcilerScheduleId(prefix);
  const options = {
    scheduleId,
    spec: { intervals: [{ every: RECONCILE_EVERY }] },
    action: { type: 'startWorkflow' as const, workflowType: 'reconcileScansWorkflow', taskQueue: mainTaskQueue(prefix), workflowId: `${scheduleId}-run` },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  } satisfies ScheduleOptions;
  try {
    await client.schedule.create(options);
    return { scheduleId, created: true };
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({ ...previous, spec: options.spec, action: options.action, policies: { ...previous.policies, ...options.policies } }));
    return { scheduleId, created: false };
  }
}
