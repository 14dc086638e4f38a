import type { TargetScanOutcome } from '../../workflows/target-scan.ts';
import { newPublicId } from '../../core/ids.ts';
import { nextScheduledScan } from '../../core/monitoring/schedule.ts';
import { PLANS } from '../../core/plans.ts';
import { TargetIdAttribute, targetRunNowWorkflowId, targetScheduleId } from '../../core/temporal.ts';
import { createStorage } from '../../db/store/index.ts';
import type { FixtureSites } from '../../fixtures/sites.ts';
import { waitUntil } from '../../stack/proc.ts';
import { call, createTestUser } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { waitForScan, type ScanStack } from '../harness/scans.ts';
import { WebClient } from '../harness/web.ts';

const PASSWORD = 'a-long-password-1';

/** What these cases need of the stack they share (test/targets/target-runs.test.ts). */
export interface TargetRunNowStack {
  stack: ScanStack;
  sites: FixtureSites;
}

/**
 * A target's "Run now", through the real API process's routes and a real worker scanning a fixture page (its
 * recorded Lighthouse run replayed): the scan is the target's (its history, `trigger`), refused in the spec's
 * shapes, and in the web area it leads to the scan's progress page, while the target page tells when the
 * schedule scans next (as Temporal has it) and labels scheduled scans apart from on-demand ones.
 */
