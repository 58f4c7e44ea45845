import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { print } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { GraphQLRequestError, type GraphQLErrorEntry } from './graphql';

/** Close codes after which subscribing again cannot help: bad request, unknown or revoked key, key without `read`. */
const FATAL_CLOSE_CODES = new Set([4400, 4401, 4403, 4406]);

export interface ResumableSubscriptionOptions<TResult, TVariables> {
  /** The service's address (`https://…` or `http://…`); the socket goes to `<baseUrl>/graphql` (wss/ws). */
  baseUrl: string;
  apiKey: string;
  /** A subscription document with an `after` variable whose root field selects `cursor` (src/generated/graphql.ts). */
  document: TypedDocumentNode<TResult, TVariables>;
  /** The document's other variables (filters). */
  variables?: Omit<TVariables, 'after'>;
  /** The cursor to resume after (a `cursor` you stored); default: only events from now on. */
  after?: string;
  /** Called once per event, in order; the next event waits for a returned promise. */
  onEvent(data: TResult, cursor: string): void | Promise<void>;
  /** Called when the connection dropped and the helper is about to resubscribe (after `retryDelayMs`). */
  onReconnect?(error: unknown, attempt: number): void;
  /** The wait before resubscribing, by attempt (1, 2, ...); default: 0.5 s doubling up to 30 s. */
  retryDelayMs?(attempt: number): number;
  /** A WebSocket class where there is no global one (Node.js 20: `import WebSocket from 'ws'`). */
  webSocketImpl?: unknown;
}

export interface ResumableSubscription {
  /** The cursor of the last event received: store it to resume after a restart. */
  readonly cursor: string | undefined;
  /** Ends the subscription (no further events); `done` then resolves. */
  stop(): void;
  /** Resolves when stopped; rejects on an error that resubscribing cannot fix (bad key, invalid document). */
  readonly done: Promise<void>;
}

function isRetryable(error: unknown): boolean {
  if (Array.isArray(error)) return (error as GraphQLErrorEntry[]).every((e) => e.extensions?.code === 'subscriber_too_slow');
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'number') return !FATAL_CLOSE_CODES.has(code);
  return true; // network errors: the socket could not open or dropped
}

/**
 * Subscribes over graphql-ws and keeps the subscription alive: when the connection drops (a deploy,
 * a network change, the server ending a subscriber that fell behind) it subscribes again with
 * `after: <last cursor>`, and the service replays what was missed from its outbox (kept 7 days)
 * before continuing live, without gaps or repeats (docs/events.md).
 */
export function subscribeWithResume<TResult, TVariables extends { after?: string | null }>(
  options: ResumableSubscriptionOptions<TResult, TVariables>,
): ResumableSubscription {
  const url = `${options.baseUrl.replace(/\/+$/, '').replace(/^http/, 'ws')}/graphql`;
  const query = print(options.document);
  const delay = options.retryDelayMs ?? ((attempt: number) => Math.min(30_000, 500 * 2 ** (attempt - 1)));
  let cursor = options.after;
  let stopped = false;
  let client: Client | undefined;
  let wake: (() => void) | undefined;
  let settle: (() => void) | undefined;

  const once = () =>
    new Promise<void>((resolve, reject) => {
      settle = resolve;
      client = createClient({
        url,
        connectionParams: { authorization: `Bearer ${options.apiKey}` },
        retryAttempts: 0,
        lazy: true,
        ...(options.webSocketImpl ? { webSocketImpl: options.webSocketImpl } : {}),
      });
      let chain = Promise.resolve();
      client.subscribe<TResult>(
        { query, variables: { ...(options.variables ?? {}), after: cursor ?? null } },
        {
          next: (result) => {
            if (result.errors?.length) return reject(result.errors);
            const data = result.data as TResult;
            const root = Object.values(data as Record<string, { cursor?: string }>)[0];
            if (typeof root?.cursor !== 'string') return reject(new Error('the subscription must select `cursor` on its root field'));
            cursor = root.cursor;
            const eventCursor = root.cursor;
            chain = chain.then(() => options.onEvent(data, eventCursor)).catch(reject);
          },
          error: reject,
          complete: () => void chain.then(resolve),
        },
      );
    });

  const done = (async () => {
    let attempt = 0;
    while (!stopped) {
      try {
        await once();
        if (stopped) break;
        attempt = 0;
        throw new Error('the server completed the subscription');
      } catch (error) {
        if (stopped) break;
        if (!isRetryable(error)) throw Array.isArray(error) ? new GraphQLRequestError(200, error as GraphQLErrorEntry[]) : error;
        attempt += 1;
        options.onReconnect?.(error, attempt);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay(attempt));
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      } finally {
        void client?.dispose();
      }
    }
  })();

  return {
    get cursor() {
      return cursor;
    },
    stop() {
      stopped = true;
      void client?.dispose();
      settle?.();
      wake?.();
    },
    done,
  };
}
