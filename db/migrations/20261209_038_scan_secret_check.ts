import type { Knex } from 'knex';

/**
 * What the worker found when it looked for an authenticated scan's credentials, in every encoding the redaction
 * rule knows (core/redaction.ts), in everything it stored of the scan: `clean` or `found`. Null for scans
 * without credentials and for authenticated scans stored without the check; sharing needs `clean`
 * (services/scans.ts).
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.text('secret_check');
  });
  await knex.raw(
    `alter table scans add constraint scans_secret_check_check check (secret_check is null or secret_check in ('clean', 'found'))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.alterTable('scans', (t) => {
    t.dropColumn('secret_check');
  });
}
