import { serviceDefinitions, spawnService, stopService, waitReady, type ServiceProcess } from '../../stack/services.ts';
import { loadConfig } from '../../core/config.ts';

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
  return { ...service, output: () => output, stop: () => stopService(service) };
}

export async function startReady(name: ServiceName, env: Record<string, string | undefined>): Promise<RunningService> {
  const service = startService(name, env);
  try {
    await waitReady(service, 90_000);
  } catch (error) {
    await service.stop();
    throw new Error(`${(error as Error).message}\n--- ${name} output ---\n${service.output().slice(-4000)}`, { cause: error });
  }
  return service;
}

export async function readiness(url: string): Promise<{ status: number; body: { ready: boolean; status: string; checks: Record<string, string> } }> {
  const response = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  return { status: response.status, body: (await response.json()) as { ready: boolean; status: string; checks: Record<string, string> } };
}
