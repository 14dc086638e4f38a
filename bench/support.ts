/**
 * What the benchmarks need of the stack, without the test harness: a fresh migrated database of their own,
 * users with tokens, and the real api/worker processes started as `./svc start` starts them. The backing
 * services (Postgres, ClickHouse, Temporal) must be up: `./svc stack up`.
 */
import { randomBytes } from 'node:crypto';
import { freePort } from '../stack/ports.ts';
import { Client, Connection } from '@temporalio/client';
import { loadConfig, type Config } from '../infra/config.ts';
import type { PlanKey } from '../core/plans.ts';
import { scanDispatcherWorkflowId, scanReconcilerScheduleId } from '../core/temporal.ts';
import { deleteTargetSchedulesOf } from '../infra/temporal-client.ts';
import { createKnex, type Knex } from '../db/knex.ts';
import { createStorage } from '../db/store/index.ts';
import { migrateLatest } from '../db/migrate.ts';
import { createUser } from '../services/accounts.ts';
import { mintToken } from '../services/tokens.ts';
import { dropDatabase, ensureDatabase, withDatabase } from '../stack/postgres.ts';
import { serviceDefinitions, spawnService, stopService, waitReady, type ServiceProcess } from '../stack/services.ts';

export interface BenchDatabase {
  databaseUrl: string;
  knex: Knex;
  drop(): Promise<void>;
}

/** A migrated database named after the benchmark, dropped first if a run before left it behind. */
export async function benchDatabase(name: string): Promise<BenchDatabase> {
  const base = loadConfig({ ...process.env, LOG_LEVEL: 'silent' });
  const database = `${new URL(base.databaseUrl).pathname.slice(1)}_bench_${name}`;
  await dropDatabase(base.databaseUrl, database).catch(() => undefined);
  await ensureDatabase(base.databaseUrl, database);
  const databaseUrl = withDatabase(base.databaseUrl, database);
  const knex = createKnex(databaseUrl);
  await migrateLatest(knex);
  return {
    databaseUrl,
    knex,
    drop: async () => {
      await knex.destroy();
      await dropDatabase(base.databaseUrl, database);
    },
  };
}

export async function benchUser(knex: Knex, plan: PlanKey): Promise<{ userId: number; token: string }> {
  const { users, tokens } = createStorage(knex);
  const user = await createUser(users, {
    name: 'Bench',
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: null,
    plan,
  });
  return { userId: user.id, token: (await mintToken(tokens, user.id, 'bench', null)).token };
}

export interface BenchServices {
  apiUrl: string;
  config: Config;
  close(): Promise<void>;
}

/**
 * The api and worker processes on free ports, on the benchmark's database, with task queues of their own;
 * loopback allowed to scans and webhooks (the fixture sites and the webhook receivers are on 127.0.0.1).
 */
export async function startBenchServices(
  databaseUrl: string,
  assetsDir: string,
  extraEnv: Record<string, string> = {},
): Promise<BenchServices> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...extraEnv,
    DATABASE_URL: databaseUrl,
    API_PORT: String(await freePort()),
    WORKER_HEALTH_PORT: String(await freePort()),
    TEMPORAL_TASK_QUEUE_PREFIX: `bench_${randomBytes(3).toString('hex')}`,
    ASSETS_DIR: assetsDir,
    OUTBOUND_ALLOW_LOOPBACK: 'true',
    CALLBACKS_ALLOW_LOOPBACK: 'true',
    LOG_LEVEL: 'warn',
  };
  const config = loadConfig(env);
  env.BASE_URL = `http://127.0.0.1:${config.api.port}`;
  const processes: ServiceProcess[] = [];
  const stopAll = async () => {
    for (const service of processes.reverse()) await stopService(service);
  };
  try {
    for (const def of serviceDefinitions(config).filter((d) => d.name !== 'ingest')) {
      const service = spawnService(def.name, def.entry, def.readyUrl, env);
      processes.push(service);
      await waitReady(service);
    }
  } catch (error) {
    await stopAll();
    throw error;
  }
  return {
    apiUrl: `http://127.0.0.1:${config.api.port}`,
    config,
    close: async () => {
      await stopAll();
      // The worker's reconciler schedule and the region dispatchers belong to this run's task queues.
      const connection = await Connection.connect({ address: config.temporal.address });
      const temporal = new Client({ connection, namespace: config.temporal.namespace });
      const prefix = config.temporal.taskQueuePrefix;
      await temporal.schedule
        .getHandle(scanReconcilerScheduleId(prefix))
        .delete()
        .catch(() => undefined);
      await deleteTargetSchedulesOf(temporal, prefix);
      for (const region of config.regions.available) {
        await temporal.workflow
          .getHandle(scanDispatcherWorkflowId(prefix, region))
          .terminate('benchmark finished')
          .catch(() => undefined);
      }
      await connection.close();
    },
  };
}
