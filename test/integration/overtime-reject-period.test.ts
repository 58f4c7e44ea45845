import { expect } from 'chai';
import { readOutbox } from '../support/events';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

// Rejecting a period's overtime (POST /public/v2/overtime_approvals/reject, GraphQL rejectOvertimePeriod)
// with a key holding only `approve`: an unfiled day is filed rejected in one decision, never approved
// first. Each test has its own company (overtime approval required) with a default shift 09:00–17:00,
// Monday to Friday, UTC, and employees punching 09:00–18:00 (60 min overtime). 2026-04-06 is a Monday.
describe('overtime period rejection: an approver without write rejects unfiled overtime days directly', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writeKey: string;
  let approveKey: string;
  let pinSeq = 8600;

  before(async () => {
    t = await startTestApp({}, 'overtime-reject-period');
    ws = await createWorkspace(t.url, { maxCompanies: 50, maxDevices: 50 });
    writeKey = await createKey(t.url, ws.key, ['write']);
    approveKey = await createKey(t.url, ws.key, ['approve']);
  });
  after(() => t.stop());

  type Approval = { id: number; employee_id: number; date: string; state: string; minutes: number | null; decision_comment: string | null };

  async function setup(employeeCount = 1) {
    const company = await createCompany(t.url, ws.key, { pay_policy: { overtime_requires_approval: true } });
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const device = await createDevice(t.url, ws.key, company.id);
    const employees = [];
    for (let i = 0; i < employeeCount; i++) employees.push(await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) }));
    const work = async (employeeId: number, date: string) => {
      for (const [time, state] of [
        ['09:00', '0'],
        ['18:00', '1'],
      ]) {
        const made = await rest(t.url, 'POST', '/public/v2/punches', {
          key: ws.key,
          body: { company_id: company.id, employee_id: employeeId, device_id: device.id, punch_time: `${date}T${time}:00Z`, punch_state: state },
        });
        expect(made.status, made.text).to.equal(201);
      }
    };
    return { company, employees, employee: employees[0]!, work };
  }
  const day = async (employeeId: number, date: string) => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${date}&end_date=${date}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body[0] as { overtime_minutes: number; pending_overtime_minutes: number; pay_items: { code: string; minutes: number }[] };
  };
  const approvalsOf = async (employeeId: number): Promise<Approval[]> => {
    const response = await rest(t.url, 'GET', `/public/v2/overtime_approvals?employee_id=${employeeId}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body;
  };
  /** Every overtime_approval.updated event of the employee, in order: what webhooks and subscriptions were told. */
  const eventsOf = async (employeeId: number) => {
    const em = t.app.database.orm.em.fork();
    const events = await readOutbox((sql, params) => em.getConnection().execute(sql, params), ws.id, 'overtime_approval.updated');
    return events
      .map((e) => e.data as { employee_id: number; date: string; state: string })
      .filter((d) => d.employee_id === employeeId)
      .map((d) => [d.date, d.state]);
  };
  const reject = (body: Record<string, unknown>, key = approveKey) => rest(t.url, 'POST', '/public/v2/overtime_approvals/reject', { key, body });

  it('REST: an approve-only key rejects an unfiled day: one approval, rejected, never approved; the day pays no overtime', async () => {
    const { employee, work } = await setup();
    await work(employee.id, '2026-04-07');
    expect(await day(employee.id, '2026-04-07')).to.deep.include({ overtime_minutes: 0, pending_overtime_minutes: 60 });
    expect(await approvalsOf(employee.id)).to.deep.equal([]);

    const rejected = await reject({ employee_ids: [employee.id], start_date: '2026-04-07', end_date: '2026-04-07', comment: 'Not agreed' });
    expect(rejected.status, rejected.text).to.equal(200);
    expect(rejected.body.count).to.equal(1);
    expect(rejected.body.approvals[0]).to.include({
      employee_id: employee.id,
      date: '2026-04-07',
      state: 'rejected',
      minutes: null,
      decision_comment: 'Not agreed',
    });
    expect(rejected.body.approvals[0].decided_by_key_id).to.be.a('number');
    expect(rejected.body.approvals[0].decided_at).to.be.a('string');

    const stored = await approvalsOf(employee.id);
    expect(stored.map((a) => [a.id, a.date, a.state])).to.deep.equal([[rejected.body.approvals[0].id, '2026-04-07', 'rejected']]);
    // The event stream never saw an approval of the day: one event, rejected.
    expect(await eventsOf(employee.id)).to.deep.equal([['2026-04-07', 'rejected']]);
    expect(await day(employee.id, '2026-04-07')).to.deep.include({
      overtime_minutes: 0,
      pending_overtime_minutes: 0,
      pay_items: [{ code: 'regular', minutes: 480 }],
    });
    // Nothing left to reject: a second run decides nothing and records nothing.
    const again = await reject({ employee_ids: [employee.id], start_date: '2026-04-07', end_date: '2026-04-07' });
    expect(again.body.count, again.text).to.equal(0);
    expect(await eventsOf(employee.id)).to.deep.equal([['2026-04-07', 'rejected']]);
  });

  it('GraphQL, by company: pending approvals and unfiled days are rejected, approved days stay approved', async () => {
    const { company, employees, work } = await setup(2);
    const [a, b] = [employees[0]!, employees[1]!];
    for (const date of ['2026-04-13', '2026-04-14', '2026-04-15']) await work(a.id, date);
    await work(b.id, '2026-04-13');
    const filed = await rest(t.url, 'POST', '/public/v2/overtime_approvals', { key: writeKey, body: { employee_id: a.id, date: '2026-04-14' } });
    expect(filed.status, filed.text).to.equal(201);
    const approvedBefore = await rest(t.url, 'POST', '/public/v2/overtime_approvals', { key: writeKey, body: { employee_id: a.id, date: '2026-04-15' } });
    expect((await rest(t.url, 'POST', `/public/v2/overtime_approvals/${approvedBefore.body.id}/approve`, { key: approveKey, body: {} })).status).to.equal(200);

    const result = await gqlData(
      t.url,
      approveKey,
      'mutation ($input: RejectOvertimePeriodInput!) { rejectOvertimePeriod(input: $input) { count approvals { id employeeId date state } } }',
      { input: { companyId: company.id, startDate: '2026-04-13', endDate: '2026-04-17', comment: 'Week not agreed' } },
    );
    expect(result.rejectOvertimePeriod.count).to.equal(3);
    expect(
      result.rejectOvertimePeriod.approvals.map((x: { employeeId: number; date: string; state: string }) => [x.employeeId, x.date, x.state]),
    ).to.deep.equal([
      [a.id, '2026-04-13', 'rejected'],
      [a.id, '2026-04-14', 'rejected'],
      [b.id, '2026-04-13', 'rejected'],
    ]);
    expect(result.rejectOvertimePeriod.approvals[1].id).to.equal(filed.body.id);
    expect((await approvalsOf(a.id)).map((x) => [x.date, x.state])).to.deep.equal([
      ['2026-04-13', 'rejected'],
      ['2026-04-14', 'rejected'],
      ['2026-04-15', 'approved'],
    ]);
    expect(await eventsOf(b.id)).to.deep.equal([['2026-04-13', 'rejected']]);
    expect((await day(a.id, '2026-04-15')).overtime_minutes).to.equal(60);
    expect(await day(a.id, '2026-04-13')).to.deep.include({ overtime_minutes: 0, pending_overtime_minutes: 0 });
  });

  it('refused, changing nothing: a foreign company, bad dates, read or write keys, a locked period', async () => {
    const { company, employee, work } = await setup();
    await work(employee.id, '2026-04-20');
    expect((await day(employee.id, '2026-04-20')).pending_overtime_minutes).to.equal(60);
    const other = await createWorkspace(t.url);
    const otherApprover = await createKey(t.url, other.key, ['approve']);
    const theirs = await createCompany(t.url, other.key, { pay_policy: { overtime_requires_approval: true } });
    const readKey = await createKey(t.url, ws.key, ['read']);
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);

    const cases: Array<[Record<string, unknown>, string, string, string]> = [
      [{ company_id: theirs.id, start_date: '2026-04-01', end_date: '2026-04-30' }, approveKey, 'company_id', 'not_found'],
      [{ company_id: company.id, start_date: '2026-04-01', end_date: '2026-04-30' }, otherApprover, 'company_id', 'not_found'],
      [{ employee_ids: [employee.id], start_date: '2026-04-01', end_date: '2026-04-30' }, otherApprover, 'employee_ids.0', 'not_found'],
      [{ company_id: company.id, start_date: '2026-04-31', end_date: '2026-04-30' }, approveKey, 'start_date', 'invalid_date'],
      [{ company_id: company.id, start_date: '2026-04-30', end_date: '2026-04-01' }, approveKey, 'end_date', 'before_start_date'],
      [{ company_id: company.id, start_date: '20-04-2026', end_date: '2026-04-30' }, approveKey, 'start_date', 'invalid_date'],
      [{ company_id: company.id, end_date: '2026-04-30' }, approveKey, 'start_date', 'required'],
      [{ start_date: '2026-04-01', end_date: '2026-04-30' }, approveKey, 'company_id', 'required'],
    ];
    for (const [body, key, field, code] of cases) {
      const refused = await reject(body, key);
      expect(refused.status, `${JSON.stringify(body)} ${refused.text}`).to.equal(422);
      expect(refused.body.error.details[0], JSON.stringify(body)).to.include({ field, code });
    }
    const viaGraphql = await gql(t.url, approveKey, 'mutation ($input: RejectOvertimePeriodInput!) { rejectOvertimePeriod(input: $input) { count } }', {
      input: { companyId: theirs.id, startDate: '2026-04-01', endDate: '2026-04-30' },
    });
    expect(viaGraphql.errors?.[0]?.extensions?.code).to.equal('validation_failed');
    for (const key of [writeKey, readKey]) {
      const forbidden = await reject({ company_id: company.id, start_date: '2026-04-01', end_date: '2026-04-30' }, key);
      expect(forbidden.status, forbidden.text).to.equal(403);
    }
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    for (const table of Object.keys(before)) expect(after[table], table).to.deep.equal(before[table]);

    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-04-01', end_date: '2026-04-30' },
    });
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    const locked = await reject({ employee_ids: [employee.id], start_date: '2026-04-20', end_date: '2026-04-20' });
    expect(locked.status, locked.text).to.equal(409);
    expect(locked.body.error.code).to.equal('period_locked');
    expect(await approvalsOf(employee.id)).to.deep.equal([]);
    expect(await eventsOf(employee.id)).to.deep.equal([]);
  });
});
