import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace } from '../support/factories';
import { rest } from '../support/http';
import { query } from '../support/service-process';
import { statementsDuring } from '../support/statements';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Each slice of a month timesheet asks for the whole month to be current. When it is (the usual
// case), the read checks that with one index-backed count instead of building every employee's
// dates of the range; a missing, stale or due day, or a punch not taken yet, is still computed first.
describe('timesheet reads: a current range is checked, not rebuilt', () => {
  let t: TestApp;
  // A fixed clock: days of March 2026 settle before it, so none becomes due while the test runs.
  before(async () => {
    t = await startTestApp({}, 'timesheet-current-check', { now: () => new Date('2026-04-15T12:00:00Z') });
  });
  after(() => t.stop());

  /** The statement that lists the range's days to compute, employee by employee and date by date. */
  const buildsDates = (statements: string[]) => statements.some((s) => s.includes('generate_series'));

  it('a second read of a current month builds no dates and answers the same; a missing or stale day, or a new punch, is computed first', async () => {
    const ws = await createWorkspace(t.url);
    const c = await createCompany(t.url, ws.key);
    const device = await createDevice(t.url, ws.key, c.id);
    const staying = [await createEmployee(t.url, ws.key, c.id, { pin: '31' }), await createEmployee(t.url, ws.key, c.id, { pin: '32' })];
    const leaving = await createEmployee(t.url, ws.key, c.id, { pin: '33' });
    const month = `/public/v2/timesheets?company_id=${c.id}&start_date=2026-03-01&end_date=2026-03-31&per_page=1000`;
    const read = async () => {
      const r = await rest(t.url, 'GET', month, { key: ws.key });
      expect(r.status, r.text).to.equal(200);
      return r.body as { employee_id: number; date: string; status: string; punch_ids: number[] }[];
    };

    const first = await statementsDuring(t.app, read);
    expect(buildsDates(first.statements)).to.equal(true);
    expect(first.result).to.have.length(3 * 31);
    const again = await statementsDuring(t.app, read);
    expect(buildsDates(again.statements)).to.equal(false);
    expect(again.result).to.deep.equal(first.result);

    // A deleted employee keeps the month's days stored (deleted after it): still current.
    expect((await rest(t.url, 'DELETE', `/public/v2/employees/${leaving.id}`, { key: ws.key })).status).to.be.oneOf([200, 204]);
    const afterDelete = await statementsDuring(t.app, read);
    expect(buildsDates(afterDelete.statements)).to.equal(false);
    expect(afterDelete.result).to.deep.equal(first.result);

    // A day gone from the store is computed again before the read answers.
    await query(t.config.databaseUrl!, `delete from attendance_day where employee_id = $1 and date = '2026-03-10'`, [staying[0]!.id]);
    const missing = await statementsDuring(t.app, read);
    expect(buildsDates(missing.statements)).to.equal(true);
    expect(missing.result).to.deep.equal(first.result);

    // A stale day is computed again (and its mark cleared).
    await query(t.config.databaseUrl!, `update attendance_day set stale = true, status = 'incomplete' where employee_id = $1 and date = '2026-03-11'`, [
      staying[1]!.id,
    ]);
    const eleventh = (days: typeof first.result) => days.find((d) => d.employee_id === staying[1]!.id && d.date === '2026-03-11');
    expect(eleventh(await read())).to.deep.equal(eleventh(first.result));
    expect((await query(t.config.databaseUrl!, `select count(*)::int as n from attendance_day where stale`))[0].n).to.equal(0);

    // A punch posted and read at once is in the answer.
    const lines = ['31\t2026-03-12 09:00:00\t0\t1\t0', '31\t2026-03-12 17:00:00\t1\t1\t0'].join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, lines)).text).to.equal('OK: 2');
    const punched = (await read()).find((d) => d.employee_id === staying[0]!.id && d.date === '2026-03-12');
    expect(punched!.punch_ids).to.have.length(2);
  });
});
