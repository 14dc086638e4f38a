import {
  FORM_FACTORS,
  type FormFactor,
  type FormFactorObservation,
  type PageObservation,
  type ScanObservation,
} from '../core/scan/observation.ts';
import type { LighthouseReport } from '../core/scan/lighthouse-report.ts';
import { medianRunIndex } from '../core/scan/median-run.ts';
import { runRecord, type RunRecord } from '../core/scan/result.ts';
import type { PageFailure, ScanImage, ScanRunInput, ScanRunner } from './scan-runner.ts';

/**
 * A scan of N runs: N runner calls one after another (each its own process and a Chromium with a fresh
 * profile, loading every form factor), the median run chosen per form factor (core/scan/median-run.ts).
 * A form factor whose Lighthouse benchmark index says the machine was overloaded (below the configured
 * minimum) is loaded once more, right away, in a runner call of its own; the repeat is kept, flagged
 * `overloaded` when its index is low too. A page failure in any run ends the scan with that failure.
 */

/** One form factor of one run, as kept. */
export interface KeptRun {
  observation: FormFactorObservation;
  /** The page as the runner call that loaded it saw it (and the versions it ran with). */
  page: PageObservation;
  /** Its screenshot and filmstrip frames (named `<form factor>-...`); only the median's are stored. */
  images: ScanImage[];
  /** Its whole Lighthouse result (scrubbed, compressed); only the median's is stored. Null when the runner gave none. */
  report: LighthouseReport | null;
  /** Its benchmark index stayed below the minimum (after a repeat, or when there was no time for one). */
  overloaded: boolean;
  /** It is the repeat of a run whose benchmark index was below the minimum. */
  repeated: boolean;
}

export interface FormFactorRuns {
  runs: KeptRun[];
  /** Index into `runs` of the median run. */
  median: number;
}

export type MeasuredRuns =
  | { kind: 'measured'; perFactor: Partial<Record<FormFactor, FormFactorRuns>> }
  | { kind: 'page_failure'; failure: PageFailure };

export interface MeasureOptions {
  runs: number;
  /** Which form factors each run loads; every one by default (the bench and a variability test use fewer). */
  formFactors?: readonly FormFactor[];
  /** SCAN_MIN_BENCHMARK_INDEX; 0 never repeats. */
  minBenchmarkIndex: number;
  /** When the attempt's time is up (performance.now() scale): a repeat is made only when it leaves room for the rest. */
  deadline: number;
  /** A form factor of a run starts (see `describeStep`). */
  onProgress(step: RunStep): void;
  signal: AbortSignal;
}

/** Where a scan of several runs is: the runner's form factor, in run `run` of `runs`, or in the repeat of that run. */
export interface RunStep {
  formFactor: string;
  run: number;
  runs: number;
  repeat: boolean;
}

/** The step in words, for the activity's heartbeat (Temporal's UI) and the logs: "desktop run 2 of 3". */
export const describeStep = (step: RunStep): string =>
  `${step.formFactor} run ${step.run} of ${step.runs}${step.repeat ? ' (repeated: the machine was busy)' : ''}`;

/**
 * A repeat is made only if, after it, every run still to do could take twice as long as the slowest so far:
 * an overloaded machine must not turn a whole scan into an attempt timeout.
 */
const REPEAT_TIME_MARGIN = 2;

const isOverloaded = (observation: FormFactorObservation, minimum: number) =>
  minimum > 0 && observation.benchmarkIndex !== null && observation.benchmarkIndex < minimum;

