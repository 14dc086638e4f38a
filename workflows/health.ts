import { proxyActivities } from '@temporalio/workflow';
import type { Activities, WorkerHealth } from '../activities/index.ts';

const { workerHealth } = proxyActivities<Activities>({
  startToCloseTimeout: '10 seconds',
  scheduleToCloseTimeout: '20 seconds',
  retry: { maximumAttempts: 2 },
});

/** Round trip client → Temporal → worker → Postgres → back; the API's full readiness check runs it. */
export async function healthCheckWorkflow(): Promise<WorkerHealth> {
  return await workerHealth();
}
