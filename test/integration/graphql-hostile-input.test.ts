import { expect } from 'chai';
import { createKey, createWorkspace } from '../support/factories';
import { wsClient } from '../support/events';
import { startTestApp, type TestApp } from '../support/test-app';

async function overHttp(url: string, key: string, query: string) {
  const response = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query }),
  });
  return { status: response.status, body: (await response.json()) as { data?: unknown; errors?: any[] } };
}

function overSocket(url: string, key: string, query: string): Promise<{ data?: unknown; errors?: any[] }> {
  const client = wsClient(url, { authorization: `Bearer ${key}` });
  return new Promise((resolve) => {
    const done = (result: { data?: unknown; errors?: any[] }) => {
      resolve(result);
      void client.dispose();
    };
    client.subscribe(
      { query },
      {
        next: (value) => done(value as { data?: unknown; errors?: any[] }),
        error: (errors) => done({ errors: Array.isArray(errors) ? errors : [errors] }),
        complete: () => undefined,
      },
    );
  });
}

const CYCLE = 'query { ...A } fragment A on Query { ...B } fragment B on Query { ...A }';
const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: __typename`).join(' ')} }`;
/** Each fragment spreads the previous one twice: 2^20 fields once expanded, in a few hundred bytes. */
const fragmentBomb = () => {
  const parts = ['fragment F0 on Query { __typename }'];
  for (let i = 1; i <= 20; i++) parts.push(`fragment F${i} on Query { ...F${i - 1} x${i}: __typename ...F${i - 1} }`);
  return `query { ...F20 } ${parts.join(' ')}`;
};

// Regression: a fragment cycle overflowed the stack in the depth limiter and 45,000 aliases answered
// 500; both transports must refuse such documents with a GraphQL error and a code.
describe('GraphQL hostile documents get clean errors on both transports', () => {
  let t: TestApp;
  let key: string;
  before(async () => {
    t = await startTestApp({}, 'graphql-hostile');
    const ws = await createWorkspace(t.url);
    key = await createKey(t.url, ws.key, ['read']);
  });
  after(() => t.stop());

  it('a fragment cycle is a validation error (NoFragmentCyclesRule), not a stack overflow', async () => {
    const http = await overHttp(t.url, key, CYCLE);
    expect(http.status).to.equal(400);
    expect(http.body.errors![0].message).to.match(/Cannot spread fragment "A" within itself/);
    expect(http.body.errors![0].extensions.code).to.equal('GRAPHQL_VALIDATION_FAILED');
    const socket = await overSocket(t.url, key, CYCLE);
    expect(socket.errors![0].message).to.match(/Cannot spread fragment "A" within itself/);
  });

  it('45,000 aliases are refused by the token limit before they are validated or run', async () => {
    const bomb = aliases(45_000);
    const http = await overHttp(t.url, key, bomb);
    expect(http.status).to.equal(400);
    expect(http.body.errors![0].message).to.match(/Document contains more (than|that) 15000 tokens/);
    expect(http.body.errors![0].extensions.code).to.equal('GRAPHQL_PARSE_FAILED');
    const socket = await overSocket(t.url, key, bomb);
    expect(socket.errors![0].extensions.code).to.equal('GRAPHQL_PARSE_FAILED');
  });

  it('aliases under the token limit but over the field limit are query_too_complex', async () => {
    const many = aliases(2_500);
    const http = await overHttp(t.url, key, many);
    expect(http.status).to.equal(400);
    expect(http.body.errors![0].extensions.code).to.equal('query_too_complex');
    expect(http.body.errors![0].message).to.match(/selects 2500 fields/);
    const socket = await overSocket(t.url, key, many);
    expect(socket.errors![0].extensions.code).to.equal('query_too_complex');
    const fine = await overHttp(t.url, key, aliases(100));
    expect(fine.status).to.equal(200);
    expect(Object.keys(fine.body.data as object)).to.have.length(100);
  });

  it('a fragment bomb (2^20 fields in a few hundred bytes) is counted without being expanded and refused', async () => {
    const http = await overHttp(t.url, key, fragmentBomb());
    expect(http.status).to.equal(400);
    expect(http.body.errors![0].extensions.code).to.equal('query_too_complex');
    const socket = await overSocket(t.url, key, fragmentBomb());
    expect(socket.errors![0].extensions.code).to.equal('query_too_complex');
  });
});
