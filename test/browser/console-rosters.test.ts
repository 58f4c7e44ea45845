import { expect } from 'chai';
import { addDays } from '../../src/kernel/calendar-date';
import { createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createArea, createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday } from '../support/test-dates';

/** HR plans who works when: rosters (cycles of shifts) and one-day overrides, checked through the API. */
describe('console in the browser: rosters and one-day overrides', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let dayShiftId: number;
  let lateShiftId: number;
  let ada: { id: number };
  let bob: { id: number };
  let areaId: number;
  const day = lastWeekday();
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);

  before(async () => {
    t = await startTestApp({}, 'console-rosters');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Rota' })).id;
    ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Rota', pin: '9501', code: 'AR-1' });
    bob = await createEmployee(t.url, ws.key, companyId, { name: 'Bob', lastname: 'Swap', pin: '9502', code: 'BS-1' });
    areaId = (await createArea(t.url, ws.key, companyId, { name: 'Packing' })).id;
    dayShiftId = await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    lateShiftId = await createShift(t.url, ws.key, companyId, { name: 'Late', startTime: '13:00', endTime: '21:00' });
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  const signedIn = () => tab(ws.key);

  const statusOf = async (employeeId: number, date: string) =>
    (
      await query('query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { status scheduledMinutes } } }', {
        e: employeeId,
        d: date,
      })
    ).timesheet.nodes[0];

  it('creates a roster, edits its cycle, assigns it to a person and an area, and removes an assignment after confirming', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Rosters and overrides' }).click();
    await page.getByText('No rosters in this company yet.').waitFor();
    const start = addDays(day, -13);
    await page.getByLabel('Roster name').fill('Two on, two off');
    await page.getByLabel('First day of the cycle').fill(start);
    await page.getByRole('button', { name: 'Add a day to the cycle' }).click();
    await page.getByRole('button', { name: 'Add a day to the cycle' }).click();
    await page.getByLabel(/^Day 1\b/).selectOption({ label: 'Day (09:00–17:00)' });
    await page.getByLabel(/^Day 2\b/).selectOption({ label: 'Late (13:00–21:00)' });
    await page.getByLabel(/^Day 3\b/).selectOption({ label: 'Day off' });
    await page.getByLabel(/^Day 4\b/).selectOption({ label: 'Day off' });
    await page.getByRole('button', { name: 'Create roster' }).click();
    await page.getByRole('rowheader', { name: 'Two on, two off' }).waitFor();
    const read = async () => (await query('query ($c: Int) { rosters(companyId: $c) { nodes { id name startDate days } } }', { c: companyId })).rosters.nodes;
    const [created] = await read();
    expect(created).to.deep.include({ name: 'Two on, two off', startDate: start, days: [dayShiftId, lateShiftId, null, null] });
    await page.getByRole('cell', { name: '4 days: Day, Late, off, off' }).waitFor();

    // Edit: a fifth day (Day), so the cycle is five days long.
    await page.getByRole('button', { name: 'Edit Two on, two off' }).click();
    await page.getByRole('heading', { name: 'Edit roster Two on, two off' }).waitFor();
    await page.getByRole('button', { name: 'Add a day to the cycle' }).click();
    await page.getByLabel(/^Day 5\b/).selectOption({ label: 'Day (09:00–17:00)' });
    await page.getByRole('button', { name: 'Save roster' }).click();
    await page.getByRole('heading', { name: 'New roster' }).waitFor();
    expect((await read())[0].days).to.deep.equal([dayShiftId, lateShiftId, null, null, dayShiftId]);

    // Ada works it from the first day of the cycle; so does everyone in Packing.
    await page.getByLabel('Person', { exact: true }).first().selectOption({ label: 'Ada Rota (AR-1)' });
    await page.getByLabel('From', { exact: true }).fill(start);
    await page.getByRole('button', { name: 'Assign roster' }).click();
    const who = page.getByRole('region', { name: 'Who works which roster' });
    await who.getByRole('cell', { name: 'Ada Rota', exact: true }).waitFor();
    await page.getByLabel('Everyone in an area').check();
    await page.getByLabel('Area', { exact: true }).selectOption({ label: 'Packing' });
    await page.getByRole('button', { name: 'Assign roster' }).click();
    await who.getByRole('cell', { name: 'everyone in Packing', exact: true }).waitFor();
    const assigned = (
      await query('query ($r: Int) { shiftAssignments(rosterId: $r) { nodes { id rosterId shiftId employeeId areaId startDate } } }', { r: created.id })
    ).shiftAssignments.nodes;
    expect(assigned.map((a: any) => [a.employeeId, a.areaId, a.shiftId, a.startDate]).sort()).to.deep.equal(
      [
        [ada.id, null, null, start],
        [null, areaId, null, start],
      ].sort(),
    );
    // The cycle runs: Ada's third day of it is off, though it may be a weekday; her second is the late shift.
    expect((await statusOf(ada.id, addDays(start, 2))).status).to.equal('off');
    const effective = await query('query ($e: Int!, $d: String!) { effectiveShift(employeeId: $e, date: $d) { id } }', { e: ada.id, d: addDays(start, 1) });
    expect(effective.effectiveShift.id).to.equal(lateShiftId);
    await page.getByRole('cell', { name: 'Ada Rota; everyone in Packing' }).waitFor();
    await screenshot(page, 'hr-rosters');
    await expectAccessible(page);

    // Removing asks first: Cancel keeps it, confirming removes it.
    await page.getByRole('button', { name: 'Remove Two on, two off for everyone in Packing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this roster assignment?' });
    await dialog.waitFor();
    await screenshot(page, 'hr-roster-remove-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await query('query ($r: Int) { shiftAssignments(rosterId: $r) { totalCount } }', { r: created.id })).shiftAssignments.totalCount).to.equal(2);
    await page.getByRole('button', { name: 'Remove Two on, two off for everyone in Packing' }).click();
    await dialog.getByRole('button', { name: 'Remove assignment' }).click();
    await who.getByRole('cell', { name: 'everyone in Packing', exact: true }).waitFor({ state: 'detached' });
    const left = (await query('query ($r: Int) { shiftAssignments(rosterId: $r) { nodes { employeeId } } }', { r: created.id })).shiftAssignments.nodes;
    expect(left).to.deep.equal([{ employeeId: ada.id }]);
    await expectNoHorizontalCutOff(page, 'hr-rosters');
  });

  it('gives a person a day off on a workday, sees it in the timesheet, and removes it after confirming', async () => {
    expect((await statusOf(bob.id, day)).status).to.equal('absent');
    const page = await signedIn();
    await page.getByRole('link', { name: 'Rosters and overrides' }).click();
    const form = page.getByRole('form', { name: 'Set an override' });
    await form.getByLabel('Person').selectOption({ label: 'Bob Swap (BS-1)' });
    await form.getByLabel('Date', { exact: true }).fill(day);
    await form.getByLabel('Works').selectOption({ label: 'A day off' });
    await form.getByRole('button', { name: 'Set override' }).click();
    await page.getByRole('cell', { name: 'a day off', exact: true }).waitFor();
    const overrides = (await query('query ($e: Int) { scheduleOverrides(employeeId: $e) { nodes { id date shiftId } } }', { e: bob.id })).scheduleOverrides
      .nodes;
    expect(overrides.map((o: any) => [o.date, o.shiftId])).to.deep.equal([[day, null]]);
    expect(await statusOf(bob.id, day)).to.deep.equal({ status: 'off', scheduledMinutes: 0 });
    await screenshot(page, 'hr-overrides');
    await expectAccessible(page);

    // The timesheet of that month shows the day off.
    await page.getByRole('link', { name: `${day.slice(0, 7)} timesheet` }).click();
    await page.getByRole('button', { name: `Bob Swap, ${day}: off` }).waitFor();
    await screenshot(page, 'hr-override-in-timesheet');

    // Another shift instead: the late shift on Ada's roster day off.
    await page.getByRole('link', { name: 'Rosters and overrides' }).click();
    const adaOff = addDays(day, -11);
    expect((await statusOf(ada.id, adaOff)).status).to.equal('off');
    await form.getByLabel('Person').selectOption({ label: 'Ada Rota (AR-1)' });
    await form.getByLabel('Date', { exact: true }).fill(adaOff);
    await form.getByLabel('Works').selectOption({ label: 'Late (13:00–21:00)' });
    await form.getByRole('button', { name: 'Set override' }).click();
    await page.getByRole('cell', { name: 'Late', exact: true }).waitFor();
    expect(await statusOf(ada.id, adaOff)).to.deep.equal({ status: 'absent', scheduledMinutes: 480 });

    // Removing Bob's asks first; then his day is a workday again.
    await page.getByRole('button', { name: `Remove the override of Bob Swap on ${day}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this override?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await statusOf(bob.id, day)).status).to.equal('off');
    await page.getByRole('button', { name: `Remove the override of Bob Swap on ${day}` }).click();
    await dialog.getByRole('button', { name: 'Remove override' }).click();
    await page.getByRole('cell', { name: 'a day off', exact: true }).waitFor({ state: 'detached' });
    expect((await query('query ($e: Int) { scheduleOverrides(employeeId: $e) { totalCount } }', { e: bob.id })).scheduleOverrides.totalCount).to.equal(0);
    expect((await statusOf(bob.id, day)).status).to.equal('absent');
    await expectNoHorizontalCutOff(page, 'hr-overrides');
  });
  it("sets and clears an employee's employment dates on their page, and the days before the first are not employed", async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Employees' }).click();
    await page.getByRole('link', { name: 'Bob Swap' }).click();
    const employment = page.getByRole('region', { name: 'Employment' });
    await employment.getByText('open (no first day set)').waitFor();
    const before = addDays(day, -1);
    await employment.getByLabel('First day of employment').fill(day);
    await employment.getByRole('button', { name: 'Set employment dates' }).click();
    await employment.getByText(day, { exact: true }).waitFor();
    const read = async () => (await query('query ($id: Int!) { employee(id: $id) { employmentStartDate employmentEndDate } }', { id: bob.id })).employee;
    expect(await read()).to.deep.equal({ employmentStartDate: day, employmentEndDate: null });
    expect((await statusOf(bob.id, before)).status).to.equal('not_employed');
    await screenshot(page, 'hr-employment-dates');
    await expectAccessible(page);

    // A last day before the first is refused, and nothing changes.
    await employment.getByLabel('Last day of employment').fill(before);
    await employment.getByRole('button', { name: 'Set employment dates' }).click();
    await employment.getByRole('alert').waitFor();
    expect(await read()).to.deep.equal({ employmentStartDate: day, employmentEndDate: null });

    // Cleared again: open at both ends.
    await employment.getByLabel('First day of employment').fill('');
    await employment.getByLabel('Last day of employment').fill('');
    await employment.getByRole('button', { name: 'Set employment dates' }).click();
    await employment.getByText('open (no first day set)').waitFor();
    expect(await read()).to.deep.equal({ employmentStartDate: null, employmentEndDate: null });
    expect((await statusOf(bob.id, before)).status).to.not.equal('not_employed');
    await expectNoHorizontalCutOff(page, 'hr-employment-dates');
  });
});
