import type { Knex } from 'knex';

/**
 * A finished scan's whole Lighthouse result per form factor (the median run's, scrubbed of credentials),
 * gzip-compressed JSON. Kept apart from `scans` so the scan rows stay small and the retention sweep deletes
 * these alone (by `created_at` and the owner's plan); deleting a scan deletes them with it.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('scan_lighthouse_reports', (t) => {
    t.bigInteger('scan_id').notNullable().references('id').inTable('scans').onDelete('CASCADE');
    t.text('form_factor').notNullable();
    t.binary('content').notNullable();
    t.integer('json_bytes').notNullable();
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.primary(['scan_id', 'form_factor']);
    t.index(['created_at']);
  });
  await knex.raw(
    `alter table scan_lighthouse_reports add constraint scan_lighthouse_reports_form_factor_check check (form_factor in ('desktop', 'mobile'))`,
  );
  // Compressed already: Postgres's own TOAST compression would only cost time.
  await knex.raw(`alter table scan_lighthouse_reports alter column content set storage external`);
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('scan_lighthouse_reports');
}
