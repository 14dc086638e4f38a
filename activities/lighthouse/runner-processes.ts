/**
 * Runner processes, whatever they run (a scan's Lighthouse runs: runner.ts; a user flow:
 * activities/flows/flow-runner-process.ts): each run in a process of its own with its own Chromium, as the scan
 * user when the worker is root, with nothing of the worker's environment, in a private work folder.
 * The worker kills the runner's process group and Chromium's when the run ends or is aborted, and removes
 * the folder. The next runner is started ahead, so it has loaded Lighthouse and launched its Chromium when
 * its run comes. What a run's messages mean is the caller's (RunnerProtocol); this module knows only the
 * two every runner sends: `progress` and `browser`.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runnerIdentity, type UserIds } from '../../infra/scan-user.ts';
import type { RunOptions } from '../scan-runner.ts';
import { killProcessGroup } from './process-group.ts';
import { runnerEnvironment, RunnerProtocolError, type RunnerLaunch } from './protocol.ts';

export interface RunnerProcessConfig {
  chromiumPath: string;
  allowLoopback: boolean;
  /** SCAN_USER: who runs the runner when the worker is root. */
  scanUser: string;
}

/** The messages every runner sends besides its own. */
export type LifetimeMessage = { kind: 'progress'; step: string } | { kind: 'browser'; pid: number };

/** What one kind of runner says, and how its messages add up to a result. */
export interface RunnerProtocol<Message extends { kind: string }, Result> {
  script: string;
  /** One stdout line as a message, or a RunnerProtocolError. */
  parseMessage(line: string): LifetimeMessage | Message;
  /**
   * A fresh reader per run: takes each of the runner's own messages in order and returns the result once the
   * final one came (null before); throws RunnerProtocolError on a message out of place.
   */
  newReader(): (message: Message) => Result | null;
  /** Who the runner is in the error of a run that ended without a result ("Lighthouse runner"). */
  label: string;
  /**
   * Whether the first runner (and its Chromium) is started with the worker. Scans: yes, they come all day. Flow
   * runs are rarer, so a worker holds a waiting flow runner only once it has run a flow.
   */
  startWithWorker?: boolean;
}

export interface RunnerProcesses<Input, Result> {
  run(input: Input, options: RunOptions): Promise<Result>;
  close(): void;
}

const MAX_LINE_CHARS = 16 * 1024 * 1024;

/**
 * The runner's own folder (its HOME and TMPDIR, Chromium's profile), in the worker's temporary folder,
 * private to the runner's user. Removed by the runner on its way out and by the worker after it.
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
function checkRunnerIdentity(identity: UserIds | null, scanUser: string, script: string): void {
  if (!identity) return;
  const workDir = makeWorkDir(identity);
  try {
    const check = spawnSync(process.execPath, ['--check', script], {
      uid: identity.uid,
      gid: identity.gid,
      cwd: workDir,
      env: runnerEnvironment(workDir),
      encoding: 'utf8',
    });
    if (check.status !== 0)
      throw new Error(
        `the scan user ${scanUser} (SCAN_USER) cannot run ${script}: make the checkout and Node readable by it (${(check.stderr || String(check.error)).trim().slice(0, 300)})`,
      );
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}

/** Splits stdout into lines; the parser throws RunnerProtocolError on anything that is not the protocol. */
function lineReader(onLine: (line: string) => void): (chunk: Buffer) => void {
  let buffer = '';
  return (chunk) => {
    buffer += chunk.toString();
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      if (line.trim()) onLine(line);
    }
    if (buffer.length > MAX_LINE_CHARS) throw new RunnerProtocolError('the runner wrote an over-long line');
  };
}

/** A runner process started ahead of its run: imports done, waiting for its input on stdin. */
interface StartedRunner {
  child: ChildProcessWithoutNullStreams;
  workDir: string;
  /** The end of its stderr, for the error of a run that ended without a result. */
  stderr: string;
}

const isRunning = (child: ChildProcessWithoutNullStreams) =>
  child.pid !== undefined && child.exitCode === null && child.signalCode === null;

/**
 * One process per run, never reused; but the next one is started as soon as the last run is over (not
 * during a run, whose timings it would disturb), so that a run does not wait for Node to start and load
 * Lighthouse (over a second). `close()` kills the waiting one; a waiting runner whose worker died exits by
 * itself (its stdin closes) and removes its folder.
 */
