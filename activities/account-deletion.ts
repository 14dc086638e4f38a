import { ApplicationFailure } from '@temporalio/common';
import type { Client } from '@temporalio/client';
import { DELETION_BATCH, LIVE_DATA_SETTLE_MS } from '../core/account-deletion.ts';
import { flowRunWorkflowId, mainTaskQueue, scanWorkflowId, webhookDeliveryWorkflowId } from '../core/temporal.ts';
import type { AccountDataStore, RemovedRows } from '../db/store/account-data.ts';
import type { FlowStore } from '../db/store/flows.ts';
import type { TargetStore } from '../db/store/targets.ts';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';
import { deleteFlowSchedule, deleteTargetSchedule, terminateIfRunning } from '../infra/temporal-client.ts';
import type { AssetStore } from '../services/assets.ts';
import { emailHash } from '../services/sign-in-throttle.ts';

/** Deletes the live-data rows of these sites and answers the rows still there per table (all 0 when done). */
export type RumEraser = (siteIds: readonly number[]) => Promise<Record<string, number>>;

export interface AccountDeletionDeps {
  accountData: AccountDataStore;
  targets: TargetStore;
  flows: Pick<FlowStore, 'unmonitorOwned'>;
  temporal: () => Client;
  config: Pick<Config, 'temporal'>;
  assets: AssetStore;
  /** The worker passes ClickHouse's (db/clickhouse/rum-erase.ts); without it the live-data step fails and is retried. */
  rumErase?: RumEraser;
  log: Pick<Logger, 'info'>;
  clock: Clock;
}

const REASON = 'account deleted by its owner';

/**
 * The steps of workflows/account-deletion.ts. Each is idempotent: it works from what is still there, so a
 * retried attempt or a second run of the workflow finds less to do and succeeds. Images, schedules and
 * ClickHouse rows are found through the Postgres rows, which therefore go last.
 */
export function createAccountDeletionActivities(deps: AccountDeletionDeps) {
  const { accountData } = deps;
  const prefix = deps.config.temporal.taskQueuePrefix;
  return {
    /**
     * Refuses (for good) an account that exists and was not closed: the workflow only ever finishes what
     * closing the account began. True when the account row still exists.
     */
    async checkAccountClosed(userId: number): Promise<boolean> {
      const account = await accountData.account(userId);
      if (account && !account.deletedAt)
        throw ApplicationFailure.nonRetryable(`account ${userId} is not closed`, 'AccountNotClosed');
      return account !== undefined;
    },

    /**
     * Each target's schedule, then its row, under the target's lock (the reconciler takes it too, so it cannot
     * recreate the schedule); then every flow's monitoring is turned off and each flow's schedule deleted (one the
     * reconciler recreated meanwhile finds no monitored flow on its next pass and goes too).
     */
    async removeTargetSchedules(userId: number): Promise<number> {
      const ids = await accountData.targetIds(userId);
      for (const id of ids) {
        await deps.targets.withTargetLocked(id, async (target, locked) => {
          await deleteTargetSchedule(deps.temporal(), prefix, id);
          if (target?.userId === userId) await locked.delete(id, deps.clock());
        });
      }
      const flows = await deps.flows.unmonitorOwned(userId);
      for (const id of flows.ids) await deleteFlowSchedule(deps.temporal(), prefix, id);
      return ids.length + flows.turnedOff;
    },

    /** Scans and flow runs still queued or running and webhook deliveries not yet done: their workflows are terminated. */
    async stopWorkflows(userId: number): Promise<number> {
      let stopped = 0;
      for (const publicId of await accountData.inFlightScans(userId))
        if (await terminateIfRunning(deps.temporal(), scanWorkflowId(publicId), REASON)) stopped += 1;
      for (const runId of await accountData.inFlightFlowRuns(userId))
        if (await terminateIfRunning(deps.temporal(), flowRunWorkflowId(runId), REASON)) stopped += 1;
      for (const id of await accountData.pendingDeliveries(userId))
        if (await terminateIfRunning(deps.temporal(), webhookDeliveryWorkflowId(mainTaskQueue(prefix), id), REASON))
          stopped += 1;
      return stopped;
    },

    /** The image folder of every scan of the user's, a page of scans at a time, and of every flow run. */
    async removeScanImages(userId: number): Promise<number> {
      let removed = 0;
      for (const runId of await accountData.flowRunIds(userId)) if (await deps.assets.remove(runId)) removed += 1;
      for (let after = 0; ;) {
        const page = await accountData.scanIdPage(userId, after, DELETION_BATCH);
        for (const scan of page) if (await deps.assets.remove(scan.publicId)) removed += 1;
        if (page.length < DELETION_BATCH) return removed;
        after = page[page.length - 1]!.id;
      }
    },

    /**
     * The ClickHouse rows of the user's live-data sites, once the ingest has stopped taking their beacons
     * (LIVE_DATA_SETTLE_MS after the closing); retried until then and until ClickHouse has applied the delete.
     */
    async removeLiveData(userId: number): Promise<number> {
      const siteIds = await accountData.siteIds(userId);
      if (siteIds.length === 0) return 0;
      const closedAt = (await accountData.account(userId))?.deletedAt;
      if (closedAt && deps.clock().getTime() - closedAt.getTime() < LIVE_DATA_SETTLE_MS)
        throw new Error('the ingest may still accept beacons of the closed sites; retried shortly');
      if (!deps.rumErase) throw new Error('this worker has no ClickHouse to delete live data from');
      const left = await deps.rumErase(siteIds);
      const remaining = Object.entries(left).filter(([, n]) => n > 0);
      if (remaining.length)
        throw new Error(`live-data rows not deleted yet: ${JSON.stringify(Object.fromEntries(remaining))}`);
      return siteIds.length;
    },

    /** Every Postgres row of the user's but the user row, in batches. */
    async removeRows(userId: number): Promise<RemovedRows> {
      return accountData.deleteRows(userId, DELETION_BATCH);
    },

    /** Last: the sign-in failures recorded for the address, then the user row (which cascades anything left). */
    async removeUser(userId: number): Promise<boolean> {
      const account = await accountData.account(userId);
      const removed = await accountData.deleteUser(userId, account ? emailHash(account.email) : null);
      deps.log.info({ userId, userRow: removed }, 'account deleted');
      return removed;
    },
  };
}

export type AccountDeletionActivities = ReturnType<typeof createAccountDeletionActivities>;
