/**
 * Temporal Cloud's billable actions, counted from real workflow histories (bench/capacity.ts). The rules follow
 * Temporal Cloud's published definition (https://docs.temporal.io/cloud/actions): a workflow started (client,
 * continue-as-new) 1; a child workflow 2 (its start and its execution, counted at the parent); every activity
 * start or retry 1; a timer 1; a signal 1, counted where it is sent (from a workflow: its
 * SignalExternalWorkflowExecutionInitiated; from a client or an activity: the receiver's WorkflowExecutionSignaled,
 * which then names no sending workflow); a search-attribute upsert 1; the local activities and side effects of
 * one workflow task 1; an update 1; a schedule's run 2 besides its workflow's start (added by the caller).
 * Heartbeats that reach the server are billed but are not in the history: they are estimated from each
 * heartbeating activity's duration and the SDK's throttle (80 % of the heartbeat timeout, the first at once).
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const EventType = proto.temporal.api.enums.v1.EventType;

export interface ActionLine {
  workflowType: string;
  eventId: number;
  event: string;
  actions: number;
  why: string;
}

export interface ActionCount {
  /** Billable actions in the histories walked (heartbeats estimated). */
  actions: number;
  /** Workflow executions walked (the root and its children, recursively). */
  workflows: number;
  /** History events in all of them (Temporal's history limits are per execution: 51,200 events, 50 MB). */
  events: number;
  lines: ActionLine[];
}

const eventName = (type: number | null | undefined) =>
  (EventType[type ?? 0] ?? `EVENT_${type}`).replace(/^EVENT_TYPE_/, '');

