import { WorkflowIdReusePolicy } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { TargetScanInput } from '../core/monitoring/schedule.ts';
import type { SlotRequest } from '../core/scan/slots.ts';
import type { AttemptOutcomeKind, DeliveryRef, WebhookDeliveryInput } from '../core/webhooks/delivery.ts';
import type { AccountDeletionInput } from '../core/account-deletion.ts';
import {
  accountDeletionSummary,
  accountDeletionWorkflowId,
  DeliveryIdAttribute,
  flowRunWorkflowId,
  UserIdAttribute,
  WebhookEventAttribute,
  webhookDeliveryWorkflowId,
  webhookResendWorkflowId,
  webhookTaskQueue,
  healthCheckWorkflowId,
  HostAttribute,
  mainTaskQueue,
  SCAN_SLOT_SIGNALS,
  scanDispatcherSummary,
  scanDispatcherWorkflowId,
  ScanIdAttribute,
  scanSummary,
  scanTaskQueue,
  scanWorkflowId,
  targetRunNowWorkflowId,
  TargetIdAttribute,
} from '../core/temporal.ts';
import { START_DEADLINE_MS, withinDeadline } from './temporal-connection.ts';

/**
 * The one place that starts workflows as a Temporal client (scans, the health round trip, the region
 * dispatchers, webhook deliveries and resends, account deletions); connecting is in temporal-connection.ts and
 * every schedule in temporal-schedules.ts, both re-exported here. Workflow ids, queues and search attributes
 * come from core/temporal.ts.
 */

export { createTemporalClient, temporalReachable, type TemporalSettings } from './temporal-connection.ts';
export {
  createFlowSchedule,
  createTargetSchedule,
  deleteFlowSchedule,
  deleteTargetSchedule,
  deleteTargetSchedulesOf,
  describeFlowSchedule,
  describeTargetSchedule,
  ensureReconcilerSchedule,
  ensureRumAlertCheckSchedule,
  ensureTargetReconcilerSchedule,
  listFlowSchedules,
  listTargetSchedules,
  setTargetSchedulePaused,
  type TargetScheduleTarget,
  triggerTargetReconciler,
} from './temporal-schedules.ts';

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
        workflowId: accountDeletionWorkflowId(prefix, userId),
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
