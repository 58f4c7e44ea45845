import { expect } from 'chai';
import { Client } from 'pg';
import { ATTENDANCE_LOCK } from '../../src/services/attendance/day-store';
import { waitUntil } from '../support/wait-until';
import { subscribe } from '../support/events';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gql, gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

// Absence types, requests and their decisions through REST and GraphQL, against the real database.
// Each test has its own company with a default shift 09:00–17:00 (no break: 480 scheduled minutes),
// Monday to Friday, UTC. 2026-08-03 is a Monday; every date used lies in the past of the test run.
describe('absences: types, requests, approvals, balances, and the days they make leave', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let writeKey: string;
  let approveKey: string;
  let readKey: string;

  before(async () => {
    t = await startTestApp({}, 'absences');
    ws = await createWorkspace(t.url, { maxCompanies: 50 });
    writeKey = await createKey(t.url, ws.key, ['write']);
    approveKey = await createKey(t.url, ws.key, ['approve']);
    readKey = await createKey(t.url, ws.key, ['read']);
  });
  after(() => t.stop());

  /** A company with its default shift and one employee; its seeded types by code. */
  async function setup() {
    const company = await createCompany(t.url, ws.key);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const employee = await createEmployee(t.url, ws.key, company.id);
    const listed = await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: ws.key });
    expect(listed.status).to.equal(200);
    const types: Record<string, { id: number }> = Object.fromEntries(listed.body.map((type: { code: string }) => [type.code, type]));
    return { company, employee, types };
  }
  const request = (body: Record<string, unknown>, key = writeKey) => rest(t.url, 'POST', '/public/v2/absence_requests', { key, body });
  const decide = (id: number, decision: 'approve' | 'reject' | 'cancel', key = approveKey, comment?: string) =>
    rest(t.url, 'POST', `/public/v2/absence_requests/${id}/${decision}`, { key, body: comment === undefined ? {} : { comment } });
  const days = async (employeeId: number, from: string, to: string) => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${from}&end_date=${to}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body as {
      date: string;
      status: string;
      absence_type_id: number | null;
      absence_code: string | null;
      leave_minutes: number;
      worked_minutes: number;
    }[];
  };
  const balance = async (employeeId: number, typeId: number, key = ws.key) => {
    const response = await rest(t.url, 'GET', `/public/v2/employees/${employeeId}/absence_balances?year=2026`, { key });
    expect(response.status, response.text).to.equal(200);
    return response.body.find((row: { absence_type_id: number }) => row.absence_type_id === typeId);
  };

  it('a new company has vacation, sick and unpaid types; types are edited, unique by code, and one in use is not deleted', async () => {
    const { company, employee, types } = await setup();
    const listed = (await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: readKey })).body;
    expect(listed.map((type: any) => [type.code, type.paid, type.unit, type.annual_allowance])).to.deep.equal([
      ['VAC', true, 'day', 25],
      ['SICK', true, 'day', null],
      ['UNPAID', false, 'day', null],
    ]);
    const edited = await rest(t.url, 'PUT', `/public/v2/absence_types/${types.VAC!.id}`, { key: writeKey, body: { annual_allowance: 28, color: '#112233' } });
    expect(edited.status, edited.text).to.equal(200);
    expect(edited.body).to.include({ annual_allowance: 28, color: '#112233', code: 'VAC' });
    const duplicate = await rest(t.url, 'POST', '/public/v2/absence_types', { key: writeKey, body: { company_id: company.id, name: 'Again', code: 'SICK' } });
    expect(duplicate.status).to.equal(422);
    expect(duplicate.body.error.details[0]).to.include({ field: 'code', code: 'already_taken' });
    const badUnit = await rest(t.url, 'POST', '/public/v2/absence_types', {
      key: writeKey,
      body: { company_id: company.id, name: 'X', code: 'X', unit: 'week' },
    });
    expect(badUnit.status).to.equal(422);
    const used = await request({ employee_id: employee.id, absence_type_id: types.SICK!.id, start_date: '2026-08-03', end_date: '2026-08-03' });
    expect(used.status, used.text).to.equal(201);
    const removed = await rest(t.url, 'DELETE', `/public/v2/absence_types/${types.SICK!.id}`, { key: writeKey });
    expect(removed.status).to.equal(409);
    expect(removed.body.error.code).to.equal('resource_in_use');
  });

  it('a vacation week approved: workdays become leave with the type and paid minutes, the holiday and the weekend are not charged, the balance goes down, events and audit follow', async () => {
    const { company, employee, types } = await setup();
    const holiday = await rest(t.url, 'POST', '/public/v2/holidays', {
      key: ws.key,
      body: { company_id: company.id, date: '2026-08-05', name: 'Local feast' },
    });
    expect(holiday.status).to.equal(201);
    const requests = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { absenceRequestUpdated(employeeId: $e) { type request { id state decisionComment } } }',
      { e: employee.id },
    );
    const dayEvents = await subscribe(
      t.app,
      ws.id,
      readKey,
      'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date status absenceCode leaveMinutes } } }',
      { e: employee.id },
    );

    // Monday to Sunday; Wednesday is a holiday: 4 days charged.
    const created = await request({
      employee_id: employee.id,
      absence_type_id: types.VAC!.id,
      start_date: '2026-08-03',
      end_date: '2026-08-09',
      note: 'Summer',
    });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ state: 'pending', amount: 4, note: 'Summer', decided_at: null });
    expect(await balance(employee.id, types.VAC!.id)).to.deep.equal({
      absence_type_id: types.VAC!.id,
      year: 2026,
      unit: 'day',
      allowance: 25,
      carried_over: 0,
      taken: 0,
      pending: 4,
      remaining: 21,
    });
    expect((await days(employee.id, '2026-08-03', '2026-08-03'))[0]!.status).to.equal('absent');

    const approved = await decide(created.body.id, 'approve', approveKey, 'Enjoy');
    expect(approved.status, approved.text).to.equal(200);
    expect(approved.body).to.include({ state: 'approved', decision_comment: 'Enjoy' });
    expect(approved.body.decided_by_key_id).to.be.a('number');
    const week = await days(employee.id, '2026-08-03', '2026-08-09');
    expect(week.map((d) => [d.date, d.status, d.absence_code, d.leave_minutes])).to.deep.equal([
      ['2026-08-03', 'leave', 'VAC', 480],
      ['2026-08-04', 'leave', 'VAC', 480],
      ['2026-08-05', 'holiday', null, 0],
      ['2026-08-06', 'leave', 'VAC', 480],
      ['2026-08-07', 'leave', 'VAC', 480],
      ['2026-08-08', 'off', null, 0],
      ['2026-08-09', 'off', null, 0],
    ]);
    expect(week[0]!.absence_type_id).to.equal(types.VAC!.id);
    expect(await balance(employee.id, types.VAC!.id)).to.include({ taken: 4, pending: 0, remaining: 21 });
    // The summary shows leave apart from work.
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${employee.id}&start_date=2026-08-03&end_date=2026-08-09`, {
      key: ws.key,
    });
    expect(summary.body[0]).to.include({ days_present: 0, days_absent: 0, days_leave: 4, leave_minutes: 1920, worked_minutes: 0 });

    // Events: filed and approved; each workday that changed, at once (the approval recomputed them).
    const filed = await requests.waitFor(2);
    expect(filed.map((e) => [e.type, e.request.state])).to.deep.equal([
      ['absence_request.updated', 'pending'],
      ['absence_request.updated', 'approved'],
    ]);
    expect(filed[1].request.decisionComment).to.equal('Enjoy');
    const changed = await dayEvents.waitFor(4);
    expect(changed.map((e) => [e.day.date, e.day.status, e.day.absenceCode, e.day.leaveMinutes]).sort()).to.deep.equal([
      ['2026-08-03', 'leave', 'VAC', 480],
      ['2026-08-04', 'leave', 'VAC', 480],
      ['2026-08-06', 'leave', 'VAC', 480],
      ['2026-08-07', 'leave', 'VAC', 480],
    ]);
    await requests.close();
    await dayEvents.close();

    // The decision is in the audit log with its key and comment.
    const audit = await gqlData(t.url, ws.key, `{ auditEvents(operation: "approveAbsenceRequest") { nodes { apiKeyId arguments outcome } } }`);
    expect(audit.auditEvents.nodes[0]).to.deep.include({ outcome: 'ok', arguments: { id: created.body.id, comment: 'Enjoy' } });
    expect(audit.auditEvents.nodes[0].apiKeyId).to.equal(approved.body.decided_by_key_id);
  });

  it('rejected: the days stay absent and nothing is charged; cancelled after approval: the days revert to absent and the balance is restored', async () => {
    const { employee, types } = await setup();
    const first = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-10', end_date: '2026-08-11' });
    const rejected = await decide(first.body.id, 'reject', approveKey, 'Busy week');
    expect(rejected.body).to.include({ state: 'rejected', decision_comment: 'Busy week' });
    expect((await days(employee.id, '2026-08-10', '2026-08-11')).map((d) => d.status)).to.deep.equal(['absent', 'absent']);
    expect(await balance(employee.id, types.VAC!.id)).to.include({ taken: 0, pending: 0, remaining: 25 });
    // A decided request takes no second decision.
    const again = await decide(first.body.id, 'approve');
    expect(again.status).to.equal(409);
    expect(again.body.error.code).to.equal('invalid_transition');

    // The same dates again (a rejected request does not overlap), approved, then cancelled by an approver.
    const second = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-10', end_date: '2026-08-11' });
    expect(second.status, second.text).to.equal(201);
    await decide(second.body.id, 'approve');
    expect((await days(employee.id, '2026-08-10', '2026-08-11')).map((d) => d.status)).to.deep.equal(['leave', 'leave']);
    // The requester's write key cancels only while pending.
    const byWriter = await decide(second.body.id, 'cancel', writeKey);
    expect(byWriter.status).to.equal(403);
    const cancelled = await decide(second.body.id, 'cancel', approveKey, 'Plans changed');
    expect(cancelled.status, cancelled.text).to.equal(200);
    expect(cancelled.body.state).to.equal('cancelled');
    expect((await days(employee.id, '2026-08-10', '2026-08-11')).map((d) => [d.status, d.leave_minutes])).to.deep.equal([
      ['absent', 0],
      ['absent', 0],
    ]);
    expect(await balance(employee.id, types.VAC!.id)).to.include({ taken: 0, pending: 0, remaining: 25 });
    // A pending request is cancelled by the write key that filed it.
    const third = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-12', end_date: '2026-08-12' });
    expect((await decide(third.body.id, 'cancel', writeKey)).body.state).to.equal('cancelled');
  });

  it('refused: overlapping requests, a request beyond the balance, a request on a locked pay period, only rest days, wrong fields for the type', async () => {
    const { company, employee, types } = await setup();
    const base = { employee_id: employee.id, absence_type_id: types.VAC!.id };
    expect((await request({ ...base, start_date: '2026-09-07', end_date: '2026-09-11' })).status).to.equal(201);
    const overlapping = await request({ ...base, absence_type_id: types.SICK!.id, start_date: '2026-09-11', end_date: '2026-09-14' });
    expect(overlapping.status).to.equal(422);
    expect(overlapping.body.error.details[0]).to.include({ field: 'start_date', code: 'overlapping' });
    // 5 pending + 21 more workdays > 25.
    const tooMuch = await request({ ...base, start_date: '2026-10-01', end_date: '2026-10-30' });
    expect(tooMuch.status).to.equal(422);
    expect(tooMuch.body.error.code).to.equal('insufficient_balance');
    expect(tooMuch.body.error.message).to.match(/22 day\(s\).*20 remain/);
    // Unpaid leave tracks no allowance: the same month is accepted.
    expect((await request({ ...base, absence_type_id: types.UNPAID!.id, start_date: '2026-10-01', end_date: '2026-10-30' })).status).to.equal(201);

    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-07-01', end_date: '2026-07-31' },
    });
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    const locked = await request({ ...base, start_date: '2026-07-30', end_date: '2026-08-03' });
    expect(locked.status).to.equal(409);
    expect(locked.body.error.code).to.equal('period_locked');

    const weekend = await request({ ...base, start_date: '2026-08-15', end_date: '2026-08-16' });
    expect(weekend.status).to.equal(422);
    expect(weekend.body.error.details[0]).to.include({ field: 'start_date', code: 'no_workdays' });
    const halfOverRange = await request({ ...base, start_date: '2026-08-17', end_date: '2026-08-18', half_day: 'am' });
    expect(halfOverRange.body.error.details[0]).to.include({ field: 'half_day', code: 'not_allowed' });
    const hoursOnDays = await request({ ...base, start_date: '2026-08-17', end_date: '2026-08-17', start_time: '10:00', end_time: '12:00' });
    expect(hoursOnDays.body.error.details[0]).to.include({ field: 'start_time', code: 'not_allowed' });
    const reversed = await request({ ...base, start_date: '2026-08-18', end_date: '2026-08-17' });
    expect(reversed.body.error.details[0]).to.include({ field: 'end_date', code: 'before_start_date' });
    // Nothing refused was stored.
    const all = await rest(t.url, 'GET', `/public/v2/absence_requests?employee_id=${employee.id}`, { key: ws.key });
    expect(all.body.map((r: any) => r.start_date)).to.deep.equal(['2026-09-07', '2026-10-01']);
  });

  it('a half day charges half a day and pays half the scheduled minutes', async () => {
    const { employee, types } = await setup();
    const half = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-19', end_date: '2026-08-19', half_day: 'pm' });
    expect(half.status, half.text).to.equal(201);
    expect(half.body).to.include({ amount: 0.5, half_day: 'pm' });
    await decide(half.body.id, 'approve');
    expect((await days(employee.id, '2026-08-19', '2026-08-19'))[0]).to.include({ status: 'leave', absence_code: 'VAC', leave_minutes: 240 });
    expect(await balance(employee.id, types.VAC!.id)).to.include({ taken: 0.5, remaining: 24.5 });
  });

  it('a half day off moves the bound it covers: an afternoon off is no early leave, a morning off no lateness, measured from the middle of the shift', async () => {
    const { company, employee, types } = await setup();
    const device = await createDevice(t.url, ws.key, company.id);
    expect((await rest(t.url, 'PUT', `/public/v2/employees/${employee.id}`, { key: ws.key, body: { pin: `47${employee.id}` } })).status).to.equal(200);
    const punch = async (at: string, state: string) => {
      const created = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: employee.id, device_id: device.id, company_id: company.id, punch_time: at, punch_state: state },
      });
      expect(created.status, created.text).to.equal(201);
    };
    const halves: [string, 'am' | 'pm'][] = [
      ['2026-08-24', 'pm'],
      ['2026-08-25', 'pm'],
      ['2026-08-26', 'am'],
      ['2026-08-27', 'am'],
    ];
    for (const [date, half_day] of halves) {
      const filed = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: date, end_date: date, half_day });
      expect(filed.status, filed.text).to.equal(201);
      expect((await decide(filed.body.id, 'approve')).status).to.equal(200);
    }
    // Afternoons off: out at 13:00 (the middle of 09:00-17:00), then at 12:30. Mornings off: in at 13:00, then at 13:20.
    await punch('2026-08-24T09:00:00Z', '0');
    await punch('2026-08-24T13:00:00Z', '1');
    await punch('2026-08-25T09:00:00Z', '0');
    await punch('2026-08-25T12:30:00Z', '1');
    await punch('2026-08-26T13:00:00Z', '0');
    await punch('2026-08-26T17:00:00Z', '1');
    await punch('2026-08-27T13:20:00Z', '0');
    await punch('2026-08-27T17:00:00Z', '1');
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employee.id}&start_date=2026-08-24&end_date=2026-08-27`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    expect(response.body.map((d: any) => [d.date, d.status, d.worked_minutes, d.leave_minutes, d.late_minutes, d.early_leave_minutes])).to.deep.equal([
      ['2026-08-24', 'present', 240, 240, 0, 0],
      ['2026-08-25', 'present', 210, 240, 0, 30],
      ['2026-08-26', 'present', 240, 240, 0, 0],
      ['2026-08-27', 'present', 220, 240, 20, 0],
    ]);
  });

  it('an hourly type through GraphQL: hours charged per workday, paid minutes on the day, filters by state, employee and dates', async () => {
    const { company, employee } = await setup();
    const created = await gqlData(
      t.url,
      writeKey,
      `mutation ($c: Int!) { createAbsenceType(input: { companyId: $c, name: "Doctor", code: "DOC", unit: "hour", annualAllowance: 10 }) { id unit } }`,
      { c: company.id },
    );
    const typeId = created.createAbsenceType.id;
    const filed = await gqlData(
      t.url,
      writeKey,
      `mutation ($e: Int!, $t: Int!) { createAbsenceRequest(input: { employeeId: $e, absenceTypeId: $t, startDate: "2026-08-20", endDate: "2026-08-21", startTime: "10:00", endTime: "12:30" }) { id state amount } }`,
      { e: employee.id, t: typeId },
    );
    expect(filed.createAbsenceRequest).to.include({ state: 'pending', amount: 5 });
    const id = filed.createAbsenceRequest.id;
    // A write key cannot approve, nor can a read key; an approve key can.
    for (const key of [writeKey, readKey]) {
      const refused = await gql(t.url, key, `mutation ($id: Int!) { approveAbsenceRequest(id: $id) { state } }`, { id });
      expect(refused.errors?.[0]?.extensions?.code).to.equal('forbidden');
    }
    const approved = await gqlData(t.url, approveKey, `mutation ($id: Int!) { approveAbsenceRequest(id: $id, comment: "ok") { state decisionComment } }`, {
      id,
    });
    expect(approved.approveAbsenceRequest).to.deep.equal({ state: 'approved', decisionComment: 'ok' });
    const timesheet = await gqlData(
      t.url,
      readKey,
      `query ($e: Int!) { timesheet(employeeId: $e, startDate: "2026-08-20", endDate: "2026-08-21") { nodes { status absenceCode leaveMinutes } } }`,
      { e: employee.id },
    );
    expect(timesheet.timesheet.nodes).to.deep.equal([
      { status: 'leave', absenceCode: 'DOC', leaveMinutes: 150 },
      { status: 'leave', absenceCode: 'DOC', leaveMinutes: 150 },
    ]);
    const balances = await gqlData(t.url, readKey, `query ($e: Int!) { absenceBalances(employeeId: $e, year: 2026) { absenceTypeId unit taken remaining } }`, {
      e: employee.id,
    });
    expect(balances.absenceBalances.find((b: any) => b.absenceTypeId === typeId)).to.deep.equal({
      absenceTypeId: typeId,
      unit: 'hour',
      taken: 5,
      remaining: 5,
    });
    const list = async (args: string) =>
      (await gqlData(t.url, readKey, `query ($e: Int!) { absenceRequests(employeeId: $e${args}) { totalCount nodes { id } } }`, { e: employee.id }))
        .absenceRequests.totalCount;
    expect(await list(', state: "approved"')).to.equal(1);
    expect(await list(', state: "pending"')).to.equal(0);
    expect(await list(', startDate: "2026-08-21", endDate: "2026-08-31"')).to.equal(1);
    expect(await list(', startDate: "2026-08-22"')).to.equal(0);
  });

  // Regression of a deadlock found in review: filing a request locked the employee row FOR UPDATE and
  // then waited for the attendance lock, while the lock holder (the worker) stored a day of that
  // employee, whose foreign-key check waits for FOR UPDATE. The row is now locked FOR NO KEY UPDATE.
  it('filing a request while the worker holds the attendance lock: the worker can still store a day of that employee', async function () {
    this.timeout(60_000);
    const { employee, types } = await setup();
    const worker = new Client({ connectionString: t.config.databaseUrl! });
    await worker.connect();
    try {
      await worker.query('begin');
      await worker.query(`select pg_advisory_xact_lock(x'${ATTENDANCE_LOCK}'::bigint)`);
      const filing = request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-31', end_date: '2026-08-31' });
      await waitUntil(
        'the absence request waits for the advisory lock',
        async () => {
          const { rows } = await worker.query(
            `select 1 from pg_locks where locktype = 'advisory' and not granted and database = (select oid from pg_database where datname = current_database())`,
          );
          return rows.length > 0;
        },
        10_000,
      );
      // What the worker's day insert does for its foreign key: it must not wait for the filing.
      await worker.query(`set local lock_timeout = '5s'`);
      const { rows } = await worker.query('select id from employee where id = $1 for key share', [employee.id]);
      expect(rows).to.deep.equal([{ id: employee.id }]);
      await worker.query('commit');
      const filed = await filing;
      expect(filed.status, filed.text).to.equal(201);
    } finally {
      await worker.end();
    }
  });

  it('tenant isolation: another workspace neither sees nor decides nor files against any of it', async () => {
    const { company, employee, types } = await setup();
    const created = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-24', end_date: '2026-08-24' });
    const other = await createWorkspace(t.url);
    const otherCompany = await createCompany(t.url, other.key);
    await rest(t.url, 'POST', '/public/v2/shifts', {
      key: other.key,
      body: { company_id: otherCompany.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    const otherEmployee = await createEmployee(t.url, other.key, otherCompany.id);
    const sub = await subscribe(t.app, other.id, other.key, 'subscription { absenceRequestUpdated { request { id } } }');
    expect((await rest(t.url, 'GET', `/public/v2/absence_types/${types.VAC!.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'PUT', `/public/v2/absence_types/${types.VAC!.id}`, { key: other.key, body: { name: 'Mine' } })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/absence_types/${types.UNPAID!.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/absence_types?company_id=${company.id}`, { key: other.key })).body).to.deep.equal([]);
    expect((await rest(t.url, 'GET', `/public/v2/absence_requests/${created.body.id}`, { key: other.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/absence_requests?employee_id=${employee.id}`, { key: other.key })).body).to.deep.equal([]);
    expect((await decide(created.body.id, 'approve', other.key)).status).to.equal(404);
    expect((await decide(created.body.id, 'cancel', other.key)).status).to.equal(404);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${employee.id}/absence_balances`, { key: other.key })).status).to.equal(404);
    // Their employee with our type, and our employee with their key: unknown ids.
    const mixed = await request({ employee_id: otherEmployee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-25', end_date: '2026-08-25' }, other.key);
    expect(mixed.status).to.equal(422);
    expect(mixed.body.error.details[0]).to.include({ field: 'absence_type_id', code: 'not_found' });
    const foreign = await request({ employee_id: employee.id, absence_type_id: types.VAC!.id, start_date: '2026-08-25', end_date: '2026-08-25' }, other.key);
    expect(foreign.body.error.details[0]).to.include({ field: 'employee_id', code: 'not_found' });
    // Our decision reaches our subscribers only; theirs sees its own request's event, not ours.
    expect((await decide(created.body.id, 'approve')).status).to.equal(200);
    const theirType = (await rest(t.url, 'GET', `/public/v2/absence_types`, { key: other.key })).body.find((type: any) => type.code === 'SICK');
    const theirs = await request({ employee_id: otherEmployee.id, absence_type_id: theirType.id, start_date: '2026-08-25', end_date: '2026-08-25' }, other.key);
    expect(theirs.status, theirs.text).to.equal(201);
    const seen = await sub.waitFor(1);
    expect(seen.map((e) => e.request.id)).to.deep.equal([theirs.body.id]);
    await sub.close();
  });
});
