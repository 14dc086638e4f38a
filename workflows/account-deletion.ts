import { proxyActivities } from '@temporalio/workflow';
import type { AccountDeletionActivities } from '../activities/account-deletion.ts';
import type { AccountDeletionInput, AccountDeletionReport } from '../core/account-deletion.ts';

/**
 * Retried without a limit of attempts, at most a minute apart: a step waits out an outage of Postgres,
 * ClickHouse or Temporal instead of failing the deletion. No timer other than these retries.
 */
const steps = proxyActivities<AccountDeletionActivities>({
  startToCloseTimeout: '10 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

/**
 * Removes everything of an account its owner closed (web/account/data-routes.ts closes it in one
 * transaction and starts this as `<prefix>-account-deletion-<userId>`): target schedules with their targets, the
 * workflows of scans and webhook deliveries still running, scan images, live-data rows in ClickHouse, the
 * account's Postgres rows, finally the user row. Each step is an idempotent activity; the order keeps what
 * later steps find things through (the Postgres rows) until last. Running it again is harmless.
 */
export async function accountDeletionWorkflow(input: AccountDeletionInput): Promise<AccountDeletionReport> {
  const { userId } = input;
  await steps.checkAccountClosed(userId);
  const schedules = await steps.removeTargetSchedules(userId);
  const stoppedWorkflows = await steps.stopWorkflows(userId);
  const scanImageFolders = await steps.removeScanImages(userId);
  const liveDataSites = await steps.removeLiveData(userId);
  const rows = await steps.removeRows(userId);
  const userRow = await steps.removeUser(userId);
  return { userId, schedules, stoppedWorkflows, scanImageFolders, liveDataSites, rows, userRow };
}
