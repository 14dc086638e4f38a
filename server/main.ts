import { createServer } from 'node:http';
import { loadConfig, requireSmtpUrl } from '../infra/config.ts';
import { closeGracefully } from '../infra/http-shutdown.ts';
import { KEEP_ALIVE_TIMEOUT_MS } from '../infra/keep-alive.ts';
import { createLogger } from '../infra/logger.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { createTemporalClient } from '../infra/temporal-client.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { createCounterKnex, createKnex } from '../db/knex.ts';
import { createApp } from './app.ts';
import { smtpMailer } from '../services/mailer.ts';
import { serveMetrics } from '../infra/metrics-server.ts';

assertNodeVersion();
const config = loadConfig();
const log = createLogger(config, 'api');
const knex = createKnex(config.databaseUrl);
const counterKnex = createCounterKnex(config.databaseUrl);
const temporal = createTemporalClient(config.temporal);
const clickhouse = createClickHouse(config);
const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
const app = createApp({ config, knex, counterKnex, temporal, clickhouse, log, mailer });

const server = createServer(app.koa.callback());
// Operator metrics on their own port (API_METRICS_PORT), never on the public one.
const metricsServer = serveMetrics(
  app.metrics.registry,
  { host: config.api.metricsHost, port: config.api.metricsPort, service: 'api' },
  log,
);
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
server.listen(config.api.port, config.api.host, () => {
  log.info({ url: `http://${config.api.host}:${config.api.port}`, baseUrl: config.baseUrl }, 'api listening');
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: no new connections, finishing open requests');
  app.health.startDraining();
  metricsServer.close();
  mailer.close();
  const clean = await closeGracefully(server, 20_000);
  if (!clean) log.warn('open requests did not finish within 20 s; they were cut');
  await Promise.allSettled([knex.destroy(), counterKnex.destroy(), temporal.connection.close(), clickhouse.close()]);
  log.info('api stopped');
  process.exit(clean ? 0 : 1);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
