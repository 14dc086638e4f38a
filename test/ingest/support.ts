import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ClickHouseClient } from '@clickhouse/client';
import type { Knex } from 'knex';
import type { PlanKey } from '../../core/plans.ts';
import type { Beacon } from '../../core/rum/beacon.ts';
import { newRumSitePublicId, type RumSite } from '../../core/rum/site.ts';
import { ident, sql } from '../../db/clickhouse/sql.ts';
import { createStorage } from '../../db/store/index.ts';
import { loadConfig } from '../../infra/config.ts';
import { createUser } from '../../services/accounts.ts';
import {
  freePort,
  isolatedClickHouse,
  isolatedPostgres,
  type IsolatedClickHouse,
  type IsolatedPostgres,
} from '../harness/isolated.ts';
import { startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv } from '../harness/shared.ts';

export const CHROME_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export async function createSite(
  knex: Knex,
  options: { plan?: PlanKey; domain?: string; active?: boolean } = {},
): Promise<RumSite> {
  const storage = createStorage(knex);
  const user = await createUser(storage.users, {
    name: 'Site owner',
    email: `owner-${randomBytes(4).toString('hex')}@example.com`,
    password: null,
    plan: options.plan ?? 'pro',
  });
  const site = await storage.rumSites.insert({
    userId: user.id,
    publicId: newRumSitePublicId(),
    domain: options.domain ?? 'example.com',
    sampleRate: 100,
    createdAt: new Date(),
  });
  if (options.active === false) await storage.rumSites.update(user.id, site.id, { active: false }, new Date());
  return site;
}

export const pageViewId = (): string => randomBytes(12).toString('base64url');

/** A complete beacon with every field the collector may send (LCP with attribution, CLS, INP). */
export function beacon(site: string, overrides: Partial<Beacon> = {}): Beacon {
  const pv = overrides.pv ?? pageViewId();
  return {
    v: 1,
    site,
    pv,
    seq: 1,
    path: '/products/shoes',
    device: 'mobile',
    rate: 100,
    metrics: [
      {
        name: 'LCP',
        value: 2345.6,
        id: `v5-${pv}-lcp`,
        nav: 'navigate',
        target: 'main > img.hero',
        url: 'https://cdn.example.com/hero.jpg',
        phases: { ttfb: 400, delay: 145.6, load: 1200, render: 600 },
      },
      { name: 'CLS', value: 0.042, id: `v5-${pv}-cls`, nav: 'navigate', target: 'div.banner' },
      {
        name: 'INP',
        value: 184,
        id: `v5-${pv}-inp`,
        nav: 'navigate',
        target: 'button#buy',
        type: 'pointer',
        phases: { input: 4, processing: 150, presentation: 30 },
        scripts: [
          { src: 'https://cdn.example.com/cart.js?v=3', fn: 'addToCart', inv: 'event-listener', dur: 120 },
          { src: '', fn: '', inv: 'user-callback', dur: 22.5 },
        ],
      },
    ],
    ...overrides,
  };
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** POST /b through node:http (fetch inside jest drops Origin). */
export function send(
  baseUrl: string,
  body: string | Buffer | object,
  headers: Record<string, string> = {},
  method = 'POST',
  localAddress?: string,
): Promise<Answer> {
  const payload = typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${baseUrl}/b`,
      {
        method,
        headers: {
          'content-type': 'text/plain;charset=UTF-8',
          origin: 'https://example.com',
          'user-agent': CHROME_UA,
          ...headers,
        },
        // A sender of its own (any 127.x.y.z is loopback): the ingest limits per source address.
        ...(localAddress ? { localAddress } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

export interface IngestProcess {
  service: RunningService;
  url: string;
  metricsUrl: string;
  env: Record<string, string | undefined>;
}

export async function startIngest(env: Record<string, string | undefined>): Promise<IngestProcess> {
  const full = {
    ...baseTestEnv(),
    INGEST_PORT: String(await freePort()),
    INGEST_METRICS_PORT: String(await freePort()),
    INGEST_BATCH_MS: '200',
    ...env,
  };
  const service = await startReady('ingest', full);
  return {
    service,
    url: `http://127.0.0.1:${full.INGEST_PORT}`,
    metricsUrl: `http://127.0.0.1:${full.INGEST_METRICS_PORT}/metrics`,
    env: full,
  };
}

/**
 * What the ingest files set up alike: a Postgres and a ClickHouse database of their own, a folder for spools,
 * and ingest processes on them. `close` stops the processes `start` started and removes all of it.
 */
export interface IngestBed {
  db: IsolatedPostgres;
  ch: IsolatedClickHouse;
  /** The path of the bed's spool folder `spool`. */
  spoolDir(spool: string): string;
  /** An ingest process's environment on the bed's databases, spooling into `spoolDir(spool)`. */
  env(spool: string, extra?: Record<string, string | undefined>): Record<string, string | undefined>;
  /** An ingest process with that environment, stopped by `close`. */
  start(spool: string, extra?: Record<string, string | undefined>): Promise<IngestProcess>;
  close(): Promise<void>;
}

export async function ingestBed(): Promise<IngestBed> {
  const [db, ch] = await Promise.all([isolatedPostgres(), isolatedClickHouse(loadConfig(baseTestEnv()))]);
  const spools = mkdtempSync(join(tmpdir(), 'ingest-'));
  const started: IngestProcess[] = [];
  const env = (spool: string, extra: Record<string, string | undefined> = {}) => ({
    DATABASE_URL: db.databaseUrl,
    CLICKHOUSE_DATABASE: ch.database,
    INGEST_SPOOL_DIR: join(spools, spool),
    ...extra,
  });
  return {
    db,
    ch,
    spoolDir: (spool) => join(spools, spool),
    env,
    async start(spool, extra) {
      const ingest = await startIngest(env(spool, extra));
      started.push(ingest);
      return ingest;
    },
    async close() {
      for (const ingest of started) await ingest.service.stop();
      await Promise.all([db.drop(), ch.drop()]);
      rmSync(spools, { recursive: true, force: true });
    },
  };
}

/** A counter's value from the Prometheus text (0 when absent). */
export async function metric(metricsUrl: string, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels ? `{${labels}}` : ''} `));
  return line ? Number(line.split(' ').pop()) : 0;
}

export async function queryRows<T>(client: ClickHouseClient, query: string): Promise<T[]> {
  return (await client.query({ query, format: 'JSONEachRow' })).json<T>();
}

/** Rows, and distinct (page view, metric id) pairs: the count every query sees after dedupe. */
export async function metricCounts(
  client: ClickHouseClient,
  database: string,
): Promise<{ rows: number; distinct: number }> {
  const [row] = await queryRows<{ rows: string; distinct: string }>(
    client,
    sql`SELECT count() AS rows, uniqExact(page_view_id, metric_id) AS distinct FROM ${ident(database)}.rum_metrics`,
  );
  return { rows: Number(row!.rows), distinct: Number(row!.distinct) };
}
