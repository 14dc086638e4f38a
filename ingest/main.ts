import { createServer } from 'node:http';
import { loadConfig, requireSmtpUrl } from '../infra/config.ts';
import { closeGracefully } from '../infra/http-shutdown.ts';
import { KEEP_ALIVE_TIMEOUT_MS } from '../infra/keep-alive.ts';
import { createLogger } from '../infra/logger.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { dropOldRumPartitions } from '../db/clickhouse/partitions.ts';
import { dropOldRollupDays, rollUpRumDays, rollUpToday } from '../db/clickhouse/rum-rollups.ts';
import { countMonthPageviews } from '../db/clickhouse/rum-ingest.ts';
import { createKnex } from '../db/knex.ts';
import { createRumSiteStore } from '../db/store/rum-sites.ts';
import { createIngestHandler } from './app.ts';
import { botMatcher } from './bots.ts';
import { DeadLetter } from './dead-letter.ts';
import { Flusher } from './flusher.ts';
import { createIngestMetrics } from './metrics.ts';
import { serveMetrics } from '../infra/metrics-server.ts';
import { registerReadyGauge } from '../infra/ready-metric.ts';
import { PageviewLimit } from './pageview-limit.ts';
import { RejectionTally } from './rejections.ts';
import { SiteCache } from './site-cache.ts';
import { Spool } from './spool.ts';
import { clientAddressResolver, trustedProxyMatcher } from '../http/client-address.ts';
import { smtpMailer } from '../services/mailer.ts';
import { noticeLimitReached } from '../services/rum-limit-notice.ts';
import { limitConnections, serverOptions } from './connections.ts';
import { limitKeyOf, sourceOf } from './source.ts';
import { TokenBuckets } from './token-buckets.ts';

assertNodeVersion();
const config = loadConfig(process.env, { keys: false });
const log = createLogger(config, 'ingest');
const clickhouse = createClickHouse(config, config.clickhouse.database, { compressRequests: false });
const database = config.clickhouse.database;
// A small pool: sites are cached, so Postgres sees about one query per site every 30 s.
const knex = createKnex(config.databaseUrl, { min: 0, max: 3 });
const siteStore = createRumSiteStore(knex);

// The gauges read the spool, which is opened after the counters exist (it reports damaged records to them).
const holder: { spool: Spool | null } = { spool: null };
const metrics = createIngestMetrics({
  buffered: () => holder.spool?.bufferedRecords ?? 0,
  spooledRows: () => holder.spool?.spooledRows ?? 0,
  spooledBytes: () => holder.spool?.spooledBytes ?? 0,
});
const spool = await Spool.open({
  dir: config.ingest.spoolDir,
  maxBytes: config.ingest.spoolMaxBytes,
  fsync: config.ingest.spoolFsync,
  onSync: (seconds) => metrics.syncSeconds.observe(seconds),
  onCorrupt: (file, offset) => {
    metrics.corruptRecords.inc();
    log.error({ file, offset }, 'damaged spool record; the rest of the file is skipped');
  },
});
holder.spool = spool;
if (spool.spooledRows > 0)
  log.info({ rows: spool.spooledRows, dir: config.ingest.spoolDir }, 'replaying spooled beacons');
const rejections = new RejectionTally();
const flusher = new Flusher({
  clickhouse,
  database,
  spool,
  deadLetter: new DeadLetter(config.ingest.spoolDir),
  rejections,
  metrics,
  log,
  batchRows: config.ingest.batch.rows,
  batchMs: config.ingest.batch.ms,
});
flusher.start();

const mailer = smtpMailer({ url: requireSmtpUrl(config), from: config.mail.from });
const limitNotice = { rumSites: siteStore, mailer, baseUrl: config.baseUrl, log };
// TRUSTED_PROXIES (empty by default: the ingest is reached directly) decides whether X-Forwarded-For is read.
const clientAddress = clientAddressResolver(config.trustedProxies);
const isTrustedProxy = trustedProxyMatcher(config.trustedProxies);

const { handler, health } = createIngestHandler({
  clickhouse,
  database,
  log,
  publicUrl: config.ingest.publicUrl,
  beacons: {
    sites: new SiteCache((publicId) => siteStore.findForIngest(publicId)),
    limit: new PageviewLimit(
      (siteId, month) => countMonthPageviews(clickhouse, database, siteId, month),
      (site, month, at) => noticeLimitReached(limitNotice, site, month, at),
    ),
    spool,
    rejections,
    metrics,
    isBot: botMatcher(config.ingest.acceptHeadless),
    sourceOf: (req) => {
      const forwarded = config.trustedProxies.length > 0 ? req.headers['x-forwarded-for'] : undefined;
      return sourceOf(
        clientAddress(
          req.socket.remoteAddress ?? '',
          Array.isArray(forwarded) ? forwarded.join(',') : (forwarded ?? ''),
        ),
      );
    },
    addressRate: new TokenBuckets(config.ingest.rates.perAddress),
    siteRate: new TokenBuckets(config.ingest.rates.perSite),
    bodyTimeoutMs: config.ingest.connections.bodyMs,
    log,
  },
});