export function targetRunNowCases(shared: () => TargetRunNowStack): void {
  describe("a target's Run now: the API, its refusals, the web area and the next scheduled scan", () => {
    let stack: ScanStack;
    let sites: FixtureSites;
    let token: string;
    beforeAll(async () => {
      ({ stack, sites } = shared());
      ({ token } = await createTestUser(stack.api, 'pro'));
    });

    const storage = () => createStorage(stack.api.db.knex);
    const prefix = () => stack.api.config.temporal.taskQueuePrefix;

    /** The target schedule's next start as Temporal computes it. */
    async function temporalNextRun(targetId: number): Promise<Date> {
      const described = await stack.api.temporal.schedule.getHandle(targetScheduleId(prefix(), targetId)).describe();
      return described.info.nextActionTimes[0]!;
    }

    /** Inserts `count` on-demand scans requested now: the hourly scan limit used up without scanning. */
    async function useHourlyScans(userId: number, count: number): Promise<void> {
      const now = stack.api.clock.read();
      await stack.api.db.knex('scans').insert(
        Array.from({ length: count }, (_, i) => ({
          public_id: newPublicId(now),
          user_id: userId,
          url: `https://used-${i}.example/`,
          host: `used-${i}.example`,
          region: stack.api.config.regions.default,
          is_public: false,
          status: 'failed',
          failure_code: 'timeout',
          requested_at: now,
          finished_at: now,
        })),
      );
    }

    it("POST /domains/{id}/scans scans the target now: the target's scan, in its history, joined while it runs", async () => {
      const conforms = await openApiContract(stack.api);
      const created = await call(stack.api, '/domains', {
        token,
        method: 'POST',
        body: { url: `${sites.origin}/fast/` },
      });
      expect(created.status).toBe(201);
      const target = created.body.data as {
        id: number;
        next_scan_at: string | null;
        last_dispatched_at: string | null;
      };
      expect(target.last_dispatched_at).toBeNull();
      // The one rule the schedule is made from, and Temporal's own next start, agree.
      stack.api.clock.set(new Date());
      const listed = (await call(stack.api, '/domains', { token })).body.data as Array<{
        id: number;
        next_scan_at: string;
      }>;
      const next = await temporalNextRun(target.id);
      expect(new Date(listed.find((t) => t.id === target.id)!.next_scan_at)).toEqual(next);

      const started = await call(stack.api, `/domains/${target.id}/scans`, { token, method: 'POST' });
      expect(started.status).toBe(202);
      expect(conforms('post', '/domains/{id}/scans', started)).toEqual([]);
      const data = started.body.data as { id: string; status: string; cached: boolean; finished_at: string | null };
      expect(data).toMatchObject({ status: 'queued', url: `${sites.origin}/fast/`, cached: false, finished_at: null });
      // A second click while it runs is answered with the same scan.
      const again = await call(stack.api, `/domains/${target.id}/scans`, { token, method: 'POST', body: {} });
      expect(again.status).toBe(202);
      expect((again.body.data as { id: string }).id).toBe(data.id);
      expect(await stack.api.db.knex('scans').where({ target_id: target.id })).toHaveLength(1);

      const row = await stack.api.db.knex('scans').where({ public_id: data.id }).first();
      expect(row).toMatchObject({
        target_id: target.id,
        trigger: 'run_now',
        runs: PLANS.pro.scheduledRuns,
        cache_key: null,
        is_public: false,
      });
      const run = await stack.api.temporal.workflow
        .getHandle(targetRunNowWorkflowId(prefix(), target.id, data.id))
        .describe();
      expect(run.type).toBe('targetScanWorkflow');
      expect(run.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(target.id));

      const scan = await waitForScan(stack.api, token, data.id);
      expect(scan).toMatchObject({ status: 'finished', target_id: target.id, trigger: 'run_now' });
      expect(conforms('get', '/scans/{id}', await call(stack.api, `/scans/${data.id}`, { token }))).toEqual([]);
      const outcome = (await stack.api.temporal.workflow
        .getHandle(targetRunNowWorkflowId(prefix(), target.id, data.id))
        .result()) as TargetScanOutcome;
      expect(outcome).toEqual({ dispatched: true, scanId: data.id, outcome: { status: 'finished' } });
      const history = await call(stack.api, `/domains/${target.id}/history`, { token });
      expect(history.body.data).toEqual([
        {
          score: (scan.result as { scores: { overall: number } }).scores.overall,
          created_at: scan.finished_at,
          region: 'local',
        },
      ]);
      const after = (await call(stack.api, '/domains', { token })).body.data as Array<{
        id: number;
        last_dispatched_at: string;
      }>;
      expect(new Date(after.find((t) => t.id === target.id)!.last_dispatched_at).getTime()).toBe(
        new Date(row.requested_at as Date).setMilliseconds(0),
      );
    }, 300_000);

    it("refuses in the spec's shapes: no token 401, Free 403, another account's target or no target 404, fields 422, the hourly limit 429", async () => {
      const conforms = await openApiContract(stack.api);
      const { user: owner, token: ownerToken } = await createTestUser(stack.api, 'starter');
      const created = await call(stack.api, '/domains', {
        token: ownerToken,
        method: 'POST',
        body: { url: `${sites.origin}/fast/?refused` },
      });
      const targetId = (created.body.data as { id: number }).id;
      const path = `/domains/${targetId}/scans`;

      expect((await call(stack.api, path, { method: 'POST' })).status).toBe(401);
      const { token: freeToken } = await createTestUser(stack.api, 'free');
      expect((await call(stack.api, path, { token: freeToken, method: 'POST' })).status).toBe(403);
      const foreign = await call(stack.api, path, { token, method: 'POST' });
      expect(foreign.status).toBe(404);
      expect(conforms('post', '/domains/{id}/scans', foreign)).toEqual([]);
      for (const id of ['0', 'abc', '99999999', '1e3', '123456789012345678'])
        expect([
          id,
          (await call(stack.api, `/domains/${id}/scans`, { token: ownerToken, method: 'POST' })).status,
        ]).toEqual([id, 404]);
      const fields = await call(stack.api, path, { token: ownerToken, method: 'POST', body: { force: true } });
      expect(fields.status).toBe(422);
      expect(conforms('post', '/domains/{id}/scans', fields)).toEqual([]);

      await useHourlyScans(owner.id, PLANS.starter.hourlyScanLimit);
      const limited = await call(stack.api, path, { token: ownerToken, method: 'POST' });
      expect(limited.status).toBe(429);
      expect(limited.body).toMatchObject({ error: 'hourly_scan_limit', limit: PLANS.starter.hourlyScanLimit });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(conforms('post', '/domains/{id}/scans', limited)).toEqual([]);
      // Nothing was stored or started for any refusal.
      expect(await stack.api.db.knex('scans').where({ target_id: targetId })).toEqual([]);
    });

    it('in the web area: Run now leads to the progress page, the scan joins the history labelled apart from a scheduled one, and the next scheduled scan is shown', async () => {
      const { user } = await createTestUser(stack.api, 'free', PASSWORD);
      const web = new WebClient(stack.api.url, stack.api.config.baseUrl);
      expect((await web.signIn(user.email, PASSWORD)).status).toBe(303);
      await web.get('/targets');
      const added = await web.post('/targets', {
        url: `${sites.origin}/fast/?web`,
        region: stack.api.config.regions.default,
        warning: '70',
        critical: '50',
        next: '/targets',
      });
      expect(added.status).toBe(303);
      const [target] = (await storage().targets.listOwned(user.id, { limit: 5, page: 1 })).items;

      stack.api.clock.set(new Date());
      const page = await web.get(`/targets/${target!.id}`);
      const next = await temporalNextRun(target!.id);
      expect(next).toEqual(nextScheduledScan(target!, stack.api.clock.read()));
      expect(page.text).toContain(`<dd id="next-scan"><time datetime="${next.toISOString()}">`);
      expect(page.text).toContain('id="run-now"');

      const ran = await web.post(`/targets/${target!.id}/run`, { next: `/targets/${target!.id}` });
      expect(ran.status).toBe(303);
      const location = String(ran.headers.location);
      expect(location).toMatch(/^\/scans\/[0-9a-z]{26}$/);
      const runNowId = location.split('/')[2]!;
      expect((await web.get(location)).text).toContain(`data-scan-id="${runNowId}"`);
      await waitUntil(
        `run-now scan ${runNowId} to end`,
        async () => ['finished', 'failed'].includes((await storage().scans.find(runNowId))!.status),
        240_000,
        1000,
      );
      expect(await storage().scans.find(runNowId)).toMatchObject({ status: 'finished', targetId: target!.id, runs: 1 });

      // The day's scheduled scan, triggered now: labelled apart from the run now, and outside the hourly limit.
      const schedule = stack.api.temporal.schedule.getHandle(targetScheduleId(prefix(), target!.id));
      await schedule.trigger();
      let scheduledId = '';
      await waitUntil(
        'the scheduled scan to end',
        async () => {
          const rows = await stack.api.db.knex('scans').where({ target_id: target!.id, trigger: 'schedule' });
          scheduledId = (rows[0]?.public_id as string | undefined) ?? '';
          return rows[0]?.status === 'finished' || rows[0]?.status === 'failed';
        },
        240_000,
        1000,
      );
      expect(await storage().scans.find(scheduledId)).toMatchObject({ status: 'finished', trigger: 'schedule' });
      const hourAgo = new Date(stack.api.clock.read().getTime() - 3600_000);
      stack.api.clock.set(new Date());
      expect(await storage().scans.requestTimesSince(user.id, hourAgo)).toHaveLength(1);

      const targetPage = (await web.get(`/targets/${target!.id}`)).text;
      const label = (html: string, scanId: string) =>
        new RegExp(`<tr data-scan-id="${scanId}">[\\s\\S]*?<span class="trigger-label [^"]+"[^>]*>([^<]+)</span>`).exec(
          html,
        )?.[1];
      expect(label(targetPage, runNowId)).toBe('Run now');
      expect(label(targetPage, scheduledId)).toBe('Schedule');
      const dashboard = (await web.get('/')).text;
      expect(label(dashboard, runNowId)).toBe('On demand');
      expect(label(dashboard, scheduledId)).toBe('Scheduled');
      expect(label((await web.get('/scans')).text, scheduledId)).toBe('Scheduled');

      // Another account's target, and ids that cannot be one: not found.
      const { user: other } = await createTestUser(stack.api, 'starter');
      const foreign = await storage().targets.insert({
        userId: other.id,
        url: 'https://foreign.example/',
        host: 'foreign.example',
        region: stack.api.config.regions.default,
        isActive: true,
        thresholds: target!.thresholds,
        createdAt: new Date(),
      });
      expect((await web.post(`/targets/${foreign.id}/run`, { next: '/targets' })).status).toBe(404);
      expect((await web.post('/targets/abc/run', { next: '/targets' })).status).toBe(404);
      // A form without the page's token is refused, and starts nothing.
      expect((await web.post(`/targets/${target!.id}/run`, { _csrf: 'forged' })).status).toBe(403);

      // The hourly limit: the target page again, with the reason and Retry-After; nothing started.
      await useHourlyScans(user.id, PLANS.free.hourlyScanLimit);
      const limited = await web.post(`/targets/${target!.id}/run`, { next: `/targets/${target!.id}` });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.text).toMatch(/You have used your 5 scans for this hour\. Try again in \d+ minute/);
      expect(await stack.api.db.knex('scans').where({ target_id: target!.id })).toHaveLength(2);
    }, 600_000);
  });
}
