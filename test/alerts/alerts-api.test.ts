import { createTargetStore } from '../../db/store/targets.ts';
import { createAlertStore, type AlertStore } from '../../db/store/alerts.ts';
import { dismissAlert, targetAlerts } from '../../services/alert-actions.ts';
import { evaluateScanAlerts } from '../../services/alert-evaluation.ts';
import { insertFinishedScan, insertTarget, scoresOf, type TestTarget } from '../harness/alerts.ts';
import { call, createTestUser, startTestApi, TestClock, type TestApi } from '../harness/api.ts';
import { openApiContract } from '../harness/contract.ts';

/**
 * The /alerts endpoints and the evaluation's guards, on real Postgres: alerts are made by the real evaluation
 * (services/alert-evaluation.ts) from stored scans, without Temporal or e-mail (alert-flow.test.ts has those).
 */

const DAY = 86_400_000;
const T0 = new Date('2026-11-01T06:00:00Z');
const at = (days: number) => new Date(T0.getTime() + days * DAY);

let api: TestApi;
let store: AlertStore;
let contract: Awaited<ReturnType<typeof openApiContract>>;
let alice: Awaited<ReturnType<typeof createTestUser>>;
let bob: Awaited<ReturnType<typeof createTestUser>>;

beforeAll(async () => {
  api = await startTestApi({ clock: new TestClock(T0) });
  store = createAlertStore(api.db.knex);
  contract = await openApiContract(api);
  alice = await createTestUser(api, 'starter');
  bob = await createTestUser(api, 'pro');
}, 60_000);
afterAll(async () => {
  await api?.close();
});

/** A scan of `target` finished on day `days` with that overall score, evaluated a minute later. */
async function scan(userId: number, target: TestTarget, overall: number, days: number, categories = {}) {
  const scanId = await insertFinishedScan(api.db.knex, userId, target, scoresOf(overall, categories), at(days));
  return { scanId, evaluation: await evaluateScanAlerts(store, scanId, new Date(at(days).getTime() + 60_000)) };
}

async function get(path: string, token: string, headers: Record<string, string> = {}) {
  const response = await call(api, path, { token, headers });
  if (response.status < 400 || response.status === 422 || response.status === 404) {
    expect(contract('GET', path.replace(/\?.*$/, '').replace(/\/\d+$/, '/{id}'), response)).toEqual([]);
  }
  return response;
}

const ids = (body: Record<string, unknown>) => (body.data as Array<{ id: number }>).map((a) => a.id);

