import type { EntityManager } from '@mikro-orm/postgresql';
import type { EventSubscriber, TransactionEventArgs } from '@mikro-orm/core';

/** The part of a knex transaction this module reads: knex links a nested one (a savepoint) to the one it runs in. */
interface KnexTransaction {
  parentTransaction?: KnexTransaction;
}

/** Callbacks waiting for the COMMIT of an outermost transaction, by its knex transaction. */
const waiting = new WeakMap<object, Array<() => void>>();

/**
 * Runs the callbacks of a transaction once MikroORM saw its COMMIT succeed, and forgets them when
 * it rolls back. MikroORM raises both events for outermost transactions only, with the transaction
 * object the transactional EntityManager holds. Registered on every ORM (ormOptions).
 */
export const afterCommitHooks: EventSubscriber = {
  afterTransactionCommit(args: TransactionEventArgs) {
    const callbacks = args.transaction ? waiting.get(args.transaction) : undefined;
    if (!callbacks) return;
    waiting.delete(args.transaction);
    for (const callback of callbacks) {
      // The change is committed whatever a callback does: its failure must not fail the change.
      try {
        callback();
      } catch (error) {
        process.emitWarning(error as Error);
      }
    }
  },
  afterTransactionRollback(args: TransactionEventArgs) {
    if (args.transaction) waiting.delete(args.transaction);
  },
};

/**
 * Runs `fn` once the work done on `em` is committed: at once when `em` is in no transaction (its
 * statements committed as they ran), after the COMMIT of the outermost transaction otherwise, and
 * never when that transaction rolls back. (Work of a savepoint rolled back inside a transaction that
 * then commits still runs `fn`: a notice given for nothing, which costs its reader one look.)
 * For in-process notices that make a reader look at rows a transaction writes: given before the
 * commit, the reader could look too early, find nothing, and go back to sleep.
 */
export function afterCommit(em: EntityManager, fn: () => void): void {
  if (!em.isInTransaction()) return fn();
  if (!em.getEventManager().getSubscribers().has(afterCommitHooks)) throw new Error('afterCommit: this ORM was made without afterCommitHooks (use ormOptions)');
  let transaction = em.getTransactionContext<KnexTransaction>()!;
  while (transaction.parentTransaction) transaction = transaction.parentTransaction;
  const callbacks = waiting.get(transaction);
  if (callbacks) callbacks.push(fn);
  else waiting.set(transaction, [fn]);
}
