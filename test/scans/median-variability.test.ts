import { processRunner } from '../../activities/lighthouse/process-runner.ts';
import { medianRunIndex } from '../../core/scan/median-run.ts';
import { measureRuns, type FormFactorRuns } from '../../activities/scan-runs.ts';
import { loadConfig } from '../../infra/config.ts';
import { startFixtureSites, type FixtureSites } from '../../fixtures/sites.ts';
import { baseTestEnv } from '../harness/shared.ts';

/**
 * The median of runs in real Chromium with the real runner: scans of 3 runs of a page whose main-thread work
 * varies from load to load (fixtures/sites.ts, /variable/?seed=), and the run each scan keeps is the one the
 * median rule (core/scan/median-run.ts, unit-tested on its own) picks from what Lighthouse measured in those
 * runs. What a real browser measures for a served busy time depends on the machine, so nothing here compares
 * timings: that median runs spread less across scans than single runs is measured by `npm run bench:median`.
 * Only desktop is loaded (the runner loads the form factors it is asked for).
 */
const SCANS = 2;
const RUNS = 3;
let sites: FixtureSites;
let runner: ReturnType<typeof processRunner>;
const scans: FormFactorRuns[] = [];

beforeAll(async () => {
  sites = await startFixtureSites();
  const config = loadConfig(baseTestEnv());
  runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
  for (let i = 0; i < SCANS; i++) {
    const measured = await measureRuns(
      runner,
      {
        publicId: `medianvariability${String(i).padStart(9, '0')}`,
        url: `${sites.origin}/variable/?seed=1`,
        credentials: null,
      },
      {
        runs: RUNS,
        formFactors: ['desktop'],
        // Repeats would shift the seeded sequence; overload handling has its own test (median-runs.test.ts).
        minBenchmarkIndex: 0,
        deadline: Number.POSITIVE_INFINITY,
        onProgress: () => undefined,
        signal: AbortSignal.timeout(120_000),
      },
    );
    if (measured.kind !== 'measured') throw new Error(`scan ${i} failed: ${JSON.stringify(measured.failure)}`);
    scans.push(measured.perFactor.desktop!);
  }
}, 420_000);

afterAll(async () => {
  runner?.close();
  await sites?.close();
});

it('loads the page once per run, each run measured by its own page load', () => {
  expect(sites.variableLoads).toHaveLength(SCANS * RUNS);
  for (const scan of scans) {
    expect(scan.runs).toHaveLength(RUNS);
    for (const run of scan.runs) {
      expect(run.observation.metrics.fcpMs).toBeGreaterThan(0);
      expect(run.observation.metrics.interactiveMs).toBeGreaterThan(0);
    }
  }
});

it('keeps the run the median rule picks from the FCP and TTI each run measured', () => {
  scans.forEach((scan, i) => {
    const measured = scan.runs.map((run) => ({
      fcpMs: run.observation.metrics.fcpMs,
      interactiveMs: run.observation.metrics.interactiveMs,
    }));
    expect({ scan: i, measured, median: scan.median }).toEqual({ scan: i, measured, median: medianRunIndex(measured) });
  });
});
