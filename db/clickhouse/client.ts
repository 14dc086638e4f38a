import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Config } from '../../infra/config.ts';

export type { ClickHouseClient };

/**
 * compressRequests: false for the ingest service, whose inserts would spend more CPU on gzip than the network
 * saves. requestTimeoutMs (default 10 s): longer for statements that take long by design (a benchmark's merge).
 */
export function createClickHouse(
  config: Pick<Config, 'clickhouse'>,
  database = config.clickhouse.database,
  options: { compressRequests?: boolean; requestTimeoutMs?: number } = {},
): ClickHouseClient {
  return createClient({
    url: config.clickhouse.url,
    username: config.clickhouse.user,
    password: config.clickhouse.password,
    database,
    request_timeout: options.requestTimeoutMs ?? 10000,
    compression: { request: options.compressRequests ?? true, response: true },
  });
}

export async function clickhouseReady(client: ClickHouseClient): Promise<void> {
  const result = await client.ping();
  if (!result.success) throw result.error;
}
