import { msToNumber } from '@temporalio/common';
import { ScheduleOverlapPolicy } from '@temporalio/client';
import { newPublicId } from '../../core/ids.ts';
import { isoTimestamp } from '../../core/clock.ts';
import { dailyStartTime, nextScheduledScan, TARGET_CATCHUP_WINDOW } from '../../core/monitoring/schedule.ts';
import { PLANS } from '../../core/plans.ts';
import { mainTaskQueue, TargetIdAttribute, scanWorkflowId } from '../../core/temporal.ts';
import { deleteTargetSchedulesOf, describeTargetSchedule } from '../../infra/temporal-client.ts';
import { createStorage, type Storage } from '../../db/store/index.ts';
import { createTarget } from '../../services/targets.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';
import { resultScoring } from '../../fixtures/finished-scan.ts';

/**
 * The /domains API against the real app, Postgres and Temporal (no worker: schedules are created, changed and
 * deleted, never run here; test/targets/target-scan.cases.ts runs one). Two regions, so that the same URL can be
 * monitored twice.
 */
let api: TestApi;
let storage: Storage;
let prefix: string;
let conforms: Awaited<ReturnType<typeof openApiContract>>;
const startedScans: string[] = [];

beforeAll(async () => {
  api = await startTestApi({ env: { SCAN_REGIONS: 'local,far' } });
  storage = createStorage(api.db.knex);
  prefix = api.config.temporal.taskQueuePrefix;
  conforms = await openApiContract(api);
});

afterAll(async () => {
  if (!api) return;
  await deleteTargetSchedulesOf(api.temporal, prefix);
  for (const id of startedScans)
    await api.temporal.workflow
      .getHandle(scanWorkflowId(id))
      .terminate('test finished')
      .catch(() => undefined);
  await api.close();
});

type Target = {
  id: number;
  host: string;
  url: string;
  schedule: string;
  is_active: boolean;
  last_dispatched_at: string | null;
  region: string;
  thresholds: Record<string, { warning: number; critical: number }>;
  created_at: string;
};

const post = (token: string, body: unknown) => call(api, '/domains', { token, method: 'POST', body });
const patch = (token: string, id: number, body: unknown) =>
  call(api, `/domains/${id}`, { token, method: 'PATCH', body });
const remove = (token: string, id: number) =>
  fetch(`${api.url}/api/v1/domains/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });

async function created(token: string, body: Record<string, unknown>): Promise<Target> {
  const res = await post(token, body);
  if (res.status !== 201) throw new Error(`POST /domains answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Target;
}

const schedule = (id: number) => describeTargetSchedule(api.temporal, prefix, id);
const row = (id: number) => api.db.knex('scan_targets').where({ id }).first();

