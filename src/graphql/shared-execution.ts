// Subscription execution shared between subscribers. graphql's own `subscribe` executes the whole
// operation once per subscriber per event: with 100 subscribers asking the same thing that is 100
// identical executions of one event. Here the source stream still comes from each subscriber's own
// `subscribe` resolver (its workspace, its filters, its replay, its order), but the result for a
// given event is computed once per operation key and handed to every subscriber with that key.
//
// The key is everything the result can depend on: the operation text and name, the variables, and
// the principal's workspace and scopes (the @Authorized check runs during execution). The event
// object is the other half: the feed hands the same StoredEvent object to every live subscriber of
// its workspace, so a WeakMap on it keeps each shared result exactly as long as the event lives.
import { createSourceEventStream, execute, print, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { RequestContext } from '../context/request-context';

type Result = ExecutionResult | Promise<ExecutionResult>;

const shared = new WeakMap<object, Map<string, Result>>();

/** What an execution of `args` can depend on, besides the event (root value). */
export function operationKey(args: ExecutionArgs): string {
  const principal = (args.contextValue as RequestContext | undefined)?.principal;
  const who = principal?.kind === 'workspace' ? `${principal.workspaceId}:${[...principal.scopes].sort().join(',')}` : JSON.stringify(principal ?? null);
  const text = args.document.loc?.source.body ?? print(args.document);
  return JSON.stringify([who, args.operationName ?? null, args.variableValues ?? null, text]);
}

/** `execute` for this event and key, once: later callers with the same event and key get the same result. */
export function executeShared(event: object, key: string, run: () => Result): Result {
  let byKey = shared.get(event);
  if (!byKey) {
    byKey = new Map();
    shared.set(event, byKey);
  }
  let result = byKey.get(key);
  if (result === undefined) {
    result = run();
    byKey.set(key, result);
  }
  return result;
}

/** Drop-in for graphql's `subscribe` (graphql-ws `subscribe` option) that shares executions. */
export async function subscribeShared(args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!(Symbol.asyncIterator in source)) return source;
  const key = operationKey(args);
  const events = source as AsyncIterableIterator<unknown>;
  const map = async (step: IteratorResult<unknown>): Promise<IteratorResult<ExecutionResult>> => {
    if (step.done) return step;
    const event = step.value as object;
    return { value: await executeShared(event, key, () => execute({ ...args, rootValue: event })), done: false };
  };
  const results: AsyncIterableIterator<ExecutionResult> = {
    next: () => events.next().then(map),
    return: () => (events.return ? events.return().then(map) : Promise.resolve({ value: undefined, done: true })),
    throw: (error?: unknown) => (events.throw ? events.throw(error).then(map) : Promise.reject(error)),
    [Symbol.asyncIterator]: () => results,
  };
  return results;
}
