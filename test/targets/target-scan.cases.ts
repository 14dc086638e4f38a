import { msToNumber } from '@temporalio/common';
import type { ScheduleDescription } from '@temporalio/client';
import type { TargetScanOutcome } from '../../workflows/target-scan.ts';
import { TARGET_RECONCILE_EVERY } from '../../core/monitoring/schedule.ts';
import { PLANS } from '../../core/plans.ts';
import {
  HostAttribute,
  mainTaskQueue,
  ScanIdAttribute,
  TargetIdAttribute,
  scanWorkflowId,
  targetReconcilerScheduleId,
  targetScheduleId,
} from '../../core/temporal.ts';
import type { FixtureSites } from '../../fixtures/sites.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { waitForScan, type ScanStack } from '../harness/scans.ts';

/** What these cases need of the stack they share (test/targets/target-runs.test.ts). */
export interface TargetScanStack {
  stack: ScanStack;
  sites: FixtureSites;
}

/**
 * A target's schedule really scans: the test triggers it through Temporal (rather than waiting for its time of
 * day), and a real worker process runs the scheduled scan of a fixture page (its recorded Lighthouse run
 * replayed).
 */
export function targetScanCases(shared: () => TargetScanStack): void {
  describe("a target's schedule: the reconciler, a triggered run scanning the target, a paused target", () => {
    let stack: ScanStack;
    let sites: FixtureSites;
    let token: string;
    let prefix: string;
    beforeAll(async () => {
      ({ stack, sites } = shared());
      prefix = stack.api.config.temporal.taskQueuePrefix;
      ({ token } = await createTestUser(stack.api, 'pro'));
    });

    /** Triggers the schedule and returns the id of the workflow that trigger started. */
    async function trigger(targetId: number): Promise<string> {
      const handle = stack.api.temporal.schedule.getHandle(targetScheduleId(prefix, targetId));
      const before = (await handle.describe()).info.numActionsTaken;
      await handle.trigger();
      let described: ScheduleDescription | undefined;
      await waitUntil(
        `schedule of target ${targetId} to start a run`,
        async () => {
          described = await handle.describe();
          return described.info.numActionsTaken > before && described.info.recentActions.length > 0;
        },
        60_000,
        250,
      );
      return described!.info.recentActions.at(-1)!.action.workflow.workflowId;
    }

    it('the worker schedules the target reconciler and runs it once at start', async () => {
      const reconciler = await stack.api.temporal.schedule.getHandle(targetReconcilerScheduleId(prefix)).describe();
      expect(reconciler.action).toMatchObject({
        type: 'startWorkflow',
        workflowType: 'reconcileTargetsWorkflow',
        taskQueue: mainTaskQueue(prefix),
      });
      expect(msToNumber(reconciler.spec.intervals![0]!.every)).toBe(msToNumber(TARGET_RECONCILE_EVERY));
      expect(reconciler.info.numActionsTaken).toBeGreaterThanOrEqual(1);
    });

    it('a triggered schedule runs an ordinary scan of the target to the end: target_id, runs of the plan, last_dispatched_at, search attributes, history', async () => {
      const conforms = await openApiContract(stack.api);
      const created = await call(stack.api, '/domains', {
        token,
        method: 'POST',
        body: { url: `${sites.origin}/fast/` },
      });
      expect(created.status).toBe(201);
      const target = created.body.data as { id: number; last_dispatched_at: string | null };
      expect(target.last_dispatched_at).toBeNull();

      const runId = await trigger(target.id);
      expect(runId.startsWith(`${targetScheduleId(prefix, target.id)}-`)).toBe(true);
      const run = stack.api.temporal.workflow.getHandle(runId);
      const runDescription = await run.describe();
      expect(runDescription.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(target.id));

      const outcome = (await run.result()) as TargetScanOutcome;
      expect(outcome).toEqual({
        dispatched: true,
        scanId: expect.stringMatching(/^[0-9a-z]{26}$/),
        outcome: { status: 'finished' },
      });
      if (!outcome.dispatched) throw new Error('not dispatched');
      const scan = await waitForScan(stack.api, token, outcome.scanId);
      expect(scan).toMatchObject({
        status: 'finished',
        submitted_url: `${sites.origin}/fast/`,
        target_id: target.id,
        is_public: false,
      });
      expect(conforms('get', '/scans/{id}', await call(stack.api, `/scans/${outcome.scanId}`, { token }))).toEqual([]);

      // The scan workflow has the id and search attributes of any scan, plus TargetId.
      const child = await stack.api.temporal.workflow.getHandle(scanWorkflowId(outcome.scanId)).describe();
      expect(child.typedSearchAttributes.get(ScanIdAttribute)).toBe(outcome.scanId);
      expect(child.typedSearchAttributes.get(HostAttribute)).toBe('127.0.0.1');
      expect(child.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(target.id));

      const row = await stack.api.db.knex('scans').where({ public_id: outcome.scanId }).first();
      expect(row).toMatchObject({ target_id: target.id, runs: PLANS.pro.scheduledRuns, cache_key: null });

      const listed = (
        (await call(stack.api, '/domains', { token })).body.data as Array<{
          id: number;
          last_dispatched_at: string | null;
        }>
      ).find((t) => t.id === target.id)!;
      expect(new Date(listed.last_dispatched_at!).getTime()).toBe(
        new Date(row.requested_at as Date).setMilliseconds(0),
      );
      const scans = (await call(stack.api, '/scans', { token })).body.data as Array<{
        public_id: string;
        target_id: number | null;
      }>;
      expect(scans.find((s) => s.public_id === outcome.scanId)!.target_id).toBe(target.id);
      const scores = (scan.result as { scores: { overall: number } }).scores;
      const history = await call(stack.api, `/domains/${target.id}/history`, { token });
      expect(history.body.data).toEqual([{ score: scores.overall, created_at: scan.finished_at, region: 'local' }]);
    }, 300_000);

    it('a paused target’s schedule, triggered anyway, dispatches nothing', async () => {
      const created = await call(stack.api, '/domains', {
        token,
        method: 'POST',
        body: { url: `${sites.origin}/fast/?paused` },
      });
      const target = created.body.data as { id: number };
      expect(
        (await call(stack.api, `/domains/${target.id}`, { token, method: 'PATCH', body: { is_active: false } })).status,
      ).toBe(200);
      const outcome = (await stack.api.temporal.workflow
        .getHandle(await trigger(target.id))
        .result()) as TargetScanOutcome;
      expect(outcome).toEqual({ dispatched: false });
      expect(await stack.api.db.knex('scans').where({ target_id: target.id })).toEqual([]);
      expect((await stack.api.db.knex('scan_targets').where({ id: target.id }).first()).last_dispatched_at).toBeNull();
    }, 120_000);
  });
}
