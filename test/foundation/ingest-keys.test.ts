import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { freePort, isolatedClickHouse, type IsolatedClickHouse } from '../harness/isolated.ts';
import { readiness, startReady, type RunningService } from '../harness/processes.ts';
import { baseTestEnv } from '../harness/shared.ts';

/** Ingest handles no secrets: it runs in production without SECRET_KEY and never makes or reads a key file. */
const base = loadConfig(baseTestEnv());
let clickhouse: IsolatedClickHouse;
let ingest: RunningService | undefined;
const stateDir = mkdtempSync(join(tmpdir(), 'webperf-ingest-'));

beforeAll(async () => {
  clickhouse = await isolatedClickHouse(base);
});

afterAll(async () => {
  await ingest?.stop();
  await clickhouse.drop();
  rmSync(stateDir, { recursive: true, force: true });
});

it('starts and is ready in production mode without SECRET_KEY, and creates no key file', async () => {
  const { SECRET_KEY: _key, SECRET_KEY_PREVIOUS: _previous, ...env } = baseTestEnv();
  const port = await freePort();
  ingest = await startReady('ingest', {
    ...env,
    APP_ENV: 'production',
    STATE_DIR: stateDir,
    BASE_URL: 'https://perf.example.test',
    INGEST_URL: 'https://rum.example.test',
    DATABASE_URL: base.databaseUrl,
    CLICKHOUSE_URL: base.clickhouse.url,
    CLICKHOUSE_DATABASE: clickhouse.database,
    TEMPORAL_ADDRESS: base.temporal.address,
    INGEST_PORT: String(port),
    // Required in production (the monthly-limit e-mail); nothing is sent in this test.
    SMTP_URL: 'smtp://127.0.0.1:2525',
  });
  expect((await readiness(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
  expect(existsSync(join(stateDir, 'secret.key'))).toBe(false);
}, 120_000);
