import http from 'node:http';
import net from 'node:net';
import { expect } from 'chai';
import { TokenBuckets } from '../../src/limits/token-bucket';
import { createWorkspace } from '../support/factories';
import { wsClient } from '../support/events';
import { gql, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/** One query of ~3,000 bytes over the socket (a small companies list padded with spaces); resolves with its answer. */
function paddedQuery(client: ReturnType<typeof wsClient>): Promise<{ data?: any; errors?: unknown }> {
  const query = `{ companies { nodes { id } } }${' '.repeat(3000)}`;
  return new Promise((resolve) => {
    client.subscribe({ query }, { next: (value) => resolve(value as { data?: any }), error: (errors) => resolve({ errors }), complete: () => undefined });
  });
}

describe('limits and security headers', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(
      {
        TIMEGATE_RATE_LIMIT_BURST: '5',
        TIMEGATE_RATE_LIMIT_PER_MINUTE: '60',
        TIMEGATE_GRAPHQL_MAX_DEPTH: '3',
        TIMEGATE_GRAPHQL_MAX_COST: '2000',
        TIMEGATE_CORS_ORIGINS: 'https://app.example.com',
        TIMEGATE_GRAPHQL_INTROSPECTION: 'false',
      },
      'limits',
    );
  });
  after(() => t.stop());

  it('rate-limits per key with RateLimit headers, then 429 with Retry-After; another key is unaffected', async () => {
    const ws = await createWorkspace(t.url);
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 7; i++) {
      last = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key });
      statuses.push(last.status);
      if (i === 0) {
        expect(last.headers.get('ratelimit-limit')).to.equal('5');
        expect(last.headers.get('ratelimit-remaining')).to.equal('4');
      }
    }
    expect(statuses).to.deep.equal([200, 200, 200, 200, 200, 429, 429]);
    expect(last!.body.error.code).to.equal('rate_limited');
    expect(Number(last!.headers.get('retry-after'))).to.be.within(1, 2);
    const other = await createWorkspace(t.url);
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: other.key })).status).to.equal(200);
    // Terminals and health checks are never limited.
    for (let i = 0; i < 8; i++) expect((await rest(t.url, 'GET', '/healthz')).status).to.equal(200);
  });

  it('a refused request with a body ends its connection unread; one without keeps it', async () => {
    // The limit runs before the key is looked up: an unknown key spends its own bucket (and spares the admin key's).
    const ws = { key: `tg_unknown_${Date.now()}` };
    for (let i = 0; i < 5; i++) expect((await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key })).status).to.equal(401);
    const bodiless = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key });
    expect(bodiless.status).to.equal(429);
    expect(bodiless.headers.get('connection')).to.not.equal('close');
    // A 10 MB body announced, 1 KB of it sent: the answer comes, and the service closes the
    // connection rather than waiting for (and reading) the rest.
    const { port } = new URL(t.url);
    const socket = net.connect(Number(port), '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => (answer += chunk));
    const closed = new Promise<void>((resolve) => socket.on('close', () => resolve()));
    socket.on('error', () => undefined);
    socket.write(
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ws.key}\r\nContent-Type: application/json\r\nContent-Length: 10000000\r\n\r\n${' '.repeat(1024)}`,
    );
    await closed;
    expect(answer).to.match(/^HTTP\/1\.1 429 /);
    expect(answer).to.match(/\r\nConnection: close\r\n/i);
  });

  it('the token bucket refills at the configured rate', () => {
    let now = 0;
    const buckets = new TokenBuckets(60, 2, () => now);
    expect(buckets.take('a').allowed).to.equal(true);
    expect(buckets.take('a').allowed).to.equal(true);
    const refused = buckets.take('a');
    expect(refused.allowed).to.equal(false);
    expect(refused.retryAfterSeconds).to.equal(1);
    now += 1000;
    expect(buckets.take('a').allowed).to.equal(true);
    now += 10 * 60_000;
    buckets.take('b');
    expect(buckets.size).to.equal(1);
  });

  it('the byte budget takes amounts, and spent bytes run it into debt for at most one bucket', () => {
    let now = 0;
    const bytes = new TokenBuckets(60_000, 4096, () => now);
    expect(bytes.take('a', 3000).allowed).to.equal(true);
    const refused = bytes.take('a', 3000);
    expect(refused.allowed).to.equal(false);
    expect(refused.retryAfterSeconds).to.equal(2); // 1,904 bytes missing at 1,000 a second
    // A body larger than the bucket counts as a full bucket (it can pass when the bucket is full).
    expect(bytes.take('b', 1_000_000).allowed).to.equal(true);
    expect(bytes.spend('c', 3000)).to.equal(0);
    expect(bytes.spend('c', 3000)).to.equal(1904);
    expect(bytes.spend('c', 1_000_000)).to.equal(4096, 'debt stops at one bucket');
    now += 4096;
    expect(bytes.take('c', 1).allowed).to.equal(false);
    now += 10;
    expect(bytes.take('c', 1).allowed).to.equal(true);
  });

  it('refuses GraphQL operations that are too deep or too costly, with a clear error', async () => {
    const ws = await createWorkspace(t.url);
    const deep = await gql(t.url, ws.key, '{ employees { edges { node { companyId } } pageInfo { hasNextPage } } companies { edges { node { id } } } }');
    expect(deep.errors, 'depth 3 is allowed').to.equal(undefined);
    const tooDeep = await gql(t.url, ws.key, '{ employees { edges { node { templates { id } } } } }');
    expect(tooDeep.errors?.[0].extensions?.code).to.equal('query_too_complex');
    expect(tooDeep.errors?.[0].message).to.match(/depth/);
    const costly = await gql(t.url, ws.key, 'query ($n: Int) { employees(first: $n) { nodes { id name lastname code pin email isActive } } }', { n: 1000 });
    expect(costly.status).to.equal(400);
    expect(costly.errors?.[0].extensions?.code).to.equal('query_too_complex');
    expect(costly.errors?.[0].message).to.match(/costs \d+, more than the limit of 2000/);
    const cheap = await gql(t.url, ws.key, 'query ($n: Int) { employees(first: $n) { nodes { id name } } }', { n: 10 });
    expect(cheap.errors).to.equal(undefined);
    // The cost of a document without variables is remembered per parsed document: the second request
    // of the same text is refused too, and the same text with variables is priced per request.
    // (Another workspace: this suite's rate limit is small, and it is per key.)
    const other = await createWorkspace(t.url);
    const literal = '{ employees(first: 1000) { nodes { id name lastname code pin email isActive } } }';
    for (let i = 0; i < 2; i += 1)
      expect((await gql(t.url, other.key, literal)).errors?.[0].extensions?.code, `request ${i + 1}`).to.equal('query_too_complex');
    const priced = 'query ($n: Int) { employees(first: $n) { nodes { id name lastname code pin email isActive } } }';
    expect((await gql(t.url, other.key, priced, { n: 1000 })).errors?.[0].extensions?.code).to.equal('query_too_complex');
    expect((await gql(t.url, other.key, priced, { n: 5 })).errors).to.equal(undefined);
    expect((await gql(t.url, other.key, priced, { n: 1000 })).errors?.[0].extensions?.code).to.equal('query_too_complex');
  });

  it('introspection can be switched off', async () => {
    const r = await gql(t.url, t.adminKey, '{ __schema { queryType { name } } }');
    expect(r.errors?.[0].message).to.match(/introspection/i);
  });

  it('sends security headers, and CORS only to the configured origin', async () => {
    const ws = await createWorkspace(t.url);
    const allowed = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key, headers: { origin: 'https://app.example.com' } });
    expect(allowed.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(allowed.headers.get('x-frame-options')).to.equal('SAMEORIGIN');
    expect(allowed.headers.get('strict-transport-security')).to.match(/max-age=/);
    expect(allowed.headers.get('access-control-allow-origin')).to.equal('https://app.example.com');
    expect(allowed.headers.get('access-control-expose-headers')).to.contain('X-Total-Count');
    const other = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key, headers: { origin: 'https://evil.example.net' } });
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
    const preflight = await fetch(`${t.url}/graphql`, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
    });
    expect(preflight.status).to.equal(204);
    // Only the methods the API has (no PATCH); the policy keeps plain-HTTP assets on plain HTTP.
    expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET,HEAD,PUT,POST,DELETE');
    expect(allowed.headers.get('content-security-policy')).to.contain("script-src 'self'").and.not.contain('upgrade-insecure-requests');
  });

  it('error bodies carry no stack trace, in production or not (only TIMEGATE_DEBUG_ERRORS=true shows them)', async () => {
    const production = await startTestApp({ NODE_ENV: 'production' }, 'production');
    try {
      for (const app of [production, t]) {
        const r = await gql(app.url, app.adminKey, '{ employees { nosuchfield } }');
        expect(r.errors?.[0].extensions?.code).to.equal('GRAPHQL_VALIDATION_FAILED');
        expect(JSON.stringify(r.errors)).not.to.match(/stacktrace|\.[jt]s:\d+|at /);
      }
    } finally {
      await production.stop();
    }
  });
});

describe('request byte budget', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp(
      { TIMEGATE_RATE_LIMIT_BURST_BYTES: '4096', TIMEGATE_RATE_LIMIT_BYTES_PER_MINUTE: '60000', TIMEGATE_METRICS_TOKEN: 'metrics' },
      'byte-budget',
    );
  });
  after(() => t.stop());

  /** A GraphQL request of about `size` bytes (the query padded with whitespace, which is no token). */
  const padded = (size: number) => JSON.stringify({ query: `{ companies { nodes { id } } }${' '.repeat(size - 50)}` });
  const post = (key: string, body: string | ReadableStream) =>
    fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
      duplex: 'half',
    } as RequestInit);

  it("refuses a body over the key's byte budget with 429 and Retry-After; requests without a body and other keys go on", async () => {
    const ws = await createWorkspace(t.url);
    expect((await post(ws.key, padded(3000))).status).to.equal(200);
    const refused = await post(ws.key, padded(3000));
    expect(refused.status).to.equal(429);
    const body = (await refused.json()) as { errors: { message: string; extensions: { code: string } }[] };
    expect(body.errors[0]!.extensions.code).to.equal('rate_limited');
    expect(body.errors[0]!.message).to.match(/request bytes/);
    expect(Number(refused.headers.get('retry-after'))).to.equal(2);
    expect(refused.headers.get('connection'), 'the unread body ends the connection').to.equal('close');
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key })).status).to.equal(200);
    const other = await createWorkspace(t.url);
    expect((await post(other.key, padded(3000))).status).to.equal(200);
  });

  it('charges a chunked body when it has been read: the next body of the key is refused', async () => {
    const ws = await createWorkspace(t.url);
    const text = padded(6000); // more than the bucket: the key ends in debt
    const chunked = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(text));
        controller.close();
      },
    });
    const first = await post(ws.key, chunked);
    expect(first.status).to.equal(200);
    expect(((await first.json()) as { data: { companies: { nodes: unknown[] } } }).data.companies.nodes).to.be.an('array');
    expect((await post(ws.key, padded(1000))).status).to.equal(429);
    // An empty body costs nothing: the key in debt still gets its answer.
    const empty = await new Promise<number>((resolve, reject) => {
      const req = http.request(
        `${t.url}/public/v2/companies`,
        { method: 'GET', headers: { authorization: `Bearer ${ws.key}`, 'content-length': '0' } },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });
    expect(empty).to.equal(200);
  });

  it('leaves a WebSocket unread while its key is over the budget, and answers every operation', async () => {
    const ws = await createWorkspace(t.url);
    const client = wsClient(t.url, { authorization: `Bearer ${ws.key}` });
    const answer = () => paddedQuery(client);
    const throttled = async () => {
      const text = await (await fetch(`${t.url}/metrics`, { headers: { authorization: 'Bearer metrics' } })).text();
      return Number(/^timegate_websocket_throttled_total (\d+)/m.exec(text)?.[1] ?? 0);
    };
    try {
      const before = await throttled();
      expect((await answer()).data.companies.nodes).to.be.an('array');
      // The second message takes the budget into debt (3,000 + 3,000 bytes of 4,096): the socket is paused about 2 s.
      expect((await answer()).data.companies.nodes).to.be.an('array');
      expect(await throttled()).to.equal(before + 1);
      const sent = Date.now();
      const third = await answer();
      expect(third.data.companies.nodes, 'answered once the socket is read again').to.be.an('array');
      expect(Date.now() - sent, 'the third message was read only after the pause').to.be.at.least(1000);
    } finally {
      await client.dispose();
    }
  });
});

describe('request byte budget: a long WebSocket pause', () => {
  let t: TestApp;
  before(async () => {
    // 100 bytes a second: a debt of ~1,900 bytes would keep the socket unread for 19 s.
    t = await startTestApp({ TIMEGATE_RATE_LIMIT_BURST_BYTES: '4096', TIMEGATE_RATE_LIMIT_BYTES_PER_MINUTE: '6000' }, 'byte-budget-pause');
  });
  after(() => t.stop());

  it('is cut into pauses of at most 5 s (graphql-ws terminates a socket that leaves its 12 s ping unanswered)', async () => {
    const ws = await createWorkspace(t.url);
    const client = wsClient(t.url, { authorization: `Bearer ${ws.key}` });
    const answer = () => paddedQuery(client);
    try {
      await answer();
      await answer(); // into debt: ~1,900 bytes, 19 s at this rate
      const sent = Date.now();
      expect((await answer()).data.companies.nodes).to.be.an('array');
      expect(Date.now() - sent).to.be.within(4000, 9000);
    } finally {
      await client.dispose();
    }
  });
});
