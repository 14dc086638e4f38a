import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClickHouseClient } from '@clickhouse/client';
import { HealthState, serveHealth } from '../infra/health.ts';
import { securityHeaders } from '../core/security-headers.ts';
import type { Logger } from '../infra/logger.ts';
import { clickhouseReady } from '../db/clickhouse/client.ts';
import { appliedClickHouseVersion, LATEST_CLICKHOUSE_VERSION } from '../db/clickhouse/schema.ts';
import { serveCollectorScript } from './collector-script.ts';
import { handleBeacon, type BeaconRouteDeps } from './beacon-route.ts';

export interface IngestDeps {
  clickhouse: ClickHouseClient;
  database: string;
  log: Logger;
  beacons: BeaconRouteDeps;
  /** INGEST_URL: HSTS is sent when it is https. */
  publicUrl: string;
}

/** A bare node:http handler: beacons are small and many, so the hot path stays free of framework layers. */
export function createIngestHandler(deps: IngestDeps) {
  const health = new HealthState(
    {
      clickhouse: () => clickhouseReady(deps.clickhouse),
      clickhouse_schema: async () => {
        const version = await appliedClickHouseVersion(deps.clickhouse, deps.database);
        if (version < LATEST_CLICKHOUSE_VERSION)
          throw new Error(`schema version ${version}, need ${LATEST_CLICKHOUSE_VERSION}`);
      },
      spool: async () => {
        if (!deps.beacons.spool.hasRoom) throw new Error('spool full or behind with its syncs');
      },
      // ClickHouse is reported but does not decide readiness: while it is away, beacons wait in the spool (the
      // durability rule), so a load balancer must keep sending them here; only a full spool takes us out.
    },
    deps.log,
    3000,
    ['clickhouse', 'clickhouse_schema'],
  );

  const headers = Object.entries(securityHeaders(deps.publicUrl));
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    // Kept by every writeHead below, whatever route answers.
    for (const [name, value] of headers) res.setHeader(name, value);
    const path = (req.url ?? '/').split('?', 1)[0];
    if (path === '/b') {
      handleBeacon(req, res, deps.beacons);
      return;
    }
    if (serveCollectorScript(req, res, deps.log)) return;
    const respond = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    serveHealth(health, path ?? '/', respond)
      .then((handled) => handled || respond(404, { message: 'Not found.' }))
      .catch((error: unknown) => {
        deps.log.error({ err: error }, 'ingest request failed');
        respond(500, { message: 'Server error.' });
      });
  };
  return { handler, health };
}
