import { existsSync } from 'node:fs';
import type { Config } from '../infra/config.ts';
import { clickhouseAnswers, clickhouseInstance, clickhousePid, startClickHouse, stopClickHouse } from './clickhouse.ts';
import { ensureDatabase, ensurePostgres, parseDatabaseUrl, postgresAnswers, stopPostgres } from './postgres.ts';
import { aptInstall } from './proc.ts';
import { ensureScanUser } from './scan-user.ts';
import {
  ensureSearchAttributes,
  ensureTemporalCli,
  startTemporal,
  stopTemporal,
  temporalAnswers,
  temporalInstance,
  temporalPid,
} from './temporal.ts';

export type Log = (msg: string) => void;

export type BackingService = 'postgres' | 'clickhouse' | 'temporal';

export interface RunningStack {
  /** Backing services this call started (the others were already running and are left alone). */
  started: BackingService[];
  stop(): Promise<void>;
}

export const testDatabaseName = (config: Config): string => `${parseDatabaseUrl(config.databaseUrl).database}_test`;

/** Finds or installs and starts every backing service, then waits until each answers. Idempotent. */
export async function stackUp(config: Config, log: Log): Promise<RunningStack> {
  const started: BackingService[] = [];
  const stop = async () => {
    await stopBackingServices(config, started.splice(0), log);
  };
  try {
    if (await ensurePostgres(config.databaseUrl, log)) started.push('postgres');
    const appDb = parseDatabaseUrl(config.databaseUrl).database;
    for (const db of [appDb, testDatabaseName(config)]) {
      if (await ensureDatabase(config.databaseUrl, db)) log(`created Postgres database ${db}`);
    }

    if (!(await clickhouseAnswers(config.clickhouse.url))) {
      await startClickHouse(clickhouseInstance(config), log);
      started.push('clickhouse');
    }

    if (!(await temporalAnswers(config.temporal.address, config.temporal.namespace))) {
      await startTemporal(ensureTemporalCli(config, log), temporalInstance(config), log);
      started.push('temporal');
    }
    const added = await ensureSearchAttributes(config.temporal.address, config.temporal.namespace);
    if (added.length) log(`registered Temporal search attributes ${added.join(', ')}`);

    if (!existsSync(config.chromiumPath)) {
      if (config.chromiumPath !== '/usr/bin/chromium')
        throw new Error(`CHROMIUM_PATH ${config.chromiumPath} does not exist`);
      aptInstall(['chromium'], log);
    }
    ensureScanUser(config.scanUser, log);
  } catch (error) {
    await stop();
    throw error;
  }
  return { started: [...started], stop };
}

/** Stops the named services (those a stackUp started), last started first. */
export async function stopBackingServices(config: Config, services: BackingService[], log: Log): Promise<void> {
  const stoppers: Record<BackingService, () => Promise<unknown>> = {
    temporal: () => stopTemporal(temporalInstance(config)),
    clickhouse: () => stopClickHouse(clickhouseInstance(config)),
    postgres: () => stopPostgres(config.databaseUrl),
  };
  for (const name of [...services].reverse()) {
    log(`stopping ${name}`);
    await stoppers[name]().catch((error: unknown) => log(`could not stop ${name}: ${(error as Error).message}`));
  }
}

/** Stops the ClickHouse and Temporal servers that this checkout's state folder started (by pid file). */
export async function stackDown(config: Config, log: Log): Promise<void> {
  if (await stopTemporal(temporalInstance(config))) log('stopped Temporal');
  if (await stopClickHouse(clickhouseInstance(config))) log('stopped ClickHouse');
}

export async function stackStatus(config: Config): Promise<Array<{ service: string; up: boolean; detail: string }>> {
  const ch = clickhouseInstance(config);
  const tp = temporalInstance(config);
  const chPid = clickhousePid(ch);
  const tpPid = temporalPid(tp);
  return [
    { service: 'postgres', up: await postgresAnswers(config.databaseUrl), detail: new URL(config.databaseUrl).host },
    {
      service: 'clickhouse',
      up: await clickhouseAnswers(config.clickhouse.url),
      detail: `${config.clickhouse.url}${chPid ? ` (pid ${chPid}, ours)` : ''}`,
    },
    {
      service: 'temporal',
      up: await temporalAnswers(config.temporal.address, config.temporal.namespace),
      detail: `${config.temporal.address}${tpPid ? ` (pid ${tpPid}, ours)` : ''}, ui ${config.temporal.uiUrl}`,
    },
    { service: 'chromium', up: existsSync(config.chromiumPath), detail: config.chromiumPath },
  ];
}
