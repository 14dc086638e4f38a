import { execFileSync } from 'node:child_process';
import { serviceDefinitions, spawnService, stopService, waitReady, type ServiceProcess } from '../../stack/services.ts';
import { loadConfig } from '../../infra/config.ts';
import { freePort } from './isolated.ts';
import { watchLogs } from './log-sink.ts';

export type ServiceName = 'api' | 'worker' | 'ingest';

export interface RunningService extends ServiceProcess {
  /** Everything the process printed (JSON log lines), for assertions and for failure messages. */
  output(): string;
  stop(): Promise<number | null>;
}

/** Starts a real api/worker/ingest process with the given environment, as `./svc start` does. */
export function startService(name: ServiceName, env: Record<string, string | undefined>): RunningService {
  const config = loadConfig(env, { keys: false });
  const def = serviceDefinitions(config).find((d) => d.name === name)!;
  const service = spawnService(def.name, def.entry, def.readyUrl, env as NodeJS.ProcessEnv, 'pipe');
  let output = '';
  service.child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  service.child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const logSink = watchLogs(`${name} process`, () => output);
  return {
    ...service,
    output: () => output,
    stop: async () => {
      const code = await stopService(service);
      logSink.check();
      return code;
    },
  };
}

/**
 * Starts a service and waits until it is ready. A port chosen by freePort() can be taken by someone else
 * before the service binds it (another test's outgoing connection, say): then the service is started again
 * on a new port, up to three times.
 */
export async function startReady(name: ServiceName, env: Record<string, string | undefined>): Promise<RunningService> {
  for (let attempt = 1; ; attempt++) {
    const service = startService(name, env);
    try {
      await waitReady(service, 90_000);
      return service;
    } catch (error) {
      await service.stop();
      const busyPort = /EADDRINUSE: address already in use \S+:(\d+)/.exec(service.output())?.[1];
      const variable = busyPort && Object.keys(env).find((key) => key.endsWith('_PORT') && env[key] === busyPort);
      if (variable && attempt < 3) {
        env = { ...env, [variable]: String(await freePort()) };
        continue;
      }
      throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${service.output().slice(-4000)}`, {
        cause: error,
      });
    }
  }
}

export async function readiness(
  url: string,
): Promise<{ status: number; body: { ready: boolean; status: string; checks: Record<string, string> } }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return {
    status: response.status,
    body: (await response.json()) as { ready: boolean; status: string; checks: Record<string, string> },
  };
}

/** The ids of `pid`'s direct children whose command line matches `pattern` (pgrep -P -f); none when there are none. */
export function childPids(pid: number, pattern: string): number[] {
  try {
    return execFileSync('pgrep', ['-P', String(pid), '-f', pattern], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
}
