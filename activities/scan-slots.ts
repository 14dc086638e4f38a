import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Config } from '../infra/config.ts';
import { planFor } from '../core/plans.ts';
import type { SlotRequest } from '../core/scan/slots.ts';
import { slotHolderWorkflowId } from '../core/temporal.ts';
import { requestScanSlot } from '../infra/temporal-client.ts';
import type { ScanStore } from '../db/store/scans.ts';
import type { UserStore } from '../db/store/users.ts';

export interface ScanSlotDeps {
  scans: ScanStore;
  users: UserStore;
  temporal: () => Client;
  config: Config;
}

/** Activities between scan workflows and their region's dispatcher (workflows/scan-dispatch.ts). */
export function createScanSlotActivities(deps: ScanSlotDeps) {
  const { scans, users, config } = deps;
  const prefix = config.temporal.taskQueuePrefix;
  return {
    /**
     * Asks the scan's region dispatcher for a slot, starting the dispatcher if it does not run (signal-with-
     * start). The account's cap comes from its plan now, so a plan change applies to the next request.
     * Safe to repeat: the dispatcher keeps one request per scan.
     */
    async requestScanSlot(publicId: string): Promise<{ dispatcherId: string }> {
      // The request is retried without limit (Temporal or the database may be away for a while), except this.
      const scan = await scans.find(publicId);
      const user = scan && (await users.findById(scan.userId));
      if (!scan || !user) throw ApplicationFailure.nonRetryable(`scan ${publicId} or its account not found`);
      const request: SlotRequest = {
        scanId: publicId,
        accountId: user.id,
        accountCap: planFor(user.plan).scansInFlightPerRegion,
        capacity: config.regions.slots[scan.region] ?? 1,
      };
      return requestScanSlot(deps.temporal(), prefix, scan.region, request);
    },

    /** Of the given slot holders (scans, flow runs), those whose workflow no longer runs (terminated, timed out, or never existed). */
    async findEndedScanWorkflows(publicIds: string[]): Promise<string[]> {
      const ended: string[] = [];
      for (const publicId of publicIds) {
        try {
          const { status } = await deps.temporal().workflow.getHandle(slotHolderWorkflowId(publicId)).describe();
          if (status.name !== 'RUNNING') ended.push(publicId);
        } catch (error) {
          if (!(error instanceof WorkflowNotFoundError)) throw error;
          ended.push(publicId);
        }
      }
      return ended;
    },
  };
}

export type ScanSlotActivities = ReturnType<typeof createScanSlotActivities>;
