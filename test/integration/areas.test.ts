import { expect } from 'chai';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, unique, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { statementsDuring } from '../support/statements';
import { startTestApp, type TestApp } from '../support/test-app';

describe('areas and area membership', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  let otherCompanyId: number;
  before(async () => {
    t = await startTestApp({}, 'areas');
    ws = await createWorkspace(t.url, { maxCompanies: 3, maxDevices: 1000 });
    companyId = (await createCompany(t.url, ws.key)).id;
    otherCompanyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  const get = (path: string, key = ws.key) => rest(t.url, 'GET', path, { key });
  const send = (method: string, path: string, body: unknown, key = ws.key) => rest(t.url, method, path, { key, body });

  describe('CRUD', () => {
    it('creates with a flat body (201) and returns exactly the documented fields', async () => {
      const r = await send('POST', '/public/v2/areas', { name: 'Lobby', code: unique('L'), company_id: companyId });
      expect(r.status).to.equal(201);
      expect(Object.keys(r.body).sort()).to.deep.equal(['code', 'company_id', 'created_at', 'device_ids', 'employee_ids', 'id', 'name', 'updated_at']);
      expect(r.body).to.include({ name: 'Lobby', company_id: companyId });
      expect(r.body.device_ids).to.deep.equal([]);
      expect(r.body.employee_ids).to.deep.equal([]);
      expect(r.body.created_at).to.match(/^\d{4}-\d\d-\d\dT/);
    });

    it('creates with a wrapped body and updates with both body forms', async () => {
      const created = await send('POST', '/public/v2/areas', { area: { name: 'Floor 1', code: unique('F'), company_id: companyId } });
      expect(created.status).to.equal(201);
      const flat = await send('PUT', `/public/v2/areas/${created.body.id}`, { name: 'Floor one' });
      expect(flat.status).to.equal(200);
      expect(flat.body.name).to.equal('Floor one');
      const wrapped = await send('PUT', `/public/v2/areas/${created.body.id}`, { area: { code: 'F1X' } });
      expect(wrapped.status).to.equal(200);
      expect(wrapped.body).to.include({ name: 'Floor one', code: 'F1X' });
      expect((await get(`/public/v2/areas/${created.body.id}`)).body).to.include({ name: 'Floor one', code: 'F1X' });
    });

    it('GET /areas/{id} accepts an id or a name; an all-digit value is an id first, then a name', async () => {
      const named = await createArea(t.url, ws.key, companyId, { name: 'Warehouse' });
      expect((await get(`/public/v2/areas/${named.id}`)).body.id).to.equal(named.id);
      expect((await get('/public/v2/areas/Warehouse')).body.id).to.equal(named.id);
      expect((await get('/public/v2/areas/Main%20Hall')).status).to.equal(404);
      const digits = await createArea(t.url, ws.key, companyId, { name: '99999' });
      expect((await get('/public/v2/areas/99999')).body.id, 'no area 99999: read as a name').to.equal(digits.id);
      const clash = await createArea(t.url, ws.key, companyId, { name: String(named.id) });
      expect((await get(`/public/v2/areas/${named.id}`)).body.id, 'an id wins over a name').to.equal(named.id);
      expect(clash.id).to.not.equal(named.id);
      const g = await gqlData(t.url, ws.key, 'query ($v: String!) { area(idOrName: $v) { id } }', { v: 'Warehouse' });
      expect(g.area.id).to.equal(named.id);
    });

    it('lists areas as a paged array, filterable by company', async () => {
      const mine = await createArea(t.url, ws.key, otherCompanyId);
      const r = await get(`/public/v2/areas?company_id=${otherCompanyId}&per_page=1`);
      expect(r.status).to.equal(200);
      expect(r.body.map((a: any) => a.id)).to.deep.equal([mine.id]);
      expect(r.headers.get('x-total-count')).to.equal('1');
      const all = await gqlData(t.url, ws.key, '{ areas(first: 1000) { totalCount nodes { id } } }');
      expect(all.areas.nodes.map((a: any) => a.id)).to.include(mine.id);
    });

    it('deletes with 200 returning the deleted area; then it is 404', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const r = await rest(t.url, 'DELETE', `/public/v2/areas/${area.id}`, { key: ws.key });
      expect(r.status).to.equal(200);
      expect(r.body).to.include({ id: area.id, name: area.name, code: area.code });
      expect((await get(`/public/v2/areas/${area.id}`)).status).to.equal(404);
    });

    it('refuses missing, unknown and over-long fields with 422 naming each', async () => {
      const r = await send('POST', '/public/v2/areas', { name: 'x'.repeat(201), colour: 'red' });
      expect(r.status).to.equal(422);
      const fields = r.body.error.details.map((d: any) => d.field).sort();
      expect(fields).to.deep.equal(['code', 'colour', 'company_id', 'name']);
      const blank = await send('POST', '/public/v2/areas', { name: ' ', code: 'X', company_id: companyId });
      expect(blank.body.error.details[0]).to.include({ field: 'name', code: 'blank' });
    });

    it('code is unique per company, not across companies', async () => {
      const code = unique('U');
      await createArea(t.url, ws.key, companyId, { code });
      const dup = await send('POST', '/public/v2/areas', { name: 'Dup', code, company_id: companyId });
      expect(dup.status).to.equal(422);
      expect(dup.body.error.details[0]).to.include({ field: 'code', code: 'already_taken' });
      expect((await send('POST', '/public/v2/areas', { name: 'Other', code, company_id: otherCompanyId })).status).to.equal(201);
      const other = await createArea(t.url, ws.key, companyId);
      const clash = await send('PUT', `/public/v2/areas/${other.id}`, { code });
      expect(clash.body.error.details[0]).to.include({ field: 'code', code: 'already_taken' });
    });

    it('refuses a company of another workspace as a 422 on company_id', async () => {
      const b = await createWorkspace(t.url);
      const foreign = await createCompany(t.url, b.key);
      const r = await send('POST', '/public/v2/areas', { name: 'X', code: 'X', company_id: foreign.id });
      expect(r.status).to.equal(422);
      expect(r.body.error.details[0]).to.include({ field: 'company_id', code: 'not_found' });
    });

    it('moves an empty area to another company, but not one with members', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const moved = await send('PUT', `/public/v2/areas/${area.id}`, { company_id: otherCompanyId });
      expect(moved.body.company_id).to.equal(otherCompanyId);
      const device = await createDevice(t.url, ws.key, otherCompanyId, { area_id: area.id });
      const refused = await send('PUT', `/public/v2/areas/${area.id}`, { company_id: companyId });
      expect(refused.status).to.equal(422);
      expect(refused.body.error.details[0]).to.include({ field: 'company_id', code: 'area_not_empty' });
      expect((await get(`/public/v2/areas/${area.id}`)).body).to.include({ company_id: otherCompanyId });
      expect((await get(`/public/v2/areas/${area.id}`)).body.device_ids).to.deep.equal([device.id]);
    });

    it('deleting a company is refused while it owns areas', async () => {
      const company = await createCompany(t.url, ws.key);
      const area = await createArea(t.url, ws.key, company.id);
      const refused = await rest(t.url, 'DELETE', `/public/v2/companies/${company.id}`, { key: ws.key });
      expect(refused.status).to.equal(409);
      expect(refused.body.error.code).to.equal('resource_in_use');
      expect(refused.body.error.message).to.contain('1 area(s)');
      await rest(t.url, 'DELETE', `/public/v2/areas/${area.id}`, { key: ws.key });
      const done = await gql(t.url, ws.key, 'mutation ($id: Int!) { deleteCompany(id: $id) { id } }', { id: company.id });
      expect(done.errors).to.equal(undefined);
    });
  });

  describe('membership', () => {
    it('a list of areas reads all their members in one query per kind (DataLoader); each area gets its own', async () => {
      const company = (await createCompany(t.url, ws.key)).id;
      const [a1, a2, a3] = [await createArea(t.url, ws.key, company), await createArea(t.url, ws.key, company), await createArea(t.url, ws.key, company)];
      const [e1, e2, e3] = [
        await createEmployee(t.url, ws.key, company),
        await createEmployee(t.url, ws.key, company),
        await createEmployee(t.url, ws.key, company),
      ];
      const [d1, d2] = [await createDevice(t.url, ws.key, company), await createDevice(t.url, ws.key, company)];
      await send('POST', `/public/v2/areas/${a1.id}/employees`, [{ employee_id: e1.id }, { employee_id: e2.id }]);
      await send('POST', `/public/v2/areas/${a2.id}/employees`, [{ employee_id: e3.id }, { employee_id: e1.id }]);
      await send('POST', `/public/v2/areas/${a1.id}/devices`, [{ device_id: d1.id }]);
      await send('POST', `/public/v2/areas/${a3.id}/devices`, [{ device_id: d2.id }]);

      // Every statement the ORM runs during the request.
      const { result: data, statements } = await statementsDuring(t.app, () =>
        gqlData(t.url, ws.key, `{ areas(companyId: ${company}, first: 10) { nodes { id employeeIds deviceIds } } }`),
      );
      expect(data.areas.nodes).to.deep.equal([
        { id: a1.id, employeeIds: [e1.id, e2.id], deviceIds: [d1.id] },
        { id: a2.id, employeeIds: [e1.id, e3.id], deviceIds: [] },
        { id: a3.id, employeeIds: [], deviceIds: [d2.id] },
      ]);
      // (Matched quoted or not: the ORM's own queries quote table names.)
      expect(
        statements.filter((sql) => /from "?area_employee"?/.test(sql)),
        statements.join('\n'),
      ).to.have.length(1);
      expect(
        statements.filter((sql) => /from "?device"?( |$)/.test(sql)),
        statements.join('\n'),
      ).to.have.length(1);
    });

    it('adds, lists, removes and syncs employees; area.employee_ids and employee.area_ids follow', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const second = await createArea(t.url, ws.key, companyId);
      // Created one after the other so that ids ascend in creation order (lists are ordered by id).
      const e1 = await createEmployee(t.url, ws.key, companyId);
      const e2 = await createEmployee(t.url, ws.key, companyId);
      const e3 = await createEmployee(t.url, ws.key, companyId);
      const path = `/public/v2/areas/${area.id}/employees`;
      const added = await send('POST', path, [{ employee_id: e1.id }, { employee_id: e2.id }]);
      expect(added.status).to.equal(200);
      expect(added.body.map((e: any) => e.id)).to.deep.equal([e1.id, e2.id]);
      expect(added.body[0]).to.include({ name: 'Ada', company_id: companyId });
      expect(
        added.body.map((e: any) => e.area_ids),
        'the members returned carry their area ids',
      ).to.deep.equal([[area.id], [area.id]]);
      const inSecond = await send('POST', `/public/v2/areas/${second.id}/employees`, [{ employee_id: e1.id }]);
      expect(inSecond.body.map((e: any) => e.area_ids)).to.deep.equal([[area.id, second.id]]);
      const updated = await send('PUT', `/public/v2/employees/${e1.id}`, { lastname: 'Byron' });
      expect(updated.body, 'an updated employee carries its area ids')
        .to.include({ lastname: 'Byron' })
        .and.to.have.deep.property('area_ids', [area.id, second.id]);
      expect((await get(`/public/v2/employees/${e1.id}`)).body.area_ids, 'an employee may be in several areas').to.deep.equal([area.id, second.id]);
      const listed = (await get(`/public/v2/employees?company_id=${companyId}&per_page=1000`)).body as Array<{ id: number; area_ids: number[] }>;
      const areasOf = new Map(listed.map((e) => [e.id, e.area_ids]));
      expect(
        [e1, e2, e3].map((e) => areasOf.get(e.id)),
        'a list page reads its area ids in one batch, each employee gets its own',
      ).to.deep.equal([[area.id, second.id], [area.id], []]);
      expect((await get(path)).body.map((e: any) => [e.id, e.area_ids])).to.deep.equal([
        [e1.id, [area.id, second.id]],
        [e2.id, [area.id]],
      ]);
      expect((await get(`/public/v2/areas/${area.id}`)).body.employee_ids).to.deep.equal([e1.id, e2.id]);

      const again = await send('POST', path, [{ employee_id: e1.id }]);
      expect(
        again.body.map((e: any) => e.id),
        'adding a member again changes nothing',
      ).to.deep.equal([e1.id, e2.id]);
      const removed = await send('DELETE', path, [{ employee_id: e1.id }, { employee_id: e3.id }]);
      expect(removed.status).to.equal(200);
      expect(removed.body.map((e: any) => e.id)).to.deep.equal([e2.id]);
      expect((await get(`/public/v2/employees/${e1.id}`)).body.area_ids).to.deep.equal([second.id]);

      const synced = await send('POST', `${path}/sync`, [{ employee_id: e3.id }, { employee_id: e1.id }]);
      expect(synced.status).to.equal(200);
      expect(synced.body.map((e: any) => [e.id, e.area_ids])).to.deep.equal([
        [e1.id, [area.id, second.id]],
        [e3.id, [area.id]],
      ]);
      const cleared = await send('POST', `${path}/sync`, []);
      expect(cleared.body).to.deep.equal([]);
      expect((await get(`/public/v2/areas/${area.id}`)).body.employee_ids).to.deep.equal([]);
    });

    it('adds, lists, removes and syncs devices; a device is in at most one area and moves when added elsewhere', async () => {
      const a = await createArea(t.url, ws.key, companyId);
      const b = await createArea(t.url, ws.key, companyId);
      // Created one after the other so that d1 has the lower id (lists are ordered by id).
      const d1 = await createDevice(t.url, ws.key, companyId);
      const d2 = await createDevice(t.url, ws.key, companyId);
      const added = await send('POST', `/public/v2/areas/${a.id}/devices`, [{ device_id: d1.id }, { device_id: d2.id }]);
      expect(added.status).to.equal(200);
      expect(added.body.map((d: any) => [d.id, d.area_id])).to.deep.equal([
        [d1.id, a.id],
        [d2.id, a.id],
      ]);
      await send('POST', `/public/v2/areas/${b.id}/devices`, [{ device_id: d2.id }]);
      expect((await get(`/public/v2/areas/${a.id}`)).body.device_ids).to.deep.equal([d1.id]);
      expect((await get(`/public/v2/devices/${d2.id}`)).body.area_id).to.equal(b.id);
      expect((await get(`/public/v2/areas/${b.id}/devices`)).body.map((d: any) => d.id)).to.deep.equal([d2.id]);
      const removed = await send('DELETE', `/public/v2/areas/${a.id}/devices`, [{ device_id: d1.id }, { device_id: d2.id }]);
      expect(removed.body).to.deep.equal([]);
      expect((await get(`/public/v2/devices/${d2.id}`)).body.area_id, 'removing from A leaves a device of B alone').to.equal(b.id);
      const synced = await send('POST', `/public/v2/areas/${a.id}/devices/sync`, [{ device_id: d1.id }]);
      expect(synced.body.map((d: any) => d.id)).to.deep.equal([d1.id]);
      const resynced = await send('POST', `/public/v2/areas/${b.id}/devices/sync`, []);
      expect(resynced.body).to.deep.equal([]);
      expect((await get(`/public/v2/devices/${d2.id}`)).body.area_id).to.equal(null);
    });

    it('device create and update set area_id; the area must be of the same company', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const foreignArea = await createArea(t.url, ws.key, otherCompanyId);
      const device = await createDevice(t.url, ws.key, companyId, { area_id: area.id });
      expect(device.area_id).to.equal(area.id);
      const cross = await send('PUT', `/public/v2/devices/${device.id}`, { area_id: foreignArea.id });
      expect(cross.status).to.equal(422);
      expect(cross.body.error.details[0]).to.include({ field: 'area_id', code: 'cross_company' });
      const cleared = await send('PUT', `/public/v2/devices/${device.id}`, { device: { area_id: null } });
      expect(cleared.body.area_id).to.equal(null);
      const g = await gqlData(t.url, ws.key, 'mutation ($id: Int!, $a: Int) { updateDevice(id: $id, input: { areaId: $a }) { areaId } }', {
        id: device.id,
        a: area.id,
      });
      expect(g.updateDevice.areaId).to.equal(area.id);
      const moved = await send('PUT', `/public/v2/devices/${device.id}`, { company_id: otherCompanyId });
      expect(moved.body.area_id, 'moving to another company takes the device out of its area').to.equal(null);
    });

    it('refuses members of another company naming their ids, and the request changes nothing', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const mine = await createEmployee(t.url, ws.key, companyId);
      const theirs = await createEmployee(t.url, ws.key, otherCompanyId);
      const r = await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: mine.id }, { employee_id: theirs.id }, { employee_id: 999999 }]);
      expect(r.status).to.equal(422);
      expect(r.body.error.details).to.deep.include({ field: 'items.1.employee_id', code: 'cross_company', message: r.body.error.details[0].message });
      expect(r.body.error.details[0].message).to.contain(String(theirs.id));
      expect(r.body.error.details[1]).to.include({ field: 'items.2.employee_id', code: 'not_found' });
      expect(r.body.error.details[1].message).to.contain('999999');
      expect((await get(`/public/v2/areas/${area.id}`)).body.employee_ids).to.deep.equal([]);
      const device = await createDevice(t.url, ws.key, otherCompanyId);
      const d = await send('POST', `/public/v2/areas/${area.id}/devices/sync`, [{ device_id: device.id }]);
      expect(d.body.error.details[0]).to.include({ field: 'items.0.device_id', code: 'cross_company' });
    });

    it('refuses malformed membership bodies with 422', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const e = await createEmployee(t.url, ws.key, companyId);
      const path = `/public/v2/areas/${area.id}/employees`;
      const cases: [unknown, string, string][] = [
        [{ employee_id: e.id }, 'items', 'invalid_type'],
        [[], 'items', 'empty'],
        [[{ employee_id: 'x' }], 'items.0.employee_id', 'invalid_type'],
        [[{ employee_id: e.id, role: 1 }], 'items.0.role', 'unknown_field'],
        [[{ employee_id: e.id }, { employee_id: e.id }], 'items.1.employee_id', 'duplicate'],
        [Array.from({ length: 1001 }, (_, i) => ({ employee_id: i + 1 })), 'items', 'too_many_items'],
      ];
      for (const [body, field, code] of cases) {
        const r = await send('POST', path, body);
        expect(r.status, JSON.stringify(body).slice(0, 80)).to.equal(422);
        expect(r.body.error.details[0], JSON.stringify(body).slice(0, 80)).to.include({ field, code });
      }
      expect((await get(`/public/v2/areas/${area.id}`)).body.employee_ids).to.deep.equal([]);
    });

    it('GraphQL membership mutations and queries', async () => {
      const area = await createArea(t.url, ws.key, companyId);
      const e = await createEmployee(t.url, ws.key, companyId);
      const d = await createDevice(t.url, ws.key, companyId);
      const run = (op: string, items: unknown[]) =>
        gqlData(
          t.url,
          ws.key,
          `mutation ($a: Int!, $items: [${op.includes('Device') ? 'Device' : 'Employee'}RefInput!]!) { ${op}(areaId: $a, items: $items) { id } }`,
          { a: area.id, items },
        );
      expect((await run('addAreaEmployees', [{ employeeId: e.id }])).addAreaEmployees).to.deep.equal([{ id: e.id }]);
      expect((await run('addAreaDevices', [{ deviceId: d.id }])).addAreaDevices).to.deep.equal([{ id: d.id }]);
      const q = await gqlData(
        t.url,
        ws.key,
        'query ($a: String!, $id: Int!) { area(idOrName: $a) { deviceIds employeeIds } areaEmployees(areaId: $id) { totalCount } areaDevices(areaId: $id) { nodes { areaId } } }',
        { a: String(area.id), id: area.id },
      );
      expect(q.area).to.deep.equal({ deviceIds: [d.id], employeeIds: [e.id] });
      expect(q.areaEmployees.totalCount).to.equal(1);
      expect(q.areaDevices.nodes).to.deep.equal([{ areaId: area.id }]);
      expect((await run('removeAreaEmployees', [{ employeeId: e.id }])).removeAreaEmployees).to.deep.equal([]);
      expect((await run('syncAreaEmployees', [{ employeeId: e.id }])).syncAreaEmployees).to.deep.equal([{ id: e.id }]);
      expect((await run('removeAreaDevices', [{ deviceId: d.id }])).removeAreaDevices).to.deep.equal([]);
      expect((await run('syncAreaDevices', [{ deviceId: d.id }])).syncAreaDevices).to.deep.equal([{ id: d.id }]);
      const deleted = await gqlData(t.url, ws.key, 'mutation ($id: Int!) { deleteArea(id: $id) { id } }', { id: area.id });
      expect(deleted.deleteArea.id).to.equal(area.id);
      expect((await get(`/public/v2/devices/${d.id}`)).body.area_id, 'deleting the area ends its memberships').to.equal(null);
      expect((await get(`/public/v2/employees/${e.id}`)).body.area_ids).to.deep.equal([]);
    });
  });

  describe('tenant isolation', () => {
    it("workspace B gets 404 for A's area on every route, and A's area is unchanged", async () => {
      const area = await createArea(t.url, ws.key, companyId, { name: unique('Secret') });
      const e = await createEmployee(t.url, ws.key, companyId);
      await send('POST', `/public/v2/areas/${area.id}/employees`, [{ employee_id: e.id }]);
      const before = (await get(`/public/v2/areas/${area.id}`)).body;
      const b = await createWorkspace(t.url);
      const bEmployee = await createEmployee(t.url, b.key, (await createCompany(t.url, b.key)).id);
      const bDevice = await createDevice(t.url, b.key, bEmployee.company_id);
      const base = `/public/v2/areas/${area.id}`;
      const calls: [string, string, unknown?][] = [
        ['GET', base],
        ['GET', `/public/v2/areas/${encodeURIComponent(area.name)}`],
        ['PUT', base, { name: 'Taken' }],
        ['DELETE', base],
        ['GET', `${base}/employees`],
        ['POST', `${base}/employees`, [{ employee_id: bEmployee.id }]],
        ['DELETE', `${base}/employees`, [{ employee_id: bEmployee.id }]],
        ['POST', `${base}/employees/sync`, []],
        ['GET', `${base}/devices`],
        ['POST', `${base}/devices`, [{ device_id: bDevice.id }]],
        ['DELETE', `${base}/devices`, [{ device_id: bDevice.id }]],
        ['POST', `${base}/devices/sync`, []],
      ];
      for (const [method, path, body] of calls) {
        const r = await rest(t.url, method, path, { key: b.key, body });
        expect(r.status, `${method} ${path}`).to.equal(404);
        expect(r.body.error.code).to.equal('not_found');
      }
      expect((await get('/public/v2/areas', b.key)).body).to.deep.equal([]);
      expect((await get(`/public/v2/areas/${area.id}`)).body).to.deep.equal(before);
      const own = await createArea(t.url, b.key, bEmployee.company_id);
      const foreign = await send('POST', `/public/v2/areas/${own.id}/employees`, [{ employee_id: e.id }], b.key);
      expect(foreign.status).to.equal(422);
      expect(foreign.body.error.details[0]).to.include({ field: 'items.0.employee_id', code: 'not_found' });
    });
  });
});
