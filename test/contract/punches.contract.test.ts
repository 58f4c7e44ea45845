import { expect } from 'chai';
import { checkContract } from '../support/contract';
import { createCompany, createDevice, createEmployee, createWorkspace, setWorkspaceTimeZone, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

const fields = `id companyId employeeId deviceId deviceSerial pin punchTime localTime timeZone punchState
  verifyType verifyCode recordType workCode deviceRecordIndex receivedAt voidedAt voidReason
  source latitude longitude accuracyM geofenceId offlineQueued`;

describe('contract: punches (REST = GraphQL)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let ids: { employee: number; device: number; company: number; otherEmployee: number };
  before(async () => {
    t = await startTestApp({}, 'punches-contract');
    ws = await createWorkspace(t.url, { maxCompanies: 2 });
    await setWorkspaceTimeZone(t.url, ws.key, 'America/Sao_Paulo');
    const company = await createCompany(t.url, ws.key);
    const company2 = await createCompany(t.url, ws.key);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: '42' });
    const otherEmployee = await createEmployee(t.url, ws.key, company2.id, { pin: '43' });
    const device = await createDevice(t.url, ws.key, company.id, { time_zone: 'Asia/Tokyo' });
    ids = { employee: employee.id, device: device.id, company: company.id, otherEmployee: otherEmployee.id };
  });
  after(() => t.stop());

  const create = (punchTime: string, overrides: { employee?: number; state?: string } = {}) => ({
    rest: {
      method: 'POST' as const,
      path: '/public/v2/punches',
      body: {
        punch: {
          employee_id: overrides.employee ?? ids.employee,
          device_id: ids.device,
          company_id: ids.company,
          punch_time: punchTime,
          punch_state: overrides.state ?? '0',
        },
      },
    },
    graphql: {
      query: `mutation ($input: CreatePunchInput!) { createPunch(input: $input) { created punch { ${fields} } } }`,
      variables: {
        input: { employeeId: overrides.employee ?? ids.employee, deviceId: ids.device, companyId: ids.company, punchTime, punchState: overrides.state ?? '0' },
      },
      field: 'createPunch.punch',
    },
  });

  it('creates a manual punch; the second API gets the same stored punch (idempotence across APIs)', async () => {
    await checkContract(t.url, ws.key, { name: 'create', ...create('2024-03-10T08:00:00'), status: 201 });
  });

  it('refuses the same bad punches with the same codes and fields', async () => {
    await checkContract(t.url, ws.key, { name: 'unknown state', ...create('2024-03-10T09:00:00', { state: '77' }), code: 'validation_failed' });
    await checkContract(t.url, ws.key, { name: 'cross company', ...create('2024-03-10T09:00:00', { employee: ids.otherEmployee }), code: 'validation_failed' });
    await checkContract(t.url, ws.key, { name: 'bad time', ...create('2024-03-10 25:00'), code: 'validation_failed' });
    await checkContract(t.url, ws.key, { name: 'unknown employee', ...create('2024-03-10T09:00:00', { employee: 999999 }), code: 'validation_failed' });
  });

  it('lists, filters and reads alike', async () => {
    await checkContract(t.url, ws.key, { name: 'second punch', ...create('2024-03-11T08:00:00+09:00'), status: 201 });
    await checkContract(t.url, ws.key, {
      name: 'list',
      rest: { method: 'GET', path: '/public/v2/punches' },
      graphql: { query: `{ punches { nodes { ${fields} } } }`, field: 'punches' },
    });
    const { rest } = await checkContract(t.url, ws.key, {
      name: 'filtered',
      rest: {
        method: 'GET',
        path: `/public/v2/punches?start_date=2024-03-09&end_date=2024-03-09&employee_id=${ids.employee}&device_id=${ids.device}&company_id=${ids.company}`,
      },
      graphql: {
        query: `{ punches(startDate: "2024-03-09", endDate: "2024-03-09", employeeId: ${ids.employee}, deviceId: ${ids.device}, companyId: ${ids.company}) { nodes { ${fields} } } }`,
        field: 'punches',
      },
    });
    // 08:00 Tokyo on the 10th is 20:00 on the 9th in the workspace zone (São Paulo); the second punch is on the 10th there.
    expect((rest as any[]).map((p) => p.local_time)).to.deep.equal(['2024-03-10 08:00:00']);
    const punch = (rest as any[])[0];
    await checkContract(t.url, ws.key, {
      name: 'get',
      rest: { method: 'GET', path: `/public/v2/punches/${punch.id}` },
      graphql: { query: `{ punch(id: ${punch.id}) { ${fields} } }`, field: 'punch' },
    });
    await checkContract(t.url, ws.key, {
      name: 'bad filter',
      rest: { method: 'GET', path: '/public/v2/punches?start_date=tomorrow' },
      graphql: { query: `{ punches(startDate: "tomorrow") { totalCount } }`, field: 'punches' },
      code: 'validation_failed',
    });
    const other = await createWorkspace(t.url);
    await checkContract(t.url, other.key, {
      name: 'foreign get',
      rest: { method: 'GET', path: `/public/v2/punches/${punch.id}` },
      graphql: { query: `{ punch(id: ${punch.id}) { id } }`, field: 'punch' },
      code: 'not_found',
    });
  });
});
