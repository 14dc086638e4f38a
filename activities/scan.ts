import { Context } from '@temporalio/activity';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import { decryptScanCredentials } from '../core/scan/credentials.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import { LIGHTHOUSE_ATTEMPT_LIMIT_MS } from '../core/scan/lifecycle.ts';
import { buildResultRecord } from '../core/scan/result.ts';
import { scoreScan } from '../core/scoring/index.ts';
import { retryWhileDatabaseUnavailable } from '../db/store/availability.ts';
import { localAssetStore } from '../services/assets.ts';
import type { ScanStore } from '../db/store/scans.ts';
import { finishScan, markFailed, markRunning } from '../services/scans.ts';
import type { WebhookDispatch } from '../services/webhook-dispatch.ts';
import type { ScanRunner } from './scan-runner.ts';

export interface ScanActivityDeps {
  scans: ScanStore;
  config: Config;
  clock: Clock;
  log: Logger;
  /** Lighthouse: activities/lighthouse/process-runner.ts in the worker, stand-ins in tests. */
  runner: ScanRunner;
  /** How long one Lighthouse attempt may take before it is aborted (and retried); tests shorten it. */
  attemptLimitMs?: number;
  /** Starts the scan.completed webhook's workflow after the scan's end commits (the outbox sweeper catches misses). */
  webhookDispatch?: WebhookDispatch;
}

export type ScanOutcome = { status: 'finished' } | { status: 'failed'; code: FailureCode };

/** How long a scan's Postgres steps wait for an unreachable database before the attempt fails (and Temporal retries). */
const DATABASE_WAIT_MS = 90_000;
const HEARTBEAT_EVERY_MS = 5000;

/** Aborted when Temporal cancels the activity (with Temporal's reason) or when the attempt's time is up; `end` when done. */
function attemptSignal(cancellation: AbortSignal, limitMs: number): { signal: AbortSignal; end(): void } {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(new Error(`the Lighthouse run did not finish within ${limitMs / 1000} s`)), limitMs);
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

/** The scan workflow's activities. Built by a factory from their dependencies; wired in worker/main.ts. */
export function createScanActivities(deps: ScanActivityDeps) {
  const { scans, config, clock, log, runner } = deps;
  const attemptLimitMs = deps.attemptLimitMs ?? LIGHTHOUSE_ATTEMPT_LIMIT_MS;
  const store = localAssetStore(config.assetsDir);
  return {
    async markScanRunning(publicId: string): Promise<void> {
      await markRunning(scans, publicId, clock());
    },

    /** `detail` is for operators: logged with the scan id and kept in the row, never shown to users. */
    async markScanFailed(publicId: string, code: FailureCode, detail: string): Promise<void> {
      if (await markFailed(scans, publicId, code, detail, clock())) log.warn({ scanId: publicId, code, detail }, 'scan failed');
    },

    /**
     * Loads the page with Lighthouse (desktop, then mobile), scores it and stores the result. Page failures
     * (the site's answer) are recorded and returned, not thrown, so they use up no retries; crashes, hangs
     * and nonsense from the runner throw, and Temporal retries them. A scan that already ended is not run again.
     */
    async scanPage(publicId: string): Promise<ScanOutcome> {
      const context = Context.current();
      const heartbeat = setInterval(() => context.heartbeat({ step: 'running' }), HEARTBEAT_EVERY_MS);
      const attempt = attemptSignal(context.cancellationSignal, attemptLimitMs);
      const started = performance.now();
      // Postgres briefly away must cost neither a Lighthouse attempt (3 in all) nor a result already measured.
      const whenDatabaseAnswers = <T>(step: () => Promise<T>) =>
        retryWhileDatabaseUnavailable(step, {
          waitMs: DATABASE_WAIT_MS,
          sleep: (ms) => context.sleep(ms),
          onUnavailable: (error) => log.warn({ scanId: publicId, err: error }, 'database unavailable; the scan waits for it'),
        });
      try {
        const scan = await whenDatabaseAnswers(() => scans.find(publicId));
        if (!scan) throw new Error(`scan ${publicId} not found`);
        if (scan.status === 'finished') return { status: 'finished' };
        if (scan.status === 'failed') return { status: 'failed', code: scan.failureCode ?? 'scan_error' };

        // The progress page reads the step from the row; a failed write costs only that display.
        const reportProgress = (step: string) => {
          context.heartbeat({ step });
          scans.recordProgress(publicId, step).catch((error: unknown) => log.warn({ scanId: publicId, err: error }, 'scan progress not recorded'));
        };
        const credentials = scan.authSecret ? decryptScanCredentials(config.keys, publicId, scan.authSecret) : null;
        const run = await untilAborted(
          runner.run({ publicId, url: scan.url, credentials }, { onProgress: (step) => reportProgress(step), signal: attempt.signal }),
          attempt.signal,
        );
        if (run.kind === 'page_failure') {
          const { code, detail, httpStatus } = run.failure;
          await whenDatabaseAnswers(() => markFailed(scans, publicId, code, detail, clock(), httpStatus));
          log.info({ scanId: publicId, code, httpStatus, detail }, 'scan failed: page');
          return { status: 'failed', code };
        }

        for (const image of run.images) await store.put(publicId, image.name, image.bytes);
        const result = buildResultRecord(run.observation, scoreScan(run.observation, clock()));
        const { webhooks } = await whenDatabaseAnswers(() => finishScan(scans, publicId, result, clock(), config.baseUrl));
        if (webhooks.length) await deps.webhookDispatch?.start(webhooks);
        log.info({ scanId: publicId, ms: Math.round(performance.now() - started) }, 'scan finished');
        return { status: 'finished' };
      } catch (error) {
        // The runner's stderr (stack, paths) is for operators: here, with the scan id; Temporal retries.
        log.warn({ scanId: publicId, attempt: context.info.attempt, err: error }, 'scan attempt failed');
        throw error;
      } finally {
        clearInterval(heartbeat);
        attempt.end();
      }
    },
  };
}

export type ScanActivities = ReturnType<typeof createScanActivities>;
