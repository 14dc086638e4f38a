import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export class StackError extends Error {}

/** Thrown by a waitUntil check when waiting longer cannot help (the process it waits for has exited). */
export class ProcessExited extends StackError {}

export function isPortOpen(host: string, port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolvePromise) => {
    const socket = createConnection({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolvePromise(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `check` until it returns true; throws with `what` and the last error once `timeoutMs` has passed. */
export async function waitUntil(
  what: string,
  check: () => Promise<boolean>,
  timeoutMs: number,
  intervalMs = 200,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown = null;
  while (Date.now() < deadline) {
    try {
      if (await check()) return;
    } catch (error) {
      if (error instanceof ProcessExited) throw error;
      lastError = error;
    }
    await sleep(intervalMs);
  }
  const reason = lastError instanceof Error ? `: ${lastError.message}` : '';
  throw new StackError(`${what} did not become ready within ${Math.round(timeoutMs / 1000)} s${reason}`);
}

/** Whether the process exists and is not a zombie (an exited child nobody has reaped yet). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = statFields(pid);
  return stat === null || stat[0] !== 'Z'; // without /proc, trust kill(0)
}

/** /proc/PID/stat after the command name (which may hold spaces): state first, start time at index 19. */
function statFields(pid: number): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** When the process started (clock ticks since boot, /proc/PID/stat field 22); null without /proc. */
export function processStartTime(pid: number): string | null {
  return statFields(pid)?.[19] ?? null;
}

/**
 * The pid a pid file names, if that very process still runs. The file also records the process's start
 * time, so a pid reused by an unrelated process after a reboot or crash is not taken for ours.
 */
export function readPid(pidFile: string): number | null {
  if (!existsSync(pidFile)) return null;
  const [pidText, started] = readFileSync(pidFile, 'utf8').trim().split(/\s+/);
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  if (started && processStartTime(pid) !== started) return null;
  return pid;
}

/** Starts a long-running daemon in its own process group, output appended to `logFile`, pid recorded. */
export function startDaemon(
  command: string,
  args: string[],
  opts: { pidFile: string; logFile: string; cwd?: string; env?: NodeJS.ProcessEnv },
): number {
  mkdirSync(dirname(opts.logFile), { recursive: true });
  const log = openSync(opts.logFile, 'a');
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    detached: true,
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  if (child.pid === undefined) throw new StackError(`could not start ${command}`);
  child.unref();
  writeFileSync(opts.pidFile, `${child.pid} ${processStartTime(child.pid) ?? ''}\n`);
  return child.pid;
}

/** SIGTERM to the daemon's process group, SIGKILL after `graceMs`; removes the pid file. */
export async function stopDaemon(pidFile: string, graceMs = 15000): Promise<boolean> {
  const pid = readPid(pidFile);
  rmSync(pidFile, { force: true });
  if (pid === null) return false;
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-pid, signal);
    } catch {
      try {
        process.kill(pid, signal);
      } catch {
        /* already gone */
      }
    }
  };
  signalGroup('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(pid) && Date.now() < deadline) await sleep(100);
  if (isAlive(pid)) signalGroup('SIGKILL');
  while (isAlive(pid)) await sleep(50);
  return true;
}

export function which(binary: string): string | null {
  const result = spawnSync('sh', ['-c', `command -v ${binary}`], { encoding: 'utf8' });
  const found = result.stdout.trim();
  return result.status === 0 && found ? found : null;
}

/** Runs a command to completion; on failure the error carries the command and the tail of its output. */
export function run(command: string, args: string[], opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: opts.env ?? process.env,
    cwd: opts.cwd,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new StackError(`${command} ${args.join(' ')} could not run: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout}\n${result.stderr}`.trim().split('\n').slice(-15).join('\n');
    throw new StackError(`${command} ${args.join(' ')} exited with ${result.status}:\n${output}`);
  }
  return result.stdout;
}

let aptUpdated = false;
/** Installs Debian packages when a binary is missing (the machine runs as root; CI and fresh machines start without them). */
export function aptInstall(packages: string[], log: (msg: string) => void): void {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log(`apt-get update (to install ${packages.join(', ')})`);
    run('apt-get', ['update'], { env });
    aptUpdated = true;
  }
  log(`apt-get install ${packages.join(' ')}`);
  run('apt-get', ['install', '-y', '--no-install-recommends', ...packages], { env });
}
