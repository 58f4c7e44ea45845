import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { App } from '../../src/app';
import { waitUntil } from './wait-until';
import { query } from './service-process';
import { DELIVERABLE_BELOW } from '../../src/events/event-feed';
import { expandEventRow, type EventRow } from '../../src/events/event-batch';
import type { StoredEvent } from '../../src/events/event-types';

export interface Subscription<T = any> {
  /** Every payload received so far (the subscription field's value). */
  received: T[];
  errors: unknown[];
  /** Resolves when at least `count` payloads arrived. */
  waitFor(count: number, ms?: number): Promise<T[]>;
  close(): Promise<void>;
}

/** A real graphql-ws client over `ws` (Node 20 has no global WebSocket). */
export function wsClient(baseUrl: string, connectionParams: Record<string, unknown>, onClosed?: (event: { code: number; reason: string }) => void): Client {
  return createClient({
    url: `${baseUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams,
    retryAttempts: 0,
    lazy: true,
    on: { closed: (event) => onClosed?.(event as { code: number; reason: string }) },
  });
}

/**
 * Subscribes and resolves once the server has registered the subscriber (the feed counts it), so
 * that events caused afterwards are certainly live for it: no sleep, no race.
 */
export async function subscribe<T = any>(
  app: App,
  workspaceId: number,
  key: string,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<Subscription<T>> {
  const client = wsClient(app.url, { authorization: `Bearer ${key}` });
  const before = app.events.subscriberCount(workspaceId);
  const received: T[] = [];
  const errors: unknown[] = [];
  const field = /\{\s*(\w+)/.exec(query.replace(/^\s*subscription[^{]*/, ''))![1]!;
  const dispose = client.subscribe<Record<string, T>>(
    { query, variables },
    {
      next: (value) => (value.errors ? errors.push(value.errors) : received.push(value.data![field]!)),
      error: (e) => errors.push(e),
      complete: () => undefined,
    },
  );
  await waitUntil('the subscription is open', async () => app.events.subscriberCount(workspaceId) > before || errors.length > 0);
  return {
    received,
    errors,
    waitFor: (count, ms = 10_000) =>
      waitUntil(
        `${count} subscription event(s)`,
        async () => {
          if (errors.length > 0) throw new Error(`subscription errors: ${JSON.stringify(errors)}`);
          return received.length >= count ? received : null;
        },
        ms,
      ),
    close: async () => {
      dispose();
      await client.dispose();
    },
  };
}

export interface ReceivedWebhook {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: any;
}

/** A real local HTTP receiver; `respond` chooses each answer's status (default 200); `hold` keeps requests unanswered. */
export async function startReceiver(respond: (n: number) => number | 'hold' | { status: number; headers: Record<string, string> } = () => 200) {
  const received: ReceivedWebhook[] = [];
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const answer = respond(received.length);
      received.push({ headers: req.headers, body, json: JSON.parse(body) });
      if (answer === 'hold') held.push(res);
      else {
        const { status, headers } = typeof answer === 'number' ? { status: answer, headers: {} } : answer;
        res.writeHead(status, { 'content-type': 'text/plain', ...headers }).end(status >= 300 ? `failure ${status} ${'x'.repeat(2000)}` : 'ok');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The outbox's events as readers see them: rows read with `execute` (workspace, then optionally
 * one type) and their batches expanded (src/events/event-batch.ts), in id order.
 */
export async function readOutbox(execute: (sql: string, params: unknown[]) => Promise<EventRow[]>, workspaceId: number, type?: string): Promise<StoredEvent[]> {
  const rows = await execute(
    `select id, workspace_id, type, data, created_at, span from event where workspace_id = ? ${type ? 'and type = ?' : ''} order by id`,
    type ? [workspaceId, type] : [workspaceId],
  );
  return rows.flatMap(expandEventRow);
}

/**
 * Waits until every stored event is below the line the outbox's readers stop at (event-feed.ts):
 * that line is the oldest transaction running anywhere in the PostgreSQL cluster, so a test file
 * running beside this one can hold it back for a moment, and a batch run just then would rightly
 * find nothing to do. Tests that assert what one run of a reader did call this first.
 */
export async function untilEventsDeliverable(databaseUrl: string): Promise<void> {
  await waitUntil(
    'every stored event is deliverable',
    async () => (await query(databaseUrl, `select coalesce(max(id) < ${DELIVERABLE_BELOW}, true) as ok from event`))[0]!.ok,
  );
}