registerReadyGauge(metrics.registry, 'ingest', health);

const server = createServer(serverOptions, handler);
server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
limitConnections(
  server,
  config.ingest.connections,
  (socket) => {
    const peer = socket.remoteAddress ?? '';
    return isTrustedProxy(peer) ? null : limitKeyOf(peer);
  },
  log,
  () => metrics.connectionsRefused.inc(),
);
server.listen(config.ingest.port, config.ingest.host, () => {
  log.info(
    {
      url: `http://${config.ingest.host}:${config.ingest.port}`,
      publicUrl: config.ingest.publicUrl,
      spool: config.ingest.spoolDir,
    },
    'ingest listening',
  );
});

// Operator metrics on their own port (never the public one).
const metricsServer = serveMetrics(
  metrics.registry,
  { host: config.ingest.metricsHost, port: config.ingest.metricsPort, service: 'ingest' },
  log,
);

// Old monthly partitions go once a day (no TTL on 18.16). Every instance may do it; a second drop finds nothing.
const DAY_MS = 24 * 60 * 60 * 1000;
const dropOld = () => {
  dropOldRumPartitions(clickhouse, database, config.ingest.keepMonths, new Date(), config.clickhouse.layout).then(
    (dropped) =>
      dropped.length > 0 && log.info({ dropped, keepMonths: config.ingest.keepMonths }, 'old RUM partitions dropped'),
    (error: unknown) => log.warn({ err: error }, 'dropping old RUM partitions failed; trying again tomorrow'),
  );
};
setTimeout(dropOld, 60_000).unref();
setInterval(dropOld, DAY_MS).unref();

// Daily rollups (db/clickhouse/rum-rollups.ts): finished days are built, recent ones rebuilt, every hour; old
// rollup days go once a day. Every instance may do it: a rebuilt day replaces its partition with the same rows.
const HOUR_MS = 60 * 60 * 1000;
const rollupClient = createClickHouse(config, config.clickhouse.database, { requestTimeoutMs: 30 * 60_000 });
let rollingUp = false;
const rollUp = () => {
  if (rollingUp) return; // a backfill can take longer than the hour
  rollingUp = true;
  rollUpRumDays(rollupClient, database, config.ingest.keepMonths)
    .then(
      (days) => log.debug({ days }, 'RUM days rolled up'),
      (error: unknown) => log.warn({ err: error }, 'rolling up RUM days failed; trying again in an hour'),
    )
    .finally(() => {
      rollingUp = false;
    });
};
// Today's snapshot up to the last full hour, every ten minutes (a rebuild reads up to two days of raw rows: a
// third of a second in bench:rum-queries): a summary then reads raw rows for at most the current hour and ten minutes.
const TODAY_EVERY_MS = 10 * 60_000;
let rollingUpToday = false;
const rollUpTodaySoFar = () => {
  if (rollingUpToday) return;
  rollingUpToday = true;
  rollUpToday(rollupClient, database)
    .then(
      (until) => log.debug({ until }, 'RUM today rolled up'),
      (error: unknown) => log.warn({ err: error }, 'rolling up today failed; trying again in ten minutes'),
    )
    .finally(() => {
      rollingUpToday = false;
    });
};
const dropOldRollups = () => {
  dropOldRollupDays(clickhouse, database, config.ingest.rollupKeepMonths).then(
    (dropped) =>
      dropped.length > 0 &&
      log.info({ dropped, keepMonths: config.ingest.rollupKeepMonths }, 'old RUM rollup days dropped'),
    (error: unknown) => log.warn({ err: error }, 'dropping old RUM rollup days failed; trying again tomorrow'),
  );
};
// Not in the sharded layout yet: a day would have to be built on every shard; summaries there read raw rows.
if (config.clickhouse.layout.kind !== 'sharded') {
  setTimeout(rollUp, 90_000).unref();
  setInterval(rollUp, HOUR_MS).unref();
  setTimeout(rollUpTodaySoFar, 100_000).unref();
  setInterval(rollUpTodaySoFar, TODAY_EVERY_MS).unref();
  setTimeout(dropOldRollups, 120_000).unref();
  setInterval(dropOldRollups, DAY_MS).unref();
}

let stopping = false;
async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down');
  health.startDraining();
  const clean = await closeGracefully(server, 20_000);
  if (!clean) log.warn('open requests did not finish within 20 s; they were cut');
  const drained = await flusher.drain(10_000);
  if (!drained)
    log.warn(
      { rows: spool.spooledRows },
      'ClickHouse did not take every spooled row; they stay in the spool for the next start',
    );
  await spool.close();
  metricsServer.close();
  await clickhouse.close();
  await rollupClient.close();
  mailer.close();
  await knex.destroy();
  log.info('ingest stopped');
  process.exit(clean ? 0 : 1);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
