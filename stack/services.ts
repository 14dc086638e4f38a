import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { PROJECT_ROOT, SECRET_KEY_VARIABLES, type Config } from '../infra/config.ts';
import { ProcessExited, waitUntil } from './proc.ts';

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  readyUrl: string;
}

export function serviceDefinitions(
  config: Pick<Config, 'api' | 'worker' | 'ingest'>,
): Array<{ name: string; entry: string; readyUrl: string }> {
  return [
    { name: 'api', entry: 'server/main.ts', readyUrl: `http://${config.api.host}:${config.api.port}/readyz` },
    {
      name: 'worker',
      entry: 'worker/main.ts',
      readyUrl: `http://${config.worker.healthHost}:${config.worker.healthPort}/readyz`,
    },
    { name: 'ingest', entry: 'ingest/main.ts', readyUrl: `http://${config.ingest.host}:${config.ingest.port}/readyz` },
  ];
}

/** What a process is given: ingest handles no secrets, so the secret keys are left out of its environment. */
export function serviceEnvironment(name: string, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (name !== 'ingest') return env;
  return Object.fromEntries(Object.entries(env).filter(([key]) => !SECRET_KEY_VARIABLES.includes(key)));
}

/**
 * `./svc start` is a local demo whose scans target the developer's own pages, so it opts in to loopback
 * destinations for scans (off by default everywhere) unless the variable is already set either way. Never
 * for webhooks or metadata documents (CALLBACKS_ALLOW_LOOPBACK): their replies would show local services.
 */
export function localDemoEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return env.OUTBOUND_ALLOW_LOOPBACK?.trim() ? env : { ...env, OUTBOUND_ALLOW_LOOPBACK: 'true' };
}

/** Starts one of the project's processes on the same (pinned) Node, with the given environment. */
export function spawnService(
  name: string,
  entry: string,
  readyUrl: string,
  env: NodeJS.ProcessEnv,
  stdio: 'inherit' | 'pipe' = 'inherit',
): ServiceProcess {
  const child = spawn(process.execPath, [resolve(PROJECT_ROOT, entry)], {
    cwd: PROJECT_ROOT,
    env: serviceEnvironment(name, env),
    stdio: ['ignore', stdio, stdio],
  });
  return { name, child, readyUrl };
}

export async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(4000) });
    return response.status === 200;
  } catch {
    return false;
  }
}

export async function waitReady(service: ServiceProcess, timeoutMs = 120_000): Promise<void> {
  await waitUntil(
    `${service.name} (${service.readyUrl})`,
    async () => {
      if (service.child.exitCode !== null || service.child.signalCode !== null) {
        throw new ProcessExited(`${service.name} exited with ${service.child.exitCode ?? service.child.signalCode}`);
      }
      return isReady(service.readyUrl);
    },
    timeoutMs,
    300,
  );
}

/** SIGTERM, wait for a clean exit, SIGKILL after the grace period. */
export async function stopService(service: ServiceProcess, graceMs = 35_000): Promise<number | null> {
  const { child } = service;
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  child.kill('SIGTERM');
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((done) => (timer = setTimeout(() => done('timeout'), graceMs)));
  const result = await Promise.race([exited, timeout]);
  clearTimeout(timer);
  if (result === 'timeout') {
    child.kill('SIGKILL');
    return await exited;
  }
  return result;
}
