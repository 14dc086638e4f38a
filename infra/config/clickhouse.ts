import { ConfigError, identifier, oneOf, port, str, url, type Env } from './parsers.ts';
import type { ClickHouseLayout, Config } from './types.ts';

const CLICKHOUSE_LAYOUTS = ['single', 'replicated', 'sharded'] as const;

function clickhouseReplicaUrls(env: Env): string[] {
  const more = (env.CLICKHOUSE_REPLICA_URLS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => url({ CLICKHOUSE_REPLICA_URLS: entry }, 'CLICKHOUSE_REPLICA_URLS', undefined, ['http:', 'https:']));
  return [...new Set(more)];
}

function clickhouseLayout(env: Env): ClickHouseLayout {
  const kind = oneOf(env, 'CLICKHOUSE_LAYOUT', CLICKHOUSE_LAYOUTS, 'single');
  if (kind !== 'sharded') return { kind };
  if (!env.CLICKHOUSE_CLUSTER?.trim())
    throw new ConfigError(
      'CLICKHOUSE_CLUSTER',
      'is required with CLICKHOUSE_LAYOUT=sharded (a cluster in remote_servers)',
    );
  return { kind, cluster: identifier(env, 'CLICKHOUSE_CLUSTER', '') };
}

export function loadClickHouse(env: Env, required: (fallback: string) => string | undefined): Config['clickhouse'] {
  return {
    url: url(env, 'CLICKHOUSE_URL', required('http://127.0.0.1:8123'), ['http:', 'https:']),
    database: identifier(env, 'CLICKHOUSE_DATABASE', 'webperf'),
    user: str(env, 'CLICKHOUSE_USER', 'default'),
    password: env.CLICKHOUSE_PASSWORD ?? '',
    tcpPort: port(env, 'CLICKHOUSE_TCP_PORT', 9000),
    replicaUrls: clickhouseReplicaUrls(env),
    layout: clickhouseLayout(env),
  };
}