describe('listing, reading and marking', () => {
  let warning: number;
  let critical: number;
  let resolved: number;
  let bobs: number;

  beforeAll(async () => {
    const one = await insertTarget(api.db.knex, alice.user.id);
    const two = await insertTarget(api.db.knex, alice.user.id);
    const three = await insertTarget(api.db.knex, alice.user.id);
    warning = (await scan(alice.user.id, one, 60, 0)).evaluation.changes[0]!.alertId;
    critical = (await scan(alice.user.id, two, 40, 0)).evaluation.changes[0]!.alertId;
    resolved = (await scan(alice.user.id, three, 65, 0)).evaluation.changes[0]!.alertId;
    await scan(alice.user.id, three, 80, 1);
    bobs = (await scan(bob.user.id, await insertTarget(api.db.knex, bob.user.id), 45, 0)).evaluation.changes[0]!
      .alertId;
  });

  it("lists the caller's alerts newest first with the spec's fields, paginated", async () => {
    const all = await get('/alerts', alice.token);
    expect(all.status).toBe(200);
    expect(ids(all.body)).toEqual([resolved, critical, warning]);
    expect(all.body.meta).toEqual({ current_page: 1, per_page: 20, total: 3, last_page: 1 });
    const first = (all.body.data as Array<Record<string, unknown>>)[2]!;
    expect(Object.keys(first)).toEqual(
      expect.arrayContaining([
        'id',
        'type',
        'severity',
        'title',
        'message',
        'is_read',
        'is_dismissed',
        'url',
        'host',
        'scan_id',
        'created_at',
        'resolved_at',
      ]),
    );
    expect(first).toMatchObject({
      type: 'score_below_threshold',
      severity: 'warning',
      is_read: false,
      is_dismissed: false,
      resolved_at: null,
      created_at: '2026-11-01T06:01:00+00:00',
      title: 'Overall score below the warning threshold',
    });
    const page2 = await get('/alerts?limit=2&page=2', alice.token);
    expect(ids(page2.body)).toEqual([warning]);
    expect(page2.body.meta).toEqual({ current_page: 2, per_page: 2, total: 3, last_page: 2 });
    expect(ids((await get('/alerts?page=9', alice.token)).body)).toEqual([]);
  });

  it('filters by status (open, resolved, unread) and severity', async () => {
    expect(ids((await get('/alerts?status=open', alice.token)).body)).toEqual([critical, warning]);
    expect(ids((await get('/alerts?status=resolved', alice.token)).body)).toEqual([resolved]);
    expect(ids((await get('/alerts?severity=critical', alice.token)).body)).toEqual([critical]);
    expect(ids((await get('/alerts?severity=warning&status=open', alice.token)).body)).toEqual([warning]);
    const resolvedOne = (await get(`/alerts/${resolved}`, alice.token)).body.data as Record<string, unknown>;
    expect(resolvedOne).toMatchObject({
      resolved_at: '2026-11-02T06:01:00+00:00',
      details: { resolution: { kind: 'recovered', value: 80 } },
    });
    expect(resolvedOne.message).toMatch(/Resolved: every score is back at or above its threshold \(overall 80\)\.$/);
  });

  it('refuses invalid filters and pagination with 422', async () => {
    for (const query of [
      'status=closed',
      'severity=info',
      'limit=51',
      'limit=0',
      'limit=abc',
      'page=0',
      'page=-1',
      'limit=1e309',
    ]) {
      const response = await get(`/alerts?${query}`, alice.token);
      expect({ query, status: response.status }).toEqual({ query, status: 422 });
      expect(Object.keys(response.body.errors as object)).toEqual([query.split('=')[0]]);
    }
  });

  it("shows one alert in the caller's language; another user's or an unknown id is 404", async () => {
    const german = await get(`/alerts/${critical}`, alice.token, { 'accept-language': 'de-DE,de;q=0.9' });
    expect(german.body.data).toMatchObject({
      id: critical,
      severity: 'critical',
      title: 'Score „Gesamt“ unter der kritischen Schwelle',
    });
    for (const path of [
      `/alerts/${bobs}`,
      '/alerts/999999',
      '/alerts/0',
      '/alerts/abc',
      '/alerts/1234567890123456789',
    ]) {
      const response = await call(api, path, { token: alice.token });
      expect({ path, status: response.status, body: response.body }).toEqual({
        path,
        status: 404,
        body: { message: 'Not found.' },
      });
    }
  });

  it("marks read: listed ids (others' and unknown ignored) or all; counts only what changed", async () => {
    const mark = (body: unknown, token = alice.token) =>
      call(api, '/alerts/mark-read', { token, method: 'POST', body });
    expect((await mark({ ids: [warning, bobs, 999999] })).body).toEqual({ data: { marked_read: 1 } });
    expect((await mark({ ids: [warning] })).body).toEqual({ data: { marked_read: 0 } });
    expect(ids((await get('/alerts?status=unread', alice.token)).body)).toEqual([resolved, critical]);
    expect((await mark({ ids: [] })).body).toEqual({ data: { marked_read: 0 } });
    expect((await mark({})).body).toEqual({ data: { marked_read: 2 } });
    expect((await call(api, '/alerts/mark-read', { token: alice.token, method: 'POST' })).body).toEqual({
      data: { marked_read: 0 },
    });
    expect(ids((await get('/alerts?status=unread', alice.token)).body)).toEqual([]);
    // Bob's alert was never touched by Alice's calls.
    expect(ids((await get('/alerts?status=unread', bob.token)).body)).toEqual([bobs]);
  });

  it('refuses a malformed mark-read body with 422', async () => {
    for (const body of [
      { ids: 'all' },
      { ids: [1, 'two'] },
      { ids: [0] },
      { ids: [-3] },
      { ids: [1.5] },
      { ids: [2 ** 53] },
      { all: true },
      [1, 2],
    ]) {
      const response = await call(api, '/alerts/mark-read', { token: alice.token, method: 'POST', body });
      expect({ body, status: response.status }).toEqual({ body, status: 422 });
    }
    // A number too large to be a number: JSON parses it as Infinity.
    const infinite = await call(api, '/alerts/mark-read', {
      token: alice.token,
      method: 'POST',
      body: '{"ids":[1e309]}',
    });
    expect(infinite.status).toBe(422);
    const tooMany = await call(api, '/alerts/mark-read', {
      token: alice.token,
      method: 'POST',
      body: { ids: Array.from({ length: 1001 }, (_, i) => i + 1) },
    });
    expect(tooMany.body).toMatchObject({ errors: { ids: ['The ids may not have more than 1000 items.'] } });
  });
});

