import { Context } from '@temporalio/activity';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';
import { decryptScanCredentials } from '../core/scan/credentials.ts';
import { FAILURE_DETAILS, type FailureCode } from '../core/scan/failures.ts';
import { lighthouseAttemptLimitMs, RUN_ATTEMPT_LIMIT_MS } from '../core/scan/lifecycle.ts';
import { buildResultRecord } from '../core/scan/result.ts';
import { scoreScan } from '../core/scoring/index.ts';
import { retryWhileDatabaseUnavailable } from '../db/store/availability.ts';
import type { AssetStore } from '../services/assets.ts';
import type { LighthouseReportStore } from '../db/store/lighthouse-reports.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { finishScan, markFailed, markRunning } from '../services/scans.ts';
import type { WebhookDispatch } from '../services/webhook-dispatch.ts';
import type { WorkerMetrics } from '../infra/worker-metrics.ts';
import type { ScanRunner } from './scan-runner.ts';
import { describeStep, measureRuns, medianScan } from './scan-runs.ts';
import { checkStoredForCredentials } from './scan-secret-check.ts';

export interface ScanActivityDeps {
  scans: ScanStore;
  /** Where the median runs' whole Lighthouse results go (db/store/lighthouse-reports.ts). */
  lighthouseReports: LighthouseReportStore;
  config: Config;
  /** Where the median runs' images go (services/asset-store.ts). */
  assets: AssetStore;
  clock: Clock;
  log: Logger;
  /** Lighthouse: activities/lighthouse/process-runner.ts in the worker, stand-ins in tests. */
  runner: ScanRunner;
  /** How long one run of an attempt may take (an attempt of N runs gets N times it) before it is aborted and retried; tests shorten it. */
  attemptLimitMs?: number;
  /** Starts the scan.completed webhook's workflow after the scan's end commits (the outbox sweeper catches misses). */
  webhookDispatch?: WebhookDispatch;
  /** The worker's operator metrics (infra/worker-metrics.ts); tests may leave them out. */
  metrics?: Pick<WorkerMetrics, 'scanStarted' | 'scanEnded' | 'benchmarkIndex'>;
}

export type ScanOutcome = { status: 'finished' } | { status: 'failed'; code: FailureCode };

/** How long a scan's Postgres steps wait for an unreachable database before the attempt fails (and Temporal retries). */
const DATABASE_WAIT_MS = 90_000;
const HEARTBEAT_EVERY_MS = 5000;

/** Aborted when Temporal cancels the activity (with Temporal's reason) or when the attempt's time is up; `end` when done. */
function attemptSignal(cancellation: AbortSignal, limitMs: number): { signal: AbortSignal; end(): void } {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(FAILURE_DETAILS.runTimedOut(limitMs))), limitMs);
  return { signal: AbortSignal.any([cancellation, deadline.signal]), end: () => clearTimeout(timer) };
}

