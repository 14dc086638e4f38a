import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * Task queues: general work on one queue; Lighthouse on one queue per region so regional workers serve them.
 * The prefix (TEMPORAL_TASK_QUEUE_PREFIX) lets several deployments or test runs share one namespace.
 */
export const mainTaskQueue = (prefix: string): string => `${prefix}-main`;
export const scanTaskQueue = (prefix: string, region: string): string => `${prefix}-scan-${region}`;
/**
 * Webhook deliveries (their workflows and attempts), served by the webhook worker with slots of its own, so a
 * slow receiver never takes the main queue's workers (WORKER_ROLE in infra/config.ts).
 */
export const webhookTaskQueue = (prefix: string): string => `${prefix}-webhooks`;

/** Custom search attributes that let operators find workflows in the Temporal UI by scan id, host, target. */
export const ScanIdAttribute = defineSearchAttributeKey('ScanId', SearchAttributeType.KEYWORD);
export const HostAttribute = defineSearchAttributeKey('Host', SearchAttributeType.KEYWORD);
export const TargetIdAttribute = defineSearchAttributeKey('TargetId', SearchAttributeType.KEYWORD);
/** Webhook deliveries: whose, and which event. */
export const UserIdAttribute = defineSearchAttributeKey('UserId', SearchAttributeType.KEYWORD);
export const WebhookEventAttribute = defineSearchAttributeKey('WebhookEvent', SearchAttributeType.KEYWORD);
export const DeliveryIdAttribute = defineSearchAttributeKey('DeliveryId', SearchAttributeType.KEYWORD);
export const SEARCH_ATTRIBUTES = [
  ScanIdAttribute,
  HostAttribute,
  TargetIdAttribute,
  UserIdAttribute,
  WebhookEventAttribute,
  DeliveryIdAttribute,
] as const;

/**
 * gRPC channel options of our Temporal clients. gRPC's reconnect backoff grows to 2 minutes while the server
 * is away, so after an outage the API would refuse scans (503) for up to that long after Temporal is back;
 * capped at 5 s, it is back within seconds.
 */
export const TEMPORAL_CHANNEL_ARGS = {
  'grpc.initial_reconnect_backoff_ms': 500,
  'grpc.max_reconnect_backoff_ms': 5000,
} as const;

export const healthCheckWorkflowId = (nonce: string): string => `health-check-${nonce}`;

export const scanWorkflowId = (publicId: string): string => `scan-${publicId}`;
/** One workflow per user-flow run (workflows/flow-run.ts). */
export const flowRunWorkflowId = (runPublicId: string): string => `flow-run-${runPublicId}`;
/**
 * The workflow a region dispatcher grants a slot to. Slot holders are scans, by their public id, and flow runs,
 * by their workflow id (`flow-run-…`, which no public id can be).
 */
export const slotHolderWorkflowId = (holderId: string): string =>
  holderId.startsWith('flow-run-') ? holderId : scanWorkflowId(holderId);
/** A scan workflow's one-line summary in the Temporal UI, the API's scans and targets' scheduled ones alike. */
export const scanSummary = (scan: { host: string; region?: string; publicId: string; targetId?: number }): string =>
  `Scan of ${scan.host}${scan.region ? ` (region ${scan.region})` : ''}, scan ${scan.publicId}${scan.targetId === undefined ? '' : `, target ${scan.targetId}`}`;
/** The schedule that runs the scan reconciler; one per task-queue prefix. */
export const scanReconcilerScheduleId = (prefix: string): string => `${prefix}-scan-reconciler`;

/** One per region: hands the region's Lighthouse slots out fairly between accounts (workflows/scan-dispatch.ts). */
export const scanDispatcherWorkflowId = (prefix: string, region: string): string => `${prefix}-scan-dispatch-${region}`;
export const scanDispatcherSummary = (region: string): string =>
  `Scan slots of region ${region}: grants them to queued scans, fairly between accounts`;
/** Signal names between scan workflows and their region's dispatcher; activities signal by name too. */
export const SCAN_SLOT_SIGNALS = {
  request: 'requestScanSlot',
  release: 'releaseScanSlot',
  granted: 'scanSlotGranted',
} as const;

