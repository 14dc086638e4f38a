import { spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Context } from '@temporalio/activity';
import type { Knex } from 'knex';
import type { Clock } from '../core/clock.ts';
import type { Config } from '../core/config.ts';
import type { Logger } from '../core/logger.ts';
import type { FailureCode } from '../core/scan/failures.ts';
import { buildResultRecord } from '../core/scan/result.ts';
import { runnerIdentity, type UserIds } from '../core/scan-user.ts';
import { decryptSecret } from '../core/secrets.ts';
import { scoreScan } from '../core/scoring/index.ts';
import { localAssetStore } from '../services/assets.ts';
import { retryWhileDatabaseUnavailable } from '../db/knex.ts';
import { credentialsContext, findScan, markFailed, markFinished, markRunning, type ScanCredentials } from '../services/scans.ts';
import { killProcessGroup } from './lighthouse/process-group.ts';
import { runnerEnvironment, type RunnerInput, type RunnerMessage } from './lighthouse/protocol.ts';

export interface ScanActivityDeps {
  knex: Knex;
  config: Config;
  clock: Clock;
  log: Logger;
}

export type ScanOutcome = { status: 'finished' } | { status: 'failed'; code: FailureCode };

const RUNNER = fileURLToPath(new URL('./lighthouse/runner.ts', import.meta.url));
const RUNNER_TIMEOUT_MS = 3 * 60_000;
// What a runner may hand back: desktop and mobile, a final screenshot and up to ~10 frames each.
const MAX_IMAGES = 64;
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** How long a scan's Postgres steps wait for an unreachable database before the attempt fails (and Temporal retries). */
const DATABASE_WAIT_MS = 90_000;

type RunnerOutcome = { message: RunnerMessage; images: Array<{ name: string; bytes: Buffer }> };

/**
 * The runner's own folder (its HOME and TMPDIR, Chromium's profile), in the worker's temporary folder,
 * private to the runner's user. Removed by the runner on its way out and by the activity after it.
 */
function makeWorkDir(identity: UserIds | null): string {
  const dir = mkdtempSync(join(tmpdir(), 'webperf-scan-'));
  if (identity) chownSync(dir, identity.uid, identity.gid);
  return dir;
}

/**
 * A root worker refuses to start when its scan user cannot run the runner (a checkout in a folder only root
 * can read, say), instead of failing every scan later.
 */
function checkRunnerIdentity(identity: UserIds | null, scanUser: string): void {
  if (!identity) return;
  const workDir = makeWorkDir(identity);
  try {
    const check = spawnSync(process.execPath, ['--check', RUNNER], { uid: identity.uid, gid: identity.gid, cwd: workDir, env: runnerEnvironment(workDir), encoding: 'utf8' });
    if (check.status !== 0) throw new Error(`the scan user ${scanUser} (SCAN_USER) cannot run ${RUNNER}: make the checkout and Node readable by it (${(check.stderr || String(check.error)).trim().slice(0, 300)})`);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/**
 * Runs the runner process, as the scan user when the worker is root, with nothing of the worker's
 * environment; resolves with what it reported, rejects (retryably) when it crashed or hung.
 */
function runLighthouse(input: Omit<RunnerInput, 'workDir'>, identity: UserIds | null, onProgress: (step: string) => void, cancelled: Promise<unknown>): Promise<RunnerOutcome> {
  return new Promise((resolveRun, reject) => {
    const workDir = makeWorkDir(identity);
    const child = spawn(process.execPath, [RUNNER], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      cwd: workDir,
      env: runnerEnvironment(workDir),
      ...(identity ? { uid: identity.uid, gid: identity.gid } : {}),
    });
    let browserPid: number | undefined;
    const killGroup = () => {
      killProcessGroup(child.pid);
      killProcessGroup(browserPid);
    };
    let result: RunnerMessage | null = null;
    const images: RunnerOutcome['images'] = [];
    let stderr = '';
    let buffer = '';
    let broken: Error | null = null;
    const fail = (error: Error) => {
      broken ??= error;
      killGroup();
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`Lighthouse runner did not finish within ${RUNNER_TIMEOUT_MS / 1000} s`));
    }, RUNNER_TIMEOUT_MS);
    cancelled.catch((error: unknown) => {
      killGroup();
      reject(error);
    });
    child.stdout.on('data', (chunk: Buffer) => {
      if (broken) return;
      buffer += chunk.toString();
      if (buffer.length > MAX_LINE_CHARS) return fail(new Error('the runner wrote an over-long line'));
      let newline: number;
      while ((newline = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, newline);
        buffer = buffer.slice(newline + 1);
        if (!line.trim()) continue;
        let message: RunnerMessage;
        try {
          message = JSON.parse(line) as RunnerMessage;
        } catch {
          return fail(new Error('the runner wrote a line that is not JSON'));
        }
        if (message.kind === 'progress') onProgress(message.step);
        else if (message.kind === 'browser') browserPid = message.pid;
        else if (message.kind === 'image') {
          if (images.length >= MAX_IMAGES) return fail(new Error(`the runner sent more than ${MAX_IMAGES} images`));
          images.push({ name: message.name, bytes: Buffer.from(message.base64, 'base64') });
        } else result = message;
      }
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
      reject(error);
    });
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      killGroup(); // Chromium, if the runner left any behind
      rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
      if (broken) reject(broken);
      else if (result) resolveRun({ message: result, images });
      else reject(new Error(`Lighthouse runner exited with ${code ?? signal} and no result: ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
    });
    child.stdin.end(JSON.stringify({ ...input, workDir } satisfies RunnerInput));
  });
}

/** The scan workflow's activities. Built by a factory from their dependencies; wired in worker/main.ts. */
export function createScanActivities(deps: ScanActivityDeps) {
  const { knex, config, clock, log } = deps;
  const identity = runnerIdentity(config.scanUser);
  checkRunnerIdentity(identity, config.scanUser);
  const store = localAssetStore(config.assetsDir);
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
        const credentials = scan.auth_secret ? (JSON.parse(decryptSecret(config.keys, 'scan-credentials', scan.auth_secret, credentialsContext(publicId))) as ScanCredentials) : null;
        const { message, images } = await runLighthouse(
          { publicId, url: scan.url, chromiumPath: config.chromiumPath, allowLoopback: config.outboundAllowLoopback, credentials },
          identity,
          (step) => context.heartbeat({ step }),
          context.cancelled,
        );
        if (message.kind === 'page_failure') {
          await whenDatabaseAnswers(() => markFailed(knex, publicId, message.code, message.detail, clock(), message.httpStatus ?? null));
          log.info({ scanId: publicId, code: message.code, httpStatus: message.httpStatus, detail: message.detail }, 'scan failed: page');
          return { status: 'failed', code: message.code };
        }
        if (message.kind !== 'observation') throw new Error('runner sent no observation');
        for (const image of images) await store.put(publicId, image.name, image.bytes);
        const result = buildResultRecord(message.observation, scoreScan(message.observation, clock()));
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
