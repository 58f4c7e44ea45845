import { expect } from 'chai';
import { createCompany, createEmployee, createWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { MASTER_KEY, startTestApp, type TestApp } from '../support/test-app';

describe('companies', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({}, 'companies');
  });
  after(() => t.stop());

  it('REST: create (201, wrapped and flat), get, update, list, delete with their exact status codes', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 5 });
    const wrapped = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { company: { name: 'Acme', code: 'AC' } } });
    expect(wrapped.status).to.equal(201);
    expect(wrapped.body).to.include({ name: 'Acme', code: 'AC' });
    expect(wrapped.body.id).to.be.a('number');
    expect(new Date(wrapped.body.created_at).toISOString()).to.equal(wrapped.body.created_at);
    const flat = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Beta', code: 'BE' } });
    expect(flat.status).to.equal(201);

    const got = await rest(t.url, 'GET', `/public/v2/companies/${wrapped.body.id}`, { key: ws.key });
    expect(got.status).to.equal(200);
    expect(got.body).to.deep.equal(wrapped.body);

    const updated = await rest(t.url, 'PUT', `/public/v2/companies/${wrapped.body.id}`, { key: ws.key, body: { company: { name: 'Acme Ltd' } } });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ id: wrapped.body.id, name: 'Acme Ltd', code: 'AC' });

    const list = await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key });
    expect(list.status).to.equal(200);
    expect(list.body.map((c: any) => c.code)).to.deep.equal(['AC', 'BE']);
    expect(list.headers.get('x-total-count')).to.equal('2');

    const deleted = await rest(t.url, 'DELETE', `/public/v2/companies/${flat.body.id}`, { key: ws.key });
    expect(deleted.status).to.equal(200);
    expect(deleted.body).to.include({ id: flat.body.id, code: 'BE' });
    expect((await rest(t.url, 'GET', `/public/v2/companies/${flat.body.id}`, { key: ws.key })).status).to.equal(404);
  });

  it('GraphQL: create, read, update, list as a connection with totalCount, delete', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 5 });
    const created = await gqlData(t.url, ws.key, 'mutation { createCompany(input: { name: "G", code: "G1" }) { id name code } }');
    const id = created.createCompany.id;
    const updated = await gqlData(t.url, ws.key, 'mutation ($id: Int!) { updateCompany(id: $id, input: { code: "G2" }) { code name } }', { id });
    expect(updated.updateCompany).to.deep.equal({ code: 'G2', name: 'G' });
    const list = await gqlData(t.url, ws.key, '{ companies(first: 10) { totalCount pageInfo { hasNextPage } edges { cursor node { id code } } } }');
    expect(list.companies.totalCount).to.equal(1);
    expect(list.companies.edges[0].node).to.deep.equal({ id, code: 'G2' });
    expect(list.companies.pageInfo.hasNextPage).to.equal(false);
    const deleted = await gqlData(t.url, ws.key, 'mutation ($id: Int!) { deleteCompany(id: $id) { id } }', { id });
    expect(deleted.deleteCompany.id).to.equal(id);
    const gone = await gql(t.url, ws.key, 'query ($id: Int!) { company(id: $id) { id } }', { id });
    expect(gone.errors?.[0].extensions?.code).to.equal('not_found');
  });

  it('code is unique in a workspace (422 naming the field) but may repeat across workspaces', async () => {
    const a = await createWorkspace(t.url, { maxCompanies: 5 });
    const b = await createWorkspace(t.url);
    await createCompany(t.url, a.key, { code: 'SAME' });
    const dup = await rest(t.url, 'POST', '/public/v2/companies', { key: a.key, body: { name: 'X', code: 'SAME' } });
    expect(dup.status).to.equal(422);
    expect(dup.body.error.details).to.deep.include({ field: 'code', code: 'already_taken', message: dup.body.error.details[0].message });
    expect((await rest(t.url, 'POST', '/public/v2/companies', { key: b.key, body: { name: 'X', code: 'SAME' } })).status).to.equal(201);
    const other = await createCompany(t.url, a.key, { code: 'OTHER' });
    const clash = await rest(t.url, 'PUT', `/public/v2/companies/${other.id}`, { key: a.key, body: { code: 'SAME' } });
    expect(clash.status).to.equal(422);
    expect((await rest(t.url, 'GET', `/public/v2/companies/${other.id}`, { key: a.key })).body.code).to.equal('OTHER');
  });

  it('enforces the plan limit (free plan: one company) until the operator raises it', async () => {
    const ws = await createWorkspace(t.url);
    await createCompany(t.url, ws.key);
    const refused = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Two', code: 'TWO' } });
    expect(refused.status).to.equal(403);
    expect(refused.body.error.code).to.equal('plan_limit_reached');
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key })).body).to.have.length(1);
    await gqlData(t.url, MASTER_KEY, 'mutation ($id: Int!) { setWorkspacePlan(workspaceId: $id, input: { maxCompanies: 2 }) { maxCompanies } }', { id: ws.id });
    expect((await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: 'Two', code: 'TWO' } })).status).to.equal(201);
  });

  it('the plan limit holds under concurrent creates', async () => {
    const ws = await createWorkspace(t.url, { maxCompanies: 3 });
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: `C${i}`, code: `C${i}` } })),
    );
    expect(results.filter((r) => r.status === 201)).to.have.length(3);
    expect(results.filter((r) => r.status === 403)).to.have.length(5);
    expect((await rest(t.url, 'GET', '/public/v2/companies', { key: ws.key })).body).to.have.length(3);
  });

  it('refuses to delete a company that still owns employees or devices, with a clear error', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id);
    const refused = await rest(t.url, 'DELETE', `/public/v2/companies/${company.id}`, { key: ws.key });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('resource_in_use');
    expect(refused.body.error.message).to.match(/1 employee/);
    await rest(t.url, 'DELETE', `/public/v2/employees/${employee.id}`, { key: ws.key });
    const device = await rest(t.url, 'POST', '/public/v2/devices', {
      key: ws.key,
      body: { name: 'Door', serial_number: `SN${Date.now()}`, company_id: company.id },
    });
    expect(device.status).to.equal(201);
    const stillRefused = await rest(t.url, 'DELETE', `/public/v2/companies/${company.id}`, { key: ws.key });
    expect(stillRefused.status).to.equal(409);
    expect(stillRefused.body.error.message).to.match(/1 device/);
    await rest(t.url, 'DELETE', `/public/v2/devices/${device.body.id}`, { key: ws.key });
    expect((await rest(t.url, 'DELETE', `/public/v2/companies/${company.id}`, { key: ws.key })).status).to.equal(200);
  });
});
