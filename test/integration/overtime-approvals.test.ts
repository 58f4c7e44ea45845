import { expect } from 'chai';
import { startReceiver, subscribe } from '../support/events';
import { waitUntil } from '../support/wait-until';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { workspaceSnapshot } from '../support/snapshot';
import { startTestApp, type TestApp } from '../support/test-app';

// Overtime approval through REST and GraphQL against the real database. Each test has its own
// company with a default shift 09:00–17:00 (no break), Monday to Friday, UTC, one terminal and
// employees punching 09:00–18:00 (480 regular, 60 overtime). 2026-03-02 is a Monday.
describe('overtime approval: overtime counts only once approved when the company policy requires it', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writeKey: string;
  let approveKey: string;
  let readKey: string;
  let pinSeq = 8100;

  before(async () => {
    t = await startTestApp({}, 'overtime-approvals');
    ws = await createWorkspace(t.url, { maxCompanies: 50, maxDevices: 50 });
    writeKey = await createKey(t.url, ws.key, ['write']);
    approveKey = await createKey(t.url, ws.key, ['approve']);
    readKey = await createKey(t.url, ws.key, ['read']);
  });
  after(() => t.stop());

  type Day = {
    status: string;
    worked_minutes: number;
    overtime_minutes: number;
    pending_overtime_minutes: number;
    pay_items: { code: string; minutes: number }[];
  };

  async function setup(options: { approval: boolean; employees?: number }) {
    const company = await createCompany(t.url, ws.key, options.approval ? { pay_policy: { overtime_requires_approval: true } } : {});
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const device = await createDevice(t.url, ws.key, company.id);
    const employees = [];
    for (let i = 0; i < (options.employees ?? 1); i++) employees.push(await createEmployee(t.url, ws.key, company.id, { pin: String(pinSeq++) }));
    /** A 09:00–18:00 day of the employee. */
    const work = async (employeeId: number, date: string, until = '18:00') => {
      for (const [time, state] of [
        ['09:00', '0'],
        [until, '1'],
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
  const day = async (employeeId: number, date: string): Promise<Day> => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${date}&end_date=${date}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body[0];
  };
  const file = (body: Record<string, unknown>, key = writeKey) => rest(t.url, 'POST', '/public/v2/overtime_approvals', { key, body });
  const decide = (id: number, decision: 'approve' | 'reject', key = approveKey, body: Record<string, unknown> = {}) =>
    rest(t.url, 'POST', `/public/v2/overtime_approvals/${id}/${decision}`, { key, body });
  const exported = async (companyId: number, start: string, end: string) => {
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', { key: ws.key, body: { company_id: companyId, start_date: start, end_date: end } });
    expect(period.status, period.text).to.equal(201);
    const rows = (await rest(t.url, 'GET', `/public/v2/pay_periods/${period.body.id}/export`, { key: ws.key })).body.rows;
    await rest(t.url, 'DELETE', `/public/v2/pay_periods/${period.body.id}`, { key: ws.key });
    return rows.map((r: { employee_id: number; pay_code: string; minutes: number }) => [r.employee_id, r.pay_code, r.minutes]);
  };

  it('policy off: overtime counts as before, nothing is pending', async () => {
    const { company, employee, work } = await setup({ approval: false });
    await work(employee.id, '2026-03-02');
    expect(await day(employee.id, '2026-03-02')).to.deep.include({
      overtime_minutes: 60,
      pending_overtime_minutes: 0,
      pay_items: [
        { code: 'regular', minutes: 480 },
        { code: 'overtime', minutes: 60 },
      ],
    });
    expect(await exported(company.id, '2026-03-01', '2026-03-07')).to.deep.equal([
      [employee.id, 'regular', 480],
      [employee.id, 'overtime', 60],
    ]);
  });

  it('policy on: overtime pending until approved, then counted at once with its events; the export pays it only then; the decision is audited', async () => {
    const { company, employee, work } = await setup({ approval: false });
    await work(employee.id, '2026-03-03');
    expect((await day(employee.id, '2026-03-03')).overtime_minutes).to.equal(60);
    // Turning the policy on recomputes the company's days: the overtime is held back.
    const on = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, { key: ws.key, body: { pay_policy: { overtime_requires_approval: true } } });
    expect(on.status, on.text).to.equal(200);
    expect(on.body.pay_policy).to.include({ overtime_requires_approval: true });
    expect(await day(employee.id, '2026-03-03')).to.deep.include({
      status: 'present',
      worked_minutes: 540,
      overtime_minutes: 0,
      pending_overtime_minutes: 60,
      pay_items: [{ code: 'regular', minutes: 480 }],
    });
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${employee.id}&start_date=2026-03-02&end_date=2026-03-06`, {
      key: ws.key,
    });
    expect(summary.body[0]).to.include({ overtime_minutes: 0, pending_overtime_minutes: 60 });
    expect(await exported(company.id, '2026-03-01', '2026-03-07')).to.deep.equal([[employee.id, 'regular', 480]]);

    const days = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date overtimeMinutes pendingOvertimeMinutes } } }',
      { e: employee.id },
    );
    const decisions = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { overtimeApprovalUpdated(employeeId: $e) { type approval { id date state decisionComment } } }',
      { e: employee.id },
    );
    const filed = await file({ employee_id: employee.id, date: '2026-03-03', note: 'Stock count' });
    expect(filed.status, filed.text).to.equal(201);
    expect(filed.body).to.include({
      employee_id: employee.id,
      company_id: company.id,
      date: '2026-03-03',
      state: 'pending',
      minutes: null,
      note: 'Stock count',
    });
    expect((await day(employee.id, '2026-03-03')).pending_overtime_minutes).to.equal(60);

    const approved = await decide(filed.body.id, 'approve', approveKey, { comment: 'Agreed with the lead' });
    expect(approved.status, approved.text).to.equal(200);
    expect(approved.body).to.include({ state: 'approved', decision_comment: 'Agreed with the lead' });
    // At once: the answer comes after the recomputation.
    expect(await day(employee.id, '2026-03-03')).to.deep.include({
      overtime_minutes: 60,
      pending_overtime_minutes: 0,
      pay_items: [
        { code: 'regular', minutes: 480 },
        { code: 'overtime', minutes: 60 },
      ],
    });
    expect((await days.waitFor(1))[0].day).to.deep.equal({ date: '2026-03-03', overtimeMinutes: 60, pendingOvertimeMinutes: 0 });
    expect((await decisions.waitFor(2)).map((e) => [e.type, e.approval.state, e.approval.decisionComment])).to.deep.equal([
      ['overtime_approval.updated', 'pending', null],
      ['overtime_approval.updated', 'approved', 'Agreed with the lead'],
    ]);
    await days.close();
    await decisions.close();
    expect(await exported(company.id, '2026-03-01', '2026-03-07')).to.deep.equal([
      [employee.id, 'regular', 480],
      [employee.id, 'overtime', 60],
    ]);
    const audit = await gqlData(t.url, ws.key, `{ auditEvents(operation: "approveOvertime") { nodes { apiKeyId arguments } } }`);
    expect(audit.auditEvents.nodes[0]).to.deep.include({
      apiKeyId: approved.body.decided_by_key_id,
      arguments: { id: filed.body.id, comment: 'Agreed with the lead', minutes: null },
    });
    const again = await decide(filed.body.id, 'approve');
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('invalid_transition');
  });

  it('GraphQL: rejected overtime is paid as nothing (regular stays); approving it later with a cap pays the capped minutes', async () => {
    const { employee, work } = await setup({ approval: true });
    await work(employee.id, '2026-03-04', '19:00');
    expect(await day(employee.id, '2026-03-04')).to.deep.include({ overtime_minutes: 0, pending_overtime_minutes: 120 });
    const filed = await gqlData(
      t.url,
      writeKey,
      'mutation ($input: CreateOvertimeApprovalInput!) { createOvertimeApproval(input: $input) { id state date } }',
      { input: { employeeId: employee.id, date: '2026-03-04' } },
    );
    expect(filed.createOvertimeApproval).to.include({ state: 'pending', date: '2026-03-04' });
    const id = filed.createOvertimeApproval.id;
    const rejected = await gqlData(t.url, approveKey, 'mutation ($id: Int!) { rejectOvertime(id: $id, comment: "Not agreed") { state decisionComment } }', {
      id,
    });
    expect(rejected.rejectOvertime).to.deep.equal({ state: 'rejected', decisionComment: 'Not agreed' });
    const sheet = await gqlData(
      t.url,
      readKey,
      'query ($e: Int!) { timesheet(employeeId: $e, startDate: "2026-03-04", endDate: "2026-03-04") { nodes { workedMinutes overtimeMinutes pendingOvertimeMinutes payItems { code minutes } } } }',
      { e: employee.id },
    );
    expect(sheet.timesheet.nodes[0]).to.deep.equal({
      workedMinutes: 600,
      overtimeMinutes: 0,
      pendingOvertimeMinutes: 0,
      payItems: [{ code: 'regular', minutes: 480 }],
    });
    const capped = await gqlData(t.url, approveKey, 'mutation ($id: Int!) { approveOvertime(id: $id, minutes: 45) { state minutes } }', { id });
    expect(capped.approveOvertime).to.deep.equal({ state: 'approved', minutes: 45 });
    expect(await day(employee.id, '2026-03-04')).to.deep.include({
      overtime_minutes: 45,
      pending_overtime_minutes: 0,
      pay_items: [
        { code: 'regular', minutes: 480 },
        { code: 'overtime', minutes: 45 },
      ],
    });
    const listed = await gqlData(t.url, readKey, 'query ($e: Int!) { overtimeApprovals(employeeId: $e, state: "approved") { totalCount nodes { id } } }', {
      e: employee.id,
    });
    expect(listed.overtimeApprovals).to.deep.equal({ totalCount: 1, nodes: [{ id }] });
  });

  it('a period approved at once (REST by company, GraphQL by employees): pending days and pending approvals, never a rejected day', async () => {
    const { company, employees, work } = await setup({ approval: true, employees: 2 });
    const [a, b] = [employees[0]!, employees[1]!];
    for (const date of ['2026-03-09', '2026-03-10', '2026-03-11']) await work(a.id, date);
    await work(b.id, '2026-03-09');
    // A pending request on a day without overtime yet, and a rejected day.
    const ahead = await file({ employee_id: b.id, date: '2026-03-12' });
    const refused = await file({ employee_id: a.id, date: '2026-03-11' });
    expect((await decide(refused.body.id, 'reject')).status).to.equal(200);
    expect(await exported(company.id, '2026-03-09', '2026-03-13')).to.deep.equal([
      [a.id, 'regular', 1440],
      [b.id, 'regular', 480],
    ]);

    const bulk = await rest(t.url, 'POST', '/public/v2/overtime_approvals/approve', {
      key: approveKey,
      body: { company_id: company.id, start_date: '2026-03-09', end_date: '2026-03-13', comment: 'Week checked' },
    });
    expect(bulk.status, bulk.text).to.equal(200);
    expect(bulk.body.count).to.equal(4);
    expect(bulk.body.approvals.map((x: { employee_id: number; date: string; state: string }) => [x.employee_id, x.date, x.state])).to.deep.equal([
      [a.id, '2026-03-09', 'approved'],
      [a.id, '2026-03-10', 'approved'],
      [b.id, '2026-03-09', 'approved'],
      [b.id, '2026-03-12', 'approved'],
    ]);
    expect(bulk.body.approvals[0]).to.include({ decision_comment: 'Week checked', decided_by_key_id: bulk.body.approvals[3].decided_by_key_id });
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals/${ahead.body.id}`, { key: readKey })).body.state).to.equal('approved');
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals/${refused.body.id}`, { key: readKey })).body.state).to.equal('rejected');
    expect(await exported(company.id, '2026-03-09', '2026-03-13')).to.deep.equal([
      [a.id, 'regular', 1440],
      [a.id, 'overtime', 120],
      [b.id, 'regular', 480],
      [b.id, 'overtime', 60],
    ]);
    // Nothing left to approve: a second run approves nothing.
    expect(
      (
        await rest(t.url, 'POST', '/public/v2/overtime_approvals/approve', {
          key: approveKey,
          body: { company_id: company.id, start_date: '2026-03-09', end_date: '2026-03-13' },
        })
      ).body.count,
    ).to.equal(0);

    // GraphQL, by employee: only that employee's days.
    await work(a.id, '2026-03-16');
    await work(b.id, '2026-03-16');
    const byEmployee = await gqlData(
      t.url,
      approveKey,
      'mutation ($input: ApproveOvertimePeriodInput!) { approveOvertimePeriod(input: $input) { count approvals { employeeId date } } }',
      { input: { employeeIds: [b.id], startDate: '2026-03-16', endDate: '2026-03-20' } },
    );
    expect(byEmployee.approveOvertimePeriod).to.deep.equal({ count: 1, approvals: [{ employeeId: b.id, date: '2026-03-16' }] });
    expect((await day(a.id, '2026-03-16')).pending_overtime_minutes).to.equal(60);
    expect((await day(b.id, '2026-03-16')).overtime_minutes).to.equal(60);
  });

  it("weekly overtime lands on a day and waits for that day's approval like daily overtime", async () => {
    const { company, employee, work } = await setup({ approval: true });
    const policy = await rest(t.url, 'PUT', `/public/v2/companies/${company.id}`, {
      key: ws.key,
      body: { pay_policy: { weekly_overtime_after_minutes: 960 } },
    });
    expect(policy.status, policy.text).to.equal(200);
    // Monday to Wednesday 09:00-17:00: no daily overtime; Wednesday's 480 are beyond the week's 960.
    for (const date of ['2026-03-23', '2026-03-24', '2026-03-25']) await work(employee.id, date, '17:00');
    expect(await day(employee.id, '2026-03-24')).to.deep.include({ overtime_minutes: 0, pending_overtime_minutes: 0 });
    expect(await day(employee.id, '2026-03-25')).to.deep.include({ overtime_minutes: 0, pending_overtime_minutes: 480, pay_items: [] });
    const filed = await file({ employee_id: employee.id, date: '2026-03-25' });
    expect((await decide(filed.body.id, 'approve')).status).to.equal(200);
    expect(await day(employee.id, '2026-03-25')).to.deep.include({
      overtime_minutes: 480,
      pending_overtime_minutes: 0,
      pay_items: [{ code: 'overtime', minutes: 480 }],
    });
  });

  it('read and write keys cannot decide (403, nothing changes); a read key cannot file', async () => {
    const { company, employee, work } = await setup({ approval: true });
    await work(employee.id, '2026-03-05');
    expect((await file({ employee_id: employee.id, date: '2026-03-05' }, readKey)).status).to.equal(403);
    const filed = await file({ employee_id: employee.id, date: '2026-03-05' });
    for (const key of [readKey, writeKey]) {
      for (const decision of ['approve', 'reject'] as const) {
        const refused = await decide(filed.body.id, decision, key);
        expect(refused.status, `${decision} ${refused.text}`).to.equal(403);
        expect(refused.body.error.code).to.equal('forbidden');
      }
      const bulk = await rest(t.url, 'POST', '/public/v2/overtime_approvals/approve', {
        key,
        body: { company_id: company.id, start_date: '2026-03-01', end_date: '2026-03-31' },
      });
      expect(bulk.status).to.equal(403);
    }
    const viaGraphql = await gql(t.url, writeKey, 'mutation ($id: Int!) { approveOvertime(id: $id) { state } }', { id: filed.body.id });
    expect(viaGraphql.errors?.[0]?.extensions?.code).to.equal('forbidden');
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals/${filed.body.id}`, { key: readKey })).body.state).to.equal('pending');
    expect((await day(employee.id, '2026-03-05')).pending_overtime_minutes).to.equal(60);
    // The admin key may decide.
    expect((await decide(filed.body.id, 'approve', ws.key)).status).to.equal(200);
  });

  it('bad input is refused with 422 and changes nothing; a locked period is 409', async () => {
    const { company, employee, work } = await setup({ approval: true });
    await work(employee.id, '2026-03-06');
    const filed = await file({ employee_id: employee.id, date: '2026-03-06' });
    // The day is computed and stored before the snapshot (a read takes the worker's pending punches).
    expect((await day(employee.id, '2026-03-06')).pending_overtime_minutes).to.equal(60);
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['/public/v2/overtime_approvals', { employee_id: employee.id }, 'date', 'required'],
      ['/public/v2/overtime_approvals', { employee_id: employee.id, date: '2026-02-30' }, 'date', 'invalid_date'],
      ['/public/v2/overtime_approvals', { employee_id: 2_000_000_000, date: '2026-03-06' }, 'employee_id', 'not_found'],
      ['/public/v2/overtime_approvals', { employee_id: employee.id, date: '2026-03-06' }, 'date', 'already_taken'],
      [`/public/v2/overtime_approvals/${filed.body.id}/approve`, { minutes: 2000 }, 'minutes', 'out_of_range'],
      [`/public/v2/overtime_approvals/${filed.body.id}/reject`, { minutes: 30 }, 'minutes', 'unknown_field'],
      ['/public/v2/overtime_approvals/approve', { start_date: '2026-03-01', end_date: '2026-03-31' }, 'company_id', 'required'],
      ['/public/v2/overtime_approvals/approve', { company_id: company.id, start_date: '2026-03-31', end_date: '2026-03-01' }, 'end_date', 'before_start_date'],
      ['/public/v2/overtime_approvals/approve', { employee_ids: [], start_date: '2026-03-01', end_date: '2026-03-31' }, 'employee_ids', 'empty'],
      [
        '/public/v2/overtime_approvals/approve',
        { employee_ids: [employee.id, employee.id], start_date: '2026-03-01', end_date: '2026-03-31' },
        'employee_ids',
        'duplicate',
      ],
      [
        '/public/v2/overtime_approvals/approve',
        { employee_ids: [2_000_000_000], start_date: '2026-03-01', end_date: '2026-03-31' },
        'employee_ids.0',
        'not_found',
      ],
    ];
    for (const [path, body, field, code] of cases) {
      const refused = await rest(t.url, 'POST', path, { key: ws.key, body });
      expect(refused.status, `${path} ${JSON.stringify(body)} ${refused.text}`).to.equal(422);
      expect(refused.body.error.details[0], JSON.stringify(body)).to.include({ field, code });
    }
    const unknown = await gql(t.url, approveKey, 'mutation ($id: Int!) { rejectOvertime(id: $id) { state } }', { id: 2_000_000_000 });
    expect(unknown.errors?.[0]?.extensions?.code).to.equal('not_found');
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    for (const table of Object.keys(before)) expect(after[table], table).to.deep.equal(before[table]);

    // A locked period: neither filed, decided, nor approved in bulk.
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-03-01', end_date: '2026-03-31' },
    });
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    for (const refused of [
      await file({ employee_id: employee.id, date: '2026-03-09' }),
      await decide(filed.body.id, 'approve'),
      await rest(t.url, 'POST', '/public/v2/overtime_approvals/approve', {
        key: approveKey,
        body: { company_id: company.id, start_date: '2026-03-01', end_date: '2026-03-07' },
      }),
    ]) {
      expect(refused.status, refused.text).to.equal(409);
      expect(refused.body.error.code).to.equal('period_locked');
    }
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals/${filed.body.id}`, { key: readKey })).body.state).to.equal('pending');
  });

  it('another workspace neither sees, decides nor files against our approvals and employees (404 / 422); webhooks receive overtime_approval.updated', async () => {
    const { company, employee, work } = await setup({ approval: true });
    await work(employee.id, '2026-03-17');
    const filed = await file({ employee_id: employee.id, date: '2026-03-17' });
    expect((await day(employee.id, '2026-03-17')).pending_overtime_minutes).to.equal(60);
    const other = await createWorkspace(t.url);
    const before = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals/${filed.body.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/overtime_approvals?employee_id=${employee.id}`, { key: other.key })).body).to.deep.equal([]);
    for (const decision of ['approve', 'reject'] as const) expect((await decide(filed.body.id, decision, other.key)).status).to.equal(404);
    const forOurs = await file({ employee_id: employee.id, date: '2026-03-18' }, other.key);
    expect(forOurs.body.error.details[0]).to.include({ field: 'employee_id', code: 'not_found' });
    const bulk = await rest(t.url, 'POST', '/public/v2/overtime_approvals/approve', {
      key: other.key,
      body: { company_id: company.id, start_date: '2026-03-01', end_date: '2026-03-31' },
    });
    expect(bulk.body.error.details[0]).to.include({ field: 'company_id', code: 'not_found' });
    const after = await workspaceSnapshot(t.config.databaseUrl!, ws.id);
    for (const table of Object.keys(before)) expect(after[table], table).to.deep.equal(before[table]);

    const receiver = await startReceiver();
    try {
      const hook = await rest(t.url, 'POST', '/public/v2/webhooks', { key: ws.key, body: { url: receiver.url, event_types: ['overtime_approval.updated'] } });
      expect(hook.status, hook.text).to.equal(201);
      expect((await decide(filed.body.id, 'approve', approveKey, { comment: 'ok' })).status).to.equal(200);
      await waitUntil(
        'the webhook received the approval',
        async () => {
          await t.app.webhooks.runOnce();
          return receiver.received.length >= 1;
        },
        15_000,
      );
      expect(receiver.received.map((r) => [r.json.type, r.json.data.id, r.json.data.state, r.json.data.date])).to.deep.equal([
        ['overtime_approval.updated', filed.body.id, 'approved', '2026-03-17'],
      ]);
    } finally {
      await receiver.close();
    }
  });
});
