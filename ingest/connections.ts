import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { IngestConnectionLimits } from '../infra/config.ts';
import type { Logger } from '../infra/logger.ts';

/** Node checks its headers and request timeouts this often (its default, 30 s, would let slow senders linger). */
const TIMEOUT_CHECK_MS = 1000;

export const serverOptions = { connectionsCheckingInterval: TIMEOUT_CHECK_MS } as const;

/**
 * Bounds what slow or many clients can hold (docs: ingest limits), per instance:
 * - the request line and headers within `headersMs`, the whole request within `requestMs` (Node answers 408
 *   and closes); the body within `bodyMs` of the headers (ingest/beacon-route.ts);
 * - at most `max` open connections (Node closes those past it at once);
 * - at most `perAddress` open connections per client (`keyOf`: the peer's address, an IPv6 /64; null for a
 *   peer that is a trusted proxy, which carries many clients and is left to `max`). Past it a new connection
 *   is closed at once, before a byte is read.
 */
export function limitConnections(
  server: Server,
  limits: IngestConnectionLimits,
  keyOf: (socket: Socket) => string | null,
  log: Logger,
  onRefused: () => void,
): void {
  server.headersTimeout = limits.headersMs;
  server.requestTimeout = limits.requestMs;
  server.maxConnections = limits.max;
  const open = new Map<string, number>();
  let warnedAt = 0;
  server.on('connection', (socket: Socket) => {
    const key = keyOf(socket);
    if (key === null) return;
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.perAddress) {
      onRefused();
      if (Date.now() - warnedAt > 60_000) {
        warnedAt = Date.now();
        log.warn(
          { perAddress: limits.perAddress },
          'a client address is over its connection cap; its new connections are closed',
        );
      }
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
  server.on('drop', () => onRefused());
}
