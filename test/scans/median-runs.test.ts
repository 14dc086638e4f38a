import { msToNumber } from '@temporalio/common';
import { scanActivityTimeoutMs, scanRunLimitMs } from '../../core/scan/lifecycle.ts';
import { scanWorkflowId } from '../../core/temporal.ts';
import type { RunRecord } from '../../core/scan/result.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { call, createTestUser } from '../harness/api.ts';
import { startScanStack, waitForScan, type ScanStack } from '../harness/scans.ts';

/**
 * A scan of two runs end to end (API, workflow, a real worker running Lighthouse in Chromium), on a worker
 * whose minimum benchmark index no machine reaches: every run counts as measured on an overloaded machine,
 * so each is repeated once, and the repeat, overloaded too, is kept and flagged. The page's loads show the
 * repeats (2 runs x 2 form factors x 2 loads); the scan's detail shows every run with its versions.
 */
let stack: ScanStack;
let sites: FixtureSites;
let token: string;
let detail: Record<string, unknown>;
let scanId: string;
const steps = new Set<string>();
const PATH = '/fast/?overloaded';

beforeAll(async () => {
  sites = await startFixtureSites();
  stack = await startScanStack({ env: { SCAN_MIN_BENCHMARK_INDEX: '1000000' } });
  ({ token } = await createTestUser(stack.api, 'pro'));
  const created = await call(stack.api, '/scans', {
    token,
    method: 'POST',
    body: { url: `${sites.origin}${PATH}`, runs: 2 },
  });
  expect(created.status).toBe(202);
  const id = (scanId = (created.body.data as { id: string }).id);
  // The steps the activity heartbeats while it runs, as Temporal shows them.
  const handle = stack.api.temporal.workflow.getHandle(scanWorkflowId(id));
  const watching = (async () => {
    while (!detail) {
      const { raw } = await handle.describe();
      for (const activity of raw.pendingActivities ?? []) {
        for (const payload of activity.heartbeatDetails?.payloads ?? [])
          steps.add((JSON.parse(Buffer.from(payload.data!).toString()) as { step: string }).step);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();
  detail = await waitForScan(stack.api, token, id, 400_000);
  await watching;
}, 480_000);

afterAll(async () => {
  await stack?.close();
  await sites?.close();
});

type Result = {
  metrics: Record<'desktop' | 'mobile', { fcp_ms: number; tbt_ms: number; lcp_ms: number }>;
  runs: Record<'desktop' | 'mobile', RunRecord[]> & { overall: number[] };
};

it('repeats each overloaded run once, then keeps it flagged', () => {
  expect(detail.status).toBe('finished');
  const documentLoads = sites.siteRequests.filter((r) => r.path === PATH);
  expect(documentLoads).toHaveLength(2 * 2 * 2);
  const { runs } = detail.result as Result;
  for (const factor of ['desktop', 'mobile'] as const) {
    expect(runs[factor]).toHaveLength(2);
    expect(runs[factor].map((r) => [r.repeated, r.overloaded])).toEqual([
      [true, true],
      [true, true],
    ]);
  }
});

it('lists every run with its metrics, benchmark index and versions, and takes the scan’s metrics from the median run', () => {
  const { runs, metrics } = detail.result as Result;
  for (const factor of ['desktop', 'mobile'] as const) {
    for (const run of runs[factor]) {
      expect(run).toEqual({
        performance_score: expect.any(Number),
        fcp_ms: expect.any(Number),
        lcp_ms: expect.any(Number),
        tbt_ms: expect.any(Number),
        cls: expect.any(Number),
        si_ms: expect.any(Number),
        interactive_ms: expect.any(Number),
        benchmark_index: expect.any(Number),
        lighthouse_version: expect.stringMatching(/^\d+\.\d+\.\d+/),
        chromium_version: expect.stringMatching(/Chrom[a-z]*\/\d+\.\d+\.\d+\.\d+/),
        overloaded: true,
        repeated: true,
        median: expect.any(Boolean),
      });
      expect(run.fcp_ms).toBeGreaterThan(0);
      expect(run.interactive_ms).toBeGreaterThanOrEqual(run.fcp_ms);
      expect(run.benchmark_index).toBeGreaterThan(0);
    }
    const medians = runs[factor].filter((r) => r.median);
    expect(medians).toHaveLength(1);
    expect(metrics[factor]).toMatchObject({
      fcp_ms: medians[0]!.fcp_ms,
      lcp_ms: medians[0]!.lcp_ms,
      tbt_ms: medians[0]!.tbt_ms,
    });
  }
  // Each run's own overall score, for the spread around the scan's.
  expect(runs.overall).toEqual([expect.any(Number), expect.any(Number)]);
  expect(runs.overall.every((score) => score >= 0 && score <= 100)).toBe(true);
});

it('reports in its heartbeat which run of which form factor it is on', () => {
  expect(
    [...steps].some((step) => /^(desktop|mobile) run [12] of 2( \(repeated: the machine was busy\))?$/.test(step)),
  ).toBe(true);
});

it('gives the Lighthouse activity the time limits of two runs', async () => {
  const history = await stack.api.temporal.workflow.getHandle(scanWorkflowId(scanId)).fetchHistory();
  const scheduled = history
    .events!.map((e) => e.activityTaskScheduledEventAttributes)
    .find((a) => a?.activityType?.name === 'scanPage')!;
  const ms = (duration: { seconds?: unknown; nanos?: number | null } | null | undefined) =>
    Number(duration?.seconds ?? 0) * 1000 + Math.round((duration?.nanos ?? 0) / 1e6);
  expect(ms(scheduled.startToCloseTimeout)).toBe(scanActivityTimeoutMs(2));
  expect(ms(scheduled.scheduleToCloseTimeout)).toBe(scanRunLimitMs(2));
  expect(ms(scheduled.heartbeatTimeout)).toBe(msToNumber('20 seconds'));
  expect(scanActivityTimeoutMs(2)).toBeGreaterThan(scanActivityTimeoutMs(1));
});
