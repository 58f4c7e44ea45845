import { expect } from 'chai';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, rest } from '../support/http';
import { snapshotChanges, tableCounts, workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

interface BadInput {
  name: string;
  method: 'POST' | 'PUT' | 'DELETE';
  path: () => string;
  rawBody?: string | Buffer;
  body?: unknown;
  contentType?: string | null;
  status: number;
  code: string;
  field?: string;
}

describe('bad input on REST bodies: a precise 4xx and nothing stored', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  let employeeId: number;
  let deviceId: number;
  let areaId: number;
  const employee = (extra: Record<string, unknown> = {}) => ({ name: 'A', lastname: 'B', code: 'BAD1', company_id: companyId, ...extra });

  before(async () => {
    t = await startTestApp({}, 'badinput');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key)).id;
    employeeId = (await createEmployee(t.url, ws.key, companyId, { pin: '9' })).id;
    deviceId = (await createDevice(t.url, ws.key, companyId)).id;
    areaId = (await createArea(t.url, ws.key, companyId)).id;
  });
  after(() => t.stop());

  const cases = (): BadInput[] => [
    { name: 'malformed JSON', method: 'POST', path: () => '/public/v2/employees', rawBody: '{"name": "A",', status: 400, code: 'malformed_json' },
    {
      name: 'truncated JSON string',
      method: 'PUT',
      path: () => `/public/v2/employees/${employeeId}`,
      rawBody: '{"name": "A',
      status: 400,
      code: 'malformed_json',
    },
    {
      name: 'a JSON array instead of an object',
      method: 'POST',
      path: () => '/public/v2/companies',
      body: [{ name: 'x', code: 'y' }],
      status: 422,
      code: 'validation_failed',
      field: 'body',
    },
    { name: 'a JSON string', method: 'POST', path: () => '/public/v2/companies', rawBody: '"company"', status: 422, code: 'validation_failed', field: 'body' },
    { name: 'JSON null', method: 'POST', path: () => '/public/v2/companies', rawBody: 'null', status: 422, code: 'validation_failed', field: 'body' },
    { name: 'empty body', method: 'POST', path: () => '/public/v2/companies', rawBody: '', status: 422, code: 'validation_failed' },
    {
      name: 'wrong type: company_id as string',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ company_id: String(companyId) }),
      status: 422,
      code: 'validation_failed',
      field: 'company_id',
    },
    {
      name: 'wrong type: name as number',
      method: 'POST',
      path: () => '/public/v2/companies',
      body: { name: 12, code: 'x' },
      status: 422,
      code: 'validation_failed',
      field: 'name',
    },
    {
      name: 'wrong type: is_active as string',
      method: 'PUT',
      path: () => `/public/v2/employees/${employeeId}`,
      body: { is_active: 'false' },
      status: 422,
      code: 'validation_failed',
      field: 'is_active',
    },
    {
      name: 'wrong type: pin as number',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ pin: 123 }),
      status: 422,
      code: 'validation_failed',
      field: 'pin',
    },
    {
      name: 'id beyond 32 bits',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ company_id: 2 ** 40 }),
      status: 422,
      code: 'validation_failed',
      field: 'company_id',
    },
    {
      name: 'missing required field',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: { name: 'A', code: 'x', company_id: companyId },
      status: 422,
      code: 'validation_failed',
      field: 'lastname',
    },
    {
      name: 'missing required field (wrapped)',
      method: 'POST',
      path: () => '/public/v2/companies',
      body: { company: { name: 'A' } },
      status: 422,
      code: 'validation_failed',
      field: 'code',
    },
    {
      name: 'unknown field',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ nickname: 'x' }),
      status: 422,
      code: 'validation_failed',
      field: 'nickname',
    },
    {
      name: 'unknown field next to the wrapper',
      method: 'POST',
      path: () => '/public/v2/companies',
      body: { company: { name: 'a', code: 'b' }, extra: 1 },
      status: 422,
      code: 'validation_failed',
      field: 'company',
    },
    {
      name: 'camelCase instead of snake_case',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: { name: 'A', lastname: 'B', code: 'x', companyId },
      status: 422,
      code: 'validation_failed',
      field: 'companyId',
    },
    {
      name: 'NUL inside a string',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ name: 'A\u0000B' }),
      status: 422,
      code: 'validation_failed',
      field: 'name',
    },
    {
      name: 'TAB inside a name (would break terminal commands)',
      method: 'PUT',
      path: () => `/public/v2/employees/${employeeId}`,
      body: { lastname: 'a\tb' },
      status: 422,
      code: 'validation_failed',
      field: 'lastname',
    },
    {
      name: 'too long',
      method: 'POST',
      path: () => '/public/v2/companies',
      body: { name: 'x'.repeat(201), code: 'y' },
      status: 422,
      code: 'validation_failed',
      field: 'name',
    },
    {
      name: 'a 2 MB body',
      method: 'POST',
      path: () => '/public/v2/companies',
      rawBody: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024), code: 'big' }),
      status: 413,
      code: 'payload_too_large',
    },
    {
      name: 'text/plain Content-Type',
      method: 'POST',
      path: () => '/public/v2/companies',
      rawBody: '{"name":"a","code":"b"}',
      contentType: 'text/plain',
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'form Content-Type',
      method: 'PUT',
      path: () => `/public/v2/employees/${employeeId}`,
      rawBody: 'name=a',
      contentType: 'application/x-www-form-urlencoded',
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'no Content-Type',
      method: 'POST',
      path: () => '/public/v2/companies',
      rawBody: '{"name":"a","code":"b"}',
      contentType: null,
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      name: 'duplicate code',
      method: 'POST',
      path: () => '/public/v2/employees',
      body: employee({ code: 'KEEP' }),
      status: 422,
      code: 'validation_failed',
      field: 'code',
    },
    {
      name: 'unknown device mode',
      method: 'POST',
      path: () => '/public/v2/devices',
      body: { name: 'd', serial_number: 'S1', company_id: companyId, mode_type: 'door' },
      status: 422,
      code: 'validation_failed',
      field: 'mode_type',
    },
    {
      name: 'serial number with spaces',
      method: 'POST',
      path: () => '/public/v2/devices',
      body: { name: 'd', serial_number: 'S 1', company_id: companyId },
      status: 422,
      code: 'validation_failed',
      field: 'serial_number',
    },
    {
      name: 'area: name as a number',
      method: 'POST',
      path: () => '/public/v2/areas',
      body: { name: 5, code: 'A', company_id: companyId },
      status: 422,
      code: 'validation_failed',
      field: 'name',
    },
    {
      name: 'area: missing code (wrapped)',
      method: 'POST',
      path: () => '/public/v2/areas',
      body: { area: { name: 'Hall', company_id: companyId } },
      status: 422,
      code: 'validation_failed',
      field: 'code',
    },
    {
      name: 'verification state: value not numeric',
      method: 'POST',
      path: () => '/public/v2/verification_states',
      body: { name: 'Lunch', value: 'abc' },
      status: 422,
      code: 'validation_failed',
      field: 'value',
    },
    {
      name: 'verification state: value taken',
      method: 'POST',
      path: () => '/public/v2/verification_states',
      body: { name: 'Again', value: '0' },
      status: 422,
      code: 'validation_failed',
      field: 'value',
    },
    {
      name: 'punch: unreadable time',
      method: 'POST',
      path: () => '/public/v2/punches',
      body: { employee_id: employeeId, device_id: deviceId, company_id: companyId, punch_time: 'yesterday', punch_state: '0' },
      status: 422,
      code: 'validation_failed',
      field: 'punch_time',
    },
    {
      name: 'punch: unknown state',
      method: 'POST',
      path: () => '/public/v2/punches',
      body: { employee_id: employeeId, device_id: deviceId, company_id: companyId, punch_time: '2026-01-05T08:00:00Z', punch_state: '99' },
      status: 422,
      code: 'validation_failed',
      field: 'punch_state',
    },
    {
      name: 'assignments: an object instead of an array',
      method: 'POST',
      path: () => `/public/v2/employees/${employeeId}/devices`,
      body: { device_id: deviceId, permission_id: 0 },
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: an empty array',
      method: 'POST',
      path: () => `/public/v2/employees/${employeeId}/devices`,
      body: [],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: wrong item type',
      method: 'POST',
      path: () => `/public/v2/employees/${employeeId}/devices`,
      body: [{ device_id: String(deviceId), permission_id: 0 }],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: an item that is not an object',
      method: 'POST',
      path: () => `/public/v2/devices/${deviceId}/employees`,
      body: [employeeId],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: the same device twice',
      method: 'POST',
      path: () => `/public/v2/employees/${employeeId}/devices`,
      body: [
        { device_id: deviceId, permission_id: 0 },
        { device_id: deviceId, permission_id: 6 },
      ],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: unknown privilege',
      method: 'POST',
      path: () => `/public/v2/employees/${employeeId}/devices`,
      body: [{ device_id: deviceId, permission_id: 3 }],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: unknown field in an item',
      method: 'POST',
      path: () => `/public/v2/devices/${deviceId}/employees/sync`,
      body: [{ employee_id: employeeId, permission_id: 0, role: 'x' }],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'assignments: 1001 items',
      method: 'POST',
      path: () => `/public/v2/devices/${deviceId}/employees`,
      body: Array.from({ length: 1001 }, (_, i) => ({ employee_id: i + 1, permission_id: 0 })),
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'removal: a string instead of an array',
      method: 'DELETE',
      path: () => `/public/v2/devices/${deviceId}/employees`,
      body: 'all',
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'area members: an unknown employee',
      method: 'POST',
      path: () => `/public/v2/areas/${areaId}/employees`,
      body: [{ employee_id: 987654 }],
      status: 422,
      code: 'validation_failed',
    },
    {
      name: 'unknown IANA zone',
      method: 'POST',
      path: () => '/public/v2/devices',
      body: { name: 'd', serial_number: 'S2', company_id: companyId, time_zone: 'Mars/Olympus' },
      status: 422,
      code: 'validation_failed',
      field: 'time_zone',
    },
  ];

  it('answers each case with its status, code and field, and changes nothing', async () => {
    await createEmployee(t.url, ws.key, companyId, { code: 'KEEP' });
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const countsBefore = await tableCounts(t.config.databaseUrl!);
    for (const c of cases()) {
      const headers: Record<string, string> = {};
      if (c.contentType !== null) headers['content-type'] = c.contentType ?? 'application/json';
      const rawBody = c.rawBody ?? JSON.stringify(c.body);
      const r = await rest(t.url, c.method, c.path(), { key: ws.key, rawBody, headers });
      expect(r.status, `${c.name}: ${r.text.slice(0, 300)}`).to.equal(c.status);
      expect(r.body.error.code, c.name).to.equal(c.code);
      expect(r.body.error.message, c.name).to.be.a('string').and.not.empty;
      expect(r.body.error.request_id, c.name).to.equal(r.headers.get('x-request-id'));
      if (c.field)
        expect(
          r.body.error.details.map((d: any) => d.field),
          c.name,
        ).to.include(c.field);
    }
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect(after, snapshotChanges(before, after)).to.deep.equal(before);
    expect(await tableCounts(t.config.databaseUrl!)).to.deep.equal(countsBefore);
  });

  it('stores quotes, unicode and emoji exactly as sent', async () => {
    const name = `O'Brien "Bob" \\ Ünïcødé 李雷 🚪`;
    const created = await createEmployee(t.url, ws.key, companyId, { name, lastname: "</script><script>alert('x')</script>" });
    const read = await rest(t.url, 'GET', `/public/v2/employees/${created.id}`, { key: ws.key });
    expect(read.body.name).to.equal(name);
    expect(read.body.lastname).to.equal("</script><script>alert('x')</script>");
  });

  it('counts lengths in characters (code points), as JSON Schema and PostgreSQL do, on both APIs', async () => {
    const hundred = '🚪'.repeat(100); // 100 characters, 200 UTF-16 units
    const created = await createEmployee(t.url, ws.key, companyId, { name: hundred });
    expect(created.name).to.equal(hundred);
    const tooLong = await rest(t.url, 'PUT', `/public/v2/employees/${created.id}`, { key: ws.key, body: { name: `${hundred}🚪` } });
    expect(tooLong.status).to.equal(422);
    expect(tooLong.body.error.details[0]).to.include({ field: 'name', code: 'too_long' });
    const overGraphql = await gql(t.url, ws.key, 'mutation ($id: Int!, $n: String!) { updateEmployee(id: $id, input: { name: $n }) { id } }', {
      id: created.id,
      n: `${hundred}🚪`,
    });
    expect(overGraphql.errors![0].extensions!.details![0]).to.include({ field: 'name', code: 'too_long' });
    const viaGraphql = await gql(t.url, ws.key, 'mutation ($id: Int!, $n: String!) { updateEmployee(id: $id, input: { name: $n }) { name } }', {
      id: created.id,
      n: hundred.slice(2) + '🚪',
    });
    expect(viaGraphql.data.updateEmployee.name).to.have.length(200);
  });

  it('a name of spaces is blank by the body schema, with the code GraphQL gives it', async () => {
    const r = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key, body: { name: '   ', code: 'BLANK1' } });
    expect(r.status).to.equal(422);
    expect(r.body.error.details).to.deep.equal([{ field: 'name', code: 'blank', message: 'name must not be blank.' }]);
    const viaGraphql = await gql(t.url, ws.key, 'mutation { createCompany(input: { name: "   ", code: "BLANK2" }) { id } }');
    expect(viaGraphql.errors![0].extensions!.details![0]).to.include({ field: 'name', code: 'blank' });
  });

  it("a bulk body over 1,000 items is refused by its schema with the service's code, on every bulk route", async () => {
    const items = Array.from({ length: 1001 }, (_, i) => ({ device_id: i + 1, permission_id: 0 }));
    const r = await rest(t.url, 'POST', `/public/v2/employees/${employeeId}/devices`, { key: ws.key, body: items });
    expect(r.status).to.equal(422);
    expect(r.body.error.details).to.deep.equal([{ field: 'items', code: 'too_many_items', message: 'items may hold at most 1000 items; split the request.' }]);
  });

  it('matches REST paths as Express does: any case, an optional trailing slash, encoded parameters, HEAD as GET, OPTIONS lists the methods; garbage paths are a JSON 404', async () => {
    const path = `/public/v2/employees/${employeeId}`;
    const plain = await rest(t.url, 'GET', path, { key: ws.key });
    expect(plain.status).to.equal(200);
    expect(plain.body.id).to.equal(employeeId);
    const encodedId = [...String(employeeId)].map((digit) => `%3${digit}`).join('');
    for (const variant of [path.toUpperCase(), `${path}/`, `/public/v2/employees/${encodedId}`]) {
      const r = await rest(t.url, 'GET', variant, { key: ws.key });
      expect(r.status, variant).to.equal(200);
      expect(r.body, variant).to.deep.equal(plain.body);
    }
    const head = await rest(t.url, 'HEAD', path, { key: ws.key });
    expect(head.status).to.equal(200);
    expect(head.text).to.equal('');
    // A static segment wins over a parameter in the same place, whatever the table's order.
    const unclaimed = await rest(t.url, 'GET', '/public/v2/devices/unclaimed', { key: ws.key });
    expect(unclaimed.status).to.equal(200);
    expect(unclaimed.body).to.be.an('array');
    for (const garbage of ['/public/v2/employees/%E0%A4%A', '/public/v2/employees/%zz', `/public/v2/employees/${'9'.repeat(150)}`]) {
      const r = await rest(t.url, 'GET', garbage, { key: ws.key });
      expect(r.status, garbage).to.equal(404);
      expect(r.body.error.code, garbage).to.equal('not_found');
    }
    for (const [optionsPath, allow] of [
      [path, 'DELETE, GET, HEAD, PUT'],
      ['/public/v2/employees', 'GET, HEAD, POST'],
    ]) {
      const options = await rest(t.url, 'OPTIONS', optionsPath!, { key: ws.key });
      expect(options.status, optionsPath).to.equal(200);
      expect(options.headers.get('allow'), optionsPath).to.equal(allow);
      expect(options.text, optionsPath).to.equal(allow);
    }
    expect((await rest(t.url, 'OPTIONS', '/public/v2/nothing', { key: ws.key })).status).to.equal(404);
    // A path of the API with a method it does not have: 405 and what it allows (RFC 9110).
    const wrongMethod = await rest(t.url, 'PATCH', path, { key: ws.key, body: { name: 'X' } });
    expect(wrongMethod.status).to.equal(405);
    expect(wrongMethod.headers.get('allow')).to.equal('DELETE, GET, HEAD, PUT');
    expect(wrongMethod.body.error.code).to.equal('method_not_allowed');
    expect((await rest(t.url, 'DELETE', '/public/v2/employees', { key: ws.key })).headers.get('allow')).to.equal('GET, HEAD, POST');
    expect((await rest(t.url, 'PATCH', '/public/v2/nothing', { key: ws.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', path, { key: ws.key })).body).to.deep.equal(plain.body);
  });

  it('takes JSON only as application/json (415 otherwise, merge-patch included), compresses large answers for clients that accept it', async () => {
    for (const type of ['application/merge-patch+json', 'application/vnd.api+json', 'text/plain']) {
      const r = await rest(t.url, 'PUT', `/public/v2/employees/${employeeId}`, {
        key: ws.key,
        rawBody: JSON.stringify({ name: 'Typed' }),
        headers: { 'content-type': type },
      });
      expect(r.status, type).to.equal(415);
      expect(r.body.error.code, type).to.equal('unsupported_media_type');
    }
    expect((await rest(t.url, 'GET', `/public/v2/employees/${employeeId}`, { key: ws.key })).body.name).to.not.equal('Typed');
    const compressed = await fetch(`${t.url}/openapi.json`, { headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.headers.get('content-encoding')).to.equal('gzip');
    expect(((await compressed.json()) as { openapi: string }).openapi).to.match(/^3\./);
    const plain = await fetch(`${t.url}/openapi.json`, { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).to.equal(null);
  });

  it('an id in a query beyond the id range is a field error naming the query parameter', async () => {
    for (const path of ['/public/v2/punches?employee_id=99999999999', '/public/v2/employees?company_id=2147483648']) {
      const r = await rest(t.url, 'GET', path, { key: ws.key });
      expect(r.status, path).to.equal(422);
      const field = path.split('?')[1]!.split('=')[0]!;
      expect(r.body.error.details, path).to.deep.equal([{ field, code: 'out_of_range', message: `${field} must be at most 2147483647.` }]);
    }
  });

  it('answers unknown routes and unknown ids with a JSON 404', async () => {
    const unknownRoute = await rest(t.url, 'GET', '/public/v2/nothing', { key: ws.key });
    expect(unknownRoute.status).to.equal(404);
    expect(unknownRoute.body.error.code).to.equal('not_found');
    for (const id of ['abc', '0', '-1', '99999999999', '1.5']) {
      const r = await rest(t.url, 'GET', `/public/v2/employees/${id}`, { key: ws.key });
      expect(r.status, id).to.equal(404);
      // The message names what the client sent, not a stand-in value.
      expect(r.body.error.message, id).to.contain(JSON.stringify(id)).and.not.contain('"-1" was');
    }
  });
});
