import { runRecord, buildResultRecord, type RunRecord, type ScanRuns } from '../../core/scan/result.ts';
import { scoreScan } from '../../core/scoring/index.ts';
import { createScanStore } from '../../db/store/scans.ts';
import { call, createTestUser, startTestApi, type TestApi } from '../harness/api.ts';
import { cleanObservation, formFactor, SCANNED_AT } from '../unit/observation-builder.ts';

/**
 * `runs` in POST /scans without a worker (scans stay queued; finished ones are stored as the activity would
 * store them): default, validation, the plan's limit, the cache rule, and the runs in the finished scan's
 * detail. Real runs in Chromium: median-runs.test.ts.
 */
let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const post = (token: string, body: unknown) => call(api, '/scans', { token, method: 'POST', body });
const idOf = (res: { body: Record<string, unknown> }) => (res.body.data as { id: string }).id;
const row = async (id: string) =>
  (await api.db.knex('scans').where({ public_id: id }).first()) as { runs: number; status: string };

/** Stores the scan as finished, as the scan activity would with these runs (one run when none are given). */
async function finish(id: string, runs?: ScanRuns): Promise<void> {
  const observation = cleanObservation();
  await createScanStore(api.db.knex).markFinished(
    id,
    buildResultRecord(observation, scoreScan(observation, SCANNED_AT), runs),
    new Date(),
  );
}

describe('runs in POST /scans', () => {
  it('defaults to one run, and stores the runs asked for with the scan', async () => {
    const { token } = await createTestUser(api, 'pro');
    const single = await post(token, { url: 'https://runs-default.example/' });
    expect(single.status).toBe(202);
    expect(await row(idOf(single))).toMatchObject({ runs: 1 });
    const five = await post(token, { url: 'https://runs-five.example/', runs: 5 });
    expect(five.status).toBe(202);
    expect(await row(idOf(five))).toMatchObject({ runs: 5 });
  });

  it.each([
    [0, 'The runs must be at least 1.'],
    [6, 'The runs may not be greater than 5.'],
    ['x', 'The runs must be an integer.'],
    ['3', 'The runs must be an integer.'],
    [2.5, 'The runs must be an integer.'],
    [null, 'The runs must be an integer.'],
  ])('422 for runs %j', async (runs, message) => {
    const { token, user } = await createTestUser(api, 'pro');
    const res = await post(token, { url: 'https://runs-invalid.example/', runs });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ runs: [message] });
    expect(await api.db.knex('scans').where({ user_id: user.id })).toHaveLength(0);
  });

  it('403 with the plan that allows them for more runs than the plan allows; an invalid count is still 422', async () => {
    const starter = await createTestUser(api, 'starter');
    expect(await post(starter.token, { url: 'https://runs-plan.example/', runs: 5 })).toMatchObject({
      status: 403,
      body: { message: '5 runs per scan need the Pro plan or higher (your plan allows 3).', required_plan: 'pro' },
    });
    expect(await post(starter.token, { url: 'https://runs-plan.example/', runs: 4 })).toMatchObject({
      status: 403,
      body: { required_plan: 'pro' },
    });
    expect(await post(starter.token, { url: 'https://runs-plan.example/', runs: 6 })).toMatchObject({ status: 422 });
    expect(await api.db.knex('scans').where({ user_id: starter.user.id })).toHaveLength(0);
    expect((await post(starter.token, { url: 'https://runs-plan.example/', runs: 3 })).status).toBe(202);
  });

  it('reuses a cached or running scan only if it has at least the runs asked for', async () => {
    const { token } = await createTestUser(api, 'pro');
    const url = 'https://runs-cache.example/';
    const one = idOf(await post(token, { url }));
    // A queued one-run scan is not joined by a request for 3; a queued 3-run scan is joined by one for 2.
    const three = await post(token, { url, runs: 3 });
    expect(three.status).toBe(202);
    expect(idOf(three)).not.toBe(one);
    expect(await post(token, { url, runs: 2 })).toMatchObject({
      status: 202,
      body: { data: { id: idOf(three), cached: false } },
    });

    await finish(one);
    await finish(idOf(three));
    // Finished: the 3-run result answers requests for 1 to 3 runs, never one for 4.
    for (const runs of [undefined, 1, 3]) {
      expect(await post(token, { url, ...(runs ? { runs } : {}) })).toMatchObject({
        status: 200,
        body: { data: { id: idOf(three), cached: true } },
      });
    }
    const four = await post(token, { url, runs: 4 });
    expect(four).toMatchObject({ status: 202, body: { data: { cached: false } } });
    expect(await row(idOf(four))).toMatchObject({ runs: 4, status: 'queued' });
  });
});

