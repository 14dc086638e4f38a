import type { Knex } from 'knex';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: Array<Record<string, unknown>> }>;
}

/**
 * A named (server-side prepared) statement on a connection of the knex pool: Postgres parses and plans it
 * once per connection instead of on every call. For the few statements every API call runs (token check,
 * daily counter), where planning cost as much as executing. `text` uses $1, $2, ... placeholders; each
 * `name` must always go with the same text.
 */
export async function preparedQuery<Row>(knex: Knex, name: string, text: string, values: unknown[]): Promise<Row[]> {
  const connection = (await knex.client.acquireConnection()) as PgConnection;
  try {
    return (await connection.query({ name, text, values })).rows as Row[];
  } finally {
    await knex.client.releaseConnection(connection);
  }
}
