/**
 * The web area with a seeded user (fixtures/web-area.ts), served by the real app in this process on a
 * Postgres database and a ClickHouse database of its own (so the live-data pages show a month of seeded
 * data), for `bench/pages.ts` and `bench/screenshots.ts`. No worker runs: the queued and running scans stay as
 * they were seeded. The backing services must be up (`./svc stack up`).
 */
import { createServer } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import type { Browser } from 'puppeteer-core';
import { loadConfig } from '../infra/config.ts';
import { createLogger } from '../infra/logger.ts';
import { TEMPORAL_CHANNEL_ARGS } from '../core/temporal.ts';
import { createClickHouse } from '../db/clickhouse/client.ts';
import { dropClickHouseDatabase, ensureClickHouseSchema } from '../db/clickhouse/schema.ts';
import { createStorage } from '../db/store/index.ts';
import { renderSampleImages, seedWebArea, type SeededWebArea } from '../fixtures/web-area.ts';
import { createApp } from '../server/app.ts';
import { createAssetStore } from '../services/asset-store.ts';
import { freePort } from '../stack/ports.ts';
import { benchDatabase } from './support.ts';

export interface RunningWebArea {
  url: string;
  seeded: SeededWebArea;
  close(): Promise<void>;
}

export async function startWebArea(name: string, browser: Browser): Promise<RunningWebArea> {
  const db = await benchDatabase(name);
  const assetsDir = mkdtempSync(join(tmpdir(), `bench-${name}-`));
  const port = await freePort();
  const clickhouseDatabase = `bench_${name.replace(/[^A-Za-z0-9_]/g, '_')}_${Date.now().toString(36)}`;
  const config = loadConfig({
    ...process.env,
    DATABASE_URL: db.databaseUrl,
    BASE_URL: `http://127.0.0.1:${port}`,
    ASSETS_DIR: assetsDir,
    LOG_LEVEL: 'warn',
    TEMPORAL_TASK_QUEUE_PREFIX: `bench_${name}`,
    CLICKHOUSE_DATABASE: clickhouseDatabase,
  });
  const clickhouseAdmin = createClickHouse(config, 'default');
  await ensureClickHouseSchema(clickhouseAdmin, clickhouseDatabase);
  const clickhouse = createClickHouse(config);
  const connection = Connection.lazy({ address: config.temporal.address, channelArgs: TEMPORAL_CHANNEL_ARGS });
  const temporal = new Client({ connection, namespace: config.temporal.namespace });
  const app = createApp({ config, knex: db.knex, temporal, log: createLogger(config, 'api') });
  const server = createServer(app.koa.callback());
  await new Promise<void>((ready) => server.listen(port, '127.0.0.1', ready));
  const seeded = await seedWebArea({
    storage: createStorage(db.knex),
    assets: createAssetStore(config),
    region: config.regions.default,
    now: new Date(),
    images: await renderSampleImages(browser),
    clickhouse,
  });
  return {
    url: `http://127.0.0.1:${port}`,
    seeded,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await connection.close();
      await app.close();
      await clickhouse.close();
      await dropClickHouseDatabase(clickhouseAdmin, clickhouseDatabase);
      await clickhouseAdmin.close();
      await db.drop();
      rmSync(assetsDir, { recursive: true, force: true });
    },
  };
}
