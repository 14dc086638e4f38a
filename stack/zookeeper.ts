import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import { resolve } from 'node:path';
import { aptInstall, readPid, StackError, startDaemon, stopDaemon, waitUntil } from './proc.ts';

/**
 * A private single-node ZooKeeper (Debian's `zookeeper` package, installed when missing; Java from the
 * machine) for replicated ClickHouse on one machine: its own zoo.cfg and dataDir under `dir`, on 127.0.0.1.
 */
export interface ZooKeeperInstance {
  dir: string;
  port: number;
}

const JAR = '/usr/share/java/zookeeper.jar';

/** Sends a four-letter command (`ruok`, `srvr`) and returns the answer. */
export function zookeeperCommand(port: number, command: 'ruok' | 'srvr', timeoutMs = 2000): Promise<string> {
  return new Promise((resolveAnswer) => {
    let answer = '';
    const socket = createConnection({ host: '127.0.0.1', port }, () => socket.end(command));
    socket.setTimeout(timeoutMs, () => socket.destroy());
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('utf8')));
    socket.once('close', () => resolveAnswer(answer));
    socket.once('error', () => resolveAnswer(''));
  });
}

export async function startZooKeeper(instance: ZooKeeperInstance, log: (msg: string) => void): Promise<void> {
  if (!existsSync(JAR)) aptInstall(['zookeeper'], log);
  const dataDir = resolve(instance.dir, 'data');
  mkdirSync(dataDir, { recursive: true });
  const configFile = resolve(instance.dir, 'zoo.cfg');
  writeFileSync(
    configFile,
    [
      '# Written by stack/zookeeper.ts: a private ZooKeeper for replicated ClickHouse.',
      'tickTime=500',
      `dataDir=${dataDir}`,
      `clientPort=${instance.port}`,
      'clientPortAddress=127.0.0.1',
      'admin.enableServer=false',
      '4lw.commands.whitelist=ruok,srvr',
      'maxSessionTimeout=60000',
      '',
    ].join('\n'),
  );
  if ((await zookeeperCommand(instance.port, 'ruok')) !== '')
    throw new StackError(`port ${instance.port} is taken by another program`);
  const pidFile = resolve(instance.dir, 'server.pid');
  const pid = startDaemon(
    'java',
    [
      '-Xmx256m',
      '-Dzookeeper.log.dir=' + instance.dir,
      '-cp',
      JAR,
      'org.apache.zookeeper.server.ZooKeeperServerMain',
      configFile,
    ],
    { pidFile, logFile: resolve(instance.dir, 'zookeeper.log'), cwd: instance.dir },
  );
  log(`ZooKeeper starting (pid ${pid}, port ${instance.port}, data ${dataDir})`);
  try {
    await waitUntil(
      `ZooKeeper on port ${instance.port}`,
      async () => {
        if (readPid(pidFile) === null) throw new StackError(`ZooKeeper exited; see ${instance.dir}/zookeeper.log`);
        return (await zookeeperCommand(instance.port, 'ruok')) === 'imok';
      },
      60000,
    );
  } catch (error) {
    await stopDaemon(pidFile);
    throw error;
  }
}

export async function stopZooKeeper(instance: ZooKeeperInstance): Promise<boolean> {
  return stopDaemon(resolve(instance.dir, 'server.pid'), 15000);
}
