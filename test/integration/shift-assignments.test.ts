import { expect } from 'chai';
import { createArea, createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

describe('shift assignments: employee over area over company default, from a date', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let companyId: number;
  const shift = async (name: string, extra: Record<string, unknown> = {}) =>
    (await rest(t.url, 'POST', '/public/v2/shifts', { key: ws.key, body: { company_id: companyId, name, start_time: '09:00', end_time: '17:00', ...extra } }))
      .body.id as number;
  const assign = (body: Record<string, unknown>) => rest(t.url, 'POST', '/public/v2/shift_assignments', { key: ws.key, body });
  const effective = async (employeeId: number, date: string) =>
    (await gqlData(t.url, ws.key, 'query ($e: Int!, $d: String!) { effectiveShift(employeeId: $e, date: $d) { name } }', { e: employeeId, d: date }))
      .effectiveShift?.name ?? null;

  before(async () => {
    t = await startTestApp({}, 'shift-assignments');
    ws = await createWorkspace(t.url, { maxCompanies: 5 });
    companyId = (await createCompany(t.url, ws.key)).id;
  });
  after(() => t.stop());

  it('precedence: own assignment, else an area of the employee, else the company default, else none; dates bound each', async () => {
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: '11' });
    expect(await effective(employee.id, '2026-06-01')).to.equal(null);
    await shift('Default', { is_default: true });
    expect(await effective(employee.id, '2026-06-01')).to.equal('Default');

    const area = await createArea(t.url, ws.key, companyId);
    await rest(t.url, 'POST', `/public/v2/areas/${area.id}/employees`, { key: ws.key, body: [{ employee_id: employee.id }] });
    expect((await assign({ shift_id: await shift('Area'), area_id: area.id, start_date: '2026-06-01' })).status).to.equal(201);
    expect(await effective(employee.id, '2026-05-31')).to.equal('Default');
    expect(await effective(employee.id, '2026-06-01')).to.equal('Area');

    // A shift change from a date: the old assignment ends the day before, the new one starts.
    const first = await assign({ shift_id: await shift('Early'), employee_id: employee.id, start_date: '2026-06-10', end_date: '2026-06-19' });
    expect(first.status).to.equal(201);
    expect((await assign({ shift_id: await shift('Late'), employee_id: employee.id, start_date: '2026-06-20' })).status).to.equal(201);
    expect(await effective(employee.id, '2026-06-09')).to.equal('Area');
    expect(await effective(employee.id, '2026-06-19')).to.equal('Early');
    expect(await effective(employee.id, '2027-01-01')).to.equal('Late');
  });

  it("refuses overlapping assignments of one employee, a reversed range, both or neither target, and another company's employee", async () => {
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: '12' });
    const shiftId = await shift('Day');
    expect((await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2026-07-01', end_date: '2026-07-31' })).status).to.equal(201);
    const overlapping = await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2026-07-31' });
    expect(overlapping.status).to.equal(422);
    expect(overlapping.body.error.details[0]).to.include({ field: 'start_date', code: 'overlapping' });
    expect((await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2026-08-01' })).status).to.equal(201);
    const reversed = await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2027-02-01', end_date: '2027-01-01' });
    expect(reversed.body.error.details[0]).to.include({ field: 'end_date', code: 'before_start_date' });
    const neither = await assign({ shift_id: shiftId, start_date: '2027-02-01' });
    expect(neither.body.error.details[0]).to.include({ code: 'employee_or_area' });
    const otherCompany = (await createCompany(t.url, ws.key)).id;
    const stranger = await createEmployee(t.url, ws.key, otherCompany, { pin: '13' });
    const mismatch = await assign({ shift_id: shiftId, employee_id: stranger.id, start_date: '2027-02-01' });
    expect(mismatch.status).to.equal(422);
    expect(mismatch.body.error.details[0]).to.include({ field: 'employee_id', code: 'company_mismatch' });
    const badDate = await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2027-02-30' });
    expect(badDate.body.error.details[0]).to.include({ field: 'start_date', code: 'invalid_date' });
  });

  it('update moves dates within the rules; a shift still assigned cannot be deleted (409)', async () => {
    const employee = await createEmployee(t.url, ws.key, companyId, { pin: '14' });
    const shiftId = await shift('Kept');
    const created = (await assign({ shift_id: shiftId, employee_id: employee.id, start_date: '2026-09-01' })).body;
    const ended = await rest(t.url, 'PUT', `/public/v2/shift_assignments/${created.id}`, { key: ws.key, body: { end_date: '2026-09-30' } });
    expect(ended.status).to.equal(200);
    expect(ended.body).to.include({ start_date: '2026-09-01', end_date: '2026-09-30', employee_id: employee.id });
    const refused = await rest(t.url, 'DELETE', `/public/v2/shifts/${shiftId}`, { key: ws.key });
    expect(refused.status).to.equal(409);
    expect(refused.body.error.code).to.equal('resource_in_use');
    expect((await rest(t.url, 'DELETE', `/public/v2/shift_assignments/${created.id}`, { key: ws.key })).status).to.equal(200);
    expect((await rest(t.url, 'DELETE', `/public/v2/shifts/${shiftId}`, { key: ws.key })).status).to.equal(200);
  });
});
