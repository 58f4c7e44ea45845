import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

// Ten approvers decide the same request at once (half approve, half reject). One decision wins; the
// nine others lose with 409 `invalid_transition` (the request is decided), never 404 as if the
// request did not exist. The same for absence requests, punch corrections and overtime approvals.
// The decisions locked the row with MikroORM's lock mode 4, which is `for update skip locked`, not
// `for update`: a racer found the row locked, skipped it, and answered "not found".
describe('racing decisions: one winner, nine 409 invalid_transition', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let approveKeys: string[];
  let pinSeq = 8100;

  before(async () => {
    t = await startTestApp({}, 'decision-races');
    ws = await createWorkspace(t.url, { maxCompanies: 10, maxDevices: 10 });
    // Ten keys: each racer is another approver, as in a real race between managers.
    approveKeys = [];
    for (let i = 0; i < 10; i++) approveKeys.push(await createKey(t.url, ws.key, ['approve']));
  });
  after(() => t.stop());

  async function setup(payPolicy?: Record<string, unknown>) {
    const company = await createCompany(t.url, ws.key, payPolicy ? { pay_policy: payPolicy } : {});
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const device = await createDevice(t.url, ws.key, company.id);
    const employee = await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) });
    const punch = async (at: string, state: string) => {
      const made = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { company_id: company.id, employee_id: employee.id, device_id: device.id, punch_time: at, punch_state: state },
      });
      expect(made.status, made.text).to.equal(201);
    };
    return { company, employee, punch };
  }

  async function race(resource: string, id: number, verbs: (i: number) => string = (i) => (i % 2 === 0 ? 'approve' : 'reject')) {
    const answers = await Promise.all(approveKeys.map((key, i) => rest(t.url, 'POST', `/public/v2/${resource}/${id}/${verbs(i)}`, { key, body: {} })));
    const statuses = answers.map((a) => a.status);
    const winners = answers.filter((a) => a.status === 200);
    expect(winners, `statuses: ${statuses.join(' ')}; ${answers.map((a) => a.text).join(' | ')}`).to.have.length(1);
    const losers = answers.filter((a) => a.status !== 200);
    expect(
      losers.map((a) => a.status),
      losers.map((a) => a.text).join(' | '),
    ).to.deep.equal(Array(9).fill(409));
    for (const loser of losers) expect(loser.body.error.code).to.equal('invalid_transition');
    const after = await rest(t.url, 'GET', `/public/v2/${resource}/${id}`, { key: ws.key });
    expect(after.body.state).to.equal(winners[0]!.body.state);
  }

  it('absence requests', async () => {
    const { employee, company } = await setup();
    const types = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: ws.key })).body as { id: number; code: string }[];
    const filed = await rest(t.url, 'POST', '/public/v2/absence_requests', {
      key: ws.key,
      body: { employee_id: employee.id, absence_type_id: types.find((type) => type.code === 'SICK')!.id, start_date: '2026-08-03', end_date: '2026-08-04' },
    });
    expect(filed.status, filed.text).to.equal(201);
    await race('absence_requests', filed.body.id);
  });

  it('punch corrections', async () => {
    const { employee, punch } = await setup();
    await punch('2026-03-03T09:00:00Z', '0');
    const filed = await rest(t.url, 'POST', '/public/v2/punch_corrections', {
      key: ws.key,
      body: { employee_id: employee.id, reason: 'Forgot to clock out', punch_time: '2026-03-03T17:30:00Z', punch_state: '1' },
    });
    expect(filed.status, filed.text).to.equal(201);
    await race('punch_corrections', filed.body.id);
  });

  it('overtime approvals', async () => {
    const { employee, punch } = await setup({ overtime_requires_approval: true });
    await punch('2026-03-03T09:00:00Z', '0');
    await punch('2026-03-03T18:00:00Z', '1');
    const filed = await rest(t.url, 'POST', '/public/v2/overtime_approvals', { key: ws.key, body: { employee_id: employee.id, date: '2026-03-03' } });
    expect(filed.status, filed.text).to.equal(201);
    // An overtime decision may be changed (approved, then rejected), so racers that ask for the same
    // decision race: one approves, nine find it already approved.
    await race('overtime_approvals', filed.body.id, () => 'approve');
    const second = await rest(t.url, 'POST', '/public/v2/overtime_approvals', { key: ws.key, body: { employee_id: employee.id, date: '2026-03-04' } });
    expect(second.status, second.text).to.equal(201);
    await race('overtime_approvals', second.body.id, () => 'reject');
  });
});