export function runnerProcesses<Input, Message extends { kind: string }, Result>(
  config: RunnerProcessConfig,
  protocol: RunnerProtocol<Message, Result>,
): RunnerProcesses<Input, Result> {
  const { script } = protocol;
  const identity = runnerIdentity(config.scanUser);
  checkRunnerIdentity(identity, config.scanUser, script);
  let waiting: StartedRunner | null = null;
  let closed = false;

  function startRunner(): StartedRunner {
    const workDir = makeWorkDir(identity);
    // The work folder is an argument (not a secret) so the runner can remove it even if no input ever comes;
    // the launch settings too, so it can start Chromium before its run comes.
    const launch: RunnerLaunch = { chromiumPath: config.chromiumPath, allowLoopback: config.allowLoopback };
    const child = spawn(process.execPath, [script, workDir, JSON.stringify(launch)], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      cwd: workDir,
      env: runnerEnvironment(workDir),
      ...(identity ? { uid: identity.uid, gid: identity.gid } : {}),
    });
    const started: StartedRunner = { child, workDir, stderr: '' };
    child.stderr.on('data', (chunk: Buffer) => {
      started.stderr = (started.stderr + chunk.toString()).slice(-4000);
    });
    child.stdin.on('error', () => undefined); // a runner that died before reading its input: its exit says so
    child.on('error', () => undefined); // spawning failed: the run that takes it starts another, which reports it
    return started;
  }

  function discard(started: StartedRunner): void {
    killProcessGroup(started.child.pid);
    rmSync(started.workDir, { recursive: true, force: true, maxRetries: 3 });
  }

  function startNext(): void {
    if (closed || waiting) return;
    try {
      waiting = startRunner();
    } catch {
      waiting = null; // the next run starts its own, and fails with the reason
    }
  }

  /** The waiting runner if it is still alive, or a new one. */
  function takeRunner(): StartedRunner {
    const started = waiting;
    waiting = null;
    if (started && isRunning(started.child)) return started;
    if (started) discard(started);
    return startRunner();
  }

  function run(input: Input, { onProgress, signal }: RunOptions): Promise<Result> {
    return new Promise((resolveRun, reject) => {
      signal.throwIfAborted();
      const started = takeRunner();
      const { child, workDir } = started;
      let browserPid: number | undefined;
      const killGroups = () => {
        killProcessGroup(child.pid);
        killProcessGroup(browserPid);
      };
      const readMessage = protocol.newReader();
      let result: Result | null = null;
      let broken: Error | null = null;
      const fail = (error: Error) => {
        broken ??= error;
        killGroups();
      };
      const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('the run was aborted'));
      signal.addEventListener('abort', onAbort, { once: true });

      let settled = false;
      const settle = (outcome: () => void) => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        killGroups(); // Chromium, if the runner left any behind
        rmSync(workDir, { recursive: true, force: true, maxRetries: 3 });
        outcome();
        startNext();
      };
      const read = lineReader((line) => {
        const message = protocol.parseMessage(line);
        if (message.kind === 'progress') onProgress((message as LifetimeMessage & { kind: 'progress' }).step);
        else if (message.kind === 'browser') browserPid = (message as LifetimeMessage & { kind: 'browser' }).pid;
        else {
          result = readMessage(message as Message);
          // The last message, and whole: the run is over without waiting for Chromium's graceful shutdown and
          // the runner's tidying up, which settling redoes (both groups killed, the folder removed).
          if (result !== null) {
            const whole = result;
            settle(() => resolveRun(whole));
          }
        }
      });
      child.stdout.on('data', (chunk: Buffer) => {
        if (broken || result !== null) return;
        try {
          read(chunk);
        } catch (error) {
          fail(error as Error);
        }
      });
      child.on('error', (error) => (child.pid === undefined ? settle(() => reject(error)) : fail(error)));
      // Whatever still holds the runner's stdout goes with its group, so 'close' (all output read) follows.
      child.on('exit', killGroups);
      child.on('close', (code, signalName) => {
        settle(() => {
          if (broken) reject(broken);
          // A result is whole (one line); whatever failed after it was the runner's cleanup, which the worker redid.
          else if (result !== null) resolveRun(result);
          else
            reject(
              new Error(
                `${protocol.label} exited with ${code ?? signalName} and no result: ${started.stderr.trim().split('\n').slice(-5).join(' | ')}`,
              ),
            );
        });
      });
      child.stdin.end(JSON.stringify(input));
    });
  }

  if (protocol.startWithWorker !== false) startNext();
  return {
    run,
    close() {
      closed = true;
      if (waiting) discard(waiting);
      waiting = null;
    },
  };
}
