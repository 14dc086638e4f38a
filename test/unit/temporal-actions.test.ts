import proto from '@temporalio/proto';
import { classifyHistory } from '../../bench/temporal-actions.ts';

type HistoryEvent = proto.temporal.api.history.v1.IHistoryEvent;
const T = proto.temporal.api.enums.v1.EventType;
const at = (seconds: number) => ({ seconds, nanos: 0 });
/** An event as the SDK gives it (64-bit fields as Long), from a plain object. */
const event = (fields: Record<string, unknown>): HistoryEvent =>
  proto.temporal.api.history.v1.HistoryEvent.fromObject(fields);

/** A made-up history with one of each billed kind (and some that bill nothing). */
function history(parent: boolean): HistoryEvent[] {
  const events: Array<Record<string, unknown>> = [
    {
      eventId: 1,
      eventType: T.EVENT_TYPE_WORKFLOW_EXECUTION_STARTED,
      workflowExecutionStartedEventAttributes: parent ? { parentWorkflowExecution: { workflowId: 'p' } } : {},
    },
    { eventId: 2, eventType: T.EVENT_TYPE_WORKFLOW_TASK_COMPLETED },
    {
      eventId: 3,
      eventType: T.EVENT_TYPE_ACTIVITY_TASK_SCHEDULED,
      activityTaskScheduledEventAttributes: { activityType: { name: 'scanPage' }, heartbeatTimeout: { seconds: 20 } },
    },
    {
      eventId: 4,
      eventType: T.EVENT_TYPE_ACTIVITY_TASK_STARTED,
      eventTime: at(100),
      activityTaskStartedEventAttributes: { scheduledEventId: 3, attempt: 3 },
    },
    {
      eventId: 5,
      eventType: T.EVENT_TYPE_ACTIVITY_TASK_COMPLETED,
      eventTime: at(140),
      activityTaskCompletedEventAttributes: { scheduledEventId: 3, startedEventId: 4 },
    },
    { eventId: 6, eventType: T.EVENT_TYPE_TIMER_STARTED },
    { eventId: 7, eventType: T.EVENT_TYPE_TIMER_FIRED },
    {
      eventId: 8,
      eventType: T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
      workflowExecutionSignaledEventAttributes: {
        signalName: 'granted',
        externalWorkflowExecution: { workflowId: 'd' },
      },
    },
    {
      eventId: 9,
      eventType: T.EVENT_TYPE_WORKFLOW_EXECUTION_SIGNALED,
      workflowExecutionSignaledEventAttributes: { signalName: 'fromClient' },
    },
    {
      eventId: 10,
      eventType: T.EVENT_TYPE_SIGNAL_EXTERNAL_WORKFLOW_EXECUTION_INITIATED,
      signalExternalWorkflowExecutionInitiatedEventAttributes: { signalName: 'release' },
    },
    { eventId: 11, eventType: T.EVENT_TYPE_START_CHILD_WORKFLOW_EXECUTION_INITIATED },
    {
      eventId: 12,
      eventType: T.EVENT_TYPE_MARKER_RECORDED,
      markerRecordedEventAttributes: { markerName: 'core_local_activity', workflowTaskCompletedEventId: 2 },
    },
    {
      eventId: 13,
      eventType: T.EVENT_TYPE_MARKER_RECORDED,
      markerRecordedEventAttributes: { markerName: 'core_local_activity', workflowTaskCompletedEventId: 2 },
    },
    {
      eventId: 14,
      eventType: T.EVENT_TYPE_MARKER_RECORDED,
      markerRecordedEventAttributes: { markerName: 'core_patch', workflowTaskCompletedEventId: 2 },
    },
    { eventId: 15, eventType: T.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED },
  ];
  return events.map(event);
}

const byEvent = (events: HistoryEvent[]) =>
  Object.fromEntries(classifyHistory('w', events).map((line) => [line.eventId, line.actions]));

it('bills each event as Temporal Cloud counts actions', () => {
  expect(byEvent(history(false))).toEqual({
    1: 1, // workflow started by a client
    4: 3, // an activity started, then retried twice
    5: 3, // heartbeats over 40 s, throttled to one per 16 s (80 % of 20 s), the first at once
    6: 1, // timer
    8: 0, // signal from a workflow: billed where it was sent
    9: 1, // signal from a client or an activity
    10: 1, // signal sent
    11: 2, // child workflow: its start and its execution
    12: 1, // local activities of one workflow task: one action
    13: 0,
  });
});

it('bills a child workflow at its parent, not again at its own start', () => {
  expect(byEvent(history(true))[1]).toBe(0);
});
