import type { Knex } from 'knex';

/**
 * Live-data (RUM) sites and their alert configurations. The measurements themselves live in ClickHouse
 * (db/clickhouse/schema.ts), keyed by `rum_sites.id`.
 */
export async function up(knex: Knex): Promise<void> {
  await knex.schema.createTable('rum_sites', (t) => {
    t.bigIncrements('id');
    t.bigInteger('user_id').notNullable().references('users.id').onDelete('CASCADE');
    // The snippet's data-site-id: random (core/rum/site.ts), so ids of other sites cannot be guessed.
    t.text('public_id').notNullable().unique();
    t.text('domain').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.smallint('sample_rate').notNullable().defaultTo(100);
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['user_id', 'id']);
    t.unique(['user_id', 'domain']);
  });
  await knex.raw(
    `alter table rum_sites add constraint rum_sites_sample_rate_check check (sample_rate between 1 and 100)`,
  );

  await knex.schema.createTable('rum_alerts', (t) => {
    t.bigIncrements('id');
    t.bigInteger('site_id').notNullable().references('rum_sites.id').onDelete('CASCADE');
    t.text('title').notNullable();
    t.text('mode').notNullable();
    // Manual mode: the metric and threshold; auto mode: null (core/rum/ decides from Google's ratings).
    t.text('metric');
    t.double('threshold');
    t.integer('window_minutes').notNullable();
    t.integer('min_samples').notNullable();
    t.integer('consecutive_threshold').notNullable();
    t.text('status').notNullable().defaultTo('active');
    // Checks in a row that breached (or, while triggered, recovered); reset when the other happens.
    t.integer('streak').notNullable().defaultTo(0);
    // What the last check saw, for the page and the payloads.
    t.text('last_metric');
    t.double('last_p75');
    t.integer('last_samples');
    t.timestamp('last_checked_at', { useTz: true });
    t.timestamp('triggered_at', { useTz: true });
    t.timestamp('emailed_at', { useTz: true });
    t.timestamp('resolved_at', { useTz: true });
    t.timestamp('created_at', { useTz: true }).notNullable();
    t.timestamp('updated_at', { useTz: true }).notNullable();
    t.index(['site_id', 'id']);
  });
  await knex.raw(`alter table rum_alerts add constraint rum_alerts_mode_check check (mode in ('auto', 'manual'))`);
  await knex.raw(
    `alter table rum_alerts add constraint rum_alerts_status_check check (status in ('active', 'triggered', 'resolved'))`,
  );
  await knex.raw(
    `alter table rum_alerts add constraint rum_alerts_manual_check check (mode = 'auto' or (metric is not null and threshold is not null))`,
  );
}

export async function down(knex: Knex): Promise<void> {
  await knex.schema.dropTable('rum_alerts');
  await knex.schema.dropTable('rum_sites');
}
