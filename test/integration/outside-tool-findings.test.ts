// What outside validators found on the HTTP surface (GraphQL over HTTP, OpenAPI, webhooks, the
// console's icon), one regression test each.
import { expect } from 'chai';
import Ajv2020 from 'ajv/dist/2020';
import fs from 'node:fs';
import path from 'node:path';
import { startReceiver } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

const openapi = JSON.parse(fs.readFileSync(path.resolve(__dirname, '..', '..', '..', 'openapi.json'), 'utf8'));

/** The JSON Schema of a request body of the committed OpenAPI document (the flat form of a wrapped one). */
function requestSchema(route: string, method: string): any {
  const body = openapi.paths[route][method].requestBody.content['application/json'].schema;
  return body.oneOf ? body.oneOf[0] : body;
}

describe('outside-tool findings on the HTTP surface', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_WEBHOOK_TIMEOUT_MS: '60000' }, 'outside-tools');
  });
  after(() => t.stop());

  const post = (body: string, headers: Record<string, string>) => rest(t.url, 'POST', '/graphql', { key: t.adminKey, rawBody: body, headers });

  it('a subscription sent over POST /graphql is refused with 400 unsupported_operation and the request id (it was a 200 internal_error)', async () => {
    const r = await post(JSON.stringify({ query: 'subscription { punchCreated { punch { id } } }' }), { 'content-type': 'application/json' });
    expect(r.status).to.equal(400);
    expect(r.body.errors[0].extensions).to.include({ code: 'unsupported_operation', requestId: r.headers.get('x-request-id') });
  });

  it("Apollo's own refusals (method, content type, CSRF) answer with documented codes, the REST statuses and the request id", async () => {
    const put = await rest(t.url, 'PUT', '/graphql', { key: t.adminKey, body: { query: '{ __typename }' } });
    expect(put.status).to.equal(405);
    expect(put.headers.get('allow')).to.equal('GET, POST');
    expect(put.body.errors[0].extensions).to.include({ code: 'method_not_allowed', requestId: put.headers.get('x-request-id') });

    const text = await post(JSON.stringify({ query: '{ __typename }' }), { 'content-type': 'text/plain' });
    expect(text.status).to.equal(415);
    expect(text.body.errors[0].extensions).to.include({ code: 'unsupported_media_type', requestId: text.headers.get('x-request-id') });

    const query = `/graphql?query=${encodeURIComponent('{ __typename }')}`;
    const unsafeGet = await rest(t.url, 'GET', query, { key: t.adminKey, headers: { accept: 'application/json' } });
    expect(unsafeGet.status).to.equal(400);
    expect(unsafeGet.body.errors[0].extensions).to.include({ code: 'csrf_prevented', requestId: unsafeGet.headers.get('x-request-id') });
    const preflighted = await rest(t.url, 'GET', query, { key: t.adminKey, headers: { accept: 'application/json', 'apollo-require-preflight': 'true' } });
    expect(preflighted.status).to.equal(200);
    expect(preflighted.body).to.deep.equal({ data: { __typename: 'Query' } });

    const invalid = await post(JSON.stringify({ query: '{ nope }' }), { 'content-type': 'application/json' });
    expect(invalid.body.errors[0].extensions).to.include({ code: 'GRAPHQL_VALIDATION_FAILED', requestId: invalid.headers.get('x-request-id') });
  });

  it('the photo status schema admits the null `method` the route sends (the one schema violation found)', () => {
    const schema = openapi.paths['/public/v2/employees/{id}/photo/status'].get.responses['200'].content['application/json'].schema;
    const method = schema.properties.devices.items.properties.method;
    const validate = new Ajv2020({ strict: false }).compile(method);
    expect(validate(null), JSON.stringify(method)).to.equal(true);
    expect(validate('not-a-method')).to.equal(false);
  });

  it('the OpenAPI document states the fixed sets the server enforces, and REST refuses values outside them with the service codes', async () => {
    const doorAction = requestSchema('/public/v2/doors/{id}/actions', 'post');
    expect(doorAction.properties.action.enum).to.deep.equal(['unlock', 'hold_open', 'close', 'cancel_alarm']);
    expect(requestSchema('/public/v2/devices/{id}/actions', 'post').properties.type.enum).to.include('clock.sync');
    const webhook = requestSchema('/public/v2/webhooks', 'post');
    expect(webhook.properties.event_types.items.enum).to.include('attendance.created');
    expect(webhook.properties.url.pattern).to.be.a('string');
    const schedule = requestSchema('/public/v2/access_schedules', 'post');
    expect(schedule.properties.intervals.items.properties.weekday).to.include({ minimum: 1, maximum: 7 });

    const ws = await createWorkspace(t.url);
    const refusedType = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: 'https://example.com/x', event_types: ['punch.made'] } });
    expect(refusedType.status).to.equal(422);
    expect(refusedType.body.error.details[0]).to.include({ field: 'event_types.0', code: 'unknown_event_type' });
    const refusedUrl = await rest(t.url, 'POST', '/public/v2/webhooks', {
      key: ws.key,
      body: { url: 'ftp://example.com/x', event_types: ['attendance.created'] },
    });
    expect(refusedUrl.status).to.equal(422);
    expect(refusedUrl.body.error.details[0]).to.include({ field: 'url', code: 'invalid_url' });
  });

  it('a device action has an `id` a normalising client can cache by (the action id)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const data = await gqlData(t.url, ws.key, `mutation ($d: Int!) { createDeviceAction(deviceId: $d, input: { type: "reboot" }) { id actionId } }`, {
      d: device.id,
    });
    expect(data.createDeviceAction.id).to.equal(data.createDeviceAction.actionId);
  });

  it("a delivery's attempt_count counts the attempts it lists, also while one is in flight (it said 1 with no attempts)", async () => {
    const receiver = await startReceiver(() => 'hold');
    try {
      const ws = await createWorkspace(t.url);
      const endpoint = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['attendance.created'] } });
      expect(endpoint.status).to.equal(201);
      const test = await rest(t.url, 'POST', `/public/v2/webhooks/${endpoint.body.id}/test`, { key: ws.key });
      expect(test.status).to.equal(202);
      expect(test.body.attempt_count).to.equal(test.body.attempts.length);
      // The worker has sent it and waits for the held answer: the attempt is in flight.
      await waitUntil(
        'the webhook received the delivery',
        async () => receiver.received.length,
        (v) => v === 1,
      );
      const listed = await rest(t.url, 'GET', `/public/v2/webhooks/${endpoint.body.id}/deliveries`, { key: ws.key });
      expect(listed.body[0]).to.deep.include({ attempt_count: 0, attempts: [] });
    } finally {
      await receiver.close();
    }
  });

  it('lists without company_id list every company of the workspace (shifts answered an empty list)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00' },
    });
    expect(shift.status).to.equal(201);
    const all = await rest(t.url, 'GET', '/public/v2/shifts', { key: ws.key });
    expect(all.body.map((s: { id: number }) => s.id)).to.deep.equal([shift.body.id]);
    const area = await rest(t.url, 'POST', '/public/v2/areas', { key: ws.key, body: { company_id: company.id, name: 'Hall', code: 'H' } });
    expect(area.status).to.equal(201);
    expect((await rest(t.url, 'GET', '/public/v2/areas', { key: ws.key })).body).to.have.length(1);
  });

  it('a POST without a body is {}: a decision with an optional comment is taken (it was 415); a create names its required fields (422)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const employee = await createEmployee(t.url, ws.key, company.id);
    const types = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: ws.key })).body;
    const vacation = types.find((type: { code: string }) => type.code === 'VAC').id;
    const file = async (date: string) => {
      const filed = await rest(t.url, 'POST', '/public/v2/absence_requests', {
        key: ws.key,
        body: { employee_id: employee.id, absence_type_id: vacation, start_date: date, end_date: date },
      });
      expect(filed.status, filed.text).to.equal(201);
      return filed.body.id as number;
    };
    // 2026-08-03 and 2026-08-04 are a Monday and a Tuesday.
    const approved = await rest(t.url, 'POST', `/public/v2/absence_requests/${await file('2026-08-03')}/approve`, { key: ws.key });
    expect(approved.status, approved.text).to.equal(200);
    expect(approved.body).to.include({ state: 'approved', decision_comment: null });
    const rejected = await rest(t.url, 'POST', `/public/v2/absence_requests/${await file('2026-08-04')}/reject`, {
      key: ws.key,
      rawBody: '',
    });
    expect(rejected.status, rejected.text).to.equal(200);
    expect(rejected.body.state).to.equal('rejected');
    // A body that is there must still be JSON.
    const typed = await rest(t.url, 'POST', `/public/v2/absence_requests/${await file('2026-08-05')}/approve`, {
      key: ws.key,
      rawBody: 'comment=ok',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(typed.status).to.equal(415);
    const create = await rest(t.url, 'POST', '/public/v2/companies', { key: ws.key });
    expect(create.status, create.text).to.equal(422);
    expect(create.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code])).to.deep.include.members([
      ['name', 'required'],
      ['code', 'required'],
    ]);
    // The OpenAPI document says which bodies may be left out.
    expect(openapi.paths['/public/v2/absence_requests/{id}/approve'].post.requestBody.required).to.equal(false);
    expect(openapi.paths['/public/v2/companies'].post.requestBody.required).to.equal(true);
  });

  it('an unknown query parameter is refused with 422 unknown_parameter naming the ones the route takes (a misspelt filter returned everything)', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    await createEmployee(t.url, ws.key, company.id);
    const misspelt = await rest(t.url, 'GET', '/public/v2/absence_requests?from=notadate', { key: ws.key });
    expect(misspelt.status, misspelt.text).to.equal(422);
    expect(misspelt.body.error.code).to.equal('unknown_parameter');
    expect(misspelt.body.error.details).to.deep.equal([
      {
        field: 'from',
        code: 'unknown_parameter',
        message: 'from is not a parameter of this route; it takes only company_id, employee_id, absence_type_id, state, start_date, end_date, page, per_page.',
      },
    ]);
    expect(misspelt.body.error.message).to.equal(
      '"from" is not a parameter of GET /public/v2/absence_requests: it takes only company_id, employee_id, absence_type_id, state, start_date, end_date, page, per_page.',
    );
    const none = await rest(t.url, 'GET', `/public/v2/companies/${company.id}?expand=employees`, { key: ws.key });
    expect(none.status).to.equal(422);
    expect(none.body.error.message).to.contain('it takes no query parameters');
    // Paging and, where a route answers CSV, format are parameters of the route.
    expect((await rest(t.url, 'GET', '/public/v2/employees?page=1&per_page=5&search=x', { key: ws.key })).status).to.equal(200);
    const csv = await rest(t.url, 'GET', `/public/v2/timesheets?company_id=${company.id}&start_date=2026-08-03&end_date=2026-08-03&format=csv`, {
      key: ws.key,
    });
    expect(csv.status, csv.text).to.equal(200);
    expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const badFormat = await rest(t.url, 'GET', `/public/v2/timesheets?start_date=2026-08-03&end_date=2026-08-03&format=xml`, { key: ws.key });
    expect(badFormat.status).to.equal(422);
    expect(badFormat.body.error.details[0]).to.include({ field: 'format', code: 'invalid_value' });
    expect(openapi.paths['/public/v2/timesheets'].get.parameters.map((p: { name: string }) => p.name)).to.include('format');
    expect(openapi.paths['/public/v2/employees'].get.responses['422'].description).to.contain('unknown_parameter');
  });

  it('REST errors name REST fields (area_id, door_ids), and the photo upload says it takes the raw image', async () => {
    const ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    const area = await rest(t.url, 'POST', '/public/v2/areas', { key: ws.key, body: { company_id: company.id, name: 'Hall', code: 'H' } });
    const both = await rest(t.url, 'POST', '/public/v2/lockdowns', {
      key: ws.key,
      body: { area_id: area.body.id, door_ids: [1], mode: 'lockdown', reason: 'Drill' },
    });
    expect(both.status, both.text).to.equal(422);
    expect(both.body.error.message).to.equal('Give exactly one scope: company_id, area_id or door_ids.');
    expect(both.body.error.details[0]).to.include({
      field: 'company_id',
      code: 'one_scope_required',
      message: 'Give exactly one scope: company_id, area_id or door_ids.',
    });
    // GraphQL keeps its own names.
    const graphql = await rest(t.url, 'POST', '/graphql', {
      key: ws.key,
      body: { query: `mutation { createLockdown(input: { areaId: ${area.body.id}, doorIds: [1], mode: "lockdown", reason: "Drill" }) { id } }` },
    });
    expect(graphql.body.errors[0].message).to.equal('Give exactly one scope: companyId, areaId or doorIds.');
    // A value the client sent is quoted as sent.
    const unknown = await rest(t.url, 'POST', '/v1/devices/door/unlock', { key: ws.key, body: { device_serial: 'frontDoor', duration: 5 } });
    expect(unknown.body.error.message).to.equal('No device with serial number "frontDoor" in this workspace.');

    const upload = openapi.paths['/public/v2/employees/{id}/photo'].put;
    expect(upload.description).to.not.match(/base64 here/);
    expect(upload.description).to.contain('not base64');
    expect(Object.keys(upload.requestBody.content)).to.deep.equal(['image/jpeg', 'image/png']);
  });

  it('the console has an icon: /favicon.ico leads to /favicon.svg (it was a 404 on every load)', async () => {
    const ico = await fetch(`${t.url}/favicon.ico`, { redirect: 'manual' });
    expect(ico.status).to.equal(301);
    expect(ico.headers.get('location')).to.equal('/favicon.svg');
    const svg = await fetch(`${t.url}/favicon.svg`);
    expect(svg.status).to.equal(200);
    expect(svg.headers.get('content-type')).to.match(/^image\/svg\+xml/);
    expect(await svg.text()).to.match(/^<svg /);
  });
});
