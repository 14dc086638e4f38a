import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import type { ScanActivities, ScanOutcome } from '../../../activities/scan.ts';
import type { ScanSlotActivities } from '../../../activities/scan-slots.ts';
import type { FailureCode } from '../../../core/scan/failures.ts';
import { scanDispatcherWorkflowId, scanTaskQueue, slotHolderWorkflowId } from '../../../core/temporal.ts';
import { requestScanSlot } from '../../../infra/temporal-client.ts';
import type { WorkflowTestbed } from './time-skipping.ts';

/** What one stubbed scan does: its row's runs, and its Lighthouse activity's answer per attempt (1, 2, 3). */
export interface ScriptedScan {
  region: string;
  accountId: number;
  runs: number;
  scanPage(attempt: number): Promise<ScanOutcome>;
}

export interface ScanCall {
  publicId: string;
  what: 'request' | 'running' | 'attempt' | 'failed';
  /** The test server's time of the call. */
  atMs: number;
  attempt?: number;
  code?: FailureCode;
  detail?: string;
}

/** One holder check of a dispatcher (its findEndedScanWorkflows): the holders asked about, the ended ones found. */
export interface HolderCheck {
  holders: string[];
  ended: string[];
  atMs: number;
}

/**
 * The scan workflow's activities as stubs that record their calls, with the real slot request (signal-with-
 * start of the region's real dispatcher workflow, infra/temporal-client.ts), so scans queue for real slots.
 * Requests for a region named `stalled` are recorded only (no dispatcher grants them). The dispatchers' holder
 * check asks the test server, as the real activity asks Temporal, which holders' workflows no longer run.
 */
export function scanStubs(bed: WorkflowTestbed, prefix: string) {
  const scans = new Map<string, ScriptedScan>();
  const calls: ScanCall[] = [];
  const holderChecks: HolderCheck[] = [];
  const scripted = (publicId: string): ScriptedScan => {
    const scan = scans.get(publicId);
    if (!scan) throw new Error(`no scripted scan ${publicId}`);
    return scan;
  };
  const main: Pick<ScanActivities, 'markScanRunning' | 'markScanFailed'> & ScanSlotActivities = {
    async markScanRunning(publicId) {
      calls.push({ publicId, what: 'running', atMs: await bed.now() });
      return { runs: scripted(publicId).runs };
    },
    async markScanFailed(publicId, code, detail) {
      calls.push({ publicId, what: 'failed', atMs: await bed.now(), code, detail });
    },
    async requestScanSlot(publicId) {
      calls.push({ publicId, what: 'request', atMs: await bed.now() });
      const { region, accountId } = scripted(publicId);
      if (region === 'stalled') return { dispatcherId: scanDispatcherWorkflowId(prefix, region) };
      return requestScanSlot(bed.env.client, prefix, region, {
        scanId: publicId,
        accountId,
        accountCap: 1,
        capacity: 1,
      });
    },
    async findEndedScanWorkflows(holders) {
      const atMs = await bed.now();
      const ended: string[] = [];
      for (const holder of holders) {
        const handle = bed.env.client.workflow.getHandle(slotHolderWorkflowId(holder));
        const status = await handle.describe().then(
          (d) => d.status.name,
          (error: unknown) => {
            if (error instanceof WorkflowNotFoundError) return 'NOT_FOUND';
            throw error;
          },
        );
        if (status !== 'RUNNING') ended.push(holder);
      }
      holderChecks.push({ holders, ended, atMs });
      return ended;
    },
  };
  const onScanQueue: Pick<ScanActivities, 'scanPage'> = {
    async scanPage(publicId) {
      const { attempt } = Context.current().info;
      calls.push({ publicId, what: 'attempt', atMs: await bed.now(), attempt });
      return scripted(publicId).scanPage(attempt);
    },
  };
  return {
    scans,
    calls,
    holderChecks,
    main,
    /** Starts a worker for the scan activities of each region (the workflows run on the main queue's worker). */
    async serveRegions(regions: string[]): Promise<void> {
      for (const region of regions) await bed.worker(scanTaskQueue(prefix, region), onScanQueue, { workflows: false });
    },
    callsOf: (publicId: string) => calls.filter((c) => c.publicId === publicId),
  };
}

export const crash = (attempt: number): never => {
  throw new Error(`runner crashed on attempt ${attempt}`);
};
