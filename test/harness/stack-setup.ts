import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../../core/config.ts';
import { createKnex } from '../../db/knex.ts';
import { migrateLatest } from '../../db/migrate.ts';
import { withDatabase } from '../../stack/postgres.ts';
import { stackUp, stopBackingServices, testDatabaseName } from '../../stack/stack.ts';
import { buildWorkflowBundle } from '../../worker/build-bundle.ts';
import { baseTestEnv, HARNESS_DIR, HARNESS_FILE, type HarnessInfo } from './shared.ts';

/**
 * `up`: brings the real stack up once per test run (or reuses a running one), migrates the template test
 * database and builds the workflow bundle the test workers load. `down`: stops only what `up` started;
 * KEEP_STACK=1 leaves it running for the next run.
 */
const config = loadConfig(baseTestEnv());
const log = (msg: string) => process.stderr.write(`[harness] ${msg}\n`);

async function up(): Promise<void> {
  const stack = await stackUp(config, log);
  if (stack.started.length) log(`started ${stack.started.join(', ')} for this run`);
  const templateDatabase = testDatabaseName(config);
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
}

await (process.argv[2] === 'down' ? down() : up());
