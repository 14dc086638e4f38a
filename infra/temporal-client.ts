import type { Duration } from '@temporalio/common';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import {
  Client,
  Connection,
  ScheduleAlreadyRunning,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type ScheduleDescription,
  type ScheduleOptions,
} from '@temporalio/client';
import type { Config } from './config.ts';
import {
  flowScheduleOptions,
  TARGET_RECONCILE_EVERY,
  targetScheduleOptions,
  type TargetScanInput,
} from '../core/monitoring/schedule.ts';
import { RUM_ALERT_CHECK_EVERY_MINUTES } from '../core/rum/alert-check.ts';
import { RECONCILE_EVERY } from '../core/scan/lifecycle.ts';
import type { SlotRequest } from '../core/scan/slots.ts';
import type { AttemptOutcomeKind, DeliveryRef, WebhookDeliveryInput } from '../core/webhooks/delivery.ts';
import type { AccountDeletionInput } from '../core/account-deletion.ts';
import {
  accountDeletionSummary,
  accountDeletionWorkflowId,
  DeliveryIdAttribute,
  flowIdOfSchedule,
  flowRunWorkflowId,
  flowScheduleId,
  UserIdAttribute,
  WebhookEventAttribute,
  webhookDeliveryWorkflowId,
  webhookResendWorkflowId,
  webhookTaskQueue,
  healthCheckWorkflowId,
  rumAlertCheckScheduleId,
  HostAttribute,
  mainTaskQueue,
  SCAN_SLOT_SIGNALS,
  scanDispatcherSummary,
  scanDispatcherWorkflowId,
  ScanIdAttribute,
  scanReconcilerScheduleId,
  scanSummary,
  scanTaskQueue,
  scanWorkflowId,
  targetIdOfSchedule,
  targetReconcilerScheduleId,
  targetRunNowWorkflowId,
  targetScheduleId,
  TargetIdAttribute,
  TEMPORAL_CHANNEL_ARGS,
} from '../core/temporal.ts';

/**
 * The one place that talks to Temporal as a client: connecting, and every workflow we start (scans, the
 * health round trip, the region dispatchers, the reconcilers' schedules, webhook deliveries and resends) and every target schedule. Workflow ids, queues and search
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
  await client.connection.withDeadline(Date.now() + 2000, () =>
    client.connection.workflowService.describeNamespace({ namespace: client.options.namespace }),
  );
}

/** With Temporal away the client would keep retrying while the caller waits; a start gives up after this. */
const START_DEADLINE_MS = 5000;

/** Runs calls to Temporal made by a request under the same deadline as a start, so an outage fails fast (503). */
const withinDeadline = <T>(client: Client, call: () => Promise<T>): Promise<T> =>
  client.connection.withDeadline(Date.now() + START_DEADLINE_MS, call);

/** Starts `scan-<public id>` on the main queue; its Lighthouse activity goes to the region's scan queue. */
export async function startScanWorkflow(
  client: Client,
  prefix: string,
  scan: { publicId: string; host: string; region: string },
): Promise<void> {
  await client.connection.withDeadline(Date.now() + START_DEADLINE_MS, () =>
    client.workflow.start('scanWorkflow', {
      workflowId: scanWorkflowId(scan.publicId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ publicId: scan.publicId, scanTaskQueue: scanTaskQueue(prefix, scan.region) }],
      staticSummary: scanSummary(scan),
      typedSearchAttributes: [
        { key: ScanIdAttribute, value: scan.publicId },
        { key: HostAttribute, value: scan.host },
      ],
    }),
  );
}

/**
 * Starts `flow-run-<run id>` on the main queue (workflows/flow-run.ts): it takes a slot of the region's dispatcher
 * like a scan, then runs the flow on the region's scan queue. Only ids go in: the secrets stay in Postgres.
 */
export async function startFlowRunWorkflow(
  client: Client,
  prefix: string,
  run: { runId: string; userId: number; host: string; region: string },
): Promise<void> {
  await withinDeadline(client, () =>
    client.workflow.start('flowRunWorkflow', {
      workflowId: flowRunWorkflowId(run.runId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ runId: run.runId, scanTaskQueue: scanTaskQueue(prefix, run.region) }],
      staticSummary: `User flow run ${run.runId} on ${run.host} (region ${run.region})`,
      typedSearchAttributes: [
        { key: UserIdAttribute, value: String(run.userId) },
        { key: HostAttribute, value: run.host },
      ],
    }),
  );
}

