/** SQLSTATEs of a transaction aborted for a concurrent one: deadlock detected, serialization failure. */
const CONFLICT_SQLSTATE = new Set(['40P01', '40001']);

/**
 * True when `error` says PostgreSQL aborted the transaction for a concurrent one (a deadlock, 40P01,
 * or a serialization failure, 40001), as the driver or MikroORM reports it: nothing of it was
 * written, and the request was not at fault (docs/errors.md, "Concurrent changes").
 */
export function isTransactionConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && CONFLICT_SQLSTATE.has(code);
}
