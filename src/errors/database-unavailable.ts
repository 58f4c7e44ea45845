import { ConnectionException } from '@mikro-orm/core';

// SQLSTATE classes and codes that mean "the database cannot serve now", not "this request is wrong":
// 08 connection exception, 53 insufficient resources (too many connections), 57P01-57P03 shutdown
// and cannot-connect-now, 25006 read-only transaction (the server we reached is a standby: a
// primary demoted during a failover, until the balancer routes to the new one). Node's socket
// errors say the same before PostgreSQL can answer at all.
const UNAVAILABLE_SQLSTATE = /^(08...|53...|57P0[1-3]|25006)$/;
const UNAVAILABLE_SOCKET = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
// knex's "Transaction query already complete" is what a query meets in a transaction whose
// connection died under it (a failover cutting it mid-request): the transaction is gone, nothing of
// it committed after the loss, and the client's retry (with its Idempotency-Key) is the answer.
const UNAVAILABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|the database system is (starting up|shutting down)|Transaction query already complete/i;

/** Seconds a client is asked to wait (Retry-After) when the database is unavailable. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** True when `error` says the database is unreachable or refusing connections (a 503, not a 500). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (error instanceof ConnectionException) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (UNAVAILABLE_SQLSTATE.test(code) || UNAVAILABLE_SOCKET.has(code))) {
    // 08P01 is a protocol violation caused by the statement's own bytes: the request's fault.
    return code !== '08P01';
  }
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && UNAVAILABLE_MESSAGE.test(message);
}