/**
 * A target's "Run now": the target scan workflow its schedule starts, on the main queue with its TargetId,
 * for the scan the request stored (`scanId`), so the scan runs and is judged for alerts as a scheduled one.
 */
export async function startTargetRunNowWorkflow(
  client: Client,
  prefix: string,
  run: { targetId: number; scanId: string },
): Promise<void> {
  await withinDeadline(client, () =>
    client.workflow.start('targetScanWorkflow', {
      workflowId: targetRunNowWorkflowId(prefix, run.targetId, run.scanId),
      taskQueue: mainTaskQueue(prefix),
      args: [{ targetId: run.targetId, scanId: run.scanId } satisfies TargetScanInput],
      staticSummary: `Run-now scan of target ${run.targetId}`,
      typedSearchAttributes: [{ key: TargetIdAttribute, value: String(run.targetId) }],
    }),
  );
}

// ---- webhook deliveries (workflows/webhook-delivery.ts; outbox rules: services/webhook-dispatch.ts) ----

/** What operators search by in the Temporal UI (DeliveryId, UserId, WebhookEvent) and the one-line summary. */
const webhookStartOptions = (prefix: string, delivery: DeliveryRef) => ({
  taskQueue: webhookTaskQueue(prefix),
  staticSummary: `Webhook ${delivery.event}, delivery ${delivery.id}, user ${delivery.userId}`,
  typedSearchAttributes: [
    { key: UserIdAttribute, value: String(delivery.userId) },
    { key: WebhookEventAttribute, value: delivery.event },
    { key: DeliveryIdAttribute, value: String(delivery.id) },
  ],
});

/**
 * Starts the delivery's one workflow (`{queue}-webhook-{id}`, never a second run for the id, even after the
 * first has ended). 'started', or 'existed' when a start before (the sweeper, a retried start) got there first.
 */
export async function startWebhookDeliveryWorkflow(
  client: Client,
  prefix: string,
  delivery: DeliveryRef,
  input: Omit<WebhookDeliveryInput, 'deliveryId'>,
): Promise<'started' | 'existed'> {
  try {
    await withinDeadline(client, () =>
      client.workflow.start('webhookDeliveryWorkflow', {
        ...webhookStartOptions(prefix, delivery),
        workflowId: webhookDeliveryWorkflowId(mainTaskQueue(prefix), delivery.id),
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        args: [{ ...input, deliveryId: delivery.id } satisfies WebhookDeliveryInput],
      }),
    );
    return 'started';
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return 'existed';
    throw error;
  }
}

/** The outcome of the delivery's workflow, once it has ended (waits for it). */
export async function webhookDeliveryResult(
  client: Client,
  prefix: string,
  deliveryId: number,
): Promise<AttemptOutcomeKind> {
  return (await client.workflow
    .getHandle(webhookDeliveryWorkflowId(mainTaskQueue(prefix), deliveryId))
    .result()) as AttemptOutcomeKind;
}