export async function measureRuns(
  runner: ScanRunner,
  page: Omit<ScanRunInput, 'formFactors'>,
  options: MeasureOptions,
): Promise<MeasuredRuns> {
  const factors = options.formFactors ?? FORM_FACTORS;
  const kept = new Map<FormFactor, KeptRun[]>(factors.map((f) => [f, []]));
  let slowestRunMs = 0;

  type Loaded = { failure: PageFailure } | { byFactor: Map<FormFactor, Omit<KeptRun, 'overloaded' | 'repeated'>> };
  async function load(asked: readonly FormFactor[], run: number, repeat: boolean): Promise<Loaded> {
    const started = performance.now();
    const onProgress = (formFactor: string) => options.onProgress({ formFactor, run, runs: options.runs, repeat });
    const result = await runner.run({ ...page, formFactors: [...asked] }, { onProgress, signal: options.signal });
    slowestRunMs = Math.max(slowestRunMs, performance.now() - started);
    if (result.kind === 'page_failure') return { failure: result.failure };
    const { observation, images, reports = [] } = result;
    const { desktop: _desktop, mobile: _mobile, ...pageOnly } = observation;
    const byFactor = new Map<FormFactor, Omit<KeptRun, 'overloaded' | 'repeated'>>();
    for (const factor of asked) {
      const measured = observation[factor];
      if (!measured) throw new Error(`the runner returned no ${factor} observation`);
      byFactor.set(factor, {
        observation: measured,
        page: pageOnly,
        images: images.filter((image) => image.name.startsWith(`${factor}-`)),
        report: reports.find((report) => report.formFactor === factor) ?? null,
      });
    }
    return { byFactor };
  }

  for (let run = 1; run <= options.runs; run++) {
    const first = await load(factors, run, false);
    if ('failure' in first) return { kind: 'page_failure', failure: first.failure };
    const busy = factors.filter((f) => isOverloaded(first.byFactor.get(f)!.observation, options.minBenchmarkIndex));
    const runsLeftWithRepeat = options.runs - run + 1;
    const timeForRepeat =
      options.deadline - performance.now() >= runsLeftWithRepeat * slowestRunMs * REPEAT_TIME_MARGIN;
    let again = new Map<FormFactor, Omit<KeptRun, 'overloaded' | 'repeated'>>();
    if (busy.length > 0 && timeForRepeat) {
      const repeat = await load(busy, run, true);
      if ('failure' in repeat) return { kind: 'page_failure', failure: repeat.failure };
      again = repeat.byFactor;
    }
    for (const factor of factors) {
      const chosen = again.get(factor) ?? first.byFactor.get(factor)!;
      kept.get(factor)!.push({
        ...chosen,
        overloaded: isOverloaded(chosen.observation, options.minBenchmarkIndex),
        repeated: again.has(factor),
      });
    }
  }

  const perFactor: Partial<Record<FormFactor, FormFactorRuns>> = {};
  for (const [factor, runs] of kept) {
    perFactor[factor] = {
      runs,
      median: medianRunIndex(
        runs.map((r) => ({ fcpMs: r.observation.metrics.fcpMs, interactiveMs: r.observation.metrics.interactiveMs })),
      ),
    };
  }
  return { kind: 'measured', perFactor };
}

/**
 * The scan as scored and stored: each form factor's median run, the page as the desktop median's run saw
 * it, the medians' images and whole Lighthouse results, every run's record, and every run as a whole scan of its own (run i's desktop
 * and mobile loads, the page as its desktop load saw it), to be scored for the spread.
 */
export function medianScan(perFactor: Partial<Record<FormFactor, FormFactorRuns>>): {
  observation: ScanObservation;
  images: ScanImage[];
  reports: LighthouseReport[];
  records: Record<FormFactor, RunRecord[]>;
  wholeRuns: ScanObservation[];
} {
  const whole = (factor: FormFactor): FormFactorRuns => {
    const measured = perFactor[factor];
    if (!measured) throw new Error(`no ${factor} runs were measured`);
    return measured;
  };
  const { desktop, mobile } = { desktop: whole('desktop'), mobile: whole('mobile') };
  const medians = { desktop: desktop.runs[desktop.median]!, mobile: mobile.runs[mobile.median]! };
  const records = (runs: FormFactorRuns) =>
    runs.runs.map((run, i) =>
      runRecord(run.observation, run.page, {
        overloaded: run.overloaded,
        repeated: run.repeated,
        median: i === runs.median,
      }),
    );
  return {
    observation: { ...medians.desktop.page, desktop: medians.desktop.observation, mobile: medians.mobile.observation },
    images: [...medians.desktop.images, ...medians.mobile.images],
    reports: [medians.desktop.report, medians.mobile.report].filter((report) => report !== null),
    records: { desktop: records(desktop), mobile: records(mobile) },
    wholeRuns: desktop.runs.map((run, i) => ({
      ...run.page,
      desktop: run.observation,
      mobile: mobile.runs[i]!.observation,
    })),
  };
}