describe('the runs of a finished scan', () => {
  it('are in the detail, each with its metrics, benchmark index and versions, the median marked; the document describes them', async () => {
    const { token } = await createTestUser(api, 'pro');
    const id = idOf(await post(token, { url: 'https://runs-detail.example/', runs: 2 }));
    const page = { lighthouseVersion: '13.5.0', chromiumVersion: 'HeadlessChrome/156.0.7444.59' };
    const run = (interactiveMs: number, flags: Pick<RunRecord, 'overloaded' | 'repeated' | 'median'>) =>
      runRecord(
        formFactor({
          metrics: {
            fcpMs: 800,
            lcpMs: 1200,
            cls: 0.01,
            tbtMs: interactiveMs - 1000,
            speedIndexMs: 900,
            interactiveMs,
          },
          benchmarkIndex: 1523.6,
        }),
        page,
        flags,
      );
    const plain = { overloaded: false, repeated: false };
    await finish(id, {
      desktop: [run(1300, { ...plain, median: true }), run(1900, { overloaded: true, repeated: true, median: false })],
      mobile: [run(2500, { ...plain, median: false }), run(2400, { ...plain, median: true })],
      overall: [91, 84],
    });
    const detail = await call(api, `/scans/${id}`, { token });
    const runs = (detail.body.data as { result: { runs: Record<string, unknown[]> } }).result.runs;
    expect(runs.overall).toEqual([91, 84]);
    expect(runs.desktop).toEqual([
      {
        performance_score: 98,
        fcp_ms: 800,
        lcp_ms: 1200,
        tbt_ms: 300,
        cls: 0.01,
        si_ms: 900,
        interactive_ms: 1300,
        benchmark_index: 1524,
        lighthouse_version: '13.5.0',
        chromium_version: 'HeadlessChrome/156.0.7444.59',
        overloaded: false,
        repeated: false,
        median: true,
      },
      expect.objectContaining({ interactive_ms: 1900, overloaded: true, repeated: true, median: false }),
    ]);
    expect(runs.mobile!.map((r) => (r as RunRecord).median)).toEqual([false, true]);

    // A one-run scan lists its one run, its own median, and the scan's overall score as that run's.
    const single = idOf(await post(token, { url: 'https://runs-single.example/' }));
    await finish(single);
    const singleResult = (
      (await call(api, `/scans/${single}`, { token })).body.data as {
        result: { scores: { overall: number }; runs: ScanRuns };
      }
    ).result;
    expect(singleResult.runs.desktop.map((r) => r.median)).toEqual([true]);
    expect(singleResult.runs.mobile).toHaveLength(1);
    expect(singleResult.runs.overall).toEqual([singleResult.scores.overall]);

    const { openApiContract } = await import('../harness/contract.ts');
    const conforms = await openApiContract(api);
    expect(conforms('get', '/scans/{id}', detail)).toEqual([]);
    // A result stored before scans had runs has none, and still conforms.
    const data = detail.body.data as { result: Record<string, unknown> };
    const { runs: _runs, ...older } = data.result;
    expect(conforms('get', '/scans/{id}', { status: 200, body: { data: { ...data, result: older } } })).toEqual([]);
    // The runs are described, not waved through: a run with a field too many does not conform.
    const extra = { ...data.result, runs: { ...runs, mobile: [{ ...(runs.mobile![0] as object), extra: 1 }] } };
    expect(conforms('get', '/scans/{id}', { status: 200, body: { data: { ...data, result: extra } } })).not.toEqual([]);
  });
});
