import { expect } from 'chai';
import { createCompany, createEmployee, createWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { statementsDuring } from '../support/statements';
import { startTestApp, type TestApp } from '../support/test-app';

describe('employees', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'employees');
  });
  after(() => t.stop());

  it('REST: create wrapped and flat (201), get, update incl. is_active (200), delete (200)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const wrapped = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { employee: { name: 'Grace', lastname: 'Hopper', code: 'E-1', company_id: company.id, pin: '101', email: 'grace@example.com' } },
    });
    expect(wrapped.status).to.equal(201);
    expect(wrapped.body).to.include({
      name: 'Grace',
      lastname: 'Hopper',
      code: 'E-1',
      company_id: company.id,
      pin: '101',
      email: 'grace@example.com',
      is_active: true,
    });
    const flat = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { name: 'Alan', lastname: 'Turing', code: 'E-2', company_id: company.id },
    });
    expect(flat.status).to.equal(201);
    expect(flat.body).to.include({ pin: null, email: null, is_active: true });

    const updated = await rest(t.url, 'PUT', `/public/v2/employees/${wrapped.body.id}`, {
      key: ws.key,
      body: { employee: { is_active: false, pin: 'A7', email: null } },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ is_active: false, pin: 'A7', email: null, name: 'Grace' });
    const got = await rest(t.url, 'GET', `/public/v2/employees/${wrapped.body.id}`, { key: ws.key });
    expect(got.body).to.deep.equal(updated.body);

    const deleted = await rest(t.url, 'DELETE', `/public/v2/employees/${flat.body.id}`, { key: ws.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body.code).to.equal('E-2');
    expect((await rest(t.url, 'GET', `/public/v2/employees/${flat.body.id}`, { key: ws.key })).status).to.equal(404);
  });

  it('lists with page/per_page, X-Total-Count and a Link header; filters by company, active and text', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 2 });
    const c1 = await createCompany(t.url, ws.key);
    const c2 = await createCompany(t.url, ws.key);
    for (let i = 0; i < 5; i++) await createEmployee(t.url, ws.key, c1.id, { name: `Worker${i}`, pin: String(i + 1) });
    await createEmployee(t.url, ws.key, c2.id, { name: 'Zed', lastname: 'Quux', is_active: false });

    const page2 = await rest(t.url, 'GET', '/public/v2/employees?page=2&per_page=2', { key: ws.key });
    expect(page2.status).to.equal(200);
    expect(page2.body.map((e: any) => e.name)).to.deep.equal(['Worker2', 'Worker3']);
    expect(page2.headers.get('x-total-count')).to.equal('6');
    const link = page2.headers.get('link')!;
    expect(link).to.contain('</public/v2/employees?page=1&per_page=2>; rel="first"');
    expect(link).to.contain('</public/v2/employees?page=1&per_page=2>; rel="prev"');
    expect(link).to.contain('</public/v2/employees?page=3&per_page=2>; rel="next"');
    expect(link).to.contain('</public/v2/employees?page=3&per_page=2>; rel="last"');
    const beyond = await rest(t.url, 'GET', '/public/v2/employees?page=9&per_page=2', { key: ws.key });
    expect(beyond.body).to.deep.equal([]);
    // A page past the end has no row to carry the total: it is counted on its own.
    expect(beyond.headers.get('x-total-count')).to.equal('6');

    const byCompany = await rest(t.url, 'GET', `/public/v2/employees?company_id=${c2.id}`, { key: ws.key });
    expect(byCompany.body.map((e: any) => e.name)).to.deep.equal(['Zed']);
    const inactive = await rest(t.url, 'GET', '/public/v2/employees?is_active=false', { key: ws.key });
    expect(inactive.body.map((e: any) => e.name)).to.deep.equal(['Zed']);
    const search = await rest(t.url, 'GET', '/public/v2/employees?search=quu', { key: ws.key });
    expect(search.body.map((e: any) => e.name)).to.deep.equal(['Zed']);
    const literalPercent = await rest(t.url, 'GET', '/public/v2/employees?search=%25', { key: ws.key });
    expect(literalPercent.body).to.deep.equal([]);
    for (const literal of ['_', "'", '\\']) {
      const r = await rest(t.url, 'GET', `/public/v2/employees?search=${encodeURIComponent(literal)}`, { key: ws.key });
      expect(r.status, literal).to.equal(200);
      expect(r.body, literal).to.deep.equal([]);
    }
    const combined = await rest(t.url, 'GET', `/public/v2/employees?company_id=${c1.id}&is_active=true&search=worker3`, { key: ws.key });
    expect(combined.body.map((e: any) => e.name)).to.deep.equal(['Worker3']);
    expect(combined.headers.get('x-total-count')).to.equal('1');

    for (const bad of ['page=0', 'per_page=1001', 'per_page=abc', 'company_id=x', 'is_active=maybe']) {
      const r = await rest(t.url, 'GET', `/public/v2/employees?${bad}`, { key: ws.key });
      expect(r.status, bad).to.equal(422);
      expect(r.body.error.details[0].field, bad).to.equal(bad.split('=')[0]);
    }

    const gqlPage = await gqlData(t.url, ws.key, '{ employees(first: 2) { totalCount pageInfo { hasNextPage endCursor } nodes { name } } }');
    expect(gqlPage.employees.totalCount).to.equal(6);
    const empty = await gqlData(t.url, ws.key, '{ employees(first: 0) { totalCount nodes { name } } }');
    expect(empty.employees).to.deep.equal({ totalCount: 6, nodes: [] });
    const next = await gqlData(t.url, ws.key, 'query ($after: String) { employees(first: 2, after: $after) { nodes { name } } }', {
      after: gqlPage.employees.pageInfo.endCursor,
    });
    expect(next.employees.nodes.map((e: any) => e.name)).to.deep.equal(['Worker2', 'Worker3']);
    // Edges are built only when selected; their cursors are the page's and lead to the same windows.
    const withEdges = await gqlData(
      t.url,
      ws.key,
      'query ($after: String) { employees(first: 2, after: $after) { pageInfo { startCursor endCursor } edges { cursor node { name } } } }',
      {
        after: gqlPage.employees.pageInfo.endCursor,
      },
    );
    const edges = withEdges.employees.edges;
    expect(edges.map((e: any) => e.node.name)).to.deep.equal(['Worker2', 'Worker3']);
    expect([edges[0].cursor, edges[1].cursor]).to.deep.equal([withEdges.employees.pageInfo.startCursor, withEdges.employees.pageInfo.endCursor]);
    const fromEdge = await gqlData(t.url, ws.key, 'query ($after: String) { employees(first: 1, after: $after) { nodes { name } } }', {
      after: edges[0].cursor,
    });
    expect(fromEdge.employees.nodes.map((e: any) => e.name)).to.deep.equal(['Worker3']);
    const badCursor = await gql(t.url, ws.key, '{ employees(after: "nope") { totalCount } }');
    expect(badCursor.errors?.[0].extensions?.code).to.equal('validation_failed');
  });

  it('code is unique per workspace; pin unique per company (same pin allowed in another company)', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 2 });
    const c1 = await createCompany(t.url, ws.key);
    const c2 = await createCompany(t.url, ws.key);
    await createEmployee(t.url, ws.key, c1.id, { code: 'DUP', pin: '7' });
    const dupCode = await rest(t.url, 'POST', '/public/v2/employees', { key: ws.key, body: { name: 'a', lastname: 'b', code: 'DUP', company_id: c2.id } });
    expect(dupCode.status).to.equal(422);
    expect(dupCode.body.error.details[0]).to.include({ field: 'code', code: 'already_taken' });
    const dupPin = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { name: 'a', lastname: 'b', code: 'X1', company_id: c1.id, pin: '7' },
    });
    expect(dupPin.status).to.equal(422);
    expect(dupPin.body.error.details[0]).to.include({ field: 'pin', code: 'already_taken' });
    const otherCompany = await rest(t.url, 'POST', '/public/v2/employees', {
      key: ws.key,
      body: { name: 'a', lastname: 'b', code: 'X2', company_id: c2.id, pin: '7' },
    });
    expect(otherCompany.status).to.equal(201);
    // Moving that employee into the company where pin 7 is taken is refused too.
    const move = await rest(t.url, 'PUT', `/public/v2/employees/${otherCompany.body.id}`, { key: ws.key, body: { company_id: c1.id } });
    expect(move.status).to.equal(422);
    expect(move.body.error.details[0]).to.include({ field: 'pin', code: 'already_taken' });
    expect((await rest(t.url, 'GET', `/public/v2/employees/${otherCompany.body.id}`, { key: ws.key })).body.company_id).to.equal(c2.id);
  });

  it('explains why a pin is refused (letters and digits, at most 23)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    for (const pin of ['12 3', '1-2', 'x'.repeat(24), '']) {
      const r = await rest(t.url, 'POST', '/public/v2/employees', {
        key: ws.key,
        body: { name: 'a', lastname: 'b', code: `P${pin.length}${pin.charCodeAt(0)}`, company_id: company.id, pin },
      });
      expect(r.status, JSON.stringify(pin)).to.equal(422);
      const detail = r.body.error.details.find((d: any) => d.field === 'pin');
      expect(detail.message, JSON.stringify(pin))
        .to.match(/letters or digits/)
        .and.match(/23/);
    }
    const ok = await createEmployee(t.url, ws.key, company.id, { pin: 'GOMA850101AB1' });
    expect(ok.pin).to.equal('GOMA850101AB1');
  });

  it('refuses a company of another workspace or an unknown one as a 422 on company_id', async () => {
    const a = await createWorkspace(t.url);
    const b = await createWorkspace(t.url);
    const foreign = await createCompany(t.url, a.key);
    for (const companyId of [foreign.id, 999999]) {
      const r = await rest(t.url, 'POST', '/public/v2/employees', { key: b.key, body: { name: 'a', lastname: 'b', code: 'C1', company_id: companyId } });
      expect(r.status).to.equal(422);
      expect(r.body.error.details[0]).to.include({ field: 'company_id', code: 'not_found' });
    }
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: a.key })).body).to.deep.equal([]);
  });

  it('GraphQL: field errors carry extensions.code and details with the field name', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const r = await gql(
      t.url,
      ws.key,
      'mutation ($c: Int!) { createEmployee(input: { companyId: $c, name: "", lastname: "x", code: "c", pin: "no pin!", email: "nope" }) { id } }',
      {
        c: company.id,
      },
    );
    expect(r.errors?.[0].extensions?.code).to.equal('validation_failed');
    const fields = r.errors?.[0].extensions?.details?.map((d) => `${d.field}:${d.code}`);
    expect(fields).to.have.members(['name:blank', 'pin:invalid_pin', 'email:invalid_email']);
    expect((await gqlData(t.url, ws.key, '{ employees { totalCount } }')).employees.totalCount).to.equal(0);
  });

  it("a page of employees reads its templates in one query, each employee's own, in type and index order", async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const [e1, e2, e3] = [
      await createEmployee(t.url, ws.key, company.id),
      await createEmployee(t.url, ws.key, company.id),
      await createEmployee(t.url, ws.key, company.id),
    ];
    const sql = (query: string, params: unknown[]) => t.app.database.orm.em.fork().getConnection().execute(query, params);
    const template = (employeeId: number, no: number) =>
      sql(`insert into employee_template (workspace_id, employee_id, type, no, data, size, created_at, updated_at) values (?, ?, 1, ?, 'x', 1, now(), now())`, [
        ws.id,
        employeeId,
        no,
      ]);
    await template(e1.id, 6);
    await template(e1.id, 2);
    await template(e3.id, 0);

    // Every statement the ORM runs during the request.
    const { result: data, statements } = await statementsDuring(t.app, () =>
      gqlData(t.url, ws.key, `{ employees(companyId: ${company.id}, first: 10) { nodes { id templates { index } } } }`),
    );
    expect(data.employees.nodes).to.deep.equal([
      { id: e1.id, templates: [{ index: 2 }, { index: 6 }] },
      { id: e2.id, templates: [] },
      { id: e3.id, templates: [{ index: 0 }] },
    ]);
    expect(
      statements.filter((text) => /from "?employee_template"?/.test(text)),
      statements.join('\n'),
    ).to.have.length(1);
  });

  it('looks employees up by id at any size of the workspace: only its own, at most 1000 ids, combined with the other filters', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 2 });
    const other = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const second = await createCompany(t.url, ws.key);
    const ada = await createEmployee(t.url, ws.key, company.id, { name: 'Ada', lastname: 'Byid' });
    const bob = await createEmployee(t.url, ws.key, second.id, { name: 'Bob', lastname: 'Byid' });
    const foreign = await createEmployee(t.url, other.key, (await createCompany(t.url, other.key)).id);
    const byIds = async (args: string, key = ws.key) =>
      (await gqlData(t.url, key, `{ employees(${args}) { totalCount nodes { id name lastname } } }`)).employees as {
        totalCount: number;
        nodes: Array<{ id: number; name: string; lastname: string }>;
      };
    const found = await byIds(`ids: [${bob.id}, ${ada.id}, ${foreign.id}, 2147483647]`);
    expect(found.nodes).to.deep.equal([
      { id: ada.id, name: 'Ada', lastname: 'Byid' },
      { id: bob.id, name: 'Bob', lastname: 'Byid' },
    ]);
    expect(found.totalCount).to.equal(2);
    // Another workspace's key finds only its own employee among the same ids.
    expect((await byIds(`ids: [${bob.id}, ${ada.id}, ${foreign.id}]`, other.key)).nodes.map((e) => e.id)).to.deep.equal([foreign.id]);
    expect((await byIds(`ids: [${ada.id}, ${bob.id}], companyId: ${second.id}`)).nodes.map((e) => e.id)).to.deep.equal([bob.id]);
    expect((await byIds('ids: []')).totalCount).to.equal(0);

    // More than 1000 ids: refused, naming the field.
    const tooMany = await gql(t.url, ws.key, `{ employees(ids: [${Array.from({ length: 1001 }, (_, i) => i + 1).join(',')}]) { totalCount } }`);
    expect(tooMany.errors?.[0].extensions?.code).to.equal('validation_failed');
    expect(tooMany.errors?.[0].extensions?.details?.map((d) => `${d.field}:${d.code}`)).to.deep.equal(['ids:too_many_items']);
  });
});
