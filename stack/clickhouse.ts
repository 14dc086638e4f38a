import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Config } from '../infra/config.ts';
import {
  aptInstall,
  isPortOpen,
  ProcessExited,
  readPid,
  StackError,
  startDaemon,
  stopDaemon,
  waitUntil,
  which,
} from './proc.ts';

export async function clickhouseAnswers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/ping`, { signal: AbortSignal.timeout(2000) });
    return response.ok && (await response.text()).trim() === 'Ok.';
  } catch {
    return false;
  }
}

function configXml(dir: string, httpPort: number, tcpPort: number, extraConfig = ''): string {
  return `<?xml version="1.0"?>
<!-- Written by stack/clickhouse.ts: a private ClickHouse for this checkout, state under ${dir}. -->
<yandex>
  <logger>
    <level>warning</level>
    <log>${dir}/log/server.log</log>
    <errorlog>${dir}/log/error.log</errorlog>
    <size>100M</size>
    <count>3</count>
  </logger>
  <listen_host>127.0.0.1</listen_host>
  <http_port>${httpPort}</http_port>
  <tcp_port>${tcpPort}</tcp_port>
  <path>${dir}/data/</path>
  <tmp_path>${dir}/tmp/</tmp_path>
  <user_files_path>${dir}/user_files/</user_files_path>
  <format_schema_path>${dir}/format_schemas/</format_schema_path>
  <users_config>${dir}/users.xml</users_config>
  <default_profile>default</default_profile>
  <default_database>default</default_database>
  <timezone>UTC</timezone>
  <mlock_executable>false</mlock_executable>
  <max_concurrent_queries>100</max_concurrent_queries>
  <mark_cache_size>536870912</mark_cache_size>
  <uncompressed_cache_size>536870912</uncompressed_cache_size>
${extraConfig}</yandex>
`;
}

const USERS_XML = `<?xml version="1.0"?>
<yandex>
  <profiles><default><max_memory_usage>4000000000</max_memory_usage></default></profiles>
  <users>
    <default>
      <password></password>
      <networks><ip>127.0.0.1</ip><ip>::1</ip></networks>
      <profile>default</profile>
      <quota>default</quota>
    </default>
  </users>
  <quotas><default><interval><duration>3600</duration><queries>0</queries><errors>0</errors><result_rows>0</result_rows><read_rows>0</read_rows><execution_time>0</execution_time></interval></default></quotas>
</yandex>
`;

export interface ClickHouseInstance {
  dir: string;
  httpPort: number;
  tcpPort: number;
  /** More top-level config elements (a replica's zookeeper, macros, remote_servers: stack/clickhouse-cluster.ts). */
  extraConfig?: string;
}

export function clickhouseInstance(config: Config, dir = resolve(config.stateDir, 'clickhouse')): ClickHouseInstance {
  const url = new URL(config.clickhouse.url);
  return { dir, httpPort: Number(url.port || 8123), tcpPort: config.clickhouse.tcpPort };
}

/** Starts a private ClickHouse (Debian's clickhouse-server, installed when missing) and waits for /ping. */
export async function startClickHouse(instance: ClickHouseInstance, log: (msg: string) => void): Promise<void> {
  const binary = which('clickhouse-server') ?? '/usr/sbin/clickhouse-server';
  if (!existsSync(binary)) aptInstall(['clickhouse-server'], log);
  for (const sub of ['data', 'tmp', 'log', 'user_files', 'format_schemas'])
    mkdirSync(resolve(instance.dir, sub), { recursive: true });
  const configFile = resolve(instance.dir, 'config.xml');
  writeFileSync(configFile, configXml(instance.dir, instance.httpPort, instance.tcpPort, instance.extraConfig));
  writeFileSync(resolve(instance.dir, 'users.xml'), USERS_XML);
  if (await isPortOpen('127.0.0.1', instance.tcpPort)) {
    throw new StackError(
      `ClickHouse TCP port ${instance.tcpPort} is taken by another program (set CLICKHOUSE_TCP_PORT)`,
    );
  }
  const pidFile = resolve(instance.dir, 'server.pid');
  const pid = startDaemon(binary, [`--config-file=${configFile}`], {
    pidFile,
    logFile: resolve(instance.dir, 'log', 'stdout.log'),
    cwd: instance.dir,
  });
  log(
    `ClickHouse starting (pid ${pid}, http ${instance.httpPort}, tcp ${instance.tcpPort}, data ${instance.dir}/data)`,
  );
  const url = `http://127.0.0.1:${instance.httpPort}`;
  try {
    await waitUntil(
      `ClickHouse on ${url}`,
      async () => {
        if (readPid(pidFile) === null)
          throw new ProcessExited(`clickhouse-server exited; see ${instance.dir}/log/error.log`);
        return clickhouseAnswers(url);
      },
      60000,
    );
  } catch (error) {
    await stopDaemon(pidFile);
    throw error;
  }
}

export async function stopClickHouse(instance: ClickHouseInstance): Promise<boolean> {
  return stopDaemon(resolve(instance.dir, 'server.pid'), 20000);
}

export function clickhousePid(instance: ClickHouseInstance): number | null {
  return readPid(resolve(instance.dir, 'server.pid'));
}
