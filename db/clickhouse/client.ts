import { Readable } from 'node:stream';
import { createClient, type ClickHouseClient } from '@clickhouse/client';
import type { Config } from '../../infra/config.ts';

export type { ClickHouseClient };

/**
 * compressRequests: false for the ingest service, whose inserts would spend more CPU on gzip than the network
 * saves. requestTimeoutMs (default 10 s): longer for statements that take long by design (a benchmark's merge).
 * With CLICKHOUSE_REPLICA_URLS the client fails over between the nodes (failover below).
 */
export function createClickHouse(
  config: Pick<Config, 'clickhouse'>,
  database = config.clickhouse.database,
  options: { compressRequests?: boolean; requestTimeoutMs?: number } = {},
): ClickHouseClient {
  const { clickhouse } = config;
  const clients = clickhouseNodeUrls(config).map((url) =>
    createClient({
      url,
      username: clickhouse.user,
      password: clickhouse.password,
      database,
      request_timeout: options.requestTimeoutMs ?? 10000,
      compression: { request: options.compressRequests ?? true, response: true },
      // Inserts through a Distributed table reach the shards before they are acknowledged, so an acknowledged
      // row is on a replica (not in a local queue), and the Distributed table can be recreated without loss.
      ...(clickhouse.layout.kind === 'sharded' ? { clickhouse_settings: { insert_distributed_sync: 1 } } : {}),
    }),
  );
  return clients.length === 1 ? clients[0]! : failover(clients);
}

/** Every ClickHouse node the configuration names: CLICKHOUSE_URL, then CLICKHOUSE_REPLICA_URLS. */
export function clickhouseNodeUrls(config: Pick<Config, 'clickhouse'>): string[] {
  return [...new Set([config.clickhouse.url, ...(config.clickhouse.replicaUrls ?? [])])];
}

export async function clickhouseReady(client: ClickHouseClient): Promise<void> {
  const result = await client.ping();
  if (!result.success) throw result.error;
}

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EPIPE']);

/** Whether the node did not take the request at all (down, restarting, unreachable), as opposed to refusing it. */
export function isUnreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && UNREACHABLE_CODES.has(code)) return true;
  return /socket hang up|Timeout error|ECONNREFUSED|ECONNRESET/i.test((error as Error | null)?.message ?? '');
}

/**
 * ClickHouse error codes that mean "this data cannot be read into the table": the insert's rows are at fault, not
 * the server (parse errors of a value, an unknown JSONEachRow key, an unknown Enum element, a cut row). The same
 * codes on 18.16 and current versions (ErrorCodes.cpp).
 */
const CONTENT_ERROR_CODES = new Set([
  6, // CANNOT_PARSE_TEXT
  25, // CANNOT_PARSE_ESCAPE_SEQUENCE (a lone surrogate's \ud800)
  26, // CANNOT_PARSE_QUOTED_STRING
  27, // CANNOT_PARSE_INPUT_ASSERTION_FAILED
  32, // ATTEMPT_TO_READ_AFTER_EOF
  33, // CANNOT_READ_ALL_DATA
  38, // CANNOT_PARSE_DATE
  41, // CANNOT_PARSE_DATETIME
  53, // TYPE_MISMATCH
  69, // ARGUMENT_OUT_OF_BOUND
  70, // CANNOT_CONVERT_TYPE
  72, // CANNOT_PARSE_NUMBER
  117, // INCORRECT_DATA (an unknown field in JSONEachRow)
  130, // CANNOT_READ_ARRAY_FROM_TEXT
  131, // TOO_LARGE_STRING_SIZE
  321, // VALUE_IS_OUT_OF_RANGE_OF_DATA_TYPE
  691, // UNKNOWN_ELEMENT_OF_ENUM
]);

/** The `Code: N` of an error ClickHouse answered (18.16 words it in the message; newer clients parse it), else null. */
export function clickhouseErrorCode(error: unknown): number | null {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^\d+$/.test(code)) return Number(code);
  const match = /^Code: (\d+)/.exec((error as Error | null)?.message ?? '');
  return match ? Number(match[1]) : null;
}

/**
 * Whether ClickHouse refused an insert for its rows (inserting them again can never work), as opposed to being
 * away, overloaded or misconfigured (which a retry of the same rows outlasts). 18.16 reports an unknown Enum8
 * element as a LOGICAL_ERROR (49), so that code counts only with its message.
 */
export function refusedForContent(error: unknown): boolean {
  // An answer with a code: the server read the request (row text in its message cannot make it look unreachable).
  const code = clickhouseErrorCode(error);
  if (code === null) return false;
  if (CONTENT_ERROR_CODES.has(code)) return true;
  return code === 49 && /Unknown element '.*' for type Enum/s.test((error as Error).message);
}

/**
 * One client over several nodes that hold the same data (replicas): calls go to the node that answered last;
 * when it is unreachable, the call is repeated on the next node. An insert whose rows are a stream is not
 * repeated (the stream is spent): it fails, the next call goes to the next node, and the ingest's spool retries
 * it. Repeating an insert that had in fact arrived is harmless: a replicated table drops a block identical to
 * one it already has, and queries keep one row per page view and metric id anyway (schema.ts).
 */
function failover(clients: ClickHouseClient[]): ClickHouseClient {
  let current = 0;
  async function call<T>(method: (client: ClickHouseClient) => Promise<T>, repeatable: boolean): Promise<T> {
    let lastError: unknown = null;
    const start = current;
    for (let tried = 0; tried < clients.length; tried++) {
      const index = (start + tried) % clients.length;
      try {
        const result = await method(clients[index]!);
        current = index;
        return result;
      } catch (error) {
        if (!isUnreachable(error)) throw error;
        lastError = error;
        current = (index + 1) % clients.length;
        if (!repeatable) break;
      }
    }
    throw lastError;
  }
  const first = clients[0]!;
  return new Proxy(first, {
    get(target, property, receiver) {
      switch (property) {
        case 'query':
          return (params: Parameters<ClickHouseClient['query']>[0]) => call((c) => c.query(params), true);
        case 'command':
          return (params: Parameters<ClickHouseClient['command']>[0]) => call((c) => c.command(params), true);
        case 'insert':
          return (params: Parameters<ClickHouseClient['insert']>[0]) =>
            call((c) => c.insert(params), !(params.values instanceof Readable));
        case 'exec':
          return (params: Parameters<ClickHouseClient['exec']>[0]) =>
            call((c) => c.exec(params), !('values' in params && params.values instanceof Readable));
        case 'ping':
          return async (params?: Parameters<ClickHouseClient['ping']>[0]) => {
            let last: Awaited<ReturnType<ClickHouseClient['ping']>> | null = null;
            const start = current;
            for (let tried = 0; tried < clients.length; tried++) {
              const index = (start + tried) % clients.length;
              last = await clients[index]!.ping(params);
              if (last.success) {
                current = index;
                return last;
              }
            }
            return last!;
          };
        case 'close':
          return async () => {
            await Promise.all(clients.map((c) => c.close()));
          };
        default:
          return Reflect.get(target, property, receiver) as unknown;
      }
    },
  });
}
