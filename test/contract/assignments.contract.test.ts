import { checkContract } from '../support/contract';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const ASSIGNMENT =
  'employeeId deviceId permissionId source areaId syncStatus returnCode employeeName employeeLastname employeePin deviceName deviceSerialNumber';

describe('contract: assignments through REST and GraphQL', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'assignments_contract');
    ws = await createWorkspace(t.url, { maxCompanies: 2 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  it('add (idempotent for the same permission), list, remove and sync give the same data', async () => {
    const e = await createEmployee(t.url, ws.key, companyId, { pin: '100' });
    const d = await createDevice(t.url, ws.key, companyId);
    const add = `mutation ($e: Int!, $items: [DevicePermissionInput!]!) { assignDevicesToEmployee(employeeId: $e, items: $items) { ${ASSIGNMENT} } }`;
    await checkContract(t.url, ws.key, {
      name: 'add',
      rest: { method: 'POST', path: `/public/v2/employees/${e.id}/devices`, body: [{ device_id: d.id, permission_id: 6 }] },
      graphql: { query: add, variables: { e: e.id, items: [{ deviceId: d.id, permissionId: 6 }] }, field: 'assignDevicesToEmployee' },
    });
    await checkContract(t.url, ws.key, {
      name: 'list by device',
      rest: { method: 'GET', path: `/public/v2/devices/${d.id}/employees` },
      graphql: { query: `query ($d: Int!) { deviceEmployees(deviceId: $d) { nodes { ${ASSIGNMENT} } } }`, variables: { d: d.id }, field: 'deviceEmployees' },
    });
    await checkContract(t.url, ws.key, {
      name: 'sync by device',
      rest: { method: 'POST', path: `/public/v2/devices/${d.id}/employees/sync`, body: [{ employee_id: e.id, permission_id: 2 }] },
      graphql: {
        query: `mutation ($d: Int!, $e: Int!) { syncDeviceEmployees(deviceId: $d, items: [{ employeeId: $e, permissionId: 2 }]) { ${ASSIGNMENT} } }`,
        variables: { d: d.id, e: e.id },
        field: 'syncDeviceEmployees',
      },
    });
    await checkContract(t.url, ws.key, {
      name: 'remove (the second run removes nothing more)',
      rest: { method: 'DELETE', path: `/public/v2/employees/${e.id}/devices`, body: [{ device_id: d.id }] },
      graphql: {
        query: `mutation ($e: Int!, $d: Int!) { removeDevicesFromEmployee(employeeId: $e, items: [{ deviceId: $d }]) { ${ASSIGNMENT} } }`,
        variables: { e: e.id, d: d.id },
        field: 'removeDevicesFromEmployee',
      },
    });
  });

  it('the same errors name the same fields', async () => {
    const e = await createEmployee(t.url, ws.key, companyId, { pin: '200' });
    const noPin = await createEmployee(t.url, ws.key, companyId);
    const d = await createDevice(t.url, ws.key, companyId);
    const other = await createDevice(t.url, ws.key, (await createCompany(t.url, ws.key)).id);
    const add = 'mutation ($e: Int!, $items: [DevicePermissionInput!]!) { assignDevicesToEmployee(employeeId: $e, items: $items) { deviceId } }';
    const cases: [string, number, { device_id: number; permission_id: number }[]][] = [
      ['bad permission', e.id, [{ device_id: d.id, permission_id: 1 }]],
      [
        'cross-company',
        e.id,
        [
          { device_id: d.id, permission_id: 0 },
          { device_id: other.id, permission_id: 0 },
        ],
      ],
      [
        'duplicate',
        e.id,
        [
          { device_id: d.id, permission_id: 0 },
          { device_id: d.id, permission_id: 2 },
        ],
      ],
      ['unknown id', e.id, [{ device_id: 999999, permission_id: 0 }]],
      ['empty', e.id, []],
      ['no pin', noPin.id, [{ device_id: d.id, permission_id: 0 }]],
    ];
    for (const [name, employeeId, items] of cases) {
      await checkContract(t.url, ws.key, {
        name,
        code: 'validation_failed',
        rest: { method: 'POST', path: `/public/v2/employees/${employeeId}/devices`, body: items },
        graphql: {
          query: add,
          variables: { e: employeeId, items: items.map((i) => ({ deviceId: i.device_id, permissionId: i.permission_id })) },
          field: 'assignDevicesToEmployee',
        },
      });
    }
    await checkContract(t.url, ws.key, {
      name: 'unknown device in the path',
      code: 'not_found',
      rest: { method: 'GET', path: '/public/v2/devices/999999/employees' },
      graphql: { query: '{ deviceEmployees(deviceId: 999999) { totalCount } }', field: 'deviceEmployees' },
    });
  });
});
