import { expect } from 'chai';
import { createCompany, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('pay periods: no overlaps, locked by admins only, a locked period does not change', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  before(async () => {
    t = await startTestApp({}, 'pay-periods');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  const create = (body: Record<string, unknown>, key = ws.key) =>
    rest(t.url, 'POST', '/public/v2/pay_periods', { key, body: { company_id: companyId, ...body } });

  it('create, list in date order, move, and refuse overlaps, reversed or over-long ranges and bad dates', async () => {
    const march = await create({ start_date: '2026-03-01', end_date: '2026-03-31' });
    expect(march.status).to.equal(201);
    expect(march.body).to.include({ company_id: companyId, start_date: '2026-03-01', end_date: '2026-03-31', locked_at: null });
    expect((await create({ start_date: '2026-02-01', end_date: '2026-02-28' })).status).to.equal(201);
    const listed = await rest(t.url, 'GET', `/public/v2/pay_periods?company_id=${companyId}`, { key: ws.key });
    expect(listed.body.map((p: { start_date: string }) => p.start_date)).to.deep.equal(['2026-02-01', '2026-03-01']);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ start_date: '2026-03-31', end_date: '2026-04-30' }, 'start_date', 'overlapping'],
      [{ start_date: '2026-05-31', end_date: '2026-05-01' }, 'end_date', 'before_start_date'],
      [{ start_date: '2026-05-01', end_date: '2027-06-01' }, 'end_date', 'out_of_range'],
      [{ start_date: '2026-02-30', end_date: '2026-03-01' }, 'start_date', 'invalid_date'],
    ];
    for (const [body, field, code] of cases) {
      const refused = await create(body);
      expect(refused.status, JSON.stringify(body)).to.equal(422);
      expect(refused.body.error.details[0]).to.include({ field, code });
    }
    const moved = await rest(t.url, 'PUT', `/public/v2/pay_periods/${march.body.id}`, { key: ws.key, body: { end_date: '2026-03-30' } });
    expect(moved.body.end_date).to.equal('2026-03-30');
  });

  it('only an admin key locks or unlocks; a locked period can be neither moved nor deleted (409 period_locked)', async () => {
    const period = (await create({ start_date: '2026-06-01', end_date: '2026-06-30' })).body;
    const writeKey = await createKey(t.url, ws.key, ['write']);
    const notAdmin = await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/lock`, { key: writeKey });
    expect(notAdmin.status).to.equal(403);
    const locked = await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/lock`, { key: ws.key });
    expect(locked.status).to.equal(200);
    expect(locked.body.locked_at).to.be.a('string');
    const moved = await rest(t.url, 'PUT', `/public/v2/pay_periods/${period.id}`, { key: ws.key, body: { end_date: '2026-06-29' } });
    expect(moved.status).to.equal(409);
    expect(moved.body.error.code).to.equal('period_locked');
    expect((await rest(t.url, 'DELETE', `/public/v2/pay_periods/${period.id}`, { key: ws.key })).status).to.equal(409);
    const unlocked = await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/unlock`, { key: ws.key });
    expect(unlocked.body.locked_at).to.equal(null);
    expect((await rest(t.url, 'DELETE', `/public/v2/pay_periods/${period.id}`, { key: ws.key })).status).to.equal(200);
  });
});
