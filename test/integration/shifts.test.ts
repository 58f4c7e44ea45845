import { expect } from 'chai';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('shifts (attendance engine)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'shifts');
    ws = await createWorkspace(t.url, { maxCompanies: 5 });
    companyId = (await createCompany(t.url, ws.key)).id;
    await rest(t.url, 'PUT', '/public/v2/workspace', { key: ws.key, body: { time_zone: 'Europe/Berlin' } });
  });
  after(() => t.stop());

  const create = (body: Record<string, unknown>) =>
    rest(t.url, 'POST', '/public/v2/shifts', { key: ws.key, body: { company_id: companyId, name: 'Day', start_time: '09:00', end_time: '17:00', ...body } });

  it('REST: create with the documented defaults, read, update, list by company, delete', async () => {
    const created = await create({});
    expect(created.status).to.equal(201);
    expect(created.body).to.include({
      company_id: companyId,
      name: 'Day',
      start_time: '09:00',
      end_time: '17:00',
      break_minutes: 0,
      break_after_minutes: 360,
      grace_in_minutes: 0,
      grace_out_minutes: 0,
      check_in_before_minutes: 240,
      check_out_after_minutes: 240,
      pairing: 'first_last',
      is_default: false,
    });
    expect(created.body.workdays).to.deep.equal([1, 2, 3, 4, 5]);
    const zone = (await gqlData(t.url, ws.key, '{ workspace { timeZone } }')).workspace.timeZone;
    expect(created.body.time_zone).to.equal(zone);
    const id = created.body.id;
    expect((await rest(t.url, 'GET', `/public/v2/shifts/${id}`, { key: ws.key })).body.name).to.equal('Day');
    const updated = await rest(t.url, 'PUT', `/public/v2/shifts/${id}`, {
      key: ws.key,
      body: { end_time: '06:00', start_time: '22:00', workdays: [7, 1], pairing: 'by_state' },
    });
    expect(updated.status).to.equal(200);
    expect(updated.body).to.include({ start_time: '22:00', end_time: '06:00', pairing: 'by_state', name: 'Day' });
    expect(updated.body.workdays).to.deep.equal([1, 7]);
    const other = (await createCompany(t.url, ws.key)).id;
    const listed = await rest(t.url, 'GET', `/public/v2/shifts?company_id=${other}`, { key: ws.key });
    expect(listed.body).to.deep.equal([]);
    expect((await rest(t.url, 'DELETE', `/public/v2/shifts/${id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/shifts/${id}`, { key: ws.key })).status).to.equal(404);
  });

  it('a company has at most one default shift: a new default replaces the previous one', async () => {
    const first = (await create({ name: 'First', is_default: true })).body;
    const second = (await create({ name: 'Second', is_default: true })).body;
    expect((await rest(t.url, 'GET', `/public/v2/shifts/${first.id}`, { key: ws.key })).body.is_default).to.equal(false);
    expect((await rest(t.url, 'GET', `/public/v2/shifts/${second.id}`, { key: ws.key })).body.is_default).to.equal(true);
  });

  const refusals: Array<[string, Record<string, unknown>, string, string]> = [
    ['a time of day that does not exist', { start_time: '25:00' }, 'start_time', 'invalid_time'],
    ['a time without minutes', { end_time: '9' }, 'end_time', 'invalid_time'],
    ['an unknown time zone', { time_zone: 'Mars/Olympus' }, 'time_zone', 'invalid_time_zone'],
    ['a weekday outside 1-7', { workdays: [0, 1] }, 'workdays', 'invalid_workdays'],
    ['a repeated weekday', { workdays: [1, 1] }, 'workdays', 'invalid_workdays'],
    ['no weekday', { workdays: [] }, 'workdays', 'invalid_workdays'],
    ['a negative grace', { grace_in_minutes: -1 }, 'grace_in_minutes', 'out_of_range'],
    ['a break longer than 12 h', { break_minutes: 721 }, 'break_minutes', 'out_of_range'],
    ['a company of another workspace', { company_id: 999_999 }, 'company_id', 'not_found'],
  ];
  for (const [label, body, field, code] of refusals) {
    it(`refuses ${label} with a field error and stores nothing`, async () => {
      const before = (await rest(t.url, 'GET', '/public/v2/shifts', { key: ws.key })).body.length;
      const response = await create(body);
      expect(response.status).to.equal(422);
      expect(response.body.error.details[0]).to.include({ field, code });
      expect((await rest(t.url, 'GET', '/public/v2/shifts', { key: ws.key })).body.length).to.equal(before);
    });
  }

  it('GraphQL: the same operations, with the pairing enum and a read key refused writes', async () => {
    const created = await gqlData(
      t.url,
      ws.key,
      'mutation ($c: Int!) { createShift(input: { companyId: $c, name: "Alt", startTime: "08:00", endTime: "16:30", pairing: alternating }) { id pairing workdays timeZone } }',
      { c: companyId },
    );
    expect(created.createShift).to.include({ pairing: 'alternating' });
    const read = await gqlData(t.url, ws.key, 'query ($c: Int) { shifts(companyId: $c) { totalCount nodes { id name } } }', { c: companyId });
    expect(read.shifts.nodes.map((n: { id: number }) => n.id)).to.include(created.createShift.id);
    const readKey = (await gqlData(t.url, ws.key, 'mutation { createApiKey(input: { scopes: ["read"] }) { key } }')).createApiKey.key;
    const refused = await gql(t.url, readKey, 'mutation ($id: Int!) { deleteShift(id: $id) { id } }', { id: created.createShift.id });
    expect(refused.errors![0]!.extensions!.code).to.equal('forbidden');
  });
});
