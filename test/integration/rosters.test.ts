import { expect } from 'chai';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { iclock } from '../support/terminal';
import { startTestApp, type TestApp } from '../support/test-app';

// Rosters against the real database: CRUD over REST and GraphQL, refusals, and the stored days of
// an employee on a roster. 2026-03-28 is a Saturday; the workspace is in UTC.
describe('rosters: repeating cycles of shifts and days off, assigned instead of a shift', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  let pinSeq = 700;

  before(async () => {
    t = await startTestApp({}, 'rosters');
    ws = await createWorkspace(t.url, { maxCompanies: 20, maxDevices: 20 });
    other = await createWorkspace(t.url, { maxCompanies: 5 });
  });
  after(() => t.stop());

  const shift = async (key: string, companyId: number, name: string, extra: Record<string, unknown> = {}) => {
    const created = await rest(t.url, 'POST', '/public/v2/shifts', {
      key,
      body: { company_id: companyId, name, start_time: '09:00', end_time: '17:00', ...extra },
    });
    expect(created.status, created.text).to.equal(201);
    return created.body.id as number;
  };
  const createRoster = (body: Record<string, unknown>, key = ws.key) => rest(t.url, 'POST', '/public/v2/rosters', { key, body });
  const timesheet = async (employeeId: number, from: string, to: string) => {
    const response = await rest(t.url, 'GET', `/public/v2/timesheets?employee_id=${employeeId}&start_date=${from}&end_date=${to}`, { key: ws.key });
    expect(response.status, response.text).to.equal(200);
    return response.body as { date: string; status: string; shift_id: number | null; scheduled_minutes: number; worked_minutes: number }[];
  };

  it('REST and GraphQL: create, read, list by company, update, delete; days keep their nulls', async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const day = await shift(ws.key, companyId, 'Day');
    const created = await createRoster({ company_id: companyId, name: 'Two on, one off', start_date: '2026-03-01', days: [day, day, null] });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ company_id: companyId, name: 'Two on, one off', start_date: '2026-03-01' });
    expect(created.body.days).to.deep.equal([day, day, null]);
    const read = await rest(t.url, 'GET', `/public/v2/rosters/${created.body.id}`, { key: ws.key });
    expect(read.body.days).to.deep.equal([day, day, null]);
    const listed = await rest(t.url, 'GET', `/public/v2/rosters?company_id=${companyId}`, { key: ws.key });
    expect(listed.body.map((r: { id: number }) => r.id)).to.deep.equal([created.body.id]);
    const updated = await rest(t.url, 'PUT', `/public/v2/rosters/${created.body.id}`, { key: ws.key, body: { days: [null, day], name: 'Alternate' } });
    expect(updated.status, updated.text).to.equal(200);
    expect(updated.body).to.include({ name: 'Alternate', start_date: '2026-03-01' });
    expect(updated.body.days).to.deep.equal([null, day]);
    const viaGraphql = await gqlData(
      t.url,
      ws.key,
      'query ($id: Int!) { roster(id: $id) { name days } rosters(companyId: ' + companyId + ') { totalCount } }',
      { id: created.body.id },
    );
    expect(viaGraphql.roster).to.deep.equal({ name: 'Alternate', days: [null, day] });
    expect(viaGraphql.rosters.totalCount).to.equal(1);
    expect((await rest(t.url, 'DELETE', `/public/v2/rosters/${created.body.id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'GET', `/public/v2/rosters/${created.body.id}`, { key: ws.key })).status).to.equal(404);
  });

  it('refuses an empty or too long cycle, a shift of another company or workspace, a missing field, and stores nothing', async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const day = await shift(ws.key, companyId, 'Day');
    const otherCompanyShift = await shift(ws.key, (await createCompany(t.url, ws.key)).id, 'Elsewhere');
    const foreignShift = await shift(other.key, (await createCompany(t.url, other.key)).id, 'Foreign');
    const base = { company_id: companyId, name: 'R', start_date: '2026-03-01' };
    const cases: [Record<string, unknown>, string, string][] = [
      [{ ...base, days: [] }, 'days', 'empty'],
      [{ ...base, days: Array(367).fill(null) }, 'days', 'too_many_items'],
      [{ ...base, days: [day, otherCompanyShift] }, 'days[1]', 'company_mismatch'],
      [{ ...base, days: [foreignShift] }, 'days[0]', 'not_found'],
      [{ ...base, days: [day], start_date: '2026-02-30' }, 'start_date', 'invalid_date'],
      [{ company_id: companyId, name: 'R', start_date: '2026-03-01' }, 'days', 'required'],
    ];
    for (const [body, field, code] of cases) {
      const refused = await createRoster(body);
      expect(refused.status, `${code}: ${refused.text}`).to.equal(422);
      expect(refused.body.error.details[0], refused.text).to.include({ field, code });
    }
    const foreignCompany = await createRoster({ ...base, company_id: (await createCompany(t.url, other.key)).id, days: [null] });
    expect(foreignCompany.body.error.details[0]).to.include({ field: 'company_id', code: 'not_found' });
    expect((await rest(t.url, 'GET', `/public/v2/rosters?company_id=${companyId}`, { key: ws.key })).body).to.deep.equal([]);
  });

  it("another workspace's roster is unknown: not read, listed, changed, deleted or assigned", async () => {
    const theirCompany = (await createCompany(t.url, other.key)).id;
    const theirs = (await createRoster({ company_id: theirCompany, name: 'Theirs', start_date: '2026-03-01', days: [null] }, other.key)).body;
    expect((await rest(t.url, 'GET', `/public/v2/rosters/${theirs.id}`, { key: ws.key })).status).to.equal(404);
    expect((await rest(t.url, 'PUT', `/public/v2/rosters/${theirs.id}`, { key: ws.key, body: { name: 'Mine' } })).status).to.equal(404);
    expect((await rest(t.url, 'DELETE', `/public/v2/rosters/${theirs.id}`, { key: ws.key })).status).to.equal(404);
    expect((await rest(t.url, 'GET', '/public/v2/rosters', { key: ws.key })).body.map((r: { id: number }) => r.id)).to.not.include(theirs.id);
    const companyId = (await createCompany(t.url, ws.key)).id;
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: String(pinSeq++) });
    const assigned = await rest(t.url, 'POST', '/public/v2/shift_assignments', {
      key: ws.key,
      body: { roster_id: theirs.id, employee_id: employee.id, start_date: '2026-03-01' },
    });
    expect(assigned.status).to.equal(422);
    expect(assigned.body.error.details[0]).to.include({ field: 'roster_id', code: 'not_found' });
    expect((await rest(t.url, 'GET', `/public/v2/rosters/${theirs.id}`, { key: other.key })).body.name).to.equal('Theirs');
  });

  it('a shift assignment names exactly one of a shift and a roster, of the same company; an assigned roster (or a rostered shift) is not deleted', async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const day = await shift(ws.key, companyId, 'Day');
    const roster = (await createRoster({ company_id: companyId, name: 'R', start_date: '2026-03-01', days: [day, null] })).body;
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: String(pinSeq++) });
    const assign = (body: Record<string, unknown>) =>
      rest(t.url, 'POST', '/public/v2/shift_assignments', { key: ws.key, body: { employee_id: employee.id, start_date: '2026-03-01', ...body } });
    expect((await assign({ shift_id: day, roster_id: roster.id })).body.error.details[0]).to.include({ field: 'shift_id', code: 'shift_or_roster' });
    expect((await assign({})).body.error.details[0]).to.include({ field: 'shift_id', code: 'shift_or_roster' });
    const stranger = await createEmployee(t.url, ws.key, (await createCompany(t.url, ws.key)).id, { pin: String(pinSeq++) });
    const mismatch = await rest(t.url, 'POST', '/public/v2/shift_assignments', {
      key: ws.key,
      body: { roster_id: roster.id, employee_id: stranger.id, start_date: '2026-03-01' },
    });
    expect(mismatch.body.error.details[0]).to.include({ field: 'employee_id', code: 'company_mismatch' });
    const created = await assign({ roster_id: roster.id });
    expect(created.status, created.text).to.equal(201);
    expect(created.body).to.include({ roster_id: roster.id, shift_id: null });
    const listed = await rest(t.url, 'GET', `/public/v2/shift_assignments?roster_id=${roster.id}`, { key: ws.key });
    expect(listed.body.map((a: { id: number }) => a.id)).to.deep.equal([created.body.id]);
    const rosterInUse = await rest(t.url, 'DELETE', `/public/v2/rosters/${roster.id}`, { key: ws.key });
    expect(rosterInUse.status).to.equal(409);
    expect(rosterInUse.body.error.code).to.equal('resource_in_use');
    const shiftInUse = await rest(t.url, 'DELETE', `/public/v2/shifts/${day}`, { key: ws.key });
    expect(shiftInUse.status).to.equal(409);
    expect(shiftInUse.body.error.message).to.contain(`roster ${roster.id}`);
    // Switching the assignment to a shift clears its roster.
    const switched = await rest(t.url, 'PUT', `/public/v2/shift_assignments/${created.body.id}`, { key: ws.key, body: { shift_id: day } });
    expect(switched.body).to.include({ shift_id: day, roster_id: null });
    expect((await rest(t.url, 'DELETE', `/public/v2/rosters/${roster.id}`, { key: ws.key })).status).to.equal(200);
  });

  it('stored days follow the roster across a month boundary: its shift on any weekday, its nulls are days off; changing the roster recomputes them', async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const device = await createDevice(t.url, ws.key, companyId);
    // The default shift runs Monday to Friday; the roster's shift runs whenever the roster says.
    await shift(ws.key, companyId, 'Default', { is_default: true });
    const early = await shift(ws.key, companyId, 'Early', { start_time: '06:00', end_time: '14:00', workdays: [1] });
    const roster = (await createRoster({ company_id: companyId, name: 'One on, one off', start_date: '2026-03-28', days: [early, null] })).body;
    const pin = String(pinSeq++);
    const employee = await createEmployee(t.url, ws.key, companyId, { pin });
    expect(
      (
        await rest(t.url, 'POST', '/public/v2/shift_assignments', {
          key: ws.key,
          body: { roster_id: roster.id, employee_id: employee.id, start_date: '2026-03-28' },
        })
      ).status,
    ).to.equal(201);
    const body = [`${pin}\t2026-03-28 06:00:00\t0\t1\t0`, `${pin}\t2026-03-28 14:00:00\t1\t1\t0`].join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);

    const days = await timesheet(employee.id, '2026-03-27', '2026-04-02');
    expect(days.map((d) => [d.date, d.status, d.shift_id])).to.deep.equal([
      ['2026-03-27', 'absent', days[0]!.shift_id], // Friday before the assignment: the default shift
      ['2026-03-28', 'present', early], // Saturday: the roster's shift, whatever its workdays say
      ['2026-03-29', 'off', null],
      ['2026-03-30', 'absent', early],
      ['2026-03-31', 'off', null], // a Tuesday, off by the roster: not absent
      ['2026-04-01', 'absent', early], // the cycle runs on into April
      ['2026-04-02', 'off', null],
    ]);
    expect(days[1]).to.include({ scheduled_minutes: 480, worked_minutes: 480 }); // no unpaid break by default

    // Every day on: the stored days are recomputed (the read brings stale days up to date).
    expect((await rest(t.url, 'PUT', `/public/v2/rosters/${roster.id}`, { key: ws.key, body: { days: [early] } })).status).to.equal(200);
    const after = await timesheet(employee.id, '2026-03-29', '2026-03-31');
    expect(after.map((d) => [d.date, d.status])).to.deep.equal([
      ['2026-03-29', 'absent'],
      ['2026-03-30', 'absent'],
      ['2026-03-31', 'absent'],
    ]);
    const effective = await gqlData(t.url, ws.key, 'query ($e: Int!) { effectiveShift(employeeId: $e, date: "2026-03-29") { id } }', { e: employee.id });
    expect(effective.effectiveShift).to.deep.equal({ id: early });
  });

  it("a roster's night shift keeps its punches after midnight when the next date is a day off (no punch counted twice)", async () => {
    const companyId = (await createCompany(t.url, ws.key)).id;
    const device = await createDevice(t.url, ws.key, companyId);
    const night = await shift(ws.key, companyId, 'Night', { start_time: '22:00', end_time: '06:00' });
    const roster = (await createRoster({ company_id: companyId, name: 'Night, off', start_date: '2026-03-02', days: [night, null] })).body;
    const pin = String(pinSeq++);
    const employee = await createEmployee(t.url, ws.key, companyId, { pin });
    await rest(t.url, 'POST', '/public/v2/shift_assignments', {
      key: ws.key,
      body: { roster_id: roster.id, employee_id: employee.id, start_date: '2026-03-02' },
    });
    const body = [`${pin}\t2026-03-02 21:55:00\t0\t1\t0`, `${pin}\t2026-03-03 06:05:00\t1\t1\t0`].join('\n');
    expect((await iclock(t.url, 'POST', `/iclock/cdata?SN=${device.serial_number}&table=ATTLOG&Stamp=1`, body)).text).to.match(/^OK/);
    // Read the day off alone first (its own run), then both.
    const [off] = await timesheet(employee.id, '2026-03-03', '2026-03-03');
    expect(off).to.deep.include({ status: 'off', shift_id: null, worked_minutes: 0 });
    expect((off as unknown as { punch_ids: number[] }).punch_ids).to.deep.equal([]);
    const [worked] = await timesheet(employee.id, '2026-03-02', '2026-03-02');
    // 21:55 to 06:05: work before the 22:00 start is not paid (no early overtime), so 485 minutes.
    expect(worked).to.deep.include({ status: 'present', shift_id: night, worked_minutes: 485 });
  });
});
