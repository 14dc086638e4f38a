import { describeStep, measureRuns, medianScan, type MeasureOptions } from '../../activities/scan-runs.ts';
import type { RunnerResult, ScanRunInput, ScanRunner } from '../../activities/scan-runner.ts';
import type { FormFactor, RunObservation } from '../../core/scan/observation.ts';
import { cleanObservation, formFactor } from './observation-builder.ts';

/**
 * The runs of a scan with a scripted runner: how many runner calls, which form factors each asks for,
 * which run is kept as the median, when a run is repeated and flagged. The real runner is in
 * test/scans/median-runs.test.ts.
 */
interface Load {
  /** Per form factor: [fcp, tti, benchmark index]. */
  desktop?: [number, number, number];
  mobile?: [number, number, number];
}

function scripted(loads: Array<Load | 'page_failure'>) {
  const calls: ScanRunInput[] = [];
  const runner: ScanRunner = {
    async run(input, { onProgress }) {
      const index = calls.push(input) - 1;
      const load = loads[index];
      if (load === undefined) throw new Error(`unexpected runner call ${index + 1}`);
      if (load === 'page_failure')
        return { kind: 'page_failure', failure: { code: 'http_error', detail: 'status 503', httpStatus: 503 } };
      const {
        desktop: _desktop,
        mobile: _mobile,
        ...page
      } = cleanObservation({
        finalUrl: `https://shop.example/?call=${index}`,
        chromiumVersion: `Chrome/156.0.${index}`,
      });
      const observation: RunObservation = page;
      const images: Extract<RunnerResult, { kind: 'observation' }>['images'] = [];
      const reports: NonNullable<Extract<RunnerResult, { kind: 'observation' }>['reports']> = [];
      for (const factor of input.formFactors) {
        onProgress(factor);
        if (!load[factor]) continue; // a broken runner
        const [fcpMs, interactiveMs, benchmarkIndex] = load[factor];
        observation[factor] = formFactor({
          metrics: { fcpMs, lcpMs: fcpMs, cls: 0, tbtMs: interactiveMs - fcpMs, speedIndexMs: fcpMs, interactiveMs },
          benchmarkIndex,
          screenshot: `${factor}-final.jpg`,
        });
        images.push({ name: `${factor}-final.jpg`, bytes: Buffer.from(`${factor} of call ${index}`) });
        reports.push({
          formFactor: factor,
          gzip: Buffer.from(`${factor} result of call ${index}`),
          jsonBytes: 100 + index,
        });
      }
      return { kind: 'observation', observation, images, reports };
    },
  };
  return { runner, calls };
}

const steps: string[] = [];
const options = (overrides: Partial<MeasureOptions>): MeasureOptions => ({
  runs: 3,
  minBenchmarkIndex: 1000,
  deadline: Number.POSITIVE_INFINITY,
  onProgress: (step) => steps.push(describeStep(step)),
  signal: new AbortController().signal,
  ...overrides,
});
const page = { publicId: 'scanrunstest00000000000000', url: 'https://shop.example/', credentials: null };
const asked = (calls: ScanRunInput[]) => calls.map((c) => c.formFactors.join('+'));
beforeEach(() => (steps.length = 0));

it('loads every form factor once per run, one runner call per run, and keeps each form factor’s median run', async () => {
  const { runner, calls } = scripted([
    { desktop: [500, 2500, 2000], mobile: [1500, 6000, 2000] },
    { desktop: [400, 1000, 2000], mobile: [1400, 4000, 2000] },
    { desktop: [450, 1500, 2000], mobile: [1800, 9000, 2000] },
  ]);
  const measured = await measureRuns(runner, page, options({}));
  expect(asked(calls)).toEqual(['desktop+mobile', 'desktop+mobile', 'desktop+mobile']);
  expect(calls.every((c) => c.url === page.url && c.publicId === page.publicId)).toBe(true);
  if (measured.kind !== 'measured') throw new Error('not measured');
  expect(measured.perFactor.desktop!.median).toBe(2);
  expect(measured.perFactor.mobile!.median).toBe(0);
  expect(steps).toEqual([
    'desktop run 1 of 3',
    'mobile run 1 of 3',
    'desktop run 2 of 3',
    'mobile run 2 of 3',
    'desktop run 3 of 3',
    'mobile run 3 of 3',
  ]);

  // The scan is scored on the medians; the page as the desktop median's run saw it; only the medians' images
  // and whole Lighthouse results.
  const { observation, images, reports, records: runs, wholeRuns } = medianScan(measured.perFactor);
  expect(observation.desktop.metrics.interactiveMs).toBe(1500);
  expect(observation.mobile.metrics.interactiveMs).toBe(6000);
  expect(observation.finalUrl).toBe('https://shop.example/?call=2');
  expect(images.map((i) => i.bytes.toString())).toEqual(['desktop of call 2', 'mobile of call 0']);
  expect(reports.map((r) => [r.formFactor, r.gzip.toString(), r.jsonBytes])).toEqual([
    ['desktop', 'desktop result of call 2', 102],
    ['mobile', 'mobile result of call 0', 100],
  ]);
  expect(runs.desktop.map((r) => [r.interactive_ms, r.median])).toEqual([
    [2500, false],
    [1000, false],
    [1500, true],
  ]);
  expect(runs.mobile.map((r) => r.median)).toEqual([true, false, false]);
  // Each run as a scan of its own, for its overall score: run i's loads of both form factors, its own page.
  expect(
    wholeRuns.map((run) => [run.desktop.metrics.interactiveMs, run.mobile.metrics.interactiveMs, run.finalUrl]),
  ).toEqual([
    [2500, 6000, 'https://shop.example/?call=0'],
    [1000, 4000, 'https://shop.example/?call=1'],
    [1500, 9000, 'https://shop.example/?call=2'],
  ]);
  expect(runs.desktop[1]).toEqual({
    performance_score: 98,
    fcp_ms: 400,
    lcp_ms: 400,
    tbt_ms: 600,
    cls: 0,
    si_ms: 400,
    interactive_ms: 1000,
    benchmark_index: 2000,
    lighthouse_version: '13.5.0',
    chromium_version: 'Chrome/156.0.1',
    overloaded: false,
    repeated: false,
    median: false,
  });
});

