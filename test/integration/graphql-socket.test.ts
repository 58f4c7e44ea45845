import { expect } from 'chai';
import WebSocket from 'ws';
import { createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData } from '../support/http';
import { wsClient } from '../support/events';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

/** The result of one operation over graphql-ws: its data, or the errors graphql-ws reported. */
function overSocket(url: string, key: string, query: string, variables: Record<string, unknown> = {}): Promise<{ data?: any; errors?: any[] }> {
  const client = wsClient(url, { authorization: `Bearer ${key}` });
  return new Promise((resolve) => {
    client.subscribe(
      { query, variables },
      {
        next: (value) => {
          resolve(value as { data?: any; errors?: any[] });
          void client.dispose();
        },
        error: (errors) => {
          resolve({ errors: Array.isArray(errors) ? errors : [errors] });
          void client.dispose();
        },
        complete: () => undefined,
      },
    );
  });
}

/** A raw socket speaking the graphql-transport-ws subprotocol, and the close code it ends with. */
function rawSocket(url: string) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  socket.on('error', () => undefined);
  const opened = new Promise<void>((resolve) => socket.on('open', () => resolve()));
  return { socket, closed, opened };
}

const DEEP = '{ companies { nodes { devices { nodes { company { devices { nodes { company { devices { nodes { company { id } } } } } } } } } } } }';

// Regression: operations over the WebSocket ran without the limits, rate limit, body limit,
// introspection switch and error masking of POST /graphql.
describe('GraphQL over WebSocket: the same rules as over HTTP', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  before(async () => {
    t = await startTestApp(
      {
        TIMEGATE_GRAPHQL_MAX_DEPTH: '5',
        TIMEGATE_GRAPHQL_INTROSPECTION: 'false',
        TIMEGATE_REST_BODY_LIMIT: '65536',
        TIMEGATE_WS_MAX_UNAUTHENTICATED: '3',
        TIMEGATE_WS_INIT_TIMEOUT_MS: '400',
        TIMEGATE_KEY_CACHE_MS: '1000',
        TIMEGATE_RATE_LIMIT_BURST: '30',
        TIMEGATE_RATE_LIMIT_PER_MINUTE: '1',
      },
      'graphql-socket',
    );
    ws = await createWorkspace(t.url);
  });
  after(() => t.stop());

  it('refuses an operation deeper than the limit on both transports, with the same code', async () => {
    const key = await createKey(t.url, ws.key, ['read']);
    const http = await gql(t.url, key, DEEP);
    expect(http.errors![0]!.extensions!.code).to.equal('query_too_complex');
    const socket = await overSocket(t.url, key, DEEP);
    expect(socket.data).to.equal(undefined);
    expect(socket.errors![0].extensions.code).to.equal('query_too_complex');
  });

  it('refuses introspection over the socket when it is switched off', async () => {
    const key = await createKey(t.url, ws.key, ['read']);
    const socket = await overSocket(t.url, key, '{ __schema { types { name } } }');
    expect(socket.data).to.equal(undefined);
    expect(socket.errors![0].message).to.match(/introspection/i);
    expect(socket.errors![0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
  });

  it('answers an out-of-range cursor with invalid_cursor, never a database error', async () => {
    const key = await createKey(t.url, ws.key, ['read']);
    const socket = await overSocket(t.url, key, 'subscription { punchCreated(after: "9999999999999999999") { cursor } }');
    expect(socket.errors![0].extensions.code).to.equal('validation_failed');
    expect(socket.errors![0].extensions.details).to.deep.equal([
      { field: 'after', code: 'invalid_cursor', message: 'after must be the `cursor` of an event (a decimal number).' },
    ]);
    expect(JSON.stringify(socket.errors)).to.not.match(/select|bigint|sql/i);
  });

  it("takes operations from the key's rate limit, like HTTP requests", async () => {
    const key = await createKey(t.url, ws.key, ['read']);
    const codes: string[] = [];
    for (let i = 0; i < 32; i++) {
      const result = await overSocket(t.url, key, '{ __typename }');
      codes.push(result.errors ? result.errors[0].extensions.code : 'ok');
    }
    expect(codes.filter((c) => c === 'ok')).to.have.length(30);
    expect(codes.slice(30)).to.deep.equal(['rate_limited', 'rate_limited']);
  });

  it('closes a socket whose frame exceeds the body limit (1009), even before connection_init', async () => {
    const { socket, closed, opened } = rawSocket(t.url);
    await opened;
    socket.send('x'.repeat(70_000));
    expect(await closed).to.equal(1009);
  });

  it('closes a socket that sends no connection_init in time (4408), and caps sockets waiting for it (1013)', async () => {
    const waiting = [rawSocket(t.url), rawSocket(t.url), rawSocket(t.url)];
    await Promise.all(waiting.map((s) => s.opened));
    const extra = rawSocket(t.url);
    expect(await extra.closed).to.equal(1013);
    expect(await Promise.all(waiting.map((s) => s.closed))).to.deep.equal([4408, 4408, 4408]);
  });

  it('closes the subscriptions of a revoked key with 4403 within the key cache time', async () => {
    const created = await gqlData(t.url, ws.key, 'mutation { createApiKey(input: { scopes: ["read"] }) { key id } }');
    const key = created.createApiKey.key;
    let closeCode: number | null = null;
    const client = wsClient(t.url, { authorization: `Bearer ${key}` }, (event) => (closeCode = event.code));
    client.subscribe({ query: 'subscription { punchCreated { cursor } }' }, { next: () => undefined, error: () => undefined, complete: () => undefined });
    await waitUntil(
      'the subscription is open',
      async () => t.app.events.subscriberCount(ws.id),
      (v) => v > 0,
    );
    await gqlData(t.url, ws.key, 'mutation ($id: Int!) { revokeApiKey(id: $id) { id } }', { id: created.createApiKey.id });
    await waitUntil(
      'the subscription is closed',
      async () => closeCode,
      (v) => v !== null,
      10_000,
    );
    expect(closeCode).to.equal(4403);
    await client.dispose();
  });
});
