/**
 * Median of runs against single runs, on a page whose main-thread work varies at random from load to load
 * (fixtures/sites.ts, /variable/: one long task of 0-600 ms after load, uniform). `--scans` scans of `--runs`
 * runs each through the real runner (one runner process and a fresh Chromium per run) and the scan's own
 * median choice (activities/scan-runs.ts). Single-run scans are the first run of each scan (exactly what a
 * one-run scan would have measured); every run counts for the single-run spread too. Prints the spread
 * (standard deviation, range) of TBT and of the performance score, single runs against medians, and the
 * benchmark index Lighthouse measured for every run (the basis of SCAN_MIN_BENCHMARK_INDEX).
 *
 *   npm run bench:median -- --scans 10 --runs 3 [--factors desktop,mobile] [--path /fast/]
 */
import { parseArgs } from 'node:util';
import { processRunner } from '../activities/lighthouse/process-runner.ts';
import { measureRuns, type FormFactorRuns } from '../activities/scan-runs.ts';
import { loadConfig } from '../infra/config.ts';
import { FORM_FACTORS, type FormFactor } from '../core/scan/observation.ts';
import { startFixtureSites } from '../fixtures/sites.ts';

const { values } = parseArgs({
  options: {
    scans: { type: 'string', default: '10' },
    runs: { type: 'string', default: '3' },
    factors: { type: 'string', default: 'desktop' },
    path: { type: 'string', default: '/variable/' },
  },
});
const scans = Number(values.scans);
const runs = Number(values.runs);
const factors = values.factors
  .split(',')
  .filter((f): f is FormFactor => (FORM_FACTORS as readonly string[]).includes(f));

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const std = (xs: number[]) => Math.sqrt(xs.reduce((a, x) => a + (x - mean(xs)) ** 2, 0) / Math.max(1, xs.length - 1));
const range = (xs: number[]) => Math.max(...xs) - Math.min(...xs);
const describe = (xs: number[]) =>
  `sd ${std(xs).toFixed(1)}, range ${range(xs).toFixed(0)} (n=${xs.length}: ${xs.map((x) => Math.round(x)).join(' ')})`;

const config = loadConfig({ ...process.env, OUTBOUND_ALLOW_LOOPBACK: 'true' });
const sites = await startFixtureSites();
const runner = processRunner({ chromiumPath: config.chromiumPath, allowLoopback: true, scanUser: config.scanUser });
const perScan: Array<Partial<Record<FormFactor, FormFactorRuns>>> = [];
try {
  const started = performance.now();
  for (let i = 0; i < scans; i++) {
    const measured = await measureRuns(
      runner,
      {
        publicId: `benchmedian${String(i).padStart(15, '0')}`,
        url: `${sites.origin}${values.path}?scan=${i}`,
        credentials: null,
      },
      {
        runs,
        formFactors: factors,
        minBenchmarkIndex: 0,
        deadline: Number.POSITIVE_INFINITY,
        onProgress: () => undefined,
        signal: new AbortController().signal,
      },
    );
    if (measured.kind !== 'measured') throw new Error(`scan ${i} failed: ${JSON.stringify(measured.failure)}`);
    perScan.push(measured.perFactor);
    process.stderr.write('.');
  }
  process.stderr.write('\n');
  console.log(
    `${scans} scans x ${runs} runs of ${values.path} (${factors.join(', ')}) in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  for (const factor of factors) {
    const all = perScan.map((scan) => scan[factor]!);
    const metric = (pick: (run: FormFactorRuns['runs'][number]) => number) => ({
      every: all.flatMap((scan) => scan.runs.map(pick)),
      first: all.map((scan) => pick(scan.runs[0]!)),
      median: all.map((scan) => pick(scan.runs[scan.median]!)),
    });
    for (const [name, pick] of [
      ['TBT ms', (run: FormFactorRuns['runs'][number]) => run.observation.metrics.tbtMs],
      [
        'performance score',
        (run: FormFactorRuns['runs'][number]) => Math.round((run.observation.performanceScore ?? 0) * 100),
      ],
    ] as const) {
      const m = metric(pick);
      console.log(`${factor} ${name}:`);
      console.log(`  single runs (first of each scan): ${describe(m.first)}`);
      console.log(`  single runs (every run):          ${describe(m.every)}`);
      console.log(`  median of ${runs}:                    ${describe(m.median)}`);
      console.log(`  sd ratio median/single (every run): ${(std(m.median) / std(m.every)).toFixed(2)}`);
    }
    const indexes = all.flatMap((scan) => scan.runs.map((run) => run.observation.benchmarkIndex ?? 0));
    console.log(
      `${factor} benchmark index: min ${Math.min(...indexes).toFixed(0)}, mean ${mean(indexes).toFixed(0)}, max ${Math.max(...indexes).toFixed(0)} (${indexes.map((x) => Math.round(x)).join(' ')})`,
    );
  }
} finally {
  runner.close();
  await sites.close();
}
