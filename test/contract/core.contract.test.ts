import { checkContract, withoutVolatile, type ContractCase } from '../support/contract';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/**
 * The same behaviours through REST and through GraphQL: same data, same error codes. REST routes
 * run GraphQL operations, so any difference here is a mapping bug in the route table.
 */
describe('contract: REST and GraphQL agree (companies, employees, devices)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  let employeeId: number;
  let deviceId: number;
  const companyFields =
    'id name code payPolicy { earlyOvertime overtimeMinMinutes dailyOvertimeAfterMinutes weeklyOvertimeAfterMinutes weekStart doubleTimeAfterMinutes nightStart nightEnd holidayWork restDayWork overtimeRequiresApproval overtimeRatePercent doubleTimeRatePercent nightPremiumPercent holidayRatePercent restDayRatePercent } settings { mobilePunch mobilePunchAccuracyM managerApprovals } createdAt updatedAt';
  const employeeFields = 'id companyId areaIds name lastname code pin email isActive employmentStartDate employmentEndDate createdAt updatedAt';
  const deviceFields =
    'id companyId areaId name serialNumber status modeType timeZone lastSeenAt firmware ip model protocol userCount fingerprintCount faceCount attlogCount clockSkewSeconds clockCheckedAt pairing pairedAt pushCommKeySet allowedSourceCidrs capabilities { doors accessLevels fingerprint face facePhoto userPhoto attendanceBackfill antiPassback interlock firstPersonIn multiPerson capacity { users fingerprints faces records userPhotos } } createdAt updatedAt';

  before(async () => {
    t = await startTestApp({}, 'contract');
    ws = await createWorkspace(t.url, { maxCompanies: 10 });
    companyId = (await createCompany(t.url, ws.key, { code: 'MAIN' })).id;
    employeeId = (await createEmployee(t.url, ws.key, companyId, { pin: '55' })).id;
    deviceId = (await rest(t.url, 'POST', '/public/v2/devices', { key: ws.key, body: { name: 'Front', serial_number: 'CONTRACT001', company_id: companyId } }))
      .body.id;
  });
  after(() => t.stop());

  const cases = (): ContractCase[] => [
    {
      name: 'get company',
      rest: { method: 'GET', path: `/public/v2/companies/${companyId}` },
      graphql: { query: `query ($id: Int!) { company(id: $id) { ${companyFields} } }`, variables: { id: companyId }, field: 'company' },
    },
    {
      name: 'list companies',
      rest: { method: 'GET', path: '/public/v2/companies' },
      graphql: { query: `{ companies { nodes { ${companyFields} } } }`, field: 'companies' },
    },
    {
      name: 'unknown company',
      rest: { method: 'GET', path: '/public/v2/companies/987654' },
      graphql: { query: '{ company(id: 987654) { id } }', field: 'company' },
      code: 'not_found',
    },
    {
      name: 'create company',
      rest: { method: 'POST', path: '/public/v2/companies', body: { name: 'Same', code: 'SAME-R' } },
      graphql: { query: `mutation { createCompany(input: { name: "Same", code: "SAME-G" }) { ${companyFields} } }`, field: 'createCompany' },
      status: 201,
      normalize: withoutVolatile(['id', 'code', 'created_at', 'updated_at']),
    },
    {
      name: 'duplicate company code',
      rest: { method: 'POST', path: '/public/v2/companies', body: { name: 'X', code: 'MAIN' } },
      graphql: { query: 'mutation { createCompany(input: { name: "X", code: "MAIN" }) { id } }', field: 'createCompany' },
      code: 'validation_failed',
    },
    {
      name: 'blank company name',
      rest: { method: 'POST', path: '/public/v2/companies', body: { name: '  ', code: 'BLANK' } },
      graphql: { query: 'mutation { createCompany(input: { name: "  ", code: "BLANK" }) { id } }', field: 'createCompany' },
      code: 'validation_failed',
    },
    {
      name: 'get employee',
      rest: { method: 'GET', path: `/public/v2/employees/${employeeId}` },
      graphql: { query: `query ($id: Int!) { employee(id: $id) { ${employeeFields} } }`, variables: { id: employeeId }, field: 'employee' },
    },
    {
      name: 'list employees filtered by company',
      rest: { method: 'GET', path: `/public/v2/employees?company_id=${companyId}&per_page=5` },
      graphql: {
        query: `query ($c: Int) { employees(companyId: $c, first: 5) { nodes { ${employeeFields} } } }`,
        variables: { c: companyId },
        field: 'employees',
      },
    },
    {
      name: 'create employee',
      rest: { method: 'POST', path: '/public/v2/employees', body: { name: 'N', lastname: 'L', code: 'CR-R', company_id: companyId, email: 'n@example.com' } },
      graphql: {
        query: `mutation ($c: Int!) { createEmployee(input: { name: "N", lastname: "L", code: "CR-G", companyId: $c, email: "n@example.com" }) { ${employeeFields} } }`,
        variables: { c: companyId },
        field: 'createEmployee',
      },
      status: 201,
      normalize: withoutVolatile(['id', 'code', 'created_at', 'updated_at']),
    },
    {
      name: 'duplicate pin in the company',
      rest: { method: 'POST', path: '/public/v2/employees', body: { name: 'N', lastname: 'L', code: 'P-R', company_id: companyId, pin: '55' } },
      graphql: {
        query: 'mutation ($c: Int!) { createEmployee(input: { name: "N", lastname: "L", code: "P-G", companyId: $c, pin: "55" }) { id } }',
        variables: { c: companyId },
        field: 'createEmployee',
      },
      code: 'validation_failed',
    },
    {
      name: 'invalid pin and e-mail name both fields',
      rest: { method: 'POST', path: '/public/v2/employees', body: { name: 'N', lastname: 'L', code: 'V-R', company_id: companyId, pin: 'a b', email: 'x' } },
      graphql: {
        query: 'mutation ($c: Int!) { createEmployee(input: { name: "N", lastname: "L", code: "V-G", companyId: $c, pin: "a b", email: "x" }) { id } }',
        variables: { c: companyId },
        field: 'createEmployee',
      },
      code: 'validation_failed',
    },
    {
      name: 'update employee',
      rest: { method: 'PUT', path: `/public/v2/employees/${employeeId}`, body: { is_active: false, lastname: 'Changed' } },
      graphql: {
        query: `mutation ($id: Int!) { updateEmployee(id: $id, input: { isActive: false, lastname: "Changed" }) { ${employeeFields} } }`,
        variables: { id: employeeId },
        field: 'updateEmployee',
      },
      normalize: withoutVolatile(['updated_at']),
    },
    {
      name: 'unknown employee',
      rest: { method: 'PUT', path: '/public/v2/employees/987654', body: { name: 'x' } },
      graphql: { query: 'mutation { updateEmployee(id: 987654, input: { name: "x" }) { id } }', field: 'updateEmployee' },
      code: 'not_found',
    },
    {
      name: 'get device',
      rest: { method: 'GET', path: `/public/v2/devices/${deviceId}` },
      graphql: { query: `query ($id: Int!) { device(id: $id) { ${deviceFields} } }`, variables: { id: deviceId }, field: 'device' },
    },
    {
      name: 'list devices (v1)',
      rest: { method: 'GET', path: '/v1/devices' },
      graphql: { query: `{ devices { nodes { ${deviceFields} } } }`, field: 'devices' },
    },
    {
      name: 'duplicate serial number',
      rest: { method: 'POST', path: '/public/v2/devices', body: { name: 'D', serial_number: 'CONTRACT001', company_id: companyId } },
      graphql: {
        query: 'mutation ($c: Int!) { createDevice(input: { name: "D", serialNumber: "CONTRACT001", companyId: $c }) { id } }',
        variables: { c: companyId },
        field: 'createDevice',
      },
      code: 'validation_failed',
    },
    {
      name: 'company still in use',
      rest: { method: 'DELETE', path: `/public/v2/companies/${companyId}` },
      graphql: { query: 'mutation ($id: Int!) { deleteCompany(id: $id) { id } }', variables: { id: companyId }, field: 'deleteCompany' },
      code: 'resource_in_use',
    },
  ];

  it('every case gives the same data or the same error code through both APIs', async () => {
    for (const c of cases()) await checkContract(t.url, ws.key, c);
  });
});
