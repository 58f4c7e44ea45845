import { expect } from 'chai';
import { TokenBuckets } from '../../src/limits/token-bucket';
import { createWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

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
    for (let i = 0; i < 2; i += 1) expect((await gql(t.url, other.key, literal)).errors?.[0].extensions?.code, `request ${i + 1}`).to.equal('query_too_complex');
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
    const preflight = await fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' } });
    expect(preflight.status).to.equal(204);
    // Only the methods the API has (no PATCH); the policy keeps plain-HTTP assets on plain HTTP.
    expect(preflight.headers.get('access-control-allow-methods')).to.equal('GET,HEAD,PUT,POST,DELETE');
    expect(allowed.headers.get('content-security-policy')).to.contain("script-src 'self'").and.not.contain('upgrade-insecure-requests');
  });

  it('in production, error bodies carry no stack trace', async () => {
    const production = await startTestApp({ NODE_ENV: 'production' }, 'production');
    try {
      const r = await gql(production.url, production.adminKey, '{ employees { nosuchfield } }');
      expect(r.errors?.[0].extensions?.code).to.equal('GRAPHQL_VALIDATION_FAILED');
      expect(JSON.stringify(r.errors)).not.to.match(/stacktrace|\.ts:\d+|at /);
      const development = await gql(t.url, t.adminKey, '{ employees { nosuchfield } }');
      expect(JSON.stringify(development.errors)).to.contain('stacktrace');
    } finally {
      await production.stop();
    }
  });
});
