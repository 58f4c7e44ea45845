import { expect } from 'chai';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('holidays (attendance engine and door schedules)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'holidays');
    ws = await createWorkspace(t.url, { maxCompanies: 5 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  const create = (body: Record<string, unknown>) =>
    rest(t.url, 'POST', '/public/v2/holidays', { key: ws.key, body: { company_id: companyId, date: '2026-12-25', name: 'Christmas', ...body } });

  it('REST: create (type 1 by default), read, update, list in date order, delete', async () => {
    const created = await create({ date: '2026-12-26', name: 'Boxing Day' });
    expect(created.status).to.equal(201);
    expect(created.body).to.include({ company_id: companyId, date: '2026-12-26', name: 'Boxing Day', holiday_type: 1 });
    const earlier = await create({ date: '2026-01-01', name: 'New Year', holiday_type: 2 });
    const listed = await rest(t.url, 'GET', `/public/v2/holidays?company_id=${companyId}`, { key: ws.key });
    expect(listed.body.map((h: { date: string }) => h.date)).to.deep.equal(['2026-01-01', '2026-12-26']);
    const updated = await rest(t.url, 'PUT', `/public/v2/holidays/${earlier.body.id}`, { key: ws.key, body: { holiday_type: 3 } });
    expect(updated.body).to.include({ holiday_type: 3, name: 'New Year' });
    expect((await rest(t.url, 'DELETE', `/public/v2/holidays/${earlier.body.id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/holidays/${earlier.body.id}`, { key: ws.key })).status).to.equal(404);
  });

  const refusals: Array<[string, Record<string, unknown>, string, string]> = [
    ['a date that does not exist', { date: '2026-02-30' }, 'date', 'invalid_date'],
    ['a date in another format', { date: '25.12.2026' }, 'date', 'invalid_date'],
    ['a holiday type outside 1-3', { holiday_type: 4 }, 'holiday_type', 'out_of_range'],
    ['a second holiday on the same date', { date: '2026-12-26' }, 'date', 'already_taken'],
    ['a company of another workspace', { company_id: 999_999 }, 'company_id', 'not_found'],
  ];
  for (const [label, body, field, code] of refusals) {
    it(`refuses ${label} with a field error and stores nothing`, async () => {
      const before = (await rest(t.url, 'GET', '/public/v2/holidays', { key: ws.key })).body.length;
      const response = await create(body);
      expect(response.status).to.equal(422);
      expect(response.body.error.details[0]).to.include({ field, code });
      expect((await rest(t.url, 'GET', '/public/v2/holidays', { key: ws.key })).body.length).to.equal(before);
    });
  }

  it('GraphQL: create and list', async () => {
    const created = await gqlData(
      t.url,
      ws.key,
      'mutation ($c: Int!) { createHoliday(input: { companyId: $c, date: "2026-05-01", name: "Labour Day" }) { id date holidayType } }',
      { c: companyId },
    );
    expect(created.createHoliday).to.include({ date: '2026-05-01', holidayType: 1 });
    const listed = await gqlData(t.url, ws.key, '{ holidays { totalCount nodes { date } } }');
    expect(listed.holidays.nodes.map((n: { date: string }) => n.date)).to.include('2026-05-01');
  });
});
