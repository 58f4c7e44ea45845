import { expect } from 'chai';
import { routeTable } from '../../src/rest/route-table';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

describe('tenant isolation: workspace B can neither see nor change anything of workspace A', () => {
  let t: TestApp;
  let a: TestWorkspace;
  let b: TestWorkspace;
  const ids: Record<string, number> = {};

  before(async () => {
    t = await startTestApp({}, 'isolation');
    a = await createWorkspace(t.url);
    b = await createWorkspace(t.url);
    const company = await createCompany(t.url, a.key);
    ids.company = company.id;
    ids.employee = (await createEmployee(t.url, a.key, company.id, { pin: '1' })).id;
    ids.device = (await rest(t.url, 'POST', '/public/v2/devices', { key: a.key, body: { name: 'D', serial_number: 'ISOLATION1', company_id: company.id } })).body.id;
    ids.area = (await rest(t.url, 'POST', '/public/v2/areas', { key: a.key, body: { name: 'Hall', code: 'HALL', company_id: company.id } })).body.id;
    ids.state = (await rest(t.url, 'GET', '/public/v2/verification_states', { key: a.key })).body[0].id;
    ids.webhook = (await rest(t.url, 'POST', '/public/v2/webhooks', { key: a.key, body: { url: 'http://127.0.0.1:9/hook', event_types: ['attendance.created'] } })).body.id;
    const punch = await rest(t.url, 'POST', '/public/v2/punches', {
      key: a.key,
      body: { employee_id: ids.employee, device_id: ids.device, company_id: company.id, punch_time: '2026-01-05T08:00:00Z', punch_state: '0' },
    });
    ids.punch = punch.body.id;
    ids.delivery = (await rest(t.url, 'GET', `/public/v2/webhooks/${ids.webhook}/deliveries`, { key: a.key })).body[0].id;
    // B owns a company too, so that "id exists in B's workspace" never hides a leak.
    await createCompany(t.url, b.key);
  });
  after(() => t.stop());

  /** The id of A that a route's `:id` names, from its path (`/public/v2/<resource>s/:id...`). */
  function idFor(path: string): number {
    const resource = /\/(companies|employees|devices|areas|verification_states|punches|webhooks|webhook_deliveries)\/:id/.exec(path)?.[1];
    const byResource: Record<string, string> = {
      companies: 'company',
      employees: 'employee',
      devices: 'device',
      areas: 'area',
      verification_states: 'state',
      punches: 'punch',
      webhooks: 'webhook',
      webhook_deliveries: 'delivery',
    };
    const id = resource ? ids[byResource[resource]] : undefined;
    if (id === undefined) throw new Error(`no id of workspace A for ${path}: extend this test when adding a resource`);
    return id;
  }

  it('every REST route with an :id answers 404 to B for the ids of A, and A is unchanged', async () => {
    const before = await workspaceSnapshot(t.config.databaseUrl!, a.id);
    const routes = routeTable.filter((r) => r.path.includes(':id') && idFor(r.path) !== undefined);
    expect(routes.length).to.be.greaterThan(5);
    for (const route of routes) {
      const path = route.path.replace(':id', String(idFor(route.path)));
      const body = route.body ? (route.body.schema.type === 'array' ? [] : {}) : undefined;
      const r = await rest(t.url, route.method, path, { key: b.key, body });
      expect(r.status, `${route.method} ${path}`).to.equal(404);
      expect(r.body.error.code).to.equal('not_found');
    }
    expect(await workspaceSnapshot(t.config.databaseUrl!, a.id)).to.deep.equal(before);
  });

  it("B's lists never contain A's rows; B cannot create under A's company", async () => {
    for (const route of routeTable.filter((r) => r.list && !r.path.includes(':'))) {
      const r = await rest(t.url, 'GET', route.path, { key: b.key });
      expect(r.status, route.path).to.equal(200);
      const rows = r.body as { id: number; company_id?: number }[];
      expect(rows.filter((row) => row.company_id === ids.company), route.path).to.deep.equal([]);
      if (route.path.endsWith('/companies')) expect(rows.map((row) => row.id), route.path).not.to.include(ids.company);
    }
    const employee = await rest(t.url, 'POST', '/public/v2/employees', { key: b.key, body: { name: 'x', lastname: 'y', code: 'z', company_id: ids.company } });
    expect(employee.status).to.equal(422);
    const device = await rest(t.url, 'POST', '/public/v2/devices', { key: b.key, body: { name: 'x', serial_number: 'ISOLATION2', company_id: ids.company } });
    expect(device.status).to.equal(422);
    expect((await rest(t.url, 'GET', '/public/v2/employees', { key: a.key })).body).to.have.length(1);
  });

  it('GraphQL: every query and mutation on an id of A is not_found for B', async () => {
    const before = await workspaceSnapshot(t.config.databaseUrl!, a.id);
    const operations = [
      `{ company(id: ${ids.company}) { id } }`,
      `{ employee(id: ${ids.employee}) { id } }`,
      `{ device(id: ${ids.device}) { id } }`,
      `mutation { updateCompany(id: ${ids.company}, input: { name: "hacked" }) { id } }`,
      `mutation { deleteCompany(id: ${ids.company}) { id } }`,
      `mutation { updateEmployee(id: ${ids.employee}, input: { name: "hacked" }) { id } }`,
      `mutation { deleteEmployee(id: ${ids.employee}) { id } }`,
      `mutation { updateDevice(id: ${ids.device}, input: { name: "hacked" }) { id } }`,
      `mutation { deleteDevice(id: ${ids.device}) { id } }`,
    ];
    for (const query of operations) {
      const r = await gql(t.url, b.key, query);
      expect(r.errors?.[0].extensions?.code, query).to.equal('not_found');
    }
    const lists = await gql(t.url, b.key, `{ employees(companyId: ${ids.company}) { totalCount } devices(companyId: ${ids.company}) { totalCount } }`);
    expect(lists.data).to.deep.equal({ employees: { totalCount: 0 }, devices: { totalCount: 0 } });
    expect(await workspaceSnapshot(t.config.databaseUrl!, a.id)).to.deep.equal(before);
  });
});
