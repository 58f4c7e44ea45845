import { expect } from 'chai';
import { createCompany, createEmployee, createWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * Repeated queries over POST /graphql (src/graphql/repeated-queries.ts): a query Apollo validated
 * and ran is answered directly the next time, with the same bytes Apollo sends, and every request
 * that is not a clean success still gets Apollo's answer.
 */
describe('GraphQL repeated queries', () => {
  let t: TestApp;
  let companyId: number;
  before(async () => {
    t = await startTestApp({ TIMEGATE_GRAPHQL_MAX_COST: '2000' }, 'graphql_repeated');
    companyId = (await createCompany(t.url, t.adminKey)).id;
    await createEmployee(t.url, t.adminKey, companyId, { name: 'Ada', lastname: 'Lovelace' });
  });
  after(() => t.stop());

  /** Requests answered by each path so far. */
  async function answeredBy(): Promise<{ repeated: number; apollo: number }> {
    const metric = await t.app.metrics.registry.getSingleMetric('timegate_graphql_requests_total')!.get();
    const count = (path: string) => metric.values.find((v) => v.labels.path === path)?.value ?? 0;
    return { repeated: count('repeated'), apollo: count('apollo') };
  }

  async function post(body: unknown, headers: Record<string, string> = {}, key = t.adminKey) {
    const response = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
      body: JSON.stringify(body),
    });
    return {
      status: response.status,
      contentType: response.headers.get('content-type'),
      length: response.headers.get('content-length'),
      text: await response.text(),
    };
  }

  const LIST = 'query Staff { employees(first: 10) { totalCount nodes { id name lastname createdAt areaIds } } }';

  it("answers a query the second time without Apollo, with Apollo's status, content type and bytes", async () => {
    const before = await answeredBy();
    const first = await post({ query: LIST, operationName: 'Staff' });
    const afterFirst = await answeredBy();
    const second = await post({ query: LIST, operationName: 'Staff' });
    const afterSecond = await answeredBy();
    expect(afterFirst).to.deep.equal({ repeated: before.repeated, apollo: before.apollo + 1 });
    expect(afterSecond).to.deep.equal({ repeated: before.repeated + 1, apollo: before.apollo + 1 });
    expect(first.status).to.equal(200);
    expect(second).to.deep.equal(first);
    expect(JSON.parse(second.text).data.employees.nodes[0].name).to.equal('Ada');
  });

  it('serves each Accept value with the content type Apollo chooses, and leaves the others to Apollo', async () => {
    for (const accept of ['application/json', 'application/graphql-response+json', '*/*']) {
      const viaApollo = await post({ query: `${LIST} # ${accept}` }, { accept });
      const before = await answeredBy();
      const repeated = await post({ query: `${LIST} # ${accept}` }, { accept });
      expect((await answeredBy()).repeated, accept).to.equal(before.repeated + 1);
      expect(repeated, accept).to.deep.equal(viaApollo);
    }
    // Header values that name an object's own properties are just unknown values: Apollo answers them.
    const beforeOdd = await answeredBy();
    for (const accept of ['constructor', '__proto__', 'toString']) {
      const odd = await post({ query: LIST }, { accept });
      expect(odd.status, accept).to.equal(406);
    }
    expect(await answeredBy()).to.deep.equal({ repeated: beforeOdd.repeated, apollo: beforeOdd.apollo + 3 });
    const before = await answeredBy();
    const weighted = await post({ query: LIST }, { accept: 'application/graphql-response+json, application/json;q=0.9' });
    expect(weighted.status).to.equal(200);
    expect(weighted.contentType).to.equal('application/graphql-response+json; charset=utf-8');
    expect((await answeredBy()).repeated).to.equal(before.repeated);
  });

  it('reads current data on every request: nothing is cached but the document', async () => {
    const query = 'query { employees(first: 50) { totalCount } }';
    const count = async () => JSON.parse((await post({ query })).text).data.employees.totalCount as number;
    const before = await count();
    expect(await count()).to.equal(before);
    await createEmployee(t.url, t.adminKey, companyId);
    const repeatedBefore = (await answeredBy()).repeated;
    expect(await count()).to.equal(before + 1);
    expect((await answeredBy()).repeated).to.equal(repeatedBefore + 1);
  });

  it('checks key, cost and variables on every request of a remembered document', async () => {
    const query = 'query Page($n: Int, $name: String) { employees(first: $n, search: $name) { totalCount } }';
    expect((await post({ query, variables: { n: 5, name: 'Ada' } })).status).to.equal(200);
    expect((await post({ query, variables: { n: 5, name: 'Ada' } })).status).to.equal(200);

    const unauthenticated = await post({ query, variables: { n: 5 } }, {}, 'tg_live_nope');
    expect(unauthenticated.status).to.equal(401);
    expect(JSON.parse(unauthenticated.text).errors[0].extensions.code).to.equal('unauthenticated');

    const costly = await post({ query: 'query Deep($n: Int) { employees(first: $n) { nodes { id templates { id } } } }', variables: { n: 1 } });
    expect(costly.status).to.equal(200);
    const refused = await post({ query: 'query Deep($n: Int) { employees(first: $n) { nodes { id templates { id } } } }', variables: { n: 1000 } });
    expect(JSON.parse(refused.text).errors[0].extensions.code).to.equal('query_too_complex');

    const nul = await post({ query, variables: { n: 5, name: 'A\u0000da' } });
    expect(nul.status).to.equal(422);

    const wrongType = await post({ query, variables: { n: 'five' } });
    expect(wrongType.status).to.equal(400);
    expect(JSON.parse(wrongType.text).errors[0].extensions.code).to.equal('BAD_USER_INPUT');
    expect(JSON.parse(wrongType.text).data).to.equal(undefined);
  });

  it("answers a resolver's error through Apollo, formatted as always", async () => {
    const query = 'query One($id: Int!) { employee(id: $id) { id name } }';
    const missing = async () => JSON.parse((await post({ query, variables: { id: 999_999 } })).text);
    const first = await missing();
    const before = await answeredBy();
    const second = await missing();
    // Each answer names its own request.
    const withoutRequestId = (body: any) => ({
      ...body,
      errors: body.errors.map((e: any) => ({ ...e, extensions: { ...e.extensions, requestId: undefined } })),
    });
    expect(second.errors[0].extensions.requestId).to.be.a('string').and.not.equal(first.errors[0].extensions.requestId);
    expect(withoutRequestId(second)).to.deep.equal(withoutRequestId(first));
    expect(second.errors[0].extensions.code).to.equal('not_found');
    expect(await answeredBy()).to.deep.equal({ repeated: before.repeated, apollo: before.apollo + 1 });
  });

  it("scopes a remembered document to each caller's workspace", async () => {
    const other = await createWorkspace(t.url);
    const otherCompany = await createCompany(t.url, other.key);
    await createEmployee(t.url, other.key, otherCompany.id, { name: 'Grace', lastname: 'Hopper' });
    const query = 'query { employees(first: 100) { nodes { name } } }';
    const names = async (key: string) => (JSON.parse((await post({ query }, {}, key)).text).data.employees.nodes as { name: string }[]).map((n) => n.name);
    const mine = await names(t.adminKey);
    const before = await answeredBy();
    expect(await names(other.key)).to.deep.equal(['Grace']);
    expect(await names(t.adminKey)).to.deep.equal(mine);
    expect(mine).to.not.include('Grace');
    expect((await answeredBy()).repeated).to.equal(before.repeated + 2);
  });

  it('never answers a mutation, a batch or a request with extensions itself', async () => {
    const mutation = 'mutation ($c: Int!, $code: String!) { createEmployee(input: { companyId: $c, name: "Twice", lastname: "Made", code: $code }) { id } }';
    const before = await answeredBy();
    const ids = [];
    for (let i = 0; i < 2; i++)
      ids.push(JSON.parse((await post({ query: mutation, variables: { c: companyId, code: `TWICE${i}` } })).text).data.createEmployee.id);
    expect(ids[0]).to.not.equal(ids[1]);
    await post({ query: LIST, operationName: 'Staff', extensions: {} });
    await post([{ query: LIST, operationName: 'Staff' }]);
    expect(await answeredBy()).to.deep.equal({ repeated: before.repeated, apollo: before.apollo + 4 });
  });
});