describe('dismissing', () => {
  it('takes the alert out of the open list, keeps it the one unresolved alert, and silences it until it resolves', async () => {
    const target = await insertTarget(api.db.knex, alice.user.id);
    const raised = await scan(alice.user.id, target, 65, 10);
    const alertId = raised.evaluation.changes[0]!.alertId;
    expect(raised.evaluation.emails).toEqual([{ alertId, change: 'raised' }]);

    const dismissed = await call(api, `/alerts/${alertId}/dismiss`, { token: alice.token, method: 'POST' });
    expect(dismissed.status).toBe(200);
    expect(contract('POST', '/alerts/{id}/dismiss', dismissed)).toEqual([]);
    expect(dismissed.body.data).toMatchObject({ id: alertId, is_dismissed: true, is_read: true, resolved_at: null });
    expect(ids((await get('/alerts?status=open', alice.token)).body)).not.toContain(alertId);
    expect(
      (await call(api, `/alerts/${alertId}/dismiss`, { token: alice.token, method: 'POST', body: {} })).status,
    ).toBe(200);
    const dismissedAt = (await api.db.knex('alerts').where({ id: alertId }).first()).dismissed_at;

    // D2: still below: no second alert of the type.
    expect((await scan(alice.user.id, target, 60, 11)).evaluation).toEqual({
      outcome: 'evaluated',
      changes: [],
      emails: [],
    });
    // D3: worse: the record escalates (it stays truthful) but stays dismissed and sends nothing.
    expect((await scan(alice.user.id, target, 30, 12)).evaluation).toEqual({
      outcome: 'evaluated',
      changes: [{ alertId, type: 'score_below_threshold', change: 'escalated' }],
      emails: [],
    });
    // D4: recovered: resolves, sends nothing.
    expect((await scan(alice.user.id, target, 90, 13)).evaluation).toEqual({
      outcome: 'evaluated',
      changes: [{ alertId, type: 'score_below_threshold', change: 'resolved' }],
      emails: [],
    });
    expect(await api.db.knex('alerts').where({ id: alertId }).first()).toMatchObject({
      is_dismissed: true,
      dismissed_at: dismissedAt,
      severity: 'critical',
      resolved_at: expect.any(Date),
    });
    // A later fall raises a new one.
    expect((await scan(alice.user.id, target, 60, 14)).evaluation.changes).toEqual([
      { alertId: expect.any(Number), type: 'score_below_threshold', change: 'raised' },
    ]);
  });

  it('dismisses the unresolved alerts of a target that is being deleted, and no others', async () => {
    const target = await insertTarget(api.db.knex, alice.user.id);
    const first = (await scan(alice.user.id, target, 60, 15)).evaluation.changes[0]!.alertId;
    await scan(alice.user.id, target, 90, 16);
    const second = (await scan(alice.user.id, target, 60, 17)).evaluation.changes[0]!.alertId;
    expect(await createTargetStore(api.db.knex).delete(target.id, at(18))).toBe(true);
    expect(await api.db.knex('alerts').whereIn('id', [first, second]).orderBy('id').select('is_dismissed')).toEqual([
      { is_dismissed: false },
      { is_dismissed: true },
    ]);
  });

  it("is 404 for another user's alert or an unknown one, and refuses body fields", async () => {
    const target = await insertTarget(api.db.knex, bob.user.id);
    const bobs = (await scan(bob.user.id, target, 65, 20)).evaluation.changes[0]!.alertId;
    expect((await call(api, `/alerts/${bobs}/dismiss`, { token: alice.token, method: 'POST' })).status).toBe(404);
    expect((await call(api, '/alerts/424242/dismiss', { token: alice.token, method: 'POST' })).status).toBe(404);
    expect(
      (await call(api, `/alerts/${bobs}/dismiss`, { token: bob.token, method: 'POST', body: { reason: 'noise' } }))
        .status,
    ).toBe(422);
    expect((await api.db.knex('alerts').where({ id: bobs }).first()).is_dismissed).toBe(false);
  });
});

