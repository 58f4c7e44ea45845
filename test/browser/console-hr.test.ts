import { expect } from 'chai';
import { createPunch } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday } from '../support/test-dates';
import { waitUntil } from '../support/wait-until';

/** HR's daily work in the console, each task done as a person would and checked through the API. */
describe('console in the browser: HR', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let clockId: number;
  let ada: { id: number };
  let bob: { id: number };
  const day = lastWeekday();

  before(async () => {
    t = await startTestApp({}, 'console-hr');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme HR' })).id;
    clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' })).id;
    ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Late', pin: '9401', code: 'AL-1' });
    bob = await createEmployee(t.url, ws.key, companyId, { name: 'Bob', lastname: 'Missing', pin: '9402', code: 'BM-1' });
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

  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);

  it('creates a shift, edits it, assigns it to a person and to an area, and removes an assignment after confirming', async () => {
    const area = await createArea(t.url, ws.key, companyId, { name: 'Warehouse' });
    const page = await signedIn();
    await page.getByRole('link', { name: 'Shifts' }).click();
    await page.getByText('No shifts in this company yet.').waitFor();
    await page.getByLabel('Shift name').fill('Day 9-17');
    await page.getByLabel('Starts at').fill('09:00');
    await page.getByLabel('Ends at').fill('17:00');
    await page.getByRole('button', { name: 'Create shift' }).click();
    await page.getByRole('rowheader', { name: 'Day 9-17' }).waitFor();
    const { shifts } = await query('query ($c: Int) { shifts(companyId: $c) { nodes { id name startTime endTime workdays graceInMinutes } } }', {
      c: companyId,
    });
    expect(shifts.nodes).to.have.length(1);
    expect(shifts.nodes[0]).to.include({ name: 'Day 9-17', startTime: '09:00', endTime: '17:00', graceInMinutes: 5 });
    expect(shifts.nodes[0].workdays).to.deep.equal([1, 2, 3, 4, 5]);
    const shiftId = shifts.nodes[0].id;

    await page.getByRole('button', { name: 'Edit Day 9-17' }).click();
    await page.getByLabel('Grace for late arrival (minutes)').fill('0');
    await page.getByRole('button', { name: 'Save shift' }).click();
    await page.getByRole('heading', { name: 'New shift' }).waitFor();
    expect((await query('query ($id: Int!) { shift(id: $id) { graceInMinutes } }', { id: shiftId })).shift.graceInMinutes).to.equal(0);

    const from = new Date(Date.parse(`${day}T00:00:00Z`) - 14 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Ada Late (AL-1)' });
    await page.getByLabel('From').fill(from);
    await page.getByRole('button', { name: 'Assign shift' }).click();
    await page.getByRole('cell', { name: 'Ada Late', exact: true }).waitFor();
    await page.getByLabel('Everyone in an area').check();
    await page.getByLabel('Area', { exact: true }).selectOption({ label: 'Warehouse' });
    await page.getByRole('button', { name: 'Assign shift' }).click();
    await page.getByRole('cell', { name: 'everyone in Warehouse', exact: true }).waitFor();
    await page.getByLabel('A person').check();
    await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Bob Missing (BM-1)' });
    await page.getByRole('button', { name: 'Assign shift' }).click();
    await page.getByRole('cell', { name: 'Bob Missing', exact: true }).waitFor();
    const assigned = (await query('query ($s: Int) { shiftAssignments(shiftId: $s) { nodes { id employeeId areaId startDate } } }', { s: shiftId }))
      .shiftAssignments.nodes;
    expect(assigned.map((a: any) => [a.employeeId, a.areaId, a.startDate]).sort()).to.deep.equal(
      [
        [ada.id, null, from],
        [bob.id, null, from],
        [null, area.id, from],
      ].sort(),
    );
    await screenshot(page, 'hr-shifts');
    await expectAccessible(page);

    // Removing asks first: Cancel keeps it, confirming removes it.
    await page.getByRole('button', { name: 'Remove Day 9-17 for everyone in Warehouse' }).click();
    const dialog = page.getByRole('dialog', { name: 'Remove this assignment?' });
    await dialog.waitFor();
    await screenshot(page, 'hr-shift-remove-confirm');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect((await query('query ($s: Int) { shiftAssignments(shiftId: $s) { totalCount } }', { s: shiftId })).shiftAssignments.totalCount).to.equal(3);
    await page.getByRole('button', { name: 'Remove Day 9-17 for everyone in Warehouse' }).click();
    await dialog.getByRole('button', { name: 'Remove assignment' }).click();
    await page.getByRole('cell', { name: 'everyone in Warehouse', exact: true }).waitFor({ state: 'detached' });
    const left = (await query('query ($s: Int) { shiftAssignments(shiftId: $s) { nodes { areaId } } }', { s: shiftId })).shiftAssignments.nodes;
    expect(left.map((a: any) => a.areaId)).to.deep.equal([null, null]);
    await expectNoHorizontalCutOff(page, 'hr-shifts');
  });

  it('enters a holiday and deletes it after confirming', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Holidays' }).click();
    await page.getByLabel('Date').fill('2026-12-25');
    await page.getByLabel('Holiday name').fill('Christmas Day');
    await page.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByRole('rowheader', { name: 'Christmas Day' }).waitFor();
    const { holidays } = await query('query ($c: Int) { holidays(companyId: $c) { nodes { id date name } } }', { c: companyId });
    expect(holidays.nodes.map((h: any) => [h.date, h.name])).to.deep.equal([['2026-12-25', 'Christmas Day']]);
    await screenshot(page, 'hr-holidays');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Delete Christmas Day' }).click();
    await page.getByRole('dialog', { name: 'Delete the holiday Christmas Day?' }).getByRole('button', { name: 'Delete holiday' }).click();
    await page.getByText('No holidays in this company.').waitFor();
    expect((await query('query ($c: Int) { holidays(companyId: $c) { totalCount } }', { c: companyId })).holidays.totalCount).to.equal(0);
    await expectNoHorizontalCutOff(page, 'hr-holidays');
  });

  it('creates a pay period, locks it and unlocks it, each after confirming', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Pay periods' }).click();
    await page.getByLabel('First day').fill('2026-10-01');
    await page.getByLabel('Last day').fill('2026-10-31');
    await page.getByRole('button', { name: 'Create pay period' }).click();
    await page.getByRole('rowheader', { name: '2026-10-01 to 2026-10-31' }).waitFor();
    const read = async () =>
      (await query('query ($c: Int) { payPeriods(companyId: $c) { nodes { startDate endDate lockedAt } } }', { c: companyId })).payPeriods.nodes;
    expect(await read()).to.deep.equal([{ startDate: '2026-10-01', endDate: '2026-10-31', lockedAt: null }]);

    await page.getByRole('button', { name: 'Lock 2026-10-01 to 2026-10-31', exact: true }).click();
    await page.getByRole('dialog', { name: 'Lock 2026-10-01 to 2026-10-31?' }).getByRole('button', { name: 'Lock period' }).click();
    await page.getByRole('button', { name: 'Unlock 2026-10-01 to 2026-10-31' }).waitFor();
    expect((await read())[0].lockedAt).to.be.a('string');
    await screenshot(page, 'hr-pay-periods-locked');
    await expectAccessible(page);

    await page.getByRole('button', { name: 'Unlock 2026-10-01 to 2026-10-31' }).click();
    await page.getByRole('dialog', { name: 'Unlock 2026-10-01 to 2026-10-31?' }).getByRole('button', { name: 'Unlock period' }).click();
    // Exact: by default a name matches as a case-insensitive substring, and "Unlock …" contains "lock …".
    await page.getByRole('button', { name: 'Lock 2026-10-01 to 2026-10-31', exact: true }).waitFor();
    expect((await read())[0].lockedAt).to.equal(null);
    await expectNoHorizontalCutOff(page, 'hr-pay-periods');
  });

  describe('with punches on a workday', () => {
    const punch = (employeeId: number, time: string, state: string) =>
      createPunch(t.url, ws.key, { employeeId, companyId, deviceId: clockId, punchTime: `${day}T${time}`, punchState: state });
    const dayOf = async (employeeId: number) =>
      (
        await query(
          'query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { status lateMinutes exceptions punchIds } } }',
          { e: employeeId, d: day },
        )
      ).timesheet.nodes[0];

    before(async () => {
      // Ada comes 20 minutes late (the shift's grace is 0 since the first test); Bob never punches out.
      await punch(ada.id, '09:20:00', '0');
      await punch(ada.id, '17:00:00', '1');
      await punch(bob.id, '09:00:00', '0');
      await waitUntil(
        'attendance days computed',
        async () => [await dayOf(ada.id), await dayOf(bob.id)],
        ([adaDay, bobDay]) => adaDay?.lateMinutes === 20 && Boolean(bobDay?.exceptions.includes('missing_out')),
      );
    });

    it('the timesheet as a week and a month; a day opens with its punches and late minutes; a punch is voided with a reason and one added', async () => {
      const page = await signedIn();
      await page.getByRole('link', { name: 'Timesheets' }).click();
      await page.getByLabel('Company').selectOption({ label: 'Acme HR' });
      await page.getByLabel('Month').fill(day.slice(0, 7));
      const cell = page.getByRole('button', { name: new RegExp(`^Ada Late, ${day}: present, [\\d.]+ h, 20 min late`) });
      await cell.waitFor();
      await screenshot(page, 'hr-timesheet-month');
      await expectAccessible(page);
      await page.getByLabel('View').selectOption('Week');
      await page.getByLabel('Week of').fill(day);
      await cell.waitFor();
      expect(await page.locator('table.sheet thead th.day').count()).to.equal(7);
      await screenshot(page, 'hr-timesheet-week');

      // With the keyboard: focus the day, Enter opens it, Escape closes it.
      await cell.focus();
      await page.keyboard.press('Enter');
      const detail = page.getByRole('dialog', { name: `Ada Late, ${day}` });
      await detail.waitFor();
      await detail.getByText('20 min', { exact: true }).waitFor();
      await page.keyboard.press('Escape');
      await detail.waitFor({ state: 'hidden' });

      await cell.click();
      await detail.getByRole('cell', { name: 'Hall clock' }).first().waitFor();
      expect(await detail.getByRole('cell', { name: 'Check-In' }).count()).to.equal(1);
      expect(await detail.getByRole('cell', { name: 'Check-Out' }).count()).to.equal(1);
      await screenshot(page, 'hr-timesheet-day');
      await expectAccessible(page);

      await detail.getByRole('button', { name: 'Void the 17:00 punch' }).click();
      const confirm = page.getByRole('dialog', { name: "Void Ada Late's 17:00 punch?" });
      await confirm.getByLabel('Reason').fill('Badge shared with a colleague');
      await screenshot(page, 'hr-void-confirm');
      await confirm.getByRole('button', { name: 'Void punch' }).click();
      await detail.getByText('voided: Badge shared with a colleague').waitFor();
      const punches = async () =>
        (
          await query(
            'query ($e: Int, $d: String) { punches(employeeId: $e, startDate: $d, endDate: $d) { nodes { localTime punchState voidedAt voidReason } } }',
            { e: ada.id, d: day },
          )
        ).punches.nodes;
      const voided = (await punches()).find((p: any) => p.localTime.endsWith('17:00:00'));
      expect(voided.voidReason).to.equal('Badge shared with a colleague');
      expect(voided.voidedAt).to.be.a('string');

      await detail.getByLabel('Punch time').fill('17:05');
      await detail.getByLabel('Punch type').selectOption({ label: 'Check-Out' });
      await detail.getByRole('button', { name: 'Add punch' }).click();
      await detail.getByRole('cell', { name: '17:05:00' }).waitFor();
      const added = (await punches()).find((p: any) => p.localTime.endsWith('17:05:00'));
      expect(added).to.include({ punchState: '1', voidedAt: null });
      await screenshot(page, 'hr-timesheet-day-corrected');
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'hr-timesheet-day-phone');
      await page.setViewportSize({ width: 1366, height: 900 });
      await detail.getByRole('button', { name: 'Close day' }).click();
      await expectNoHorizontalCutOff(page, 'hr-timesheet');
    });

    it('the report lists late arrivals and missing punches for a range, filters by kind and person, and exports CSV', async () => {
      const page = await signedIn();
      await page.getByRole('link', { name: 'Attendance report' }).click();
      await page.getByLabel('From').fill(day);
      await page.getByLabel('To').fill(day);
      const late = page.getByRole('row', { name: new RegExp(`${day} Ada Late late by 20 min`) });
      const missing = page.getByRole('row', { name: new RegExp(`${day} Bob Missing no punch out`) });
      await late.waitFor();
      await missing.waitFor();
      await screenshot(page, 'hr-report');
      await expectAccessible(page);
      // What the page shows is what the API says.
      expect((await dayOf(ada.id)).lateMinutes).to.equal(20);
      expect((await dayOf(bob.id)).exceptions).to.include('missing_out');

      await page.getByLabel('Late arrivals').uncheck();
      await late.waitFor({ state: 'detached' });
      await missing.waitFor();
      await page.getByLabel('Late arrivals').check();
      await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Ada Late' });
      await missing.waitFor({ state: 'detached' });
      await late.waitFor();
      await page.getByLabel('Person', { exact: true }).selectOption({ label: 'Everyone' });
      await missing.waitFor();

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export report CSV' }).click()]);
      const text = Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]).toString('utf8');
      const lines = text.trim().split('\n');
      expect(lines[0]).to.equal('date,employee_id,employee_code,employee,kind,minutes,detail,status');
      expect(lines).to.include(`${day},${ada.id},AL-1,Ada Late,late,20,late by 20 min,present`);
      expect(lines.some((l) => l.startsWith(`${day},${bob.id},BM-1,Bob Missing,missing,0,no punch out,`))).to.equal(true);

      // A line opens the person's day.
      await page.getByRole('button', { name: `Open Bob Missing day ${day}` }).click();
      await page
        .getByRole('dialog', { name: `Bob Missing, ${day}` })
        .getByText('no punch out')
        .waitFor();
      await page.keyboard.press('Escape');
      await expectNoHorizontalCutOff(page, 'hr-report');
    });

    it('the punch list shows people, terminals and punch types by name, not pins and state numbers', async () => {
      const page = await signedIn();
      await page.getByRole('link', { name: 'Punches', exact: true }).click();
      await page.getByLabel('From').fill(day);
      await page.getByLabel('To').fill(day);
      await page.getByRole('cell', { name: 'Bob Missing' }).waitFor();
      expect(await page.getByRole('cell', { name: 'Ada Late', exact: true }).count()).to.be.at.least(2);
      expect(await page.getByRole('cell', { name: 'Hall clock' }).count()).to.be.at.least(3);
      expect(await page.getByRole('cell', { name: 'Check-In' }).count()).to.equal(2);
      expect(await page.getByRole('cell', { name: /^(9401|9402|0|1)$/ }).count()).to.equal(0);
      await screenshot(page, 'hr-punches');
      await expectAccessible(page);
      await expectNoHorizontalCutOff(page, 'hr-punches');
    });
  });
});
