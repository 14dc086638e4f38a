import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import { buildResultRecord } from '../core/scan/result.ts';
import { decryptSecret } from '../core/secrets.ts';
import { scoreScan } from '../core/scoring/index.ts';
import { retryWhileDatabaseUnavailable } from '../db/knex.ts';
import { credentialsContext, findScan, markFailed, markFinished, markRunning, type ScanCredentials } from '../services/scans.ts';
import { killProcessGroup } from './lighthouse/process-group.ts';
import type { RunnerInput, RunnerMessage } from './lighthouse/protocol.ts';

export interface ScanActivityDeps {
  knex: Knex;
  config: Config;
  clock: Clock;
  log: Logger;
}

export type ScanOutcome = { status: 'finished' } | { status: 'failed'; code: FailureCode };

const RUNNER = fileURLToPath(new URL('./lighthouse/runner.ts', import.meta.url));
const RUNNER_TIMEOUT_MS = 3 * 60_000;
/** How long a scan's Postgres steps wait for an unreachable database before the attempt fails (and Temporal retries). */
const DATABASE_WAIT_MS = 90_000;

/** Runs the runner process; resolves with what it reported, rejects (retryably) when it crashed or hung. */
function runLighthouse(input: RunnerInput, onProgress: (step: string) => void, cancelled: Promise<unknown>): Promise<RunnerMessage> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [RUNNER], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let browserPid: number | undefined;
    let profile: string | undefined;
    const killGroup = () => {
      killProcessGroup(child.pid);
      killProcessGroup(browserPid);
    };
    let result: RunnerMessage | null = null;
    let stderr = '';
    let buffer = '';
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`Lighthouse runner did not finish within ${RUNNER_TIMEOUT_MS / 1000} s`));
    }, RUNNER_TIMEOUT_MS);
    cancelled.catch((error: unknown) => {
      killGroup();
      reject(error);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (!line.trim()) continue;
        const message = JSON.parse(line) as RunnerMessage;
        if (message.kind === 'progress') onProgress(message.step);
        else if (message.kind === 'browser') ({ pid: browserPid, profile } = message);
        else result = message;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // Chromium, if the runner left any behind
      if (profile?.startsWith(tmpdir())) rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
      if (result) resolveRun(result);
      else reject(new Error(`Lighthouse runner exited with ${code ?? signal} and no result: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
    child.stdin.end(JSON.stringify(input));
  });
}

/** The scan workflow's activities. Built by a factory from their dependencies; wired in worker/main.ts. */
export function createScanActivities(deps: ScanActivityDeps) {
  const { knex, config, clock, log } = deps;
  return {
    async markScanRunning(publicId: string): Promise<void> {
      await markRunning(knex, publicId, clock());
    },

    /** `detail` is for operators: logged with the scan id and kept in the row, never shown to users. */
    async markScanFailed(publicId: string, code: FailureCode, detail: string): Promise<void> {
      if (await markFailed(knex, publicId, code, detail, clock())) log.warn({ scanId: publicId, code, detail }, 'scan failed');
    },

    /**
     * Loads the page with Lighthouse (desktop, then mobile), scores it and stores the result. Page failures
     * (the site's answer) are recorded and returned, not thrown, so they use up no retries; crashes and hangs
     * throw, and Temporal retries them. A scan that already ended is not run again.
     */
    async scanPage(publicId: string): Promise<ScanOutcome> {
      const context = Context.current();
      const heartbeat = setInterval(() => context.heartbeat({ step: 'running' }), 5000);
      const started = performance.now();
      // Postgres briefly away must cost neither a Lighthouse attempt (3 in all) nor a result already measured.
      const whenDatabaseAnswers = <T>(step: () => Promise<T>) =>
        retryWhileDatabaseUnavailable(step, {
          waitMs: DATABASE_WAIT_MS,
          sleep: (ms) => context.sleep(ms),
          onUnavailable: (error) => log.warn({ scanId: publicId, err: error }, 'database unavailable; the scan waits for it'),
        });
      try {
        const scan = await whenDatabaseAnswers(() => findScan(knex, publicId));
        if (!scan) throw new Error(`scan ${publicId} not found`);
        if (scan.status === 'finished') return { status: 'finished' };
        if (scan.status === 'failed') return { status: 'failed', code: (scan.failure_code as FailureCode | null) ?? 'scan_error' };
        const credentials = scan.auth_secret ? (JSON.parse(decryptSecret(config.secretKey, scan.auth_secret, credentialsContext(publicId))) as ScanCredentials) : null;
        const message = await runLighthouse(
          { publicId, url: scan.url, chromiumPath: config.chromiumPath, assetsDir: config.assetsDir, allowLoopback: config.outboundAllowLoopback, credentials },
          (step) => context.heartbeat({ step }),
          context.cancelled,
        );
        if (message.kind === 'page_failure') {
          await whenDatabaseAnswers(() => markFailed(knex, publicId, message.code, message.detail, clock(), message.httpStatus ?? null));
          log.info({ scanId: publicId, code: message.code, httpStatus: message.httpStatus, detail: message.detail }, 'scan failed: page');
          return { status: 'failed', code: message.code };
        }
        if (message.kind !== 'observation') throw new Error('runner sent no observation');
        const result = buildResultRecord(message.observation, scoreScan(message.observation));
        await whenDatabaseAnswers(() => markFinished(knex, publicId, result, clock()));
        log.info({ scanId: publicId, ms: Math.round(performance.now() - started) }, 'scan finished');
        return { status: 'finished' };
      } catch (error) {
        // The runner's stderr (stack, paths) is for operators: here, with the scan id; Temporal retries.
        log.warn({ scanId: publicId, attempt: context.info.attempt, err: error }, 'scan attempt failed');
        throw error;
      } finally {
        clearInterval(heartbeat);
      }
    },
  };
}

export type ScanActivities = ReturnType<typeof createScanActivities>;