describe('evaluation guards', () => {
  it('two evaluations at once open one alert (the target row lock; the unique index backs it)', async () => {
    const target = await insertTarget(api.db.knex, alice.user.id);
    const scanId = await insertFinishedScan(api.db.knex, alice.user.id, target, scoresOf(40), at(30));
    const results = await Promise.all(Array.from({ length: 4 }, () => evaluateScanAlerts(store, scanId, at(30))));
    expect(results.flatMap((r) => r.changes)).toHaveLength(1);
    // Every one of them reports the e-mail still due for this scan's alert (a retry after a crash sends it).
    expect(results.map((r) => r.emails.length)).toEqual([1, 1, 1, 1]);
    expect(await api.db.knex('alerts').where({ target_id: target.id }).count('* as n')).toEqual([{ n: 1 }]);
    await expect(
      store.insert({
        userId: alice.user.id,
        targetId: target.id,
        type: 'score_below_threshold',
        severity: 'warning',
        details: { score: 'overall', value: 1, reference: 70 },
        url: target.url,
        host: target.host,
        region: 'local',
        scanPublicId: scanId,
        createdAt: at(30),
      }),
    ).rejects.toThrow(/alerts_one_unresolved_per_target_type/);
  });

  it("ignores a scan when a later scan of the target has finished, and scans that are not a target's finished scans", async () => {
    const target = await insertTarget(api.db.knex, alice.user.id);
    const older = await insertFinishedScan(api.db.knex, alice.user.id, target, scoresOf(30), at(40));
    const newer = await insertFinishedScan(api.db.knex, alice.user.id, target, scoresOf(90), at(41));
    expect(await evaluateScanAlerts(store, newer, at(41))).toMatchObject({ outcome: 'evaluated', changes: [] });
    expect(await evaluateScanAlerts(store, older, at(41))).toEqual({ outcome: 'superseded', changes: [], emails: [] });

    const manual = await insertFinishedScan(api.db.knex, alice.user.id, target, scoresOf(10), at(42));
    await api.db.knex('scans').where({ public_id: manual }).update({ target_id: null });
    expect((await evaluateScanAlerts(store, manual, at(42))).outcome).toBe('not_scheduled');
    const running = await insertFinishedScan(api.db.knex, alice.user.id, target, scoresOf(10), at(43));
    await api.db.knex('scans').where({ public_id: running }).update({ status: 'running', finished_at: null });
    expect((await evaluateScanAlerts(store, running, at(43))).outcome).toBe('not_finished');
    expect((await evaluateScanAlerts(store, '0'.repeat(26), at(43))).outcome).toBe('scan_not_found');
    const gone = await insertTarget(api.db.knex, alice.user.id);
    const orphan = await insertFinishedScan(api.db.knex, alice.user.id, gone, scoresOf(10), at(44));
    await api.db.knex('scan_targets').where({ id: gone.id }).delete();
    expect((await evaluateScanAlerts(store, orphan, at(44))).outcome).toBe('not_scheduled');
  });

  it('uses per-category thresholds: one alert naming the worst, the API listing every crossing', async () => {
    const target = await insertTarget(api.db.knex, alice.user.id, {
      thresholds: {
        overall: { warning: 70, critical: 50 },
        speed: { warning: 80, critical: 60 },
        images: { warning: 70, critical: 40 },
      },
    });
    const { evaluation } = await scan(alice.user.id, target, 72, 50, { speed: 55, images: 65 });
    const shown = await get(`/alerts/${evaluation.changes[0]!.alertId}`, alice.token);
    expect(shown.body.data).toMatchObject({
      severity: 'critical',
      title: 'Speed score below the critical threshold',
      message: `The speed score of ${target.host} is 55, below the critical threshold of 60. Also below their thresholds: Images 65.`,
      details: {
        score: 'speed',
        value: 55,
        reference: 60,
        crossings: [
          { score: 'speed', value: 55, threshold: 60, severity: 'critical' },
          { score: 'images', value: 65, threshold: 70, severity: 'warning' },
        ],
        resolution: null,
      },
    });
  });
});

describe("a target's alerts (the target page's query)", () => {
  it("finds the target's open and recently closed alerts however many newer alerts its owner has elsewhere", async () => {
    const owner = await createTestUser(api, 'pro');
    const quiet = await insertTarget(api.db.knex, owner.user.id);
    const busy = await insertTarget(api.db.knex, owner.user.id);
    const alert = (target: TestTarget, type: 'score_below_threshold' | 'score_regression', day: number) =>
      store.insert({
        userId: owner.user.id,
        targetId: target.id,
        type,
        severity: 'warning',
        details: { score: 'overall', value: 60, reference: 70 },
        url: target.url,
        host: target.host,
        region: target.region,
        scanPublicId: '0'.repeat(26),
        createdAt: at(day),
      });
    const open = await alert(quiet, 'score_below_threshold', 1);
    const dismissed = await alert(quiet, 'score_regression', 2);
    await dismissAlert({ alerts: store, clock: () => at(2) }, owner.user.id, dismissed.id);
    // 250 newer alerts on the other target (each resolved, as one target has one unresolved alert per type).
    for (let i = 0; i < 250; i++) {
      const other = await alert(busy, 'score_below_threshold', 3);
      await store.resolve(
        other.id,
        { details: { score: 'overall', value: 90, reference: 70 }, scanPublicId: '1'.repeat(26) },
        at(3),
      );
    }
    const found = await targetAlerts(store, owner.user.id, quiet.id, 5);
    expect(found.open.map((a) => a.id)).toEqual([open.id]);
    expect(found.recent.map((a) => a.id)).toEqual([dismissed.id]);
    const busyFound = await targetAlerts(store, owner.user.id, busy.id, 5);
    expect(busyFound.open).toEqual([]);
    expect(busyFound.recent).toHaveLength(5);
    // Someone else's target id finds nothing of theirs.
    expect(await targetAlerts(store, bob.user.id, quiet.id, 5)).toEqual({ open: [], recent: [] });
  });
});