/**
 * One Temporal Schedule per monitored target. The task-queue prefix is part of the id (like the reconciler's),
 * so that deployments and test runs sharing a namespace, whose target ids all start at 1, never meet.
 */
export const targetScheduleId = (prefix: string, targetId: number): string => `${prefix}-target-${targetId}`;
/** The target id of one of our target schedules' ids, or null for any other schedule. */
export function targetIdOfSchedule(prefix: string, scheduleId: string): number | null {
  const rest = scheduleId.startsWith(`${prefix}-target-`) ? scheduleId.slice(prefix.length + '-target-'.length) : '';
  return /^[1-9][0-9]{0,14}$/.test(rest) ? Number(rest) : null;
}
/** One Temporal Schedule per monitored user flow, by the flow's row id; the prefix as for targets. */
export const flowScheduleId = (prefix: string, flowId: number): string => `${prefix}-flow-${flowId}`;
/** The flow id of one of our flow schedules' ids, or null for any other schedule. */
export function flowIdOfSchedule(prefix: string, scheduleId: string): number | null {
  const rest = scheduleId.startsWith(`${prefix}-flow-`) ? scheduleId.slice(prefix.length + '-flow-'.length) : '';
  return /^[1-9][0-9]{0,14}$/.test(rest) ? Number(rest) : null;
}
/** A target's "Run now": the target scan workflow the schedule would start, for this one scan. */
export const targetRunNowWorkflowId = (prefix: string, targetId: number, scanPublicId: string): string =>
  `${targetScheduleId(prefix, targetId)}-now-${scanPublicId}`;
/** The schedule that runs the target-schedule reconciler; one per task-queue prefix. */
/** The confirmation of the regression candidates a target's scan made (workflows/target-confirm.ts): one per scan. */
export const targetConfirmWorkflowId = (targetId: number, scanPublicId: string): string =>
  `target-confirm-${targetId}-${scanPublicId}`;

export const targetReconcilerScheduleId = (prefix: string): string => `${prefix}-target-reconciler`;
/** The live-data alert check's schedule (every 5 minutes; workflows/rum-alerts.ts). */
export const rumAlertCheckScheduleId = (prefix: string): string => `${prefix}-rum-alert-check`;
/** One e-mail per live-data alert, change and occurrence (an alert can trigger again after it resolved). */
export const rumAlertEmailWorkflowId = (
  mainQueue: string,
  alertId: number,
  change: string,
  occurrenceMs: number,
): string => `${mainQueue}-rum-alert-email-${alertId}-${change}-${occurrenceMs}`;
/** One per alert and change: a second start while one runs is refused, so an e-mail is never sent twice at once. */
export const alertEmailWorkflowId = (mainQueue: string, alertId: number, change: string): string =>
  `${mainQueue}-alert-email-${alertId}-${change}`;

/**
 * One workflow per webhook delivery, its id from the delivery's, so a second start (the sweeper, a retried
 * start) is refused instead of sending twice. The id keeps the main queue's name (deliveries ran there before
 * they had a queue of their own): one id for a delivery whichever version started it. A resend (one more attempt, asked for in the settings) has an id of its own.
 */
export const webhookDeliveryWorkflowId = (mainQueue: string, deliveryId: number): string =>
  `${mainQueue}-webhook-${deliveryId}`;
export const webhookResendWorkflowId = (mainQueue: string, deliveryId: number, nonce: string): string =>
  `${mainQueue}-webhook-${deliveryId}-resend-${nonce}`;

/**
 * One per account being deleted (workflows/account-deletion.ts), findable in the Temporal UI by this id and by
 * UserId. The prefix keeps two deployments (or test databases) sharing a Temporal namespace apart: user ids repeat
 * across databases. Only one runs at a time per account; a finished one can be run again (every step is idempotent).
 */
export const accountDeletionWorkflowId = (prefix: string, userId: number): string =>
  `${prefix}-account-deletion-${userId}`;
export const accountDeletionSummary = (userId: number): string => `Deletion of account ${userId} and all its data`;
