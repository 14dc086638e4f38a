import { existsSync, readdirSync } from 'node:fs';
import pg from 'pg';
import { aptInstall, isPortOpen, run, StackError, waitUntil, which } from './proc.ts';

export interface PostgresTarget {
  host: string;
  port: number;
  user: string;
  database: string;
}

export function parseDatabaseUrl(databaseUrl: string): PostgresTarget {
  const url = new URL(databaseUrl);
  return {
    host: url.hostname || '127.0.0.1',
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username || 'postgres'),
    database: decodeURIComponent(url.pathname.replace(/^\//, '')),
  };
}

/** The same server, another database. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${encodeURIComponent(database)}`;
  return url.toString();
}

export async function postgresAnswers(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({
    connectionString: withDatabase(databaseUrl, 'postgres'),
    connectionTimeoutMillis: 2000,
  });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

function debianClusters(): Array<{ version: string; name: string }> {
  if (!existsSync('/etc/postgresql')) return [];
  return readdirSync('/etc/postgresql').flatMap((version) =>
    readdirSync(`/etc/postgresql/${version}`).map((name) => ({ version, name })),
  );
}

/**
 * Uses the Postgres answering at DATABASE_URL; otherwise starts the machine's Debian cluster,
 * installing Debian's postgresql first when there is none. Returns true when it started one.
 */
export async function ensurePostgres(databaseUrl: string, log: (msg: string) => void): Promise<boolean> {
  if (await postgresAnswers(databaseUrl)) return false;
  const target = parseDatabaseUrl(databaseUrl);
  if (!['127.0.0.1', 'localhost', '::1'].includes(target.host)) {
    throw new StackError(
      `Postgres at ${target.host}:${target.port} does not answer, and it is not on this machine to start`,
    );
  }
  if (debianClusters().length === 0) {
    if (!which('pg_ctlcluster')) aptInstall(['postgresql'], log);
    if (debianClusters().length === 0)
      throw new StackError('installed postgresql but found no cluster under /etc/postgresql');
  }
  const cluster = debianClusters()[0]!;
  log(`starting Postgres cluster ${cluster.version}/${cluster.name}`);
  run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'start']);
  await waitUntil(`Postgres on ${target.host}:${target.port}`, () => isPortOpen(target.host, target.port), 30000);
  await waitUntil('Postgres accepting connections', () => postgresAnswers(databaseUrl), 30000);
  return true;
}

export async function stopPostgres(databaseUrl: string): Promise<void> {
  const target = parseDatabaseUrl(databaseUrl);
  const cluster = debianClusters()[0];
  if (!cluster || !['127.0.0.1', 'localhost', '::1'].includes(target.host)) return;
  run('pg_ctlcluster', ['--skip-systemctl-redirect', cluster.version, cluster.name, 'stop']);
}

export async function ensureDatabase(databaseUrl: string, database: string, template?: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_database where datname = $1', [database]);
    if (exists.rowCount) return false;
    const quoted = pg.escapeIdentifier(database);
    await client.query(
      template ? `create database ${quoted} template ${pg.escapeIdentifier(template)}` : `create database ${quoted}`,
    );
    return true;
  } catch (error) {
    // Two processes racing to create the same database: the loser sees a duplicate, which is fine.
    if ((error as { code?: string }).code === '42P04') return false;
    throw error;
  } finally {
    await client.end();
  }
}

export async function dropDatabase(databaseUrl: string, database: string): Promise<void> {
  const client = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(`drop database if exists ${pg.escapeIdentifier(database)} with (force)`);
  } finally {
    await client.end();
  }
}
