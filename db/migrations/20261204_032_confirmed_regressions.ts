import type { Knex } from 'knex';

/**
 * Confirmed regressions (core/monitoring/regression-rules.ts): the `metric_regression` alert type, and the
 * `confirmation` trigger of the scan a regression candidate starts at once to confirm it. Each check keeps the
 * values it already allows (other migrations add alert types to the same check) and adds or removes one.
 */
async function allowed(knex: Knex, table: string, constraint: string): Promise<string[]> {
  const result = (await knex.raw(
    `select pg_get_constraintdef(c.oid) as def from pg_constraint c join pg_class t on t.oid = c.conrelid
     where t.relname = ? and c.conname = ?`,
    [table, constraint],
  )) as { rows: Array<{ def: string }> };
  const def = result.rows[0]?.def ?? '';
  return [...def.matchAll(/'([a-z_]+)'/g)].map((m) => m[1]!);
}

async function setAllowed(knex: Knex, table: string, column: string, values: string[]): Promise<void> {
  const constraint = `${table}_${column}_check`;
  await knex.raw(`alter table ${table} drop constraint if exists ${constraint}`);
  // DDL takes no bind parameters; the values are [a-z_] words (read back by the pattern above, or ours).
  const list = values.map((v) => `'${v}'`).join(', ');
  await knex.raw(`alter table ${table} add constraint ${constraint} check (${column} in (${list}))`);
}

export async function change(knex: Knex, table: string, column: string, value: string, add: boolean): Promise<void> {
  const values = (await allowed(knex, table, `${table}_${column}_check`)).filter((v) => v !== value);
  await setAllowed(knex, table, column, add ? [...values, value] : values);
}

export async function up(knex: Knex): Promise<void> {
  await change(knex, 'alerts', 'type', 'metric_regression', true);
  await change(knex, 'scans', 'trigger', 'confirmation', true);
}

export async function down(knex: Knex): Promise<void> {
  await knex('alerts').where({ type: 'metric_regression' }).delete();
  await knex('scans').where({ trigger: 'confirmation' }).update({ trigger: 'run_now' });
  await change(knex, 'alerts', 'type', 'metric_regression', false);
  await change(knex, 'scans', 'trigger', 'confirmation', false);
}
