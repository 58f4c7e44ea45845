import { expect } from 'chai';
import { subscribe } from '../support/events';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Schedule overrides against the real database: one employee's shift on one date wins, the change
// recomputes that day in its own transaction and announces it. 2026-03-07 is a Saturday; UTC.
describe('schedule overrides: one date of one employee, recomputed and announced', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let pinSeq = 800;

  before(async () => {
    t = await startTestApp({}, 'schedule-overrides');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 20 });
    other = await createWorkspace(t.url, { maxCompanies: 5 });
  });
  after(() => t.stop());

  async function setup() {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const device = await createDevice(t.url, ws.key, companyId);
    const shift = async (name: string, extra: Record<string, unknown> = {}) =>
      (await rest(t.url, 'POST', '/public/v2/shifts', { key: ws.key, body: { company_id: companyId, name, start_time: '09:00', end_time: '17:00', ...extra } }))
        .body.id as number;
    const defaultShift = await shift('Default', { is_default: true });
    const pin = String(pinSeq++);
    const employee = await createEmployee(t.url, ws.key, companyId, { pin });
    const upload = async (lines: [string, string][]) => {
      const body = lines.map(([time, state]) => `${pin}\t${time}\t${state}\t1\t0`).join('\n');
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);
    };
    return { companyId, shift, defaultShift, employee, upload };
  }
  const override = (body: Record<string, unknown>, key = ws.key) => rest(t.url, 'POST', '/public/v2/schedule_overrides', { key, body });
  const storedDay = async (employeeId: number, date: string) => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${date}&end_date=${date}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body[0] as {
      status: string;
      shift_id: number | null;
      scheduled_minutes: number;
      worked_minutes: number;
      overtime_minutes: number;
      pay_items: { code: string; minutes: number }[];
    };
  };
  const DAY_EVENTS =
    'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date status shiftId scheduledMinutes overtimeMinutes payItems { code minutes } } } }';

  it('an extra shift on a Saturday: the day is recomputed and announced when the override is created, changed and deleted', async () => {
    const { shift, defaultShift, employee, upload } = await setup();
    const late = await shift('Late', { start_time: '12:00', end_time: '20:00' });
    await upload([
      ['2026-03-07 09:00:00', '0'],
      ['2026-03-07 17:00:00', '1'],
    ]);
    // Without an override a Saturday is a rest day: all of the work is paid as rest-day work.
    const restDay = await storedDay(employee.id, '2026-03-07');
    expect(restDay).to.include({ status: 'present', shift_id: null, scheduled_minutes: 0, overtime_minutes: 0 });
    expect(restDay.pay_items).to.deep.equal([{ code: 'rest_day', minutes: 480 }]);

    const sub = await subscribe(t.app, ws.id, ws.key, DAY_EVENTS, { e: employee.id });
    try {
      const created = await override({ employee_id: employee.id, date: '2026-03-07', shift_id: defaultShift });
      expect(created.status, created.text).to.equal(201);
      expect(created.body).to.include({ employee_id: employee.id, date: '2026-03-07', shift_id: defaultShift });
      // The answer comes after the recomputation: the timesheet shows it at once.
      expect(await storedDay(employee.id, '2026-03-07')).to.include({ status: 'present', shift_id: defaultShift, scheduled_minutes: 480, overtime_minutes: 0 });
      const [first] = await sub.waitFor(1);
      expect(first.day).to.deep.include({ date: '2026-03-07', shiftId: defaultShift, scheduledMinutes: 480, overtimeMinutes: 0 });

      const changed = await rest(t.url, 'PUT', `/public/v2/schedule_overrides/${created.body.id}`, { key: ws.key, body: { shift_id: late } });
      expect(changed.status, changed.text).to.equal(200);
      const [, second] = await sub.waitFor(2);
      expect(second.day).to.deep.include({ date: '2026-03-07', shiftId: late });

      expect((await rest(t.url, 'DELETE', `/public/v2/schedule_overrides/${created.body.id}`, { key: ws.key })).status).to.equal(200);
      const [, , third] = await sub.waitFor(3);
      expect(third.day).to.deep.include({ date: '2026-03-07', shiftId: null, scheduledMinutes: 0, overtimeMinutes: 0 });
      expect(third.day.payItems).to.deep.equal([{ code: 'rest_day', minutes: 480 }]);
    } finally {
      await sub.close();
    }
  });

  it("the docs' example: a Saturday worked under a weekday shift with a break is rest_day 480 (no shift runs, no break comes off); the override makes it regular 450", async () => {
    const { shift, companyId, employee, upload } = await setup();
    const withBreak = await shift('Weekdays with a break', { break_minutes: 30, break_after_minutes: 360 });
    const assigned = await rest(t.url, 'POST', '/public/v2/shift_assignments', {
      key: ws.key,
      body: { shift_id: withBreak, employee_id: employee.id, start_date: '2026-03-01' },
    });
    expect(assigned.status, assigned.text).to.equal(201);
    await upload([
      ['2026-03-07 09:00:00', '0'],
      ['2026-03-07 17:00:00', '1'],
    ]);
    const restDay = await storedDay(employee.id, '2026-03-07');
    expect(restDay).to.include({ status: 'present', shift_id: null, scheduled_minutes: 0, worked_minutes: 480, overtime_minutes: 0 });
    expect(restDay.pay_items).to.deep.equal([{ code: 'rest_day', minutes: 480 }]);
    // Paid as overtime only when the company's policy says so: still the full 480.
    expect(
      (await rest(t.url, 'PUT', `/public/v2/companies/${companyId}`, { key: ws.key, body: { pay_policy: { rest_day_work: 'overtime' } } })).status,
    ).to.equal(200);
    expect(await storedDay(employee.id, '2026-03-07')).to.include({ worked_minutes: 480, overtime_minutes: 480 });
    expect((await rest(t.url, 'PUT', `/public/v2/companies/${companyId}`, { key: ws.key, body: { pay_policy: { rest_day_work: null } } })).status).to.equal(
      200,
    );

    const created = await override({ employee_id: employee.id, date: '2026-03-07', shift_id: withBreak });
    expect(created.status, created.text).to.equal(201);
    const scheduled = await storedDay(employee.id, '2026-03-07');
    expect(scheduled).to.include({ shift_id: withBreak, scheduled_minutes: 450, worked_minutes: 450, overtime_minutes: 0 });
    expect(scheduled.pay_items).to.deep.equal([{ code: 'regular', minutes: 450 }]);
  });

  it('a day off on a workday (shift_id null): no absence; announced even though the day holds no punch', async () => {
    const { employee } = await setup();
    // 2026-03-09 is a Monday: absent under the default shift.
    expect(await storedDay(employee.id, '2026-03-09')).to.include({ status: 'absent' });
    const sub = await subscribe(t.app, ws.id, ws.key, DAY_EVENTS, { e: employee.id });
    try {
      const created = await override({ employee_id: employee.id, date: '2026-03-09', shift_id: null });
      expect(created.status, created.text).to.equal(201);
      expect(created.body.shift_id).to.equal(null);
      const [event] = await sub.waitFor(1);
      expect(event.day).to.deep.include({ date: '2026-03-09', status: 'off', shiftId: null });
      // A day never stored before is stored and announced too (2026-03-10, never read).
      await override({ employee_id: employee.id, date: '2026-03-10', shift_id: null });
      const [, next] = await sub.waitFor(2);
      expect(next.day).to.deep.include({ date: '2026-03-10', status: 'off' });
    } finally {
      await sub.close();
    }
    const effective = await gqlData(t.url, ws.key, 'query ($e: Int!) { effectiveShift(employeeId: $e, date: "2026-03-09") { id } }', { e: employee.id });
    expect(effective.effectiveShift).to.equal(null);
  });

  it('refuses foreign ids, a shift of another company, a second override of a date, and a date in a locked pay period', async () => {
    const { companyId, employee, defaultShift } = await setup();
    const theirCompany = (await createCompany(t.url, other.key)).id;
    const theirEmployee = await createEmployee(t.url, other.key, theirCompany, { pin: String(pinSeq++) });
    const theirShift = (
      await rest(t.url, 'POST', '/public/v2/shifts', { key: other.key, body: { company_id: theirCompany, name: 'T', start_time: '09:00', end_time: '17:00' } })
    ).body.id;
    const otherCompanyShift = (
      await rest(t.url, 'POST', '/public/v2/shifts', {
        key: ws.key,
        body: { company_id: (await createCompany(t.url, ws.key)).id, name: 'O', start_time: '09:00', end_time: '17:00' },
      })
    ).body.id;
    const cases: [Record<string, unknown>, string, string][] = [
      [{ employee_id: theirEmployee.id, date: '2026-04-01', shift_id: null }, 'employee_id', 'not_found'],
      [{ employee_id: employee.id, date: '2026-04-01', shift_id: theirShift }, 'shift_id', 'not_found'],
      [{ employee_id: employee.id, date: '2026-04-01', shift_id: otherCompanyShift }, 'shift_id', 'company_mismatch'],
      [{ employee_id: employee.id, date: '2026-04-31', shift_id: null }, 'date', 'invalid_date'],
      [{ employee_id: employee.id, date: '2026-04-01' }, 'shift_id', 'required'],
    ];
    for (const [body, field, code] of cases) {
      const refused = await override(body);
      expect(refused.status, `${code}: ${refused.text}`).to.equal(422);
      expect(refused.body.error.details[0], refused.text).to.include({ field, code });
    }
    expect((await rest(t.url, 'GET', `/public/v2/schedule_overrides?employee_id=${employee.id}`, { key: ws.key })).body).to.deep.equal([]);

    expect((await override({ employee_id: employee.id, date: '2026-04-01', shift_id: defaultShift })).status).to.equal(201);
    const twice = await override({ employee_id: employee.id, date: '2026-04-01', shift_id: null });
    expect(twice.body.error.details[0]).to.include({ field: 'date', code: 'already_taken' });

    const period = (
      await rest(t.url, 'POST', '/public/v2/pay_periods', { key: ws.key, body: { company_id: companyId, start_date: '2026-05-01', end_date: '2026-05-31' } })
    ).body;
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/lock`, { key: ws.key })).status).to.equal(200);
    const locked = await override({ employee_id: employee.id, date: '2026-05-04', shift_id: null });
    expect(locked.status).to.equal(409);
    expect(locked.body.error.code).to.equal('period_locked');
    expect((await rest(t.url, 'GET', `/public/v2/schedule_overrides?employee_id=${employee.id}&start_date=2026-05-01`, { key: ws.key })).body).to.deep.equal(
      [],
    );
  });

  it("another workspace's override is unknown: not read, listed, changed or deleted", async () => {
    const theirCompany = (await createCompany(t.url, other.key)).id;
    const theirEmployee = await createEmployee(t.url, other.key, theirCompany, { pin: String(pinSeq++) });
    const theirs = (await override({ employee_id: theirEmployee.id, date: '2026-04-01', shift_id: null }, other.key)).body;
    expect(theirs.id).to.be.a('number');
    expect((await rest(t.url, 'GET', `/public/v2/schedule_overrides/${theirs.id}`, { key: ws.key })).status).to.equal(404);
    expect((await rest(t.url, 'PUT', `/public/v2/schedule_overrides/${theirs.id}`, { key: ws.key, body: { shift_id: null } })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/schedule_overrides/${theirs.id}`, { key: ws.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/schedule_overrides', { key: ws.key })).body.map((o: { id: number }) => o.id)).to.not.include(theirs.id);
    const viaGraphql = await gqlData(t.url, other.key, 'query ($id: Int!) { scheduleOverride(id: $id) { employeeId date shiftId } }', { id: theirs.id });
    expect(viaGraphql.scheduleOverride).to.deep.equal({ employeeId: theirEmployee.id, date: '2026-04-01', shiftId: null });
  });
});