describe('a target and its schedule', () => {
  it('are created together: the spec’s fields plus region, thresholds, created_at; a daily schedule at the spread time, SKIP, bounded catch-up, TargetId', async () => {
    const { token } = await createTestUser(api, 'pro');
    const res = await post(token, { url: 'HTTPS://Shop.Example.com/a?x=1#top', region: 'far' });
    expect(res.status).toBe(201);
    const target = res.body.data as Target;
    expect(target).toEqual({
      id: expect.any(Number),
      host: 'shop.example.com',
      url: 'https://shop.example.com/a?x=1',
      schedule: 'daily',
      is_active: true,
      last_dispatched_at: null,
      region: 'far',
      thresholds: { overall: { warning: 70, critical: 50 } },
      budgets: {},
      created_at: expect.stringMatching(/\+00:00$/),
      next_scan_at: isoTimestamp(nextScheduledScan({ id: target.id, isActive: true }, api.clock.read())!),
    });
    expect(conforms('post', '/domains', res)).toEqual([]);

    const described = (await schedule(target.id))!;
    expect(described.scheduleId).toBe(`${prefix}-target-${target.id}`);
    expect(described.spec.calendars).toHaveLength(1);
    const { hour, minute, second } = dailyStartTime(target.id);
    expect(described.spec.calendars![0]).toMatchObject({
      hour: [{ start: hour, end: hour, step: 1 }],
      minute: [{ start: minute, end: minute, step: 1 }],
      second: [{ start: second, end: second, step: 1 }],
    });
    expect(described.action).toMatchObject({
      type: 'startWorkflow',
      workflowType: 'targetScanWorkflow',
      taskQueue: mainTaskQueue(prefix),
      args: [{ targetId: target.id }],
    });
    expect(described.policies).toMatchObject({
      overlap: ScheduleOverlapPolicy.SKIP,
      catchupWindow: msToNumber(TARGET_CATCHUP_WINDOW),
    });
    expect(described.state.paused).toBe(false);
    expect(described.typedSearchAttributes.get(TargetIdAttribute)).toBe(String(target.id));
    expect(
      (
        described.action as { typedSearchAttributes?: { get(k: typeof TargetIdAttribute): unknown } }
      ).typedSearchAttributes?.get(TargetIdAttribute),
    ).toBe(String(target.id));
    // The next run is at the target's own time of day.
    const next = described.info.nextActionTimes[0]!;
    expect([next.getUTCHours(), next.getUTCMinutes(), next.getUTCSeconds()]).toEqual([hour, minute, second]);

    // Created paused: the schedule is paused from the start.
    const paused = await created(token, {
      url: 'https://shop.example.com/paused',
      is_active: false,
      thresholds: { overall: { warning: 80, critical: 60 }, speed: { warning: 90, critical: 90 } },
    });
    expect(paused).toMatchObject({
      is_active: false,
      thresholds: { overall: { warning: 80, critical: 60 }, speed: { warning: 90, critical: 90 } },
      next_scan_at: null,
    });
    expect((await schedule(paused.id))!.state.paused).toBe(true);
  });

  it('are paused, resumed and changed together; thresholds are replaced as a whole', async () => {
    const { token } = await createTestUser(api, 'pro');
    const target = await created(token, {
      url: 'https://pause.example/',
      thresholds: { overall: { warning: 70, critical: 50 }, images: { warning: 60, critical: 40 } },
    });

    const paused = await patch(token, target.id, { is_active: false });
    expect(paused.status).toBe(200);
    expect(paused.body.data).toMatchObject({ id: target.id, is_active: false, thresholds: target.thresholds });
    expect(conforms('patch', '/domains/{id}', paused)).toEqual([]);
    expect((await schedule(target.id))!.state.paused).toBe(true);
    expect((await row(target.id)).is_active).toBe(false);

    const resumed = await patch(token, target.id, {
      is_active: true,
      thresholds: { overall: { warning: 90, critical: 90 } },
    });
    expect(resumed.body.data).toMatchObject({
      is_active: true,
      thresholds: { overall: { warning: 90, critical: 90 } },
    });
    expect((await schedule(target.id))!.state.paused).toBe(false);

    const moved = await patch(token, target.id, { region: 'far' });
    expect(moved.body.data).toMatchObject({ region: 'far', is_active: true });
    // Nothing asked: nothing changes.
    expect((await patch(token, target.id, {})).body.data).toEqual(moved.body.data);
  });

  it('are deleted together (204); the target’s scans stay, unlinked', async () => {
    const { token, user } = await createTestUser(api, 'pro');
    const target = await created(token, { url: 'https://delete.example/' });
    const scan = (await storage.targets.dispatchScan(target.id, {
      publicId: newPublicId(),
      requestedAt: new Date(),
      runs: 3,
    }))!;

    const res = await remove(token, target.id);
    expect([res.status, await res.text()]).toEqual([204, '']);
    expect(await row(target.id)).toBeUndefined();
    expect(await schedule(target.id)).toBeNull();
    expect(await storage.scans.findOwned(user.id, scan.publicId)).toMatchObject({ targetId: null });
    expect((await remove(token, target.id)).status).toBe(404);
  });
});

describe('GET /domains', () => {
  it('pages the caller’s targets (per_page 20 by default, limit up to 50), oldest first, and only theirs', async () => {
    const { token, user } = await createTestUser(api, 'agency');
    const { token: otherToken } = await createTestUser(api, 'agency');
    const other = await created(otherToken, { url: 'https://other-user.example/' });
    const ids: number[] = [];
    for (let i = 0; i < 23; i++) ids.push((await created(token, { url: `https://list.example/${i}` })).id);

    const first = await call(api, '/domains', { token });
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ current_page: 1, per_page: 20, total: 23, last_page: 2 });
    expect((first.body.data as Target[]).map((t) => t.id)).toEqual(ids.slice(0, 20));
    expect(conforms('get', '/domains', first)).toEqual([]);
    const second = await call(api, '/domains?page=2', { token });
    expect((second.body.data as Target[]).map((t) => t.id)).toEqual(ids.slice(20));
    expect((await call(api, '/domains?limit=50', { token })).body.meta).toMatchObject({ per_page: 50, last_page: 1 });
    expect((await call(api, '/domains?page=9', { token })).body).toMatchObject({
      data: [],
      meta: { current_page: 9, total: 23 },
    });
    for (const query of ['limit=51', 'limit=0', 'page=0', 'limit=abc'])
      expect([query, (await call(api, `/domains?${query}`, { token })).status]).toEqual([query, 422]);
    expect((first.body.data as Target[]).some((t) => t.id === other.id)).toBe(false);
    expect(user.id).toBeGreaterThan(0);
  });
});

