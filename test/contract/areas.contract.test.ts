import { checkContract, withoutVolatile } from '../support/contract';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, unique, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

const AREA = 'id name code companyId deviceIds employeeIds createdAt updatedAt';

describe('contract: areas through REST and GraphQL', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'areas_contract');
    ws = await createWorkspace(t.url, { maxCompanies: 2 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  it('get by id and by name', async () => {
    const area = await createArea(t.url, ws.key, companyId, { name: 'Lab' });
    for (const ref of [String(area.id), 'Lab']) {
      await checkContract(t.url, ws.key, {
        name: `get ${ref}`,
        rest: { method: 'GET', path: `/public/v2/areas/${ref}` },
        graphql: { query: `query ($v: String!) { area(idOrName: $v) { ${AREA} } }`, variables: { v: ref }, field: 'area' },
      });
    }
  });

  it('list', async () => {
    await checkContract(t.url, ws.key, {
      name: 'list',
      rest: { method: 'GET', path: '/public/v2/areas' },
      graphql: { query: `{ areas { nodes { ${AREA} } } }`, field: 'areas' },
    });
  });

  it('create (201) and update return the same data', async () => {
    await checkContract(t.url, ws.key, {
      name: 'create',
      status: 201,
      rest: { method: 'POST', path: '/public/v2/areas', body: { area: { name: 'Hall', code: 'H1', company_id: companyId } } },
      graphql: {
        query: `mutation ($i: CreateAreaInput!) { createArea(input: $i) { ${AREA} } }`,
        variables: { i: { name: 'Hall', code: 'H2', companyId } },
        field: 'createArea',
      },
      normalize: withoutVolatile(['id', 'code', 'created_at', 'updated_at']),
    });
    const area = await createArea(t.url, ws.key, companyId);
    await checkContract(t.url, ws.key, {
      name: 'update',
      rest: { method: 'PUT', path: `/public/v2/areas/${area.id}`, body: { name: 'Renamed' } },
      graphql: {
        query: `mutation ($id: Int!) { updateArea(id: $id, input: { name: "Renamed" }) { ${AREA} } }`,
        variables: { id: area.id },
        field: 'updateArea',
      },
      normalize: withoutVolatile(['updated_at']),
    });
  });

  it('the same errors: unknown area, duplicate code, foreign company, cross-company member, too many items', async () => {
    const area = await createArea(t.url, ws.key, companyId, { code: unique('D') });
    await checkContract(t.url, ws.key, {
      name: 'unknown',
      code: 'not_found',
      rest: { method: 'DELETE', path: '/public/v2/areas/999999' },
      graphql: { query: 'mutation { deleteArea(id: 999999) { id } }', field: 'deleteArea' },
    });
    await checkContract(t.url, ws.key, {
      name: 'duplicate code',
      code: 'validation_failed',
      rest: { method: 'POST', path: '/public/v2/areas', body: { name: 'X', code: area.code, company_id: companyId } },
      graphql: {
        query: 'mutation ($i: CreateAreaInput!) { createArea(input: $i) { id } }',
        variables: { i: { name: 'X', code: area.code, companyId } },
        field: 'createArea',
      },
    });
    const other = await createCompany(t.url, ws.key);
    const stranger = await createEmployee(t.url, ws.key, other.id);
    await checkContract(t.url, ws.key, {
      name: 'cross-company member',
      code: 'validation_failed',
      rest: { method: 'POST', path: `/public/v2/areas/${area.id}/employees`, body: [{ employee_id: stranger.id }] },
      graphql: {
        query: 'mutation ($a: Int!, $e: Int!) { addAreaEmployees(areaId: $a, items: [{ employeeId: $e }]) { id } }',
        variables: { a: area.id, e: stranger.id },
        field: 'addAreaEmployees',
      },
    });
    const items = Array.from({ length: 1001 }, (_, i) => ({ device_id: i + 1 }));
    await checkContract(t.url, ws.key, {
      name: 'too many',
      code: 'validation_failed',
      rest: { method: 'POST', path: `/public/v2/areas/${area.id}/devices/sync`, body: items },
      graphql: {
        query: 'mutation ($a: Int!, $items: [DeviceRefInput!]!) { syncAreaDevices(areaId: $a, items: $items) { id } }',
        variables: { a: area.id, items: items.map((i) => ({ deviceId: i.device_id })) },
        field: 'syncAreaDevices',
      },
    });
  });

  it('membership lists and changes', async () => {
    const area = await createArea(t.url, ws.key, companyId);
    const e = await createEmployee(t.url, ws.key, companyId);
    const d = await createDevice(t.url, ws.key, companyId);
    await checkContract(t.url, ws.key, {
      name: 'add employees',
      rest: { method: 'POST', path: `/public/v2/areas/${area.id}/employees`, body: [{ employee_id: e.id }] },
      graphql: {
        query:
          'mutation ($a: Int!, $e: Int!) { addAreaEmployees(areaId: $a, items: [{ employeeId: $e }]) { id companyId name lastname code pin email isActive employmentStartDate employmentEndDate areaIds createdAt updatedAt } }',
        variables: { a: area.id, e: e.id },
        field: 'addAreaEmployees',
      },
    });
    await checkContract(t.url, ws.key, {
      name: 'sync devices',
      rest: { method: 'POST', path: `/public/v2/areas/${area.id}/devices/sync`, body: [{ device_id: d.id }] },
      graphql: {
        query: 'mutation ($a: Int!, $d: Int!) { syncAreaDevices(areaId: $a, items: [{ deviceId: $d }]) { id areaId name serialNumber } }',
        variables: { a: area.id, d: d.id },
        field: 'syncAreaDevices',
      },
      normalize: (list: any[]) => list.map(({ id, area_id, name, serial_number }) => ({ id, area_id, name, serial_number })),
    });
    await checkContract(t.url, ws.key, {
      name: 'list employees',
      rest: { method: 'GET', path: `/public/v2/areas/${area.id}/employees` },
      graphql: {
        query:
          'query ($a: Int!) { areaEmployees(areaId: $a) { nodes { id companyId name lastname code pin email isActive employmentStartDate employmentEndDate areaIds createdAt updatedAt } } }',
        variables: { a: area.id },
        field: 'areaEmployees',
      },
    });
    const removed = await rest(t.url, 'DELETE', `/public/v2/areas/${area.id}/devices`, { key: ws.key, body: [{ device_id: d.id }] });
    if (removed.status !== 200) throw new Error(removed.text);
  });
});
