// Transactions that PostgreSQL aborted because of a concurrent one: a deadlock (40P01: two
// transactions each waiting for a row the other holds; the server aborts one of them) or a
// serialization failure (40001). Nothing of the aborted transaction was written, so running the
// WHOLE transaction again is correct when it computes its writes from what it reads (not from
// values read before it began). docs/errors.md, "Concurrent changes".

import { isTransactionConflict } from '../../errors/transaction-conflict';

/** Attempts of a transaction that keeps meeting conflicts; the last conflict is thrown (a 503). */
export const CONFLICT_ATTEMPTS = 3;

/**
 * Runs `transaction` (which must open, and on failure roll back, its own transaction) again when it
 * was aborted for a concurrent transaction, at most CONFLICT_ATTEMPTS times in all. The waits are
 * short and jittered so two retrying transactions do not meet again in step.
 */
export async function retryOnConflict<T>(transaction: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await transaction();
    } catch (error) {
      if (!isTransactionConflict(error) || attempt >= CONFLICT_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt + Math.random() * 30));
    }
  }
}
