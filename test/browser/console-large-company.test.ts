import { expect } from 'chai';
import { createPunch, createShift } from '../support/attendance-seeding';
import { accessibilityViolations, expectNoPageProblems, launchBrowser, screenshot, screenshotOfFailure, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday } from '../support/test-dates';
import { waitUntil } from '../support/wait-until';

/** More people than one page of the API holds (1,000): the 1,001st is named and can be chosen everywhere. */
const PEOPLE = 1001;

describe('console in the browser: a company of more than 1,000 people', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  let companyId: number;
  let zed: { id: number };
  const day = lastWeekday();
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);

  before(async function () {
    this.timeout(600_000);
    t = await startTestApp({}, 'console-large-company');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Big Co' })).id;
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Gate clock', mode_type: 'att' })).id;
    // The first 1,000 written straight into the employee table, as the service writes a new
    // employee without a pin (its columns; nothing else is written for one): what is tested is the
    // console's reading of them, and 1,000 creations through the API took 45 to 60 s of a busy
    // machine.
    await t.app.database.orm.em
      .fork()
      .getConnection()
      .execute(
        `insert into "employee" ("workspace_id", "company_id", "name", "lastname", "code", "is_active", "created_at", "updated_at")
         select ?, ?, 'Staff', lpad(n::text, 4, '0'), 'S-' || n, true, now(), now() from generate_series(1, ?) as n`,
        [ws.id, companyId, PEOPLE - 1],
      );
    // The last one created through the API: beyond the first page of 1,000.
    zed = await createEmployee(t.url, ws.key, companyId, { name: 'Zed', lastname: 'Thousandandone', code: 'Z-1001', pin: '1001' });
    const firstPage = (await query('query ($c: Int) { employees(companyId: $c, first: 1000) { totalCount nodes { id } } }', { c: companyId })).employees;
    expect(firstPage.totalCount).to.equal(PEOPLE);
    expect(firstPage.nodes.map((e: { id: number }) => e.id)).to.not.include(zed.id);
    await createPunch(t.url, ws.key, { employeeId: zed.id, companyId, deviceId: clockId, punchTime: `${day}T09:10:00`, punchState: '0' });
    await createPunch(t.url, ws.key, { employeeId: zed.id, companyId, deviceId: clockId, punchTime: `${day}T17:00:00`, punchState: '1' });
    const vacation = (await query('query ($c: Int) { absenceTypes(companyId: $c) { nodes { id code } } }', { c: companyId })).absenceTypes.nodes.find(
      (x: any) => x.code === 'VAC',
    ).id;
    await query('mutation ($input: CreateAbsenceRequestInput!) { createAbsenceRequest(input: $input) { id } }', {
      input: { employeeId: zed.id, absenceTypeId: vacation, startDate: '2030-06-03', endDate: '2030-06-04', note: 'Summer' },
    });
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  afterEach(async function () {
    if (this.currentTest?.state !== 'failed') return;
    for (const context of browser.contexts())
      for (const [i, open] of context.pages().entries())
        await screenshotOfFailure(open, `failed-${this.currentTest.title.slice(0, 20).replaceAll(/\W+/g, '-')}-${i}`);
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  it("Requests names the 1,001st person's requests, and a punch correction is filed for them by searching their name", async function () {
    this.timeout(300_000);
    const page = await tab(ws.key);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Requests' }).click();
    const absences = page.getByRole('region', { name: 'Absence requests' });
    await absences.getByRole('rowheader', { name: 'Zed Thousandandone' }).waitFor();
    expect(await page.getByText('unknown person').count()).to.equal(0);

    // Filing a correction: the person is found by a search of the service, the punches given, the reason.
    const form = page.getByRole('region', { name: 'File a punch correction' });
    await form.getByLabel('Search by name or code').fill('Thousandandone');
    await form.getByLabel('Person to correct').selectOption({ label: 'Zed Thousandandone (Z-1001)' });
    await form.getByRole('radio', { name: 'Add forgotten punches' }).check();
    await form.getByLabel('Punch date and time').fill(`${day}T12:00`);
    await form.getByLabel('Punch type', { exact: true }).selectOption({ label: 'Break-Out' });
    await form.getByLabel('Second punch (optional)').fill(`${day}T12:30`);
    await form.getByLabel('Second punch type').selectOption({ label: 'Break-In' });
    await form.getByLabel('Reason').fill('Lunch not clocked');
    await form.getByRole('button', { name: 'File correction' }).click();
    const corrections = page.getByRole('region', { name: 'Punch corrections' });
    await corrections.getByRole('row', { name: /Zed Thousandandone .* Lunch not clocked pending/ }).waitFor();
    const filed = (
      await query('query ($e: Int) { punchCorrections(employeeId: $e) { nodes { state reason punches { punchTime punchState } } } }', { e: zed.id })
    ).punchCorrections.nodes;
    expect(filed).to.have.length(1);
    expect(filed[0]).to.deep.include({ state: 'pending', reason: 'Lunch not clocked' });
    expect(filed[0].punches.map((p: { punchState: string }) => p.punchState)).to.deep.equal(['2', '3']);
    await screenshot(page, 'large-company-requests');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // The API's refusal is shown under the field it names (a date outside 1900–2199), and nothing is filed.
    await form.getByLabel('Punch date and time').fill('1800-01-01T09:00');
    await form.getByLabel('Reason').fill('Typo in the year');
    await form.getByRole('button', { name: 'File correction' }).click();
    await form.getByRole('alert').waitFor();
    expect(await form.getByLabel('Punch date and time').getAttribute('aria-invalid')).to.equal('true');
    const under = await form.getByLabel('Punch date and time').getAttribute('aria-describedby');
    expect(await page.locator(`[id="${under}"]`).textContent()).to.match(/punchTime/);
    expect((await query('query ($e: Int) { punchCorrections(employeeId: $e) { totalCount } }', { e: zed.id })).punchCorrections.totalCount).to.equal(1);
    await screenshot(page, 'large-company-correction-refused');
    await page.setViewportSize({ width: 390, height: 844 });
    await screenshot(page, 'large-company-requests-phone');
    expectNoPageProblems(page);
  });

  it("the timesheet finds the 1,001st person by name, and their day's dialog is named after them", async function () {
    this.timeout(300_000);
    await waitUntil(
      "Zed's day is computed",
      async () =>
        (await query('query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { status } } }', { e: zed.id, d: day }))
          .timesheet.nodes,
      (nodes: Array<{ status: string }>) => nodes[0]?.status === 'present',
    );
    const page = await tab(ws.key);
    await page.goto(`${t.url}/console#/timesheets`);
    await page.getByLabel('Company').selectOption({ label: 'Big Co' });
    await page.getByLabel('View').selectOption('Week');
    await page.getByLabel('Week of').fill(day);
    const grid = page.getByRole('table', { name: /^Timesheet / });
    await grid.getByRole('rowheader').first().waitFor({ timeout: 120_000 });
    expect(await grid.getAttribute('aria-rowcount')).to.equal(String(PEOPLE + 1));
    await page.getByLabel('Find a person').fill('Zed');
    await page.getByText(`1 of ${PEOPLE} people match`).waitFor();
    await grid.getByRole('button', { name: new RegExp(`^Zed Thousandandone, ${day}: present`) }).click();
    const dialog = page.getByRole('dialog', { name: `Zed Thousandandone, ${day}` });
    await dialog.getByRole('cell', { name: 'Gate clock' }).first().waitFor();
    await screenshot(page, 'large-company-day');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    expectNoPageProblems(page);
  });
});
