import type { Logger } from 'pino';
import { isDatabaseUnavailable } from './database-unavailable';
import { DomainError } from './domain-error';
import { isTransactionConflict } from './transaction-conflict';

/**
 * The one mapping from anything thrown to what a client is told, used by REST, GraphQL over HTTP
 * and GraphQL over WebSocket (and the terminal-free Express error handler):
 * - a domain error is answered as it is (its code, message, details, Retry-After);
 * - a database outage is `service_unavailable` (503, Retry-After), and nothing was changed;
 * - anything else is `internal_error`: logged with its stack; the client gets the code, a fixed
 *   message and (from the caller) the request id, and its cause only with TIMEGATE_DEBUG_ERRORS=true
 *   (a developer reading a 500 locally wants the cause; a customer must not see internals, and a
 *   service started without NODE_ENV=production once showed them).
 */
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is unavailable for a moment; nothing was changed. Retry shortly.';
const CONFLICT_MESSAGE = 'A concurrent change conflicted with this one; nothing was changed. Retry shortly.';

export interface PublicErrorOptions {
  /** TIMEGATE_DEBUG_ERRORS: the cause of an internal error is shown. */
  debug: boolean;
  /** Where an unexpected error is logged; omitted when the caller logs it itself. */
  logger?: Pick<Logger, 'warn' | 'error'>;
}

export function toPublicError(error: unknown, options: PublicErrorOptions): DomainError {
  if (error instanceof DomainError) return error;
  if (isDatabaseUnavailable(error)) {
    options.logger?.warn({ err: error }, 'database unavailable');
    return new DomainError('service_unavailable', DATABASE_UNAVAILABLE_MESSAGE);
  }
  // Aborted for a concurrent transaction (deadlock, serialization failure): nothing was written and
  // the request was valid (docs/errors.md, "Concurrent changes").
  if (isTransactionConflict(error)) {
    options.logger?.warn({ err: error }, 'transaction aborted by a concurrent one');
    return new DomainError('service_unavailable', CONFLICT_MESSAGE);
  }
  options.logger?.error({ err: error }, 'unexpected error');
  const cause = error instanceof Error ? error.message : String(error);
  return new DomainError('internal_error', options.debug ? `Internal error: ${cause}` : 'Internal error.');
}