/** The run, or the signal's reason once it aborts: a runner that does not stop when told cannot hold the attempt. */
function untilAborted<T>(run: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    run.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The scan workflow's activities. Built with the others in worker/activities.ts. */
export function createScanActivities(deps: ScanActivityDeps) {
  const { scans, config, clock, log, runner } = deps;
  const runLimitMs = deps.attemptLimitMs ?? RUN_ATTEMPT_LIMIT_MS;
  const store = deps.assets;
  return {
    /** Also tells the workflow the scan's runs (from its row), which its Lighthouse activity's time limits grow with. */
    async markScanRunning(publicId: string): Promise<{ runs: number }> {
      await markRunning(scans, publicId, clock());
      // A scan that is gone fails in scanPage, as it always has.
      return { runs: (await scans.find(publicId))?.runs ?? 1 };
    },

    /** `detail` is for operators: logged with the scan id and kept in the row, never shown to users. */
    async markScanFailed(publicId: string, code: FailureCode, detail: string): Promise<void> {
      if (await markFailed(scans, publicId, code, detail, clock())) {
        log.warn({ scanId: publicId, code, detail }, 'scan failed');
        const region = (await scans.find(publicId))?.region;
        if (region) deps.metrics?.scanEnded(region, { status: 'failed', code }, null);
      }
    },

    /**
     * Loads the page with Lighthouse as many times as the scan has runs (each run desktop, then mobile, in a
     * fresh Chromium), keeps each form factor's median run, scores it and stores the result with every run's
     * record, and the median runs' whole Lighthouse results (compressed, credentials scrubbed by the runner). Page failures (the site's answer) are recorded and returned, not thrown, so they use up no
     * retries; crashes, hangs and nonsense from the runner throw, and Temporal retries them (all runs again).
     * A scan that already ended is not run again.
     */
    async scanPage(publicId: string): Promise<ScanOutcome> {
      const context = Context.current();
      let step = 'starting';
      const heartbeat = setInterval(() => context.heartbeat({ step }), HEARTBEAT_EVERY_MS);
      let attempt: ReturnType<typeof attemptSignal> | null = null;
      const started = performance.now();
      // Postgres briefly away must cost neither a Lighthouse attempt (3 in all) nor a result already measured.
      const whenDatabaseAnswers = <T>(work: () => Promise<T>) =>
        retryWhileDatabaseUnavailable(work, {
          waitMs: DATABASE_WAIT_MS,
          sleep: (ms) => context.sleep(ms),
          onUnavailable: (error) =>
            log.warn({ scanId: publicId, err: error }, 'database unavailable; the scan waits for it'),
        });
      try {
        const scan = await whenDatabaseAnswers(() => scans.find(publicId));
        if (!scan) throw new Error(`scan ${publicId} not found`);
        if (scan.status === 'finished') return { status: 'finished' };
        if (scan.status === 'failed') return { status: 'failed', code: scan.failureCode ?? 'scan_error' };

        deps.metrics?.scanStarted(scan.region);
        const seconds = () => (performance.now() - started) / 1000;
        const limitMs = lighthouseAttemptLimitMs(scan.runs, runLimitMs);
        attempt = attemptSignal(context.cancellationSignal, limitMs);
        const credentials = scan.authSecret ? decryptScanCredentials(config.keys, publicId, scan.authSecret) : null;
        const measured = await untilAborted(
          measureRuns(
            runner,
            { publicId, url: scan.url, credentials },
            {
              runs: scan.runs,
              minBenchmarkIndex: config.scanMinBenchmarkIndex,
              deadline: performance.now() + limitMs,
              onProgress: (next) => {
                step = describeStep(next);
                context.heartbeat({ step });
                // The progress page reads the step from the row (`desktop`, or `desktop 2/3` of several runs); a failed write costs only that display.
                const shown = next.runs === 1 ? next.formFactor : `${next.formFactor} ${next.run}/${next.runs}`;
                scans
                  .recordProgress(publicId, shown)
                  .catch((error: unknown) => log.warn({ scanId: publicId, err: error }, 'scan progress not recorded'));
              },
              signal: attempt.signal,
            },
          ),
          attempt.signal,
        );
        if (measured.kind === 'page_failure') {
          const { code, detail, httpStatus } = measured.failure;
          await whenDatabaseAnswers(() => markFailed(scans, publicId, code, detail, clock(), httpStatus));
          log.info({ scanId: publicId, code, httpStatus, detail }, 'scan failed: page');
          deps.metrics?.scanEnded(scan.region, { status: 'failed', code }, seconds());
          return { status: 'failed', code };
        }

        const { observation, images, reports, records, wholeRuns } = medianScan(measured.perFactor);
        for (const image of images) await store.put(publicId, image.name, image.bytes);
        // Before the scan's end commits, so a finished scan has them; a scan that ended meanwhile gets none.
        await whenDatabaseAnswers(() => deps.lighthouseReports.saveWhileInFlight(publicId, reports, clock()));
        const now = clock();
        const runs = { ...records, overall: wholeRuns.map((run) => scoreScan(run, now).scores.overall) };
        const result = buildResultRecord(observation, scoreScan(observation, now), runs);
        const secretCheck = credentials ? checkStoredForCredentials(credentials, result, reports) : null;
        if (secretCheck === 'found')
          log.warn({ scanId: publicId }, 'credentials found in the redacted scan; sharing refused');
        // The scan.completed webhook's outbox row commits with the result; its delivery starts after the commit.
        const { webhooks } = await whenDatabaseAnswers(() =>
          finishScan(scans, publicId, result, clock(), config.baseUrl, secretCheck),
        );
        if (webhooks.length) await deps.webhookDispatch?.start(webhooks);
        const overloaded = [...records.desktop, ...records.mobile].filter((run) => run.overloaded).length;
        log.info(
          {
            scanId: publicId,
            runs: scan.runs,
            overloaded,
            ms: Math.round(performance.now() - started),
            lighthouseBytes: reports.reduce((sum, report) => sum + report.gzip.length, 0),
          },
          'scan finished',
        );
        deps.metrics?.scanEnded(scan.region, { status: 'finished' }, seconds());
        const benchmarkIndex = observation.desktop.benchmarkIndex ?? observation.mobile.benchmarkIndex;
        if (benchmarkIndex !== null) deps.metrics?.benchmarkIndex(scan.region, benchmarkIndex);
        return { status: 'finished' };
      } catch (error) {
        // The runner's stderr (stack, paths) is for operators: here, with the scan id; Temporal retries.
        log.warn({ scanId: publicId, attempt: context.info.attempt, err: error }, 'scan attempt failed');
        throw error;
      } finally {
        clearInterval(heartbeat);
        attempt?.end();
      }
    },
  };
}

export type ScanActivities = ReturnType<typeof createScanActivities>;
