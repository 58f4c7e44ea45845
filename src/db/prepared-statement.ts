// Hot statements as named prepared statements: PostgreSQL parses and plans a long statement (the
// terminal punch insert with its outbox CTEs) once per connection instead of at every upload.
import { createHash } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';

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

/** The statement in PostgreSQL's form (`$1`...) and its name, per statement text, once known to depend on the text only. */
const natives = new Map<string, { text: string; name: string }>();

/** Values knex binds as they are (no array expansion, no identifier, no raw fragment, no undefined). */
function isPlainValue(value: unknown): boolean {
  if (value === null) return true;
  const type = typeof value;
  return type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint' || value instanceof Date || Buffer.isBuffer(value);
}

/**
 * `?` placeholders to `$n`. knex's conversion of a statement text is the same for every call whose
 * values are plain (it depends on the values only through arrays, `??` identifiers and raw
 * fragments), so it runs once per text and is replayed; anything else goes through knex each time,
 * with knex's own errors (an undefined value, say).
 */
function toNative(knex: ReturnType<EntityManager['getKnex']>, sql: string, params: unknown[]): { name: string; text: string; values: unknown[] } {
  const known = natives.get(sql);
  const plain = params.every(isPlainValue);
  if (known && plain) return { name: known.name, text: known.text, values: params };
  const native = knex
    .raw(sql, params as never[])
    .toSQL()
    .toNative();
  const values = native.bindings as unknown[];
  const name = statementName(native.sql);
  if (plain && values.length === params.length && values.every((value, i) => value === params[i])) natives.set(sql, { text: native.sql, name });
  return { name, text: native.sql, values };
}

/**
 * Runs `sql` (`?` placeholders) with `params` and returns its rows. Outside a transaction it is a
 * named prepared statement on a pooled connection; inside one it joins the transaction (unnamed:
 * the transaction's connection belongs to the ORM). Parameters are bound, never inlined.
 */
export async function executePrepared<T>(ctx: { em: EntityManager }, sql: string, params: unknown[]): Promise<T[]> {
  const knex = ctx.em.getKnex();
  const transaction = ctx.em.getTransactionContext();
  if (transaction) return ((await knex.raw(sql, params as never[]).transacting(transaction)) as { rows: T[] }).rows;
  const { name, text, values } = toNative(knex, sql, params);
  const client = knex.client;
  const connection = (await client.acquireConnection()) as PgConnection;
  try {
    const result = await connection.query({ name, text, values });
    return result.rows as T[];
  } finally {
    await client.releaseConnection(connection);
  }
}

/**
 * Runs `sql` (`?` placeholders) in `em`'s transaction, or on the pool, with its parameters BOUND.
 * MikroORM's `em.execute` inlines parameters into the statement text, escaping each string
 * character by character: for a large JSON parameter (a batch of days or events) that was most of
 * the statement's cost in node (measured: 163 MB of garbage in 25 s of ingestion).
 */
export async function executeBound<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  const query = em.getKnex().raw(sql, params as never[]);
  const transaction = em.getTransactionContext();
  if (transaction) query.transacting(transaction);
  return ((await query) as { rows: T[] }).rows;
}