const ms = (time: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
  Number(time?.seconds ?? 0) * 1000 + Math.round((time?.nanos ?? 0) / 1e6);

/** The billable actions of one history's events, event by event (those that bill anything). */
export function classifyHistory(workflowType: string, events: readonly HistoryEvent[]): ActionLine[] {
  const lines: ActionLine[] = [];
  const line = (event: HistoryEvent, actions: number, why: string) =>
    lines.push({ workflowType, eventId: Number(event.eventId), event: eventName(event.eventType), actions, why });
  const byId = new Map(events.map((event) => [Number(event.eventId), event]));
  const markerTasks = new Set<number>();
  for (const event of events) {
    switch (event.eventType) {
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED: {
        const started = event.workflowExecutionStartedEventAttributes;
        if (started?.parentWorkflowExecution) line(event, 0, 'child workflow: billed at its parent');
        else if (started?.continuedExecutionRunId) line(event, 1, 'continue-as-new');
        else line(event, 1, 'workflow started');
        break;
      }
      case EventType.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED:
        line(event, 2, 'child workflow: its start and its execution');
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_STARTED: {
        const attempt = event.activityTaskStartedEventAttributes?.attempt ?? 1;
        const scheduled = byId.get(Number(event.activityTaskStartedEventAttributes?.scheduledEventId));
        const name = scheduled?.activityTaskScheduledEventAttributes?.activityType?.name ?? '?';
        line(event, attempt, `activity ${name} started${attempt > 1 ? ` (${attempt} attempts)` : ''}`);
        break;
      }
      case EventType.EVENT_TYPE_TIMER_STARTED:
        line(event, 1, 'timer started');
        break;
      case EventType.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED:
        line(event, 1, `signal ${event.signalExternalWorkflowExecutionInitiatedEventAttributes?.signalName} sent`);
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED: {
        const signaled = event.workflowExecutionSignaledEventAttributes;
        if (signaled?.externalWorkflowExecution?.workflowId)
          line(event, 0, `signal ${signaled.signalName} received: billed at the sending workflow`);
        else line(event, 1, `signal ${signaled?.signalName} from a client or activity`);
        break;
      }
      case EventType.EVENT_TYPE_UPSERT_WORKFLOW_SEARCH_ATTRIBUTES:
        line(event, 1, 'search attributes upserted');
        break;
      case EventType.EVENT_TYPE_MARKER_RECORDED: {
        const marker = event.markerRecordedEventAttributes;
        if (marker?.markerName === 'core_patch') break; // versioning markers are exempt
        const task = Number(marker?.workflowTaskCompletedEventId);
        line(event, markerTasks.has(task) ? 0 : 1, `${marker?.markerName}: one per workflow task`);
        markerTasks.add(task);
        break;
      }
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_ACCEPTED:
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_UPDATE_REJECTED:
        line(event, 1, 'update');
        break;
      case EventType.EVENT_TYPE_WORKFLOW_EXECUTION_OPTIONS_UPDATED:
        line(event, 1, 'workflow options updated');
        break;
      case EventType.EVENT_TYPE_ACTIVITY_TASK_COMPLETED:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_FAILED:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_TIMED_OUT:
      case EventType.EVENT_TYPE_ACTIVITY_TASK_CANCELED: {
        const heartbeats = estimatedHeartbeats(event, byId);
        if (heartbeats > 0) line(event, heartbeats, 'heartbeats recorded (estimated from the duration)');
        break;
      }
    }
  }
  return lines;
}

/** Heartbeats of an ended activity that reached the server: the first at once, then one per throttle interval. */
function estimatedHeartbeats(ended: HistoryEvent, byId: Map<number, HistoryEvent>): number {
  const ids =
    ended.activityTaskCompletedEventAttributes ??
    ended.activityTaskFailedEventAttributes ??
    ended.activityTaskTimedOutEventAttributes ??
    ended.activityTaskCanceledEventAttributes;
  const scheduled = byId.get(Number(ids?.scheduledEventId))?.activityTaskScheduledEventAttributes;
  const started = byId.get(Number(ids?.startedEventId));
  const timeoutMs = ms(scheduled?.heartbeatTimeout);
  if (!timeoutMs || !started) return 0;
  return 1 + Math.floor((ms(ended.eventTime) - ms(started.eventTime)) / (0.8 * timeoutMs));
}

/**
 * A workflow execution and every child it started (recursively), each waited for until it has closed, with
 * their billable actions. `scheduled` adds the schedule's own 2 actions of a run it started.
 */
export async function countWorkflowTree(
  client: Client,
  workflowId: string,
  options: { runId?: string; scheduled?: boolean } = {},
): Promise<ActionCount> {
  const count: ActionCount = { actions: 0, workflows: 0, events: 0, lines: [] };
  const walk = async (id: string, runId: string | undefined) => {
    const handle = client.workflow.getHandle(id, runId);
    await handle.result().catch(() => undefined);
    const events = (await handle.fetchHistory()).events ?? [];
    const type = events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '?';
    const lines = classifyHistory(type, events);
    count.workflows += 1;
    count.events += events.length;
    count.lines.push(...lines);
    for (const event of events) {
      const child = event.childWorkflowExecutionStartedEventAttributes?.workflowExecution;
      if (child?.workflowId) await walk(child.workflowId, child.runId ?? undefined);
    }
  };
  await walk(workflowId, options.runId);
  if (options.scheduled)
    count.lines.unshift({ workflowType: 'schedule', eventId: 0, event: '(schedule run)', actions: 2, why: 'schedule' });
  count.actions = count.lines.reduce((sum, l) => sum + l.actions, 0);
  return count;
}

/** Every run of a workflow id (continue-as-new makes several), with their actions and events. */
export async function countAllRuns(client: Client, workflowId: string): Promise<ActionCount & { runs: number }> {
  const count: ActionCount & { runs: number } = { actions: 0, workflows: 0, events: 0, lines: [], runs: 0 };
  for await (const run of client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) {
    const events = (await client.workflow.getHandle(workflowId, run.runId).fetchHistory()).events ?? [];
    const lines = classifyHistory(run.type, events);
    count.runs += 1;
    count.workflows += 1;
    count.events += events.length;
    count.lines.push(...lines);
  }
  count.actions = count.lines.reduce((sum, l) => sum + l.actions, 0);
  return count;
}

/** The event-by-event classification, one line per billed event, for the record. */
export function printActionLines(title: string, count: ActionCount): void {
  console.log(`${title}: ${count.actions} actions in ${count.workflows} workflow(s), ${count.events} events`);
  for (const l of count.lines.filter((x) => x.actions > 0))
    console.log(
      `  ${l.workflowType.padEnd(26)} #${String(l.eventId).padEnd(4)} ${l.event.padEnd(44)} ${l.actions}  ${l.why}`,
    );
}