/** One more attempt at a delivery, whatever became of it (a workflow of its own beside the delivery's). */
export async function startWebhookResendWorkflow(client: Client, prefix: string, delivery: DeliveryRef): Promise<void> {
  await withinDeadline(client, () =>
    client.workflow.start('webhookDeliveryWorkflow', {
      ...webhookStartOptions(prefix, delivery),
      workflowId: webhookResendWorkflowId(
        mainTaskQueue(prefix),
        delivery.id,
        `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`,
      ),
      args: [{ deliveryId: delivery.id, single: true } satisfies WebhookDeliveryInput],
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
export async function requestScanSlot(
  client: Client,
  prefix: string,
  region: string,
  request: SlotRequest,
): Promise<{ dispatcherId: string }> {
  const dispatcherId = scanDispatcherWorkflowId(prefix, region);
  await client.workflow.signalWithStart('scanDispatcherWorkflow', {
    workflowId: dispatcherId,
    taskQueue: mainTaskQueue(prefix),
    args: [],
    signal: SCAN_SLOT_SIGNALS.request,
    signalArgs: [request],
    // Taken when this call starts the dispatcher; one already running keeps its own.
    staticSummary: scanDispatcherSummary(region),
  });
  return { dispatcherId };
}

/** The reconciler's schedule: created on first start, brought up to date on every later one. */
export const ensureReconcilerSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(client, prefix, scanReconcilerScheduleId(prefix), 'reconcileScansWorkflow', RECONCILE_EVERY);

/** The target reconciler's schedule (workflows/reconcile.ts), created or brought up to date like the scan reconciler's. */
export const ensureTargetReconcilerSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(
    client,
    prefix,
    targetReconcilerScheduleId(prefix),
    'reconcileTargetsWorkflow',
    TARGET_RECONCILE_EVERY,
  );

/** The live-data alert check's schedule: every 5 minutes, overlap SKIP (workflows/rum-alerts.ts). */
export const ensureRumAlertCheckSchedule = (client: Client, prefix: string) =>
  ensureRecurringSchedule(
    client,
    prefix,
    rumAlertCheckScheduleId(prefix),
    'rumAlertCheckWorkflow',
    `${RUM_ALERT_CHECK_EVERY_MINUTES} minutes`,
  );

/** A schedule running `workflowType` on the main queue every `every`, skipping overlaps: created, or updated to this definition. */
async function ensureRecurringSchedule(
  client: Client,
  prefix: string,
  scheduleId: string,
  workflowType: string,
  every: Duration,
): Promise<{ scheduleId: string; created: boolean }> {
  const options = {
    scheduleId,
    spec: { intervals: [{ every }] },
    action: {
      type: 'startWorkflow' as const,
      workflowType,
      taskQueue: mainTaskQueue(prefix),
      workflowId: `${scheduleId}-run`,
      staticSummary: `${workflowType}, every ${String(every)}`,
    },
    policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
  } satisfies ScheduleOptions;
  try {
    await client.schedule.create(options);
    return { scheduleId, created: true };
  } catch (error) {
    if (!(error instanceof ScheduleAlreadyRunning)) throw error;
    await client.schedule.getHandle(scheduleId).update((previous) => ({
      ...previous,
      spec: options.spec,
      action: options.action,
      policies: { ...previous.policies, ...options.policies },
    }));
    return { scheduleId, created: false };
  }
}

/** Runs the target reconciler now (the worker does at start), unless a run is still going. */
export async function triggerTargetReconciler(client: Client, prefix: string): Promise<void> {
  await client.schedule.getHandle(targetReconcilerScheduleId(prefix)).trigger(ScheduleOverlapPolicy.SKIP);
}

// ---- target schedules (rules: core/monitoring/schedule.ts) ----

export interface TargetScheduleTarget {
  id: number;
  isActive: boolean;
}

/**
 * Creates the target's schedule, paused when the target is. Idempotent: a schedule already there (a retried
 * request, a reconciler run) is brought to the same definition and state.
 */
export async function createTargetSchedule(
  client: Client,
  prefix: string,
  target: TargetScheduleTarget,
): Promise<void> {
  await createOrUpdateSchedule(client, targetScheduleOptions(prefix, target));
}

/** Creates a schedule; one already there is brought to the options' definition and paused state. */
async function createOrUpdateSchedule(
  client: Client,
  options: ReturnType<typeof targetScheduleOptions> | ReturnType<typeof flowScheduleOptions>,
): Promise<void> {
  await withinDeadline(client, async () => {
    try {
      await client.schedule.create(options);
    } catch (error) {
      if (!(error instanceof ScheduleAlreadyRunning)) throw error;
      await client.schedule.getHandle(options.scheduleId).update((previous) => ({
        ...previous,
        spec: options.spec,
        action: options.action,
        policies: options.policies,
        state: { ...previous.state, paused: options.state.paused, note: options.state.note },
      }));
    }
  });
}

/** Pauses or resumes the target's schedule; one that is missing is created in the wanted state. */
export async function setTargetSchedulePaused(
  client: Client,
  prefix: string,
  target: TargetScheduleTarget,
): Promise<void> {
  const handle = client.schedule.getHandle(targetScheduleId(prefix, target.id));
  try {
    await withinDeadline(client, () =>
      target.isActive ? handle.unpause('resumed by its owner') : handle.pause('paused by its owner'),
    );
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
    await createTargetSchedule(client, prefix, target);
  }
}

/** Deletes a schedule; one that is already gone counts as deleted. */
async function deleteSchedule(client: Client, scheduleId: string): Promise<void> {
  try {
    await withinDeadline(client, () => client.schedule.getHandle(scheduleId).delete());
  } catch (error) {
    if (!(error instanceof ScheduleNotFoundError)) throw error;
  }
}

/** A schedule as Temporal has it, or null when there is none. */
async function describeSchedule(client: Client, scheduleId: string): Promise<ScheduleDescription | null> {
  try {
    return await withinDeadline(client, () => client.schedule.getHandle(scheduleId).describe());
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) return null;
    throw error;
  }
}

/** Deletes the target's schedule; one that is already gone counts as deleted. */
export const deleteTargetSchedule = (client: Client, prefix: string, targetId: number): Promise<void> =>
  deleteSchedule(client, targetScheduleId(prefix, targetId));

/** The target's schedule as Temporal has it, or null when there is none. */
export const describeTargetSchedule = (
  client: Client,
  prefix: string,
  targetId: number,
): Promise<ScheduleDescription | null> => describeSchedule(client, targetScheduleId(prefix, targetId));

export async function listTargetSchedules(client: Client, prefix: string): Promise<Map<number, { paused: boolean }>> {
  const schedules = new Map<number, { paused: boolean }>();
  for await (const summary of client.schedule.list({ pageSize: 1000 })) {
    const targetId = targetIdOfSchedule(prefix, summary.scheduleId);
    if (targetId !== null) schedules.set(targetId, { paused: summary.state.paused });
  }
  return schedules;
}

/**
 * Deletes every target schedule of a task-queue prefix and its reconciler's schedule: the clean-up of a test
 * run or a benchmark, whose prefix is its own. Returns how many target schedules went.
 */
export async function deleteTargetSchedulesOf(client: Client, prefix: string): Promise<number> {
  await client.schedule
    .getHandle(targetReconcilerScheduleId(prefix))
    .delete()
    .catch(() => undefined);
  const ids = [...(await listTargetSchedules(client, prefix)).keys()];
  for (const id of ids) await deleteTargetSchedule(client, prefix, id);
  for (const id of await listFlowSchedules(client, prefix)) await deleteFlowSchedule(client, prefix, id);
  return ids.length;
}

// ---- monitored flows' schedules (rules: core/monitoring/schedule.ts flowScheduleOptions) ----

/** Creates the flow's schedule; one already there (a retried request, a reconciler run) is brought to the same definition. */
export async function createFlowSchedule(client: Client, prefix: string, flow: { id: number }): Promise<void> {
  await createOrUpdateSchedule(client, flowScheduleOptions(prefix, flow));
}

/** Deletes the flow's schedule; one that is already gone counts as deleted. */
export const deleteFlowSchedule = (client: Client, prefix: string, flowId: number): Promise<void> =>
  deleteSchedule(client, flowScheduleId(prefix, flowId));

/** The flow's schedule as Temporal has it, or null when there is none. */
export const describeFlowSchedule = (
  client: Client,
  prefix: string,
  flowId: number,
): Promise<ScheduleDescription | null> => describeSchedule(client, flowScheduleId(prefix, flowId));

/** The flow ids of every flow schedule of this prefix, from Temporal's (eventually consistent) schedule list. */
export async function listFlowSchedules(client: Client, prefix: string): Promise<number[]> {
  const ids: number[] = [];
  for await (const summary of client.schedule.list({ pageSize: 1000 })) {
    const flowId = flowIdOfSchedule(prefix, summary.scheduleId);
    if (flowId !== null) ids.push(flowId);
  }
  return ids;
}

// ---- account deletion (workflows/account-deletion.ts) ----

/**
 * Starts the account's deletion workflow on the main queue: 'started', or 'running' when one runs already (a
 * second submission of the form). A finished one for the id may be followed by a new run.
 */
export async function startAccountDeletionWorkflow(
  client: Client,
  prefix: string,
  userId: number,
): Promise<{ status: 'started' | 'running'; runId?: string }> {
  try {
    const handle = await withinDeadline(client, () =>
      client.workflow.start('accountDeletionWorkflow', {
        workflowId: accountDeletionWorkflowId(userId),
        taskQueue: mainTaskQueue(prefix),
        args: [{ userId } satisfies AccountDeletionInput],
        workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE,
        staticSummary: accountDeletionSummary(userId),
        typedSearchAttributes: [{ key: UserIdAttribute, value: String(userId) }],
      }),
    );
    return { status: 'started', runId: handle.firstExecutionRunId };
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) return { status: 'running' };
    throw error;
  }
}

/** Ends a workflow at once if it still runs; one that has ended or never existed counts as stopped. */
export async function terminateIfRunning(client: Client, workflowId: string, reason: string): Promise<boolean> {
  try {
    await withinDeadline(client, () => client.workflow.getHandle(workflowId).terminate(reason));
    return true;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return false;
    throw error;
  }
}
