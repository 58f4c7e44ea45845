import { expect } from 'chai';
import pg from 'pg';
import { uploadSlots } from '../../src/devices/upload-slots';
import { AttendanceWorker } from '../../src/services/attendance/attendance-worker';
import { subscribe, untilEventsDeliverable } from '../support/events';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// Stored attendance days against the real database, fed by real terminal uploads (ATTLOG lines),
// kept current by the worker; each test has its own company (its own default shift) and employees.
// 2026-03-02 is a Monday. The workspace, devices and shifts are in UTC unless a test says otherwise.
describe('attendance days: computed from terminal punches, kept current, read as timesheets', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let pinSeq = 500;

  before(async () => {
    t = await startTestApp({}, 'attendance-days');
    ws = await createWorkspace(t.url, { maxCompanies: 50, maxDevices: 50 });
  });
  after(() => t.stop());

  /** A company with one terminal and a default shift (09:00–17:00 Monday to Friday, changed by `shift`). */
  async function company(shift: Record<string, unknown> = {}) {
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    let shiftId: number | null = null;
    if (shift) {
      const created = await rest(t.url, 'POST', '/public/v2/shifts', {
        key: ws.key,
        body: { company_id: c.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true, ...shift },
      });
      expect(created.status, created.text).to.equal(201);
      shiftId = created.body.id;
    }
    const employee = async () => {
      const pin = String(pinSeq++);
      return { ...(await createEmployee(t.url, ws.key, c.id, { pin })), pin };
    };
    /** Uploads `[pin, 'YYYY-MM-DD HH:MM:SS', state]` lines as the terminal does. */
    const upload = async (lines: [string, string, string?][]) => {
      const body = lines.map(([pin, time, state = '0']) => `${pin}\t${time}\t${state}\t1\t0`).join('\n');
      const reply = await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body);
      expect(reply.text).to.match(/^OK/);
    };
    return { id: c.id, device, shiftId, employee, upload };
  }

  const timesheet = async (params: Record<string, string | number>, headers: Record<string, string> = {}) =>
    rest(t.url, 'GET', `/public/v2/timesheets?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)] as [string, string]))}`, {
      key: ws.key,
      headers,
    });
  const day = async (employeeId: number, date: string) => {
    const response = await timesheet({ employee_id: employeeId, start_date: date, end_date: date });
    expect(response.status, response.text).to.equal(200);
    return response.body[0];
  };
  /** Waits until the worker stored the day with `check` true (the worker, not a read, must get it there). */
  const storedDay = (employeeId: number, date: string, check: (row: any) => boolean) =>
    waitUntil(
      `the worker stored day ${date} of employee ${employeeId}`,
      async () => {
        const [row] = await query(
          t.config.databaseUrl!,
          `select status, worked_minutes, exceptions, punch_ids from attendance_day where employee_id = $1 and date = $2`,
          [employeeId, date],
        );
        return row && check(row) ? row : null;
      },
      5000,
    );

  it('a terminal upload becomes a stored day within a second, with an attendanceDayUpdated event; the timesheet shows it', async () => {
    const c = await company({ break_minutes: 30, grace_in_minutes: 5, grace_out_minutes: 5 });
    const e = await c.employee();
    const sub = await subscribe(
      t.app,
      ws.id,
      ws.key,
      'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { eventId type day { id employeeId date status workedMinutes lateMinutes earlyLeaveMinutes firstIn lastOut punchIds } } }',
      { e: e.id },
    );
    const sent = Date.now();
    await c.upload([
      [e.pin, '2026-03-02 09:12:00'],
      [e.pin, '2026-03-02 13:00:00'],
      [e.pin, '2026-03-02 16:40:00', '1'],
    ]);
    const events = await sub.waitFor(1, 5000);
    expect(Date.now() - sent).to.be.lessThan(5000);
    const updated = events.find((ev) => ev.day.date === '2026-03-02');
    expect(updated).to.deep.include({ type: 'attendance.day.updated' });
    expect(updated.day).to.deep.include({
      id: `${e.id}:2026-03-02`,
      employeeId: e.id,
      status: 'present',
      workedMinutes: 418,
      lateMinutes: 12,
      earlyLeaveMinutes: 20,
    });
    expect(updated.day.punchIds).to.have.length(3);
    expect(updated.day.firstIn).to.equal('2026-03-02T09:12:00.000Z');
    await sub.close();
    // Exactly the documented field names, nothing else.
    const shown = await day(e.id, '2026-03-02');
    expect(Object.keys(shown).sort()).to.deep.equal([
      'absence_code',
      'absence_type_id',
      'break_minutes',
      'date',
      'early_leave_minutes',
      'employee_id',
      'exceptions',
      'first_in',
      'last_out',
      'late_minutes',
      'leave_minutes',
      'overtime_minutes',
      'pay_items',
      'pending_overtime_minutes',
      'punch_ids',
      'scheduled_minutes',
      'shift_id',
      'status',
      'worked_minutes',
    ]);
    expect(shown).to.deep.include({
      status: 'present',
      shift_id: c.shiftId,
      scheduled_minutes: 450,
      worked_minutes: 418,
      break_minutes: 30,
      overtime_minutes: 0,
      last_out: '2026-03-02T16:40:00.000Z',
    });
    // The same upload again (a terminal re-sending after a reconnect) changes nothing and announces nothing.
    const before = (
      await query(t.config.databaseUrl!, `select count(*)::int as n from event where type = 'attendance.day.updated' and data->>'employee_id' = $1`, [
        String(e.id),
      ])
    )[0].n;
    await c.upload([
      [e.pin, '2026-03-02 09:12:00'],
      [e.pin, '2026-03-02 13:00:00'],
      [e.pin, '2026-03-02 16:40:00', '1'],
    ]);
    await t.app.jobs.runNow('attendance');
    const after = (
      await query(t.config.databaseUrl!, `select count(*)::int as n from event where type = 'attendance.day.updated' and data->>'employee_id' = $1`, [
        String(e.id),
      ])
    )[0].n;
    expect(after).to.equal(before);
  });

  it('a missing check-out is incomplete with 0 minutes; the check-out re-sent from the terminal history days later completes the old day, with its event', async () => {
    const c = await company();
    const e = await c.employee();
    // 08:58: paid from the 09:00 start (early_overtime is off).
    await c.upload([[e.pin, '2026-03-03 08:58:00']]);
    await storedDay(e.id, '2026-03-03', (row) => row.status === 'incomplete');
    expect(await day(e.id, '2026-03-03')).to.deep.include({ status: 'incomplete', worked_minutes: 0, exceptions: ['missing_out'] });
    const sub = await subscribe(t.app, ws.id, ws.key, 'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date status workedMinutes } } }', {
      e: e.id,
    });
    // Days later the terminal uploads its history: today's punches and the old check-out.
    await c.upload([
      [e.pin, '2026-03-09 09:00:00'],
      [e.pin, '2026-03-03 17:03:00', '1'],
    ]);
    const events = await sub.waitFor(1);
    await waitUntil('the subscriber received the day 2026-03-03', async () => sub.received.some((ev) => ev.day.date === '2026-03-03'));
    expect(sub.received.find((ev) => ev.day.date === '2026-03-03').day).to.deep.equal({ date: '2026-03-03', status: 'present', workedMinutes: 483 });
    expect(events.length).to.be.greaterThan(0);
    await sub.close();
  });

  it('a night shift across midnight is one day dated by its start, also across the spring DST change (Europe/Berlin)', async () => {
    const c = await company({ name: 'Night', start_time: '22:00', end_time: '06:00', workdays: [1, 2, 3, 4, 5, 6, 7] });
    const e = await c.employee();
    await c.upload([
      [e.pin, '2026-03-02 21:55:00'],
      [e.pin, '2026-03-03 06:02:00', '1'],
    ]);
    await storedDay(e.id, '2026-03-02', (row) => row.status === 'present');
    expect(await day(e.id, '2026-03-02')).to.deep.include({ status: 'present', worked_minutes: 482, scheduled_minutes: 480 }); // paid from the 22:00 start
    expect((await day(e.id, '2026-03-03')).status).to.equal('absent');

    const berlin = await company({ name: 'Night Berlin', start_time: '22:00', end_time: '06:00', workdays: [1, 2, 3, 4, 5, 6, 7], time_zone: 'Europe/Berlin' });
    await rest(t.url, 'PUT', `/public/v2/devices/${berlin.device.id}`, { key: ws.key, body: { time_zone: 'Europe/Berlin' } });
    const b = await berlin.employee();
    // 22:00 CET to 06:00 CEST: 7 hours.
    await berlin.upload([
      [b.pin, '2026-03-28 22:00:00'],
      [b.pin, '2026-03-29 06:00:00', '1'],
    ]);
    await storedDay(b.id, '2026-03-28', (row) => row.status === 'present');
    expect(await day(b.id, '2026-03-28')).to.deep.include({
      status: 'present',
      scheduled_minutes: 420,
      worked_minutes: 420,
      overtime_minutes: 0,
      first_in: '2026-03-28T21:00:00.000Z',
    });
  });

  it('alternating pairing sums a lunch out/in; by_state deducts recorded break punches instead of the unpaid break (recorded_break: replaces)', async () => {
    const alternating = await company({ pairing: 'alternating', break_minutes: 60, recorded_break: 'replaces' });
    const a = await alternating.employee();
    await alternating.upload([
      [a.pin, '2026-03-04 09:00:00'],
      [a.pin, '2026-03-04 12:00:00'],
      [a.pin, '2026-03-04 12:30:00'],
      [a.pin, '2026-03-04 17:00:00'],
    ]);
    expect(await day(a.id, '2026-03-04')).to.deep.include({ status: 'present', worked_minutes: 450, break_minutes: 30 });

    const byState = await company({ pairing: 'by_state', break_minutes: 60, recorded_break: 'replaces' });
    const s = await byState.employee();
    await byState.upload([
      [s.pin, '2026-03-04 09:00:00', '0'],
      [s.pin, '2026-03-04 12:00:00', '2'],
      [s.pin, '2026-03-04 12:45:00', '3'],
      [s.pin, '2026-03-04 17:00:00', '1'],
    ]);
    expect(await day(s.id, '2026-03-04')).to.deep.include({ status: 'present', worked_minutes: 435, break_minutes: 45 });
  });

  it('a punch less than 60 s after another counts once (duplicate_ignored); a manual punch is flagged', async () => {
    const c = await company();
    const e = await c.employee();
    await c.upload([
      [e.pin, '2026-03-05 09:00:00'],
      [e.pin, '2026-03-05 09:00:30'],
      [e.pin, '2026-03-05 17:00:00', '1'],
    ]);
    const shown = await day(e.id, '2026-03-05');
    expect(shown).to.deep.include({ status: 'present', worked_minutes: 480, exceptions: ['duplicate_ignored'] });
    expect(shown.punch_ids).to.have.length(3);

    const m = await c.employee();
    for (const [time, state] of [
      ['2026-03-05T09:00:00Z', '0'],
      ['2026-03-05T17:00:00Z', '1'],
    ]) {
      const created = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: m.id, company_id: c.id, device_id: c.device.id, punch_time: time, punch_state: state },
      });
      expect(created.status, created.text).to.equal(201);
    }
    expect(await day(m.id, '2026-03-05')).to.deep.include({ status: 'present', worked_minutes: 480, exceptions: ['manual_punch'] });
  });

  it('holidays and rest days: no punches is holiday or off, work on a rest day is paid as rest_day; a holiday added later recomputes the day', async () => {
    const c = await company();
    const e = await c.employee();
    await rest(t.url, 'POST', '/public/v2/holidays', { key: ws.key, body: { company_id: c.id, date: '2026-03-06', name: 'Founders day' } });
    expect(await day(e.id, '2026-03-06')).to.deep.include({ status: 'holiday', scheduled_minutes: 0 });
    expect(await day(e.id, '2026-03-07')).to.deep.include({ status: 'off', shift_id: null });
    await c.upload([
      [e.pin, '2026-03-08 10:00:00'],
      [e.pin, '2026-03-08 14:00:00', '1'],
    ]);
    expect(await day(e.id, '2026-03-08')).to.deep.include({ status: 'present', worked_minutes: 240, overtime_minutes: 0, scheduled_minutes: 0 });
    expect((await day(e.id, '2026-03-08')).pay_items).to.deep.equal([{ code: 'rest_day', minutes: 240 }]);
    // A workday already stored as absent becomes a holiday when one is declared for it.
    expect((await day(e.id, '2026-03-10')).status).to.equal('absent');
    await rest(t.url, 'POST', '/public/v2/holidays', { key: ws.key, body: { company_id: c.id, date: '2026-03-10', name: 'Storm' } });
    await storedDay(e.id, '2026-03-10', (row) => row.status === 'holiday');
  });

  it('a void recomputes the day and announces it', async () => {
    const c = await company();
    const e = await c.employee();
    await c.upload([
      [e.pin, '2026-03-11 09:00:00'],
      [e.pin, '2026-03-11 12:00:00', '1'],
      [e.pin, '2026-03-11 17:00:00', '1'],
    ]);
    const before = await day(e.id, '2026-03-11');
    expect(before).to.deep.include({ worked_minutes: 480 });
    const sub = await subscribe(
      t.app,
      ws.id,
      ws.key,
      'subscription ($e: Int) { attendanceDayUpdated(employeeId: $e) { day { date workedMinutes punchIds } } }',
      { e: e.id },
    );
    const last = Math.max(...before.punch_ids);
    expect((await rest(t.url, 'POST', `/public/v2/punches/${last}/void`, { key: ws.key, body: { reason: 'left early, punched twice' } })).status).to.equal(200);
    // The day's first computation may still be announced after the subscription began (the feed
    // delivers events below the oldest running transaction of the whole server, so a test file
    // beside this one can hold it back): wait for the recomputed day.
    await waitUntil('the recomputed day is announced', () => sub.received.some((e) => e.day.workedMinutes === 180));
    // Only the voided punch's day changed: every event is of that day, the last one the recomputed day.
    expect(sub.received.map((e) => e.day.date)).to.satisfy((dates: string[]) => dates.every((d) => d === '2026-03-11'));
    const event = sub.received.at(-1)!;
    expect(event.day).to.deep.include({ date: '2026-03-11', workedMinutes: 180 });
    expect(event.day.punchIds).to.not.include(last);
    await sub.close();
  });

  it('a locked pay period is frozen: a later punch is stored and flagged after_lock, the values stay; unlocking counts it', async () => {
    const c = await company();
    const e = await c.employee();
    await c.upload([[e.pin, '2026-03-12 09:00:00']]);
    const period = (
      await rest(t.url, 'POST', '/public/v2/pay_periods', { key: ws.key, body: { company_id: c.id, start_date: '2026-03-01', end_date: '2026-03-31' } })
    ).body;
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/lock`, { key: ws.key })).status).to.equal(200);
    // Locking stored every day of the period for the company's employees.
    const [count] = await query(
      t.config.databaseUrl!,
      `select count(*)::int as n from attendance_day where employee_id = $1 and date between '2026-03-01' and '2026-03-31'`,
      [e.id],
    );
    expect(count.n).to.equal(31);
    expect(await day(e.id, '2026-03-12')).to.deep.include({ status: 'incomplete', worked_minutes: 0 });
    await c.upload([[e.pin, '2026-03-12 17:00:00', '1']]);
    const flagged = await storedDay(e.id, '2026-03-12', (row) => row.exceptions.includes('after_lock'));
    expect(flagged).to.deep.include({ status: 'incomplete', worked_minutes: 0 });
    expect(flagged.punch_ids).to.have.length(1);
    // A shift change does not reach into the locked period either.
    await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: c.id, name: 'New default', start_time: '08:00', end_time: '16:00', is_default: true },
    });
    await t.app.jobs.runNow('attendance');
    expect((await day(e.id, '2026-03-12')).status).to.equal('incomplete');
    await rest(t.url, 'POST', `/public/v2/pay_periods/${period.id}/unlock`, { key: ws.key });
    await storedDay(e.id, '2026-03-12', (row) => row.status === 'present' && !row.exceptions.includes('after_lock'));
  });

  it("precedence: the employee's own assignment over an area's over the company default; a shift change from a date leaves earlier days alone", async () => {
    const c = await company({ name: 'Default 09-17' });
    const mk = async (name: string, start: string, end: string) =>
      (await rest(t.url, 'POST', '/public/v2/shifts', { key: ws.key, body: { company_id: c.id, name, start_time: start, end_time: end } })).body.id as number;
    const early = await mk('Early 06-14', '06:00', '14:00');
    const late = await mk('Late 14-22', '14:00', '22:00');
    const own = await c.employee();
    const member = await c.employee();
    const plain = await c.employee();
    const area = await createArea(t.url, ws.key, c.id);
    await rest(t.url, 'POST', `/public/v2/areas/${area.id}/employees`, { key: ws.key, body: [{ employee_id: own.id }, { employee_id: member.id }] });
    await rest(t.url, 'POST', '/public/v2/shift_assignments', { key: ws.key, body: { shift_id: early, area_id: area.id, start_date: '2026-03-01' } });
    const ownAssignment = (
      await rest(t.url, 'POST', '/public/v2/shift_assignments', { key: ws.key, body: { shift_id: late, employee_id: own.id, start_date: '2026-03-01' } })
    ).body;
    const date = '2026-03-16';
    expect((await day(own.id, date)).shift_id).to.equal(late);
    expect((await day(member.id, date)).shift_id).to.equal(early);
    expect((await day(plain.id, date)).shift_id).to.equal(c.shiftId);

    // From the 18th the employee works early shifts: the 16th and 17th keep the late shift.
    await c.upload([
      [own.pin, '2026-03-17 14:00:00'],
      [own.pin, '2026-03-17 22:00:00', '1'],
      [own.pin, '2026-03-18 06:00:00'],
      [own.pin, '2026-03-18 14:00:00', '1'],
    ]);
    expect(await day(own.id, '2026-03-17')).to.deep.include({ shift_id: late, worked_minutes: 480, late_minutes: 0 });
    await rest(t.url, 'PUT', `/public/v2/shift_assignments/${ownAssignment.id}`, { key: ws.key, body: { end_date: '2026-03-17' } });
    await rest(t.url, 'POST', '/public/v2/shift_assignments', { key: ws.key, body: { shift_id: early, employee_id: own.id, start_date: '2026-03-18' } });
    await t.app.jobs.runNow('attendance');
    expect(await day(own.id, '2026-03-18')).to.deep.include({ shift_id: early, worked_minutes: 480, late_minutes: 0 });
    expect(await day(own.id, '2026-03-17')).to.deep.include({ shift_id: late, worked_minutes: 480 });
  });

  it('summary per employee, CSV on Accept: text/csv, and bad ranges or foreign ids refused', async () => {
    const c = await company();
    const a = await c.employee();
    const b = await c.employee();
    await c.upload([
      [a.pin, '2026-03-02 09:10:00'],
      [a.pin, '2026-03-02 18:00:00', '1'],
      [a.pin, '2026-03-03 09:00:00'],
    ]);
    await t.app.jobs.runNow('attendance');
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?company_id=${c.id}&start_date=2026-03-02&end_date=2026-03-06`, { key: ws.key });
    expect(summary.status).to.equal(200);
    expect(summary.headers.get('x-total-count')).to.equal('2');
    expect(summary.body).to.deep.equal([
      {
        employee_id: a.id,
        days_present: 1,
        days_absent: 3,
        days_incomplete: 1,
        worked_minutes: 530,
        overtime_minutes: 50,
        late_minutes: 10,
        days_leave: 0,
        leave_minutes: 0,
        pay_items: [
          { code: 'regular', minutes: 480 },
          { code: 'overtime', minutes: 50 },
        ],
        pending_overtime_minutes: 0,
      },
      {
        employee_id: b.id,
        days_present: 0,
        days_absent: 5,
        days_incomplete: 0,
        worked_minutes: 0,
        overtime_minutes: 0,
        late_minutes: 0,
        days_leave: 0,
        leave_minutes: 0,
        pay_items: [],
        pending_overtime_minutes: 0,
      },
    ]);

    const csv = await timesheet({ employee_id: a.id, start_date: '2026-03-02', end_date: '2026-03-03' }, { accept: 'text/csv' });
    expect(csv.status).to.equal(200);
    expect(csv.headers.get('content-type')).to.equal('text/csv; charset=utf-8');
    const lines = csv.text.split('\r\n');
    expect(lines[0]).to.equal(
      'employee_id,date,shift_id,status,first_in,last_out,scheduled_minutes,worked_minutes,break_minutes,late_minutes,early_leave_minutes,overtime_minutes,pay_items,exceptions,punch_ids,absence_type_id,absence_code,leave_minutes,pending_overtime_minutes',
    );
    expect(lines[1]).to.match(
      new RegExp(
        `^${a.id},2026-03-02,${c.shiftId},present,2026-03-02T09:10:00.000Z,2026-03-02T18:00:00.000Z,480,530,0,10,0,50,regular:480;overtime:50,,\\d+;\\d+,,,0,0$`,
      ),
    );
    expect(lines[2]).to.match(new RegExp(`^${a.id},2026-03-03,${c.shiftId},incomplete,2026-03-03T09:00:00.000Z,,480,0,0,0,0,0,,missing_out,\\d+,,,0,0$`));
    expect(lines.at(-1)).to.equal('');
    const summaryCsv = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${b.id}&start_date=2026-03-02&end_date=2026-03-06`, {
      key: ws.key,
      headers: { accept: 'text/csv' },
    });
    expect(summaryCsv.text).to.equal(
      `employee_id,days_present,days_absent,days_incomplete,worked_minutes,overtime_minutes,late_minutes,days_leave,leave_minutes,pay_items,pending_overtime_minutes\r\n${b.id},0,5,0,0,0,0,0,0,,0\r\n`,
    );

    const refused = async (params: Record<string, string | number>, status: number, field?: string, code?: string) => {
      const response = await timesheet(params);
      expect(response.status, response.text).to.equal(status);
      if (field) expect(response.body.error.details[0]).to.include({ field, code });
    };
    await refused({ start_date: '2026-01-01', end_date: '2027-01-02' }, 422, 'end_date', 'out_of_range');
    await refused({ start_date: '2026-03-05', end_date: '2026-03-01' }, 422, 'end_date', 'before_start_date');
    await refused({ start_date: '2026-02-30', end_date: '2026-03-01' }, 422, 'start_date', 'invalid_date');
    await refused({ start_date: '2026-03-01' }, 422, 'end_date', 'required');
    const other = await createWorkspace(t.url);
    const foreign = await createEmployee(t.url, other.key, (await createCompany(t.url, other.key)).id);
    await refused({ employee_id: foreign.id, start_date: '2026-03-01', end_date: '2026-03-02' }, 404);
    // The other workspace sees none of these days.
    const theirs = await rest(t.url, 'GET', `/public/v2/timesheets?start_date=2026-03-02&end_date=2026-03-02`, { key: other.key });
    expect(theirs.body.map((d: any) => d.employee_id)).to.deep.equal([foreign.id]);
  });

  it('an upload waits for a free upload slot, then is stored; while it waits, the worker computes no day', async () => {
    const c = await company();
    const waiting = await c.employee();
    const manual = await c.employee();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const holders = Array.from({ length: uploadSlots.size }, () => uploadSlots.run(() => held));
    try {
      const reply = iclock(t.url, 'POST', `/iclock/cdata?SN=${c.device.serial_number}&table=ATTLOG&Stamp=1`, `${waiting.pin}\t2026-03-16 09:00:00\t0\t1\t0`);
      await waitUntil(
        'the upload waits for an upload slot',
        async () => uploadSlots.queued,
        (v) => v === 1,
      );
      // A punch that needs no slot wakes the worker; with an upload queued, its batch waits.
      const created = await rest(t.url, 'POST', '/public/v2/punches', {
        key: ws.key,
        body: { employee_id: manual.id, company_id: c.id, device_id: c.device.id, punch_time: '2026-03-16T09:00:00', punch_state: '0' },
      });
      expect(created.status, created.text).to.equal(201);
      await waitUntil('the attendance worker yields to the waiting upload', async () => t.app.attendance.yieldingToUploads);
      const stored = async (employeeId: number) => (await query(t.config.databaseUrl!, 'select 1 from punch where employee_id = $1', [employeeId])).length;
      expect(await stored(waiting.id), 'the upload is not stored before it has a slot').to.equal(0);
      expect(
        await query(t.config.databaseUrl!, 'select 1 from attendance_day where employee_id = $1', [manual.id]),
        'no batch while an upload queues',
      ).to.have.length(0);
      release();
      expect((await reply).text).to.equal('OK: 1');
      expect(await stored(waiting.id)).to.equal(1);
      await storedDay(manual.id, '2026-03-16', (row) => row.punch_ids.length === 1);
      await storedDay(waiting.id, '2026-03-16', (row) => row.punch_ids.length === 1);
    } finally {
      release();
      await Promise.all(holders);
    }
  });
});

// Regression: a process stopping with a backlog of punches (after a burst of uploads) waited for the
// worker to work it all off, minutes after SIGTERM. Now a stopped worker starts no further batch; the
// backlog waits, committed cursor and all, for the next run.
describe('attendance worker: stopping with a backlog', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ TIMEGATE_ATTENDANCE_WORKER: 'false' }, 'attendance-stop');
  });
  after(() => t.stop());

  it('a stopped worker runs no batch and moves no cursor; a running one then takes the backlog', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const e = await createEmployee(t.url, ws.key, c.id, { pin: '77' });
    const lines = Array.from({ length: 20 }, (_, i) => `77\t2026-03-${String(2 + i).padStart(2, '0')} 09:00:00\t0\t1\t0`).join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines)).text).to.match(/^OK/);
    const cursor = async () => (await query(t.config.databaseUrl!, `select position from job_cursor where name = 'attendance'`))[0]?.position ?? null;
    const before = await cursor();

    const deps = { orm: t.app.database.orm, config: t.config, logger: t.app.logger, now: () => new Date() };
    const stopped = new AttendanceWorker(deps);
    stopped.stop();
    expect(await stopped.runUntilIdle()).to.equal(0);
    expect(await cursor(), 'no batch ran').to.equal(before);
    expect(await query(t.config.databaseUrl!, 'select 1 from attendance_day where employee_id = $1', [e.id])).to.have.length(0);

    await untilEventsDeliverable(t.config.databaseUrl!);
    expect(await new AttendanceWorker(deps).runUntilIdle()).to.be.greaterThan(0);
    expect(await cursor()).to.not.equal(before);
    expect(await query(t.config.databaseUrl!, 'select 1 from attendance_day where employee_id = $1', [e.id])).to.have.length.greaterThan(19);
  });

  it('while terminal uploads queue for a slot, a batch waits: until they stop, or 5 s at most', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const e = await createEmployee(t.url, ws.key, c.id, { pin: '79' });
    const days = async () => (await query(t.config.databaseUrl!, 'select 1 from attendance_day where employee_id = $1', [e.id])).length;
    const upload = async (day: number) => {
      const line = `79\t2026-04-${String(day).padStart(2, '0')} 09:00:00\t0\t1\t0`;
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, line)).text).to.equal('OK: 1');
    };
    let saturated = true;
    const worker = new AttendanceWorker({
      orm: t.app.database.orm,
      config: t.config,
      logger: t.app.logger,
      now: () => new Date(),
      ingestionBusy: () => saturated,
    });

    await upload(6);
    await untilEventsDeliverable(t.config.databaseUrl!);
    const released = worker.runUntilIdle();
    await waitUntil('the attendance worker yields to the waiting upload', async () => worker.yieldingToUploads);
    expect(await days(), 'no batch while uploads queue').to.equal(0);
    saturated = false;
    expect(await released).to.be.greaterThan(0);
    expect(await days()).to.be.greaterThan(0);

    // Saturated for good: the batch runs anyway after the longest wait.
    saturated = true;
    const before = await days();
    await upload(20);
    await untilEventsDeliverable(t.config.databaseUrl!);
    const began = Date.now();
    expect(await worker.runUntilIdle()).to.be.greaterThan(0);
    expect(Date.now() - began).to.be.within(4_900, 15_000);
    expect(await days()).to.be.greaterThan(before);
  });

  it('with no worker running, a timesheet read computes the days of an upload it finds waiting (one outbox batch)', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const e = await createEmployee(t.url, ws.key, c.id, { pin: '78' });
    const lines = ['78\t2026-03-10 09:00:00\t0\t1\t0', '78\t2026-03-10 17:00:00\t1\t1\t0'].join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines)).text).to.equal('OK: 2');
    expect(
      (await query(t.config.databaseUrl!, `select span from event where workspace_id = $1 and type = 'attendance.created'`, [ws.id])).map((r) => r.span),
    ).to.deep.equal([2]);
    const read = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${e.id}&start_date=2026-03-10&end_date=2026-03-10`, { key: ws.key });
    expect(read.status, read.text).to.equal(200);
    expect(read.body).to.have.length(1);
    expect(read.body[0].punch_ids).to.have.length(2);
  });

  it('a read counts a punch the outbox cannot hand out yet (an older transaction still runs); the worker later announces the day no second time', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const e = await createEmployee(t.url, ws.key, c.id, { pin: '76' });
    const day = async () => {
      const read = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${e.id}&start_date=2026-03-11&end_date=2026-03-11`, { key: ws.key });
      expect(read.status, read.text).to.equal(200);
      return read.body[0] as { status: string; punch_ids: number[] };
    };
    const announced = async () =>
      (
        await query(
          t.config.databaseUrl!,
          `select count(*)::int as n from event where type = 'attendance.day.updated' and data->>'employee_id' = $1 and data->>'date' = '2026-03-11'`,
          [String(e.id)],
        )
      )[0].n;
    // The day is stored before the punch (a day off: this company has no shift).
    expect(await day()).to.deep.include({ status: 'off', punch_ids: [] });
    // Another client's transaction that began before the upload: the upload's events wait behind it.
    const holder = new pg.Client({ connectionString: t.config.databaseUrl! });
    await holder.connect();
    try {
      await holder.query('begin');
      await holder.query('select pg_current_xact_id()');
      const lines = ['76\t2026-03-11 09:00:00\t0\t1\t0', '76\t2026-03-11 17:00:00\t1\t1\t0'].join('\n');
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines)).text).to.equal('OK: 2');
      expect((await day()).punch_ids).to.have.length(2);
      expect(await announced()).to.equal(1);
    } finally {
      await holder.query('commit');
      await holder.end();
    }
    await untilEventsDeliverable(t.config.databaseUrl!);
    const deps = { orm: t.app.database.orm, config: t.config, logger: t.app.logger, now: () => new Date() };
    const cursor = async () => Number((await query(t.config.databaseUrl!, `select position from job_cursor where name = 'attendance'`))[0]?.position ?? 0);
    const taken = await cursor();
    expect(await new AttendanceWorker(deps).runUntilIdle(), 'no day changed').to.equal(0);
    expect(await cursor(), 'the worker took the upload').to.be.greaterThan(taken);
    expect(await announced(), 'the day announced once').to.equal(1);
  });
});
