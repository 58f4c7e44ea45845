import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { iclock } from '../support/terminal';
import { waitUntil } from '../support/wait-until';
import { startTestApp, type TestApp } from '../support/test-app';

// The lock bypass: deleting an employee removed their stored days, locked ones included, and a new
// employee given the same pin inherited the old punches, so the locked period was computed again
// with them (2 days / 900 min became 3 days / 1,410 min). A deleted employee with history is kept,
// marked deleted; their days stay as locked, and the pin's new holder starts with nothing.
// Workspace, device and shift in UTC; 2026-09-07 is a Monday, 2026-09-12 a Saturday.
describe('locked pay period: deleting an employee and reusing their pin changes no locked day', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  before(async () => {
    t = await startTestApp({}, 'locked-days-delete');
    ws = await createWorkspace(t.url, { maxCompanies: 5 });
  });
  after(() => t.stop());

  const db = (text: string, params: unknown[] = []) => query(t.config.databaseUrl!, text, params);

  it("lock September (2 days, 900 min), punches after the lock, delete A, create B with A's pin: the locked days stay, B has none of them", async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    const shift = await rest(t.url, 'POST', '/public/v2/shifts', {
      key: ws.key,
      body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
    });
    expect(shift.status, shift.text).to.equal(201);
    const pin = '4242';
    const a = await createEmployee(t.url, ws.key, company.id, { pin });
    const upload = async (lines: [string, string][]) => {
      const body = lines.map(([time, state]) => `${pin}\t${time}\t${state}\t1\t0`).join('\n');
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);
    };
    const summary = async () => {
      const response = await rest(t.url, 'GET', `/public/v2/timesheets/summary?company_id=${company.id}&start_date=2026-09-01&end_date=2026-09-30`, {
        key: ws.key,
      });
      expect(response.status, response.text).to.equal(200);
      return response.body as { employee_id: number; days_present: number; worked_minutes: number; overtime_minutes: number }[];
    };
    const daysOf = (employeeId: number) =>
      db(
        `select id, date::text, status, worked_minutes, overtime_minutes, exceptions, punch_ids::text, updated_at from attendance_day where employee_id = $1 order by date`,
        [employeeId],
      );

    await upload([
      ['2026-09-07 09:00:00', '0'],
      ['2026-09-07 16:30:00', '1'],
      ['2026-09-08 09:00:00', '0'],
      ['2026-09-08 16:30:00', '1'],
    ]);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-09-01', end_date: '2026-09-30' },
    });
    expect(period.status, period.text).to.equal(201);
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    expect((await summary()).find((row) => row.employee_id === a.id)).to.deep.include({ days_present: 2, worked_minutes: 900, overtime_minutes: 0 });

    // A Saturday of 10.5 hours re-sent after the lock: flagged on the locked day, not counted.
    await upload([
      ['2026-09-12 08:00:00', '0'],
      ['2026-09-12 18:30:00', '1'],
    ]);
    await waitUntil(
      'the day after the lock carries after_lock',
      async () => {
        const [row] = await db(`select exceptions from attendance_day where employee_id = $1 and date = '2026-09-12'`, [a.id]);
        return row?.exceptions.includes('after_lock');
      },
      5000,
    );
    const locked = await daysOf(a.id);
    expect(locked).to.have.length(30);

    const deleted = await rest(t.url, 'DELETE', `/public/v2/employees/${a.id}`, { key: ws.key });
    expect(deleted.status, deleted.text).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/employees/${a.id}`, { key: ws.key })).status).to.equal(404);
    const listed = await rest(t.url, 'GET', `/public/v2/employees?company_id=${company.id}`, { key: ws.key });
    expect(listed.body.map((e: { id: number }) => e.id)).to.not.include(a.id);

    // A's pin re-sent from the terminal's September history while nobody holds it, then B takes the pin (and A's code).
    await upload([
      ['2026-09-14 09:00:00', '0'],
      ['2026-09-14 17:00:00', '1'],
    ]);
    const b = await createEmployee(t.url, ws.key, company.id, { pin, code: a.code });
    await t.app.jobs.runNow('attendance');
    const rows = await summary();

    // The locked days are the same rows with the same values, the late punches still only flagged.
    expect(await daysOf(a.id)).to.deep.equal(locked);
    expect(rows.find((row) => row.employee_id === a.id)).to.deep.include({ days_present: 2, worked_minutes: 900, overtime_minutes: 0 });
    const saturday = locked.find((row) => row.date === '2026-09-12')!;
    expect(saturday).to.deep.include({ status: 'off', worked_minutes: 0, overtime_minutes: 0 });
    expect(saturday.exceptions).to.include('after_lock');
    // B inherits no punch and no day of A's.
    expect(rows.find((row) => row.employee_id === b.id)).to.deep.include({ days_present: 0, worked_minutes: 0, overtime_minutes: 0 });
    const [{ n: bPunches }] = await db(`select count(*)::int as n from punch where employee_id = $1`, [b.id]);
    expect(bPunches).to.equal(0);
    const [{ n: bDaysWithPunches }] = await db(`select count(*)::int as n from attendance_day where employee_id = $1 and cardinality(punch_ids) > 0`, [b.id]);
    expect(bDaysWithPunches).to.equal(0);
    const [{ n: aPunches }] = await db(`select count(*)::int as n from punch where employee_id = $1`, [a.id]);
    expect(aPunches).to.equal(6);

    // B's own punches are B's.
    const now = new Date(Date.now() - 60_000).toISOString().slice(0, 19).replace('T', ' ');
    await upload([[now, '0']]);
    const [{ n: bNow }] = await db(`select count(*)::int as n from punch where employee_id = $1`, [b.id]);
    expect(bNow).to.equal(1);
  });

  it('a locked day stored for the first time after the lock (its employee created later) counts only the punches received by the lock; later ones are flagged after_lock', async () => {
    const company = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, company.id);
    expect(
      (
        await rest(t.url, 'POST', '/public/v2/shifts', {
          key: ws.key,
          body: { company_id: company.id, name: 'Day', start_time: '09:00', end_time: '17:00', is_default: true },
        })
      ).status,
    ).to.equal(201);
    const pin = '5151';
    const upload = async (lines: [string, string][]) => {
      const body = lines.map(([time, state]) => `${pin}\t${time}\t${state}\t1\t0`).join('\n');
      expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);
    };
    // Enrolled on the terminal only: the punches wait for an employee with the pin.
    await upload([
      ['2026-09-07 09:00:00', '0'],
      ['2026-09-07 16:30:00', '1'],
    ]);
    const period = await rest(t.url, 'POST', '/public/v2/pay_periods', {
      key: ws.key,
      body: { company_id: company.id, start_date: '2026-09-01', end_date: '2026-09-30' },
    });
    expect((await rest(t.url, 'POST', `/public/v2/pay_periods/${period.body.id}/lock`, { key: ws.key })).status).to.equal(200);
    await upload([
      ['2026-09-12 08:00:00', '0'],
      ['2026-09-12 18:30:00', '1'],
    ]);
    const c = await createEmployee(t.url, ws.key, company.id, { pin });
    await t.app.jobs.runNow('attendance');
    const summary = await rest(t.url, 'GET', `/public/v2/timesheets/summary?employee_id=${c.id}&start_date=2026-09-01&end_date=2026-09-30`, { key: ws.key });
    expect(summary.body[0]).to.deep.include({ employee_id: c.id, days_present: 1, worked_minutes: 450, overtime_minutes: 0 });
    const saturday = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${c.id}&start_date=2026-09-12&end_date=2026-09-12`, { key: ws.key });
    expect(saturday.body[0]).to.deep.include({ status: 'off', worked_minutes: 0, overtime_minutes: 0, punch_ids: [] });
    expect(saturday.body[0].exceptions).to.include('after_lock');
  });
});
