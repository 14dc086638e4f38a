import { createServer } from 'node:http';
import { loadConfig } from '../core/config.ts';
import { closeGracefully } from '../core/http-shutdown.ts';
import { createLogger } from '../core/logger.ts';
import { assertNodeVersion } from '../core/runtime.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { createIngestHandler } from './app.ts';

assertNodeVersion();
const config = loadConfig(process.env, { keys: false });
const log = createLogger(config, 'ingest');
const clickhouse = createClickHouse(config);
const { handler, health } = createIngestHandler({ clickhouse, database: config.clickhouse.database, log });

const server = createServer(handler);
server.keepAliveTimeout = 65_000;
server.listen(config.ingest.port, config.ingest.host, () => {
  log.info({ url: `http://${config.ingest.host}:${config.ingest.port}`, publicUrl: config.ingest.publicUrl }, 'ingest listening');
});

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  health.startDraining();
  const clean = await closeGracefully(server, 20_000);
  if (!clean) log.warn('open requests did not finish within 20 s; they were cut');
  await clickhouse.close();
  log.info('ingest stopped');
  process.exit(clean ? 0 : 1);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
