import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { startTestApp, type TestApp } from '../support/test-app';

describe('voiding a punch: kept and listed, audit-logged, refused in a locked pay period', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let ids: { company: number; device: number; employee: number };
  before(async () => {
    t = await startTestApp({}, 'punch-void');
    ws = await createWorkspace(t.url);
    const company = await createCompany(t.url, ws.key);
    ids = {
      company: company.id,
      device: (await createDevice(t.url, ws.key, company.id)).id,
      employee: (await createEmployee(t.url, ws.key, company.id, { pin: '21' })).id,
    };
  });
  after(() => t.stop());

  const punchAt = async (time: string) =>
    (
      await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: ids.employee, device_id: ids.device, company_id: ids.company, punch_time: time, punch_state: '0' },
      })
    ).body;

  it('voids with a reason; the punch stays listed with voided_at; a second void changes nothing; the write is audited', async () => {
    const punch = await punchAt('2026-04-01T08:00:00Z');
    expect(punch.voided_at).to.equal(null);
    const voided = await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: { reason: 'Punched at the wrong terminal' } });
    expect(voided.status).to.equal(200);
    expect(voided.body).to.include({ id: punch.id, void_reason: 'Punched at the wrong terminal' });
    expect(voided.body.voided_at).to.be.a('string');
    const listed = await rest(t.url, 'GET', `/public/v2/punches/${punch.id}`, { key: ws.key });
    expect(listed.body).to.include({ voided_at: voided.body.voided_at, void_reason: 'Punched at the wrong terminal' });
    const again = await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: { reason: 'Another reason' } });
    expect(again.body).to.include({ voided_at: voided.body.voided_at, void_reason: 'Punched at the wrong terminal' });
    const audit = await query(
      t.config.databaseUrl!,
      "select outcome, arguments from audit_event where operation = 'voidPunch' and workspace_id = $1 order by id",
      [ws.id],
    );
    expect(audit.map((a) => a.outcome)).to.deep.equal(['ok', 'ok']);
    expect(audit[0].arguments).to.deep.include({ id: punch.id, reason: 'Punched at the wrong terminal' });
  });

  it("refuses a missing or blank reason (422) and another workspace's punch (404), changing nothing", async () => {
    const punch = await punchAt('2026-04-02T08:00:00Z');
    const missing = await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: {} });
    expect(missing.status).to.equal(422);
    const blank = await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: { reason: '   ' } });
    expect(blank.status).to.equal(422);
    expect(blank.body.error.details[0]).to.include({ field: 'reason', code: 'blank' });
    const other = await createWorkspace(t.url);
    expect((await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: other.key, body: { reason: 'x' } })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/punches/${punch.id}`, { key: ws.key })).body.voided_at).to.equal(null);
  });

  it('a punch inside a locked pay period cannot be voided (409 period_locked) until the period is unlocked', async () => {
    const punch = await punchAt('2026-05-15T08:00:00Z');
    const period = (
      await rest(t.url, 'POST', '/public/v2/pay_periods', { key: ws.key, body: { company_id: ids.company, start_date: '2026-05-01', end_date: '2026-05-31' } })
    ).body;
    await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/lock`, { key: ws.key });
    const refused = await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: { reason: 'late correction' } });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('period_locked');
    expect((await rest(t.url, 'GET', `/public/v2/punches/${punch.id}`, { key: ws.key })).body.voided_at).to.equal(null);
    await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/unlock`, { key: ws.key });
    expect((await rest(t.url, 'POST', `/public/v2/punches/${punch.id}/void`, { key: ws.key, body: { reason: 'late correction' } })).status).to.equal(200);
  });
});