describe('another user’s target', () => {
  it('is 404 on history, PATCH and DELETE, and stays as it was', async () => {
    const { token: ownerToken } = await createTestUser(api, 'pro');
    const { token: strangerToken } = await createTestUser(api, 'pro');
    const target = await created(ownerToken, { url: 'https://private-target.example/' });
    expect(await call(api, `/domains/${target.id}/history`, { token: strangerToken })).toMatchObject({
      status: 404,
      body: { message: 'Not found.' },
    });
    expect(await patch(strangerToken, target.id, { is_active: false })).toMatchObject({
      status: 404,
      body: { message: 'Not found.' },
    });
    expect((await remove(strangerToken, target.id)).status).toBe(404);
    // Validation does not reveal anything either way: a bad body for someone else's id is a 422 like for one's own.
    for (const id of ['999999999', '0', '-1', 'abc', '1e3', '9999999999999999999']) {
      expect([id, (await call(api, `/domains/${id}/history`, { token: ownerToken })).status]).toEqual([id, 404]);
    }
    expect(await row(target.id)).toMatchObject({ is_active: true });
    expect((await schedule(target.id))!.state.paused).toBe(false);
  });
});

describe('bad input', () => {
  it('is a 422 naming the field: URL, address, thresholds, unknown fields, region, duplicates', async () => {
    const { token } = await createTestUser(api, 'agency');
    const cases: Array<[unknown, string]> = [
      [{}, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'ftp://files.example/' }, 'url'],
      [{ url: 'https://intranet/' }, 'url'],
      [{ url: 'https://user:pw@site.example/' }, 'url'],
      [{ url: 'http://10.0.0.8/' }, 'url'],
      [{ url: 'http://[fd00::1]/' }, 'url'],
      [{ url: 42 }, 'url'],
      [{ url: 'https://ok.example/', region: 'mars' }, 'region'],
      [{ url: 'https://ok.example/', is_active: 'yes' }, 'is_active'],
      [{ url: 'https://ok.example/', schedule: 'hourly' }, 'schedule'],
      [
        { url: 'https://ok.example/', thresholds: { overall: { warning: 50, critical: 70 } } },
        'thresholds.overall.critical',
      ],
      [
        {
          url: 'https://ok.example/',
          thresholds: { overall: { warning: 70, critical: 50 }, speed: { warning: 10, critical: 11 } },
        },
        'thresholds.speed.critical',
      ],
      [
        { url: 'https://ok.example/', thresholds: { overall: { warning: 101, critical: 50 } } },
        'thresholds.overall.warning',
      ],
      [
        { url: 'https://ok.example/', thresholds: { overall: { warning: 70, critical: -1 } } },
        'thresholds.overall.critical',
      ],
      [
        { url: 'https://ok.example/', thresholds: { overall: { warning: 70.5, critical: 50 } } },
        'thresholds.overall.warning',
      ],
      [
        {
          url: 'https://ok.example/',
          thresholds: { overall: { warning: 70, critical: 50 }, seo: { warning: 70, critical: 50 } },
        },
        'thresholds.seo',
      ],
      [
        { url: 'https://ok.example/', thresholds: { overall: { warning: 70, critical: 50, info: 90 } } },
        'thresholds.overall.info',
      ],
      [{ url: 'https://ok.example/', thresholds: { overall: { warning: 70 } } }, 'thresholds.overall.critical'],
      [{ url: 'https://ok.example/', thresholds: { speed: { warning: 70, critical: 50 } } }, 'thresholds.overall'],
      [{ url: 'https://ok.example/', thresholds: [] }, 'thresholds'],
    ];
    for (const [body, field] of cases) {
      const res = await post(token, body);
      expect([JSON.stringify(body), res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([
        JSON.stringify(body),
        422,
        expect.arrayContaining([field]),
      ]);
    }
    expect(await api.db.knex('scan_targets').count('* as n').first()).toBeDefined();

    // The same URL (after normalisation) in the same region is a duplicate; in another region it is not.
    const first = await created(token, { url: 'https://dup.example' });
    const again = await post(token, { url: 'HTTPS://DUP.example:443/#x' });
    expect([again.status, again.body.errors]).toEqual([
      422,
      { url: ['You already monitor this URL in region local.'] },
    ]);
    const far = await created(token, { url: 'https://dup.example/', region: 'far' });
    const clash = await patch(token, far.id, { region: 'local' });
    expect([clash.status, clash.body.errors]).toEqual([
      422,
      { url: ['You already monitor this URL in region local.'] },
    ]);

    for (const [body, field] of [
      [{ is_active: 'no' }, 'is_active'],
      [{ thresholds: { overall: { warning: 40, critical: 41 } } }, 'thresholds.overall.critical'],
      [{ url: 'https://elsewhere.example/' }, 'url'],
      [{ region: 'mars' }, 'region'],
    ] as const) {
      const res = await patch(token, first.id, body);
      expect([JSON.stringify(body), res.status, Object.keys((res.body.errors as object) ?? {})]).toEqual([
        JSON.stringify(body),
        422,
        [field],
      ]);
    }
    expect((await row(first.id)).thresholds).toEqual({ overall: { warning: 70, critical: 50 } });
  });
});

describe('plan limits', () => {
  it('Starter keeps 5 targets: the sixth is a 403 naming Pro, and nothing of it is stored or scheduled', async () => {
    const { token, user } = await createTestUser(api, 'starter');
    const targets: Target[] = [];
    for (let i = 0; i < PLANS.starter.maxTargets; i++)
      targets.push(await created(token, { url: `https://limit.example/${i}`, is_active: i % 2 === 0 }));
    const sixth = await post(token, { url: 'https://limit.example/6' });
    expect(sixth.status).toBe(403);
    expect(sixth.body).toEqual({
      message:
        'Your plan (Starter) keeps at most 5 monitored targets. Upgrade to Pro to keep more, or remove one first.',
      required_plan: 'pro',
    });
    expect(await storage.targets.countOwned(user.id)).toBe(5);
    // Paused ones count too; removing one makes room.
    expect((await remove(token, targets[1]!.id)).status).toBe(204);
    expect((await post(token, { url: 'https://limit.example/6' })).status).toBe(201);
  });

  it('Free keeps one (in the web area, through the same service); Agency 1000 with nothing above it', async () => {
    const { user: free } = await createTestUser(api, 'free');
    const deps = { targets: storage.targets, temporal: api.temporal, config: api.config, clock: () => new Date() };
    expect(await createTarget(deps, { id: free.id, plan: PLANS.free }, { url: 'https://free.example/' })).toMatchObject(
      { kind: 'ok' },
    );
    expect(
      await createTarget(deps, { id: free.id, plan: PLANS.free }, { url: 'https://free.example/2' }),
    ).toMatchObject({ kind: 'plan_limit', limit: 1, upgrade: { key: 'starter' } });
    // An Agency account with its 1000 rows in place (written straight to the table: no schedules needed for the count).
    const { user: agency, token } = await createTestUser(api, 'agency');
    const now = new Date();
    await api.db.knex('scan_targets').insert(
      Array.from({ length: 1000 }, (_, i) => ({
        user_id: agency.id,
        url: `https://agency.example/${i}`,
        host: 'agency.example',
        region: 'local',
        thresholds: JSON.stringify({ overall: { warning: 70, critical: 50 } }),
        created_at: now,
        updated_at: now,
      })),
    );
    const refused = await post(token, { url: 'https://agency.example/1000' });
    expect([refused.status, refused.body]).toEqual([
      403,
      { message: 'Your plan (Agency) keeps at most 1000 monitored targets; remove one first.' },
    ]);
  });
});

describe('GET /domains/{id}/history', () => {
  it('is the last 30 finished scans of the target, newest first, with overall score, finish time and region', async () => {
    const { token, user } = await createTestUser(api, 'pro');
    const target = await created(token, { url: 'https://history.example/' });
    const other = await created(token, { url: 'https://history.example/other' });
    expect((await call(api, `/domains/${target.id}/history`, { token })).body).toEqual({ data: [] });

    const day = (n: number) => new Date(Date.UTC(2026, 9, 1 + n, 4, 30));
    // 35 finished scheduled scans, one a day, stored out of order; the region moves to `far` on day 20.
    const order = Array.from({ length: 35 }, (_, i) => (i * 13) % 35);
    for (const n of order) {
      await storage.targets.update(target.id, { region: n >= 20 ? 'far' : 'local' }, day(n));
      const scan = (await storage.targets.dispatchScan(target.id, {
        publicId: newPublicId(day(n)),
        requestedAt: day(n),
        runs: 3,
      }))!;
      expect(
        await storage.scans.markFinished(
          scan.publicId,
          resultScoring(40 + n, { url: 'https://history.example/' }),
          new Date(day(n).getTime() + 90_000),
        ),
      ).toBe(true);
    }
    // Not history: failed and in-flight scans of the target, another target's scan, a scan by hand of the same URL.
    const failed = (await storage.targets.dispatchScan(target.id, {
      publicId: newPublicId(day(40)),
      requestedAt: day(40),
      runs: 3,
    }))!;
    await storage.scans.markFailed(failed.publicId, { code: 'timeout', detail: 'test', httpStatus: null }, day(40));
    await storage.targets.dispatchScan(target.id, { publicId: newPublicId(day(41)), requestedAt: day(41), runs: 3 });
    const otherScan = (await storage.targets.dispatchScan(other.id, {
      publicId: newPublicId(day(42)),
      requestedAt: day(42),
      runs: 3,
    }))!;
    await storage.scans.markFinished(
      otherScan.publicId,
      resultScoring(1, { url: 'https://history.example/' }),
      day(42),
    );
    const byHand = await storage.scans.insert({
      publicId: newPublicId(day(43)),
      userId: user.id,
      url: target.url,
      host: target.host,
      region: 'local',
      isPublic: false,
      authType: null,
      authSecret: null,
      cacheKey: null,
      requestedAt: day(43),
    });
    await storage.scans.markFinished(byHand.publicId, resultScoring(2, { url: 'https://history.example/' }), day(43));

    const res = await call(api, `/domains/${target.id}/history`, { token });
    expect(res.status).toBe(200);
    expect(conforms('get', '/domains/{id}/history', res)).toEqual([]);
    const items = res.body.data as Array<{ score: number; created_at: string; region: string }>;
    expect(items).toHaveLength(30);
    expect(items[0]).toEqual({ score: 74, created_at: '2026-11-04T04:31:30+00:00', region: 'far' });
    expect(items.map((i) => i.score)).toEqual(Array.from({ length: 30 }, (_, i) => 74 - i));
    expect(items.map((i) => i.region)).toEqual(Array.from({ length: 30 }, (_, i) => (34 - i >= 20 ? 'far' : 'local')));
    expect(Object.keys(res.body)).toEqual(['data']);
  });
});

describe('scheduled scans and the hourly limit', () => {
  it('scheduled scans do not count against it, and GET /scans marks them with target_id', async () => {
    const { token, user } = await createTestUser(api, 'starter');
    const target = await created(token, { url: 'https://hourly.example/' });
    const now = new Date();
    for (let i = 0; i < PLANS.starter.hourlyScanLimit; i++) {
      await storage.targets.dispatchScan(target.id, {
        publicId: newPublicId(new Date(now.getTime() - 60_000 * (i + 1))),
        requestedAt: new Date(now.getTime() - 60_000 * (i + 1)),
        runs: 3,
      });
    }
    const byHand = await call(api, '/scans', {
      token,
      method: 'POST',
      body: { url: 'https://hourly.example/by-hand' },
    });
    expect(byHand.status).toBe(202);
    startedScans.push((byHand.body.data as { id: string }).id);

    const list = await call(api, '/scans?limit=50', { token });
    expect(conforms('get', '/scans', list)).toEqual([]);
    const items = list.body.data as Array<{ public_id: string; target_id: number | null }>;
    expect(items).toHaveLength(PLANS.starter.hourlyScanLimit + 1);
    expect(items.filter((s) => s.target_id === target.id)).toHaveLength(PLANS.starter.hourlyScanLimit);
    expect(items.find((s) => s.public_id === startedScans.at(-1))!.target_id).toBeNull();

    // Scans by hand still count: the limit is reached after 29 more.
    for (let i = 0; i < PLANS.starter.hourlyScanLimit - 1; i++) {
      await storage.scans.insert({
        publicId: newPublicId(),
        userId: user.id,
        url: `https://hourly.example/${i}`,
        host: 'hourly.example',
        region: 'local',
        isPublic: false,
        authType: null,
        authSecret: null,
        cacheKey: null,
        requestedAt: new Date(),
      });
    }
    expect(
      (await call(api, '/scans', { token, method: 'POST', body: { url: 'https://hourly.example/one-more' } })).status,
    ).toBe(429);
  });
});
