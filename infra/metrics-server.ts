import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';
import type { Logger } from './logger.ts';

/**
 * A process's operator port: `GET /metrics` in Prometheus's text format, nothing else. Never the public port.
 * Failing to bind it is logged and does not stop the process: the service matters more than its metrics.
 */
export function serveMetrics(
  registry: Registry,
  where: { host: string; port: number; service: string },
  log: Pick<Logger, 'info' | 'error'>,
): Server {
  const server = createServer((req, res) => {
    if ((req.url ?? '').split('?', 1)[0] !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => res.writeHead(500).end(),
    );
  });
  server.on('error', (error) =>
    log.error({ err: error, port: where.port }, 'metrics port not available; /metrics is not served'),
  );
  server.listen(where.port, where.host, () =>
    log.info({ url: `http://${where.host}:${where.port}/metrics` }, `${where.service} metrics listening`),
  );
  return server;
}