it('keeps a single run as its own median', async () => {
  const { runner, calls } = scripted([{ desktop: [500, 900, 2000], mobile: [900, 2000, 2000] }]);
  const measured = await measureRuns(runner, page, options({ runs: 1 }));
  expect(calls).toHaveLength(1);
  const { records: runs } = medianScan(measured.kind === 'measured' ? measured.perFactor : {});
  expect(runs.desktop).toHaveLength(1);
  expect(runs.desktop[0]!.median).toBe(true);
});

it('repeats only the form factor whose benchmark index was low, once, and keeps the repeat', async () => {
  const { runner, calls } = scripted([
    { desktop: [500, 900, 400], mobile: [900, 2000, 2000] },
    { desktop: [510, 910, 1800] },
    { desktop: [520, 920, 2000], mobile: [910, 2100, 2000] },
  ]);
  const measured = await measureRuns(runner, page, options({ runs: 2 }));
  expect(asked(calls)).toEqual(['desktop+mobile', 'desktop', 'desktop+mobile']);
  expect(steps).toContain('desktop run 1 of 2 (repeated: the machine was busy)');
  const { records: runs } = medianScan(measured.kind === 'measured' ? measured.perFactor : {});
  expect(runs.desktop.map((r) => [r.benchmark_index, r.repeated, r.overloaded])).toEqual([
    [1800, true, false],
    [2000, false, false],
  ]);
  expect(runs.mobile.map((r) => [r.benchmark_index, r.repeated, r.overloaded])).toEqual([
    [2000, false, false],
    [2000, false, false],
  ]);
});

it('flags a run whose repeat is still below the minimum, and repeats no more than once', async () => {
  const busy = { desktop: [500, 900, 300], mobile: [900, 2000, 300] } satisfies Load;
  const { runner, calls } = scripted([busy, busy, busy, busy]);
  const measured = await measureRuns(runner, page, options({ runs: 2 }));
  expect(asked(calls)).toEqual(['desktop+mobile', 'desktop+mobile', 'desktop+mobile', 'desktop+mobile']);
  const { records: runs } = medianScan(measured.kind === 'measured' ? measured.perFactor : {});
  for (const factor of ['desktop', 'mobile'] as FormFactor[]) {
    expect(runs[factor].map((r) => [r.repeated, r.overloaded])).toEqual([
      [true, true],
      [true, true],
    ]);
  }
});

it('repeats nothing when the minimum is 0, nor when the attempt has no time left for it (then flags the run)', async () => {
  const busy = { desktop: [500, 900, 300], mobile: [900, 2000, 300] } satisfies Load;
  const off = scripted([busy, busy]);
  const unchecked = await measureRuns(off.runner, page, options({ runs: 2, minBenchmarkIndex: 0 }));
  expect(off.calls).toHaveLength(2);
  expect(
    medianScan(unchecked.kind === 'measured' ? unchecked.perFactor : {}).records.desktop.map((r) => r.overloaded),
  ).toEqual([false, false]);

  const late = scripted([busy, busy]);
  const hurried = await measureRuns(late.runner, page, options({ runs: 2, deadline: performance.now() }));
  expect(late.calls).toHaveLength(2);
  expect(
    medianScan(hurried.kind === 'measured' ? hurried.perFactor : {}).records.desktop.map((r) => [
      r.repeated,
      r.overloaded,
    ]),
  ).toEqual([
    [false, true],
    [false, true],
  ]);
});

it('ends at the first page failure, in any run or repeat', async () => {
  const ok = { desktop: [500, 900, 2000], mobile: [900, 2000, 2000] } satisfies Load;
  const second = scripted([ok, 'page_failure', ok]);
  expect(await measureRuns(second.runner, page, options({}))).toEqual({
    kind: 'page_failure',
    failure: { code: 'http_error', detail: 'status 503', httpStatus: 503 },
  });
  expect(second.calls).toHaveLength(2);
  const repeat = scripted([{ desktop: [500, 900, 10], mobile: [900, 2000, 2000] }, 'page_failure', ok]);
  expect(await measureRuns(repeat.runner, page, options({}))).toMatchObject({ kind: 'page_failure' });
  expect(repeat.calls).toHaveLength(2);
});

it('loads only the form factors asked for', async () => {
  const { runner, calls } = scripted([{ desktop: [500, 900, 2000] }, { desktop: [500, 800, 2000] }]);
  const measured = await measureRuns(runner, page, options({ runs: 2, formFactors: ['desktop'] }));
  expect(asked(calls)).toEqual(['desktop', 'desktop']);
  expect(measured).toMatchObject({ kind: 'measured', perFactor: { desktop: { median: 1 } } });
  expect(measured.kind === 'measured' && measured.perFactor.mobile).toBeUndefined();
  expect(() => medianScan(measured.kind === 'measured' ? measured.perFactor : {})).toThrow('no mobile runs');
});

it('rejects a runner that leaves out a form factor it was asked for', async () => {
  const { runner } = scripted([{ desktop: [500, 900, 2000] }]);
  await expect(measureRuns(runner, page, options({ runs: 1 }))).rejects.toThrow(
    'the runner returned no mobile observation',
  );
});
