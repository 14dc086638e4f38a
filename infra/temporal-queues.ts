import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';

/** How long one look at a task queue serves every metric that asks (a scrape reads backlog and pollers). */
export const QUEUE_PROBE_SHARED_MS = 5_000;

/** Pollers seen within this long count as serving the queue. */
const POLLER_RECENT_MS = 60_000;

/**
 * A scan queue as Temporal sees it: the activity tasks waiting (approximate backlog) and the workers that
 * polled it recently. Null when Temporal does not answer in time.
 */
export async function probeScanQueue(
  client: Client,
  namespace: string,
  taskQueue: string,
): Promise<{ backlog: number; pollers: number } | null> {
  const answer = await client.connection.withDeadline(Date.now() + 2_000, () =>
    client.workflowService.describeTaskQueue({
      namespace,
      taskQueue: { name: taskQueue, kind: proto.temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType: proto.temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
      reportStats: true,
    }),
  );
  const now = Date.now();
  const recent = (answer.pollers ?? []).filter((poller) => {
    const seconds = Number(poller.lastAccessTime?.seconds ?? 0);
    return seconds === 0 || now - seconds * 1000 < POLLER_RECENT_MS;
  });
  return { backlog: Number(answer.stats?.approximateBacklogCount ?? 0), pollers: recent.length };
}

/** One probe per region at most every `ms`, shared by everyone asking meanwhile. */
export function sharedPerRegion<T>(ms: number, probe: (region: string) => Promise<T>): (region: string) => Promise<T> {
  const cache = new Map<string, { at: number; value: Promise<T> }>();
  return (region) => {
    const hit = cache.get(region);
    if (hit && Date.now() - hit.at < ms) return hit.value;
    const value = probe(region);
    cache.set(region, { at: Date.now(), value });
    value.catch(() => cache.delete(region));
    return value;
  };
}
