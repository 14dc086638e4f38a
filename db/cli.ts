import { loadConfig } from '../infra/config.ts';
import { assertNodeVersion } from '../infra/runtime.ts';
import { prepareSchemas } from './prepare.ts';
import { createKnex } from './knex.ts';
import { migrateLatest, migrateRollbackAll, migrateRollbackLast, migrationStatus } from './migrate.ts';

/** Schema operations for deployments (docker-compose's migrate service) and operators. */
assertNodeVersion();
const config = loadConfig(process.env, { keys: false });
const command = process.argv[2];

async function main(): Promise<number> {
  if (command === 'all') {
    await prepareSchemas(config, console.log);
    return 0;
  }
  const knex = createKnex(config.databaseUrl, { min: 0, max: 1 });
  try {
    switch (command) {
      case 'latest': {
        const applied = await migrateLatest(knex);
        console.log(applied.length ? `applied: ${applied.join(', ')}` : 'up to date');
        return 0;
      }
      case 'rollback': {
        // The last batch only; `rollback --all` reverts every migration (and drops every table).
        const reverted = process.argv.includes('--all')
          ? await migrateRollbackAll(knex)
          : await migrateRollbackLast(knex);
        console.log(reverted.length ? `rolled back: ${reverted.join(', ')}` : 'nothing to roll back');
        return 0;
      }
      case 'status': {
        const { applied, pending } = await migrationStatus(knex);
        console.log(`applied: ${applied.join(', ') || '(none)'}\npending: ${pending.join(', ') || '(none)'}`);
        return 0;
      }
      default:
        console.error(
          'usage: npm run migrate -- all|latest|rollback [--all]|status  (all = Postgres migrations + ClickHouse schema)',
        );
        return 2;
    }
  } finally {
    await knex.destroy();
  }
}

main()
  .then((code) => process.exit(code))
  .catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
