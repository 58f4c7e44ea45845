// Hot statements as named prepared statements: PostgreSQL parses and plans a long statement (the
// terminal punch insert with its outbox CTEs) once per connection instead of at every upload.
import { createHash } from 'node:crypto';
import type { RequestContext } from './context';

interface PgConnection {
  query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }>;
}

const names = new Map<string, string>();

/** A name per statement text (node-pg refuses one name for two texts on a connection). */
function statementName(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `tg_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * Runs `sql` (`?` placeholders) with `params` and returns its rows. Outside a transaction it is a
 * named prepared statement on a pooled connection; inside one it joins the transaction (unnamed:
 * the transaction's connection belongs to the ORM). Parameters are bound, never inlined.
 */
export async function executePrepared<T>(ctx: RequestContext, sql: string, params: unknown[]): Promise<T[]> {
  const knex = ctx.em.getKnex();
  const query = knex.raw(sql, params as never[]);
  const transaction = ctx.em.getTransactionContext();
  if (transaction) return ((await query.transacting(transaction)) as { rows: T[] }).rows;
  const native = query.toSQL().toNative();
  const client = knex.client;
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    const result = await connection.query({ name: statementName(native.sql), text: native.sql, values: native.bindings as unknown[] });
    return result.rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}
