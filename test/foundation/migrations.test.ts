import { readdirSync } from 'node:fs';
import { migrateLatest, migrateRollbackAll, migrationStatus } from '../../db/migrate.ts';
import { MIGRATIONS } from '../../db/migrations/index.ts';
import { isolatedPostgres, type IsolatedPostgres } from '../harness/isolated.ts';

let db: IsolatedPostgres;
beforeAll(async () => {
  db = await isolatedPostgres({ migrated: false });
});
afterAll(async () => {
  await db.drop();
});

async function tables(): Promise<string[]> {
  const result = await db.knex.raw<{ rows: Array<{ tablename: string }> }>(
    "select tablename from pg_tables where schemaname = 'public' and tablename not like 'knex_%' order by tablename",
  );
  return result.rows.map((r) => r.tablename);
}

describe('Postgres migrations', () => {
  it('are all registered, in file-name order (the list is static so bundles carry it)', () => {
    const files = readdirSync(new URL('../../db/migrations/', import.meta.url))
      .filter((f) => /^\d{8}_\d{3}_.+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, ''))
      .sort();
    expect(MIGRATIONS.map(([name]) => name)).toEqual(files);
  });

  it('go up from an empty database, down to nothing, and up again', async () => {
    expect(await tables()).toEqual([]);
    const applied = await migrateLatest(db.knex);
    expect(applied).toEqual(MIGRATIONS.map(([name]) => name));
    expect(await tables()).toEqual(
      expect.arrayContaining(['users', 'api_tokens', 'api_usage_daily', 'web_sessions', 'scans']),
    );
    expect(await migrationStatus(db.knex)).toEqual({ applied: MIGRATIONS.map(([name]) => name), pending: [] });

    expect(await migrateLatest(db.knex)).toEqual([]);

    const reverted = await migrateRollbackAll(db.knex);
    expect(reverted).toEqual(MIGRATIONS.map(([name]) => name).reverse());
    expect(await tables()).toEqual([]);

    expect(await migrateLatest(db.knex)).toHaveLength(MIGRATIONS.length);
  });

  it("index oauth_artifacts by account (a user's grants and tokens; deleting a user cascades through it)", async () => {
    await migrateLatest(db.knex);
    const { rows } = await db.knex.raw<{ rows: Array<{ indexdef: string }> }>(
      "select indexdef from pg_indexes where tablename = 'oauth_artifacts'",
    );
    expect(rows.map((r) => r.indexdef)).toContainEqual(expect.stringMatching(/\(account_id\)/));
  });

  it('enforce the plan list and unique e-mail addresses case-insensitively', async () => {
    await migrateLatest(db.knex);
    await db.knex('users').insert({ name: 'A', email: 'a@example.com', plan: 'pro' });
    await expect(db.knex('users').insert({ name: 'B', email: 'A@Example.com', plan: 'pro' })).rejects.toThrow(
      /users_email_unique/,
    );
    await expect(db.knex('users').insert({ name: 'C', email: 'c@example.com', plan: 'platinum' })).rejects.toThrow(
      /users_plan_check/,
    );
  });
});
