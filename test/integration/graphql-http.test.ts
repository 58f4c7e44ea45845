import { expect } from 'chai';
import { serverAudits } from 'graphql-http';
import { wsClient } from '../support/events';
import { startTestApp, type TestApp } from '../support/test-app';

/** GraphQL over HTTP and over graphql-ws as clients and the spec's audit expect. */
describe('GraphQL over HTTP conformance', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_REST_BODY_LIMIT: '2048' }, 'graphql_http');
  });
  after(() => t.stop());

  it("graphql-http's audit: no failing MUST and no failing SHOULD", async () => {
    const fetchFn = (input: string | URL | Request, init?: RequestInit) =>
      fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), authorization: `Bearer ${t.adminKey}` } });
    const failing: string[] = [];
    for (const audit of serverAudits({ url: `${t.url}/graphql`, fetchFn })) {
      const result = await audit.fn();
      if (result.status === 'error' || result.status === 'warn') failing.push(`${result.status}: ${audit.name} (${result.reason})`);
    }
    expect(failing).to.deep.equal([]);
  });

  it('error bodies on /graphql always have the GraphQL shape with a code: malformed JSON, too large, unauthenticated', async () => {
    const post = (body: string, headers: Record<string, string> = {}) =>
      fetch(`${t.url}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${t.adminKey}`, ...headers }, body });
    const cases: Array<[Response, number, string]> = [
      [await post('{"query": '), 400, 'malformed_json'],
      [await post(JSON.stringify({ query: `{ __typename } # ${'x'.repeat(4096)}` })), 413, 'payload_too_large'],
      [await post('{"query": "{ __typename }"}', { authorization: 'Bearer tg_live_nope' }), 401, 'unauthenticated'],
    ];
    for (const [response, status, code] of cases) {
      expect(response.status, code).to.equal(status);
      const body = (await response.json()) as { errors: Array<{ message: string; extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code, code).to.equal(code);
      expect(body.errors[0]!.message, code).to.be.a('string').and.not.equal('');
      expect(body, code).to.not.have.property('error');
    }
  });

  it('subscription errors over graphql-ws carry extensions.code', async () => {
    const client = wsClient(t.url, { authorization: `Bearer ${t.adminKey}` });
    try {
      const errors = await new Promise<any[]>((resolve) => {
        client.subscribe(
          { query: 'subscription ($d: Int) { punchCreated(deviceId: $d) { cursor } }', variables: { d: 'seven' } },
          { next: (result: any) => resolve(result.errors ?? []), error: (e: any) => resolve(Array.isArray(e) ? e : [e]), complete: () => resolve([]) },
        );
      });
      expect(errors).to.have.length.above(0);
      expect(errors[0].extensions?.code).to.be.a('string');
    } finally {
      await client.dispose();
    }
  });
});
