import { expect } from 'chai';
import { addDays } from '../../src/kernel/calendar-date';
import { createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday, mondayAfterNext } from '../support/test-dates';

/** Absence and correction requests: HR files them, approvers decide them (one or several, with a comment). */
describe('console in the browser: absence and correction requests', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let vacationId: number;
  let hrKey: string;
  let approverKey: string;
  let ada: { id: number };
  let bob: { id: number };
  let cy: { id: number };
  const monday = mondayAfterNext();
  const day = lastWeekday();
  const query = (document: string, variables: Record<string, unknown> = {}, key = ws.key) => gqlData(t.url, key, document, variables);

  before(async () => {
    t = await startTestApp({}, 'console-leave');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Leave' })).id;
    ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Away', pin: '9601', code: 'AA-1' });
    bob = await createEmployee(t.url, ws.key, companyId, { name: 'Bob', lastname: 'Break', pin: '9602', code: 'BB-1' });
    cy = await createEmployee(t.url, ws.key, companyId, { name: 'Cy', lastname: 'Clock', pin: '9603', code: 'CC-1' });
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const types = (await query('query ($c: Int) { absenceTypes(companyId: $c) { nodes { id code } } }', { c: companyId })).absenceTypes.nodes;
    vacationId = types.find((x: any) => x.code === 'VAC').id;
    hrKey = await createKey(t.url, ws.key, ['write']);
    approverKey = await createKey(t.url, ws.key, ['approve']);
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  const signedIn = (key: string) => tab(key);

  const fileAbsence = (employeeId: number, startDate: string, endDate: string, note: string) =>
    query(
      'mutation ($input: CreateAbsenceRequestInput!) { createAbsenceRequest(input: $input) { id } }',
      { input: { employeeId, absenceTypeId: vacationId, startDate, endDate, note } },
      hrKey,
    ).then((r) => r.createAbsenceRequest.id as number);
  const fileCorrection = (employeeId: number, time: string, reason: string) =>
    query(
      'mutation ($input: CreatePunchCorrectionInput!) { createPunchCorrection(input: $input) { id } }',
      { input: { employeeId, reason, punchTime: `${day}T${time}Z`, punchState: '1' } },
      hrKey,
    ).then((r) => r.createPunchCorrection.id as number);
  const absence = async (id: number) => (await query('query ($id: Int!) { absenceRequest(id: $id) { state amount decisionComment } }', { id })).absenceRequest;
  const correction = async (id: number) =>
    (await query('query ($id: Int!) { punchCorrection(id: $id) { state createdPunchIds decisionComment } }', { id })).punchCorrection;

  it('HR files an absence request for an employee and, without the approve scope, sees requests read-only', async () => {
    const correctionId = await fileCorrection(cy.id, '17:30:00', 'Forgot to clock out');
    const page = await signedIn(hrKey);
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('rowheader', { name: 'Cy Clock' }).waitFor();
    await page.getByText('Deciding requests needs the approve scope').waitFor();

    await page.getByLabel('Employee', { exact: true }).selectOption({ label: 'Ada Away (AA-1)' });
    await page.getByLabel('Absence type').selectOption({ label: 'Vacation (days)' });
    await page.getByLabel('First day').fill(monday);
    await page.getByLabel('Last day').fill(addDays(monday, 4));
    await page.getByLabel('Note').fill('Family trip');
    await page.getByRole('button', { name: 'File request' }).click();
    await page.getByRole('rowheader', { name: 'Ada Away' }).waitFor();
    const filed = (
      await query('query ($e: Int) { absenceRequests(employeeId: $e) { nodes { id absenceTypeId startDate endDate state amount note } } }', { e: ada.id })
    ).absenceRequests.nodes;
    expect(filed).to.have.length(1);
    expect(filed[0]).to.deep.include({
      absenceTypeId: vacationId,
      startDate: monday,
      endDate: addDays(monday, 4),
      state: 'pending',
      amount: 5,
      note: 'Family trip',
    });
    await page.getByRole('cell', { name: 'Vacation, 5 days' }).waitFor();
    await page.getByRole('cell', { name: 'Family trip' }).waitFor();
    await page.getByRole('cell', { name: 'Forgot to clock out' }).waitFor();

    // Read-only for deciding: no approve, reject or selection; HR may cancel a pending request it filed.
    expect(await page.getByRole('button', { name: /^Approve/ }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: /^Reject/ }).count()).to.equal(0);
    expect(await page.getByRole('checkbox').count()).to.equal(0);
    await screenshot(page, 'hr-requests-read-only');
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Cancel request Cy Clock, punch correction' }).click();
    const dialog = page.getByRole('dialog', { name: /^Cancel request Cy Clock/ });
    await dialog.getByLabel('Comment (optional)').fill('Filed twice');
    await dialog.getByRole('button', { name: 'Cancel request' }).click();
    await page.getByText('No punch corrections here.').waitFor();
    expect(await correction(correctionId)).to.deep.include({ state: 'cancelled', decisionComment: 'Filed twice' });
    await expectNoHorizontalCutOff(page, 'hr-requests-read-only');
  });

  it('an approver approves one request with a comment, rejects two at once and approves corrections in bulk, filtering by status', async () => {
    const week = addDays(monday, 7);
    // Ada's request of the first test is withdrawn, so the pending list holds only these.
    const earlier = (await query('query ($e: Int) { absenceRequests(employeeId: $e, state: "pending") { nodes { id } } }', { e: ada.id })).absenceRequests
      .nodes;
    for (const r of earlier) await query('mutation ($id: Int!) { cancelAbsenceRequest(id: $id) { state } }', { id: r.id }, hrKey);
    const adaId = await fileAbsence(ada.id, week, addDays(week, 1), 'Moving house');
    const bobId = await fileAbsence(bob.id, week, addDays(week, 2), 'Wedding');
    const cyId = await fileAbsence(cy.id, addDays(week, 3), addDays(week, 4), 'Long weekend');
    const fixA = await fileCorrection(bob.id, '17:05:00', 'Terminal was down');
    const fixB = await fileCorrection(cy.id, '17:10:00', 'Badge left at home');

    const page = await signedIn(approverKey);
    await page.getByRole('link', { name: 'Requests' }).click();
    await page.getByRole('rowheader', { name: 'Bob Break' }).first().waitFor();
    expect(await page.getByText('Deciding requests needs the approve scope').count()).to.equal(0);

    // One request: approve with a comment.
    await page.getByRole('button', { name: `Approve Ada Away, Vacation, ${week} to ${addDays(week, 1)}` }).click();
    const one = page.getByRole('dialog', { name: `Approve Ada Away, Vacation, ${week} to ${addDays(week, 1)}?` });
    await one.getByLabel('Comment (optional)').fill('Enjoy the new place');
    await screenshot(page, 'hr-requests-approve-one');
    await one.getByRole('button', { name: 'Approve', exact: true }).click();
    await page.getByRole('rowheader', { name: 'Ada Away' }).waitFor({ state: 'detached' });
    expect(await absence(adaId)).to.deep.include({ state: 'approved', decisionComment: 'Enjoy the new place' });

    // Several at once: select Bob's and Cy's absences, reject both with one comment after confirming.
    const absences = page.getByRole('region', { name: 'Absence requests' });
    await absences.getByRole('checkbox', { name: `Select Bob Break, Vacation` }).check();
    await absences.getByRole('checkbox', { name: `Select Cy Clock, Vacation` }).check();
    await absences.getByRole('button', { name: 'Reject selected (2)' }).click();
    const bulk = page.getByRole('dialog', { name: 'Reject 2 requests?' });
    await bulk.getByText('Bob Break, Vacation').waitFor();
    await bulk.getByLabel('Comment (optional)').fill('Busy season');
    await screenshot(page, 'hr-requests-reject-bulk');
    await bulk.getByRole('button', { name: 'Back' }).click();
    expect((await absence(bobId)).state).to.equal('pending');
    await absences.getByRole('button', { name: 'Reject selected (2)' }).click();
    await bulk.getByLabel('Comment (optional)').fill('Busy season');
    await bulk.getByRole('button', { name: 'Reject 2' }).click();
    await absences.getByText('No absence requests here.').waitFor();
    expect(await absence(bobId)).to.deep.include({ state: 'rejected', decisionComment: 'Busy season' });
    expect(await absence(cyId)).to.deep.include({ state: 'rejected', decisionComment: 'Busy season' });

    // Corrections: select all pending, approve them; their punches are created.
    const corrections = page.getByRole('region', { name: 'Punch corrections' });
    await corrections.getByRole('cell', { name: 'Badge left at home' }).waitFor();
    await corrections.getByRole('checkbox', { name: 'Select every pending one of the punch corrections' }).check();
    await corrections.getByRole('button', { name: 'Approve selected (2)' }).click();
    await page.getByRole('dialog', { name: 'Approve 2 requests?' }).getByRole('button', { name: 'Approve 2' }).click();
    await corrections.getByText('No punch corrections here.').waitFor();
    for (const id of [fixA, fixB]) {
      const c = await correction(id);
      expect(c.state).to.equal('approved');
      expect(c.createdPunchIds).to.have.length(1);
    }

    // Filter by status: the approved ones, with their decisions.
    await page.getByLabel('Status').selectOption({ label: 'Approved' });
    await absences.getByRole('rowheader', { name: 'Ada Away' }).waitFor();
    await absences.getByText('Enjoy the new place').waitFor();
    await corrections.getByRole('cell', { name: 'Terminal was down' }).waitFor();
    await page.getByLabel('Status').selectOption({ label: 'Rejected' });
    await absences.getByRole('cell', { name: 'Wedding' }).waitFor();
    await screenshot(page, 'hr-requests-approver');
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'hr-requests-approver');
  });
  it("shows an employee's balances for a year, and creates, edits and deletes an absence type", async () => {
    const week = addDays(monday, 7);
    const year = Number(week.slice(0, 4));
    const balances = async () =>
      (
        await query('query ($e: Int!, $y: Int) { absenceBalances(employeeId: $e, year: $y) { absenceTypeId allowance carriedOver taken pending remaining } }', {
          e: ada.id,
          y: year,
        })
      ).absenceBalances;
    const days = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;
    const page = await signedIn(ws.key);
    await page.getByRole('link', { name: 'Leave balances' }).click();
    await page.getByLabel('Employee', { exact: true }).selectOption({ label: 'Ada Away (AA-1)' });
    await page.getByLabel('Year', { exact: true }).fill(String(year));
    const table = page.getByRole('table', { name: `Balances of Ada Away in ${year}` });
    // Ada's approved request of the second test (two workdays) is taken.
    const vacation = (await balances()).find((b: any) => b.absenceTypeId === vacationId);
    expect(vacation).to.include({ allowance: 25, taken: 2, pending: 0 });
    const row = table.getByRole('row', { name: /^Vacation/ });
    expect(await row.getByRole('cell').allInnerTexts()).to.deep.equal([days(25), days(vacation.carriedOver), days(2), days(0), days(vacation.remaining)]);
    await table.getByRole('row', { name: /^Sick/ }).getByRole('cell', { name: 'not tracked' }).first().waitFor();

    // A new type counted in hours, with an allowance.
    const types = page.getByRole('region', { name: 'Absence types' });
    await page.getByLabel('Type name').fill('Training');
    await page.getByLabel('Pay item code').fill('TRN');
    await page.getByLabel('Counted in').selectOption({ label: 'Hours' });
    await page.getByLabel('Allowance per year (empty: not tracked)').fill('16');
    await page.getByRole('button', { name: 'Create absence type' }).click();
    await types.getByRole('rowheader', { name: 'Training' }).waitFor();
    const readType = async () =>
      (
        await query('query ($c: Int) { absenceTypes(companyId: $c) { nodes { id name code unit paid annualAllowance carryOver } } }', { c: companyId })
      ).absenceTypes.nodes.find((x: any) => x.code === 'TRN');
    expect(await readType()).to.deep.include({ name: 'Training', unit: 'hour', paid: true, annualAllowance: 16, carryOver: 0 });
    await table
      .getByRole('row', { name: /^Training/ })
      .getByRole('cell', { name: '16 hours' })
      .first()
      .waitFor();

    // Edit: a larger allowance, unpaid.
    await types.getByRole('button', { name: 'Edit Training' }).click();
    await page.getByRole('heading', { name: 'Edit absence type Training' }).waitFor();
    await page.getByLabel('Allowance per year (empty: not tracked)').fill('24');
    await page.getByLabel('Paid (an approved workday').uncheck();
    await page.getByRole('button', { name: 'Save absence type' }).click();
    await page.getByRole('heading', { name: 'New absence type' }).waitFor();
    expect(await readType()).to.deep.include({ annualAllowance: 24, paid: false });
    await table
      .getByRole('row', { name: /^Training/ })
      .getByRole('cell', { name: '24 hours' })
      .first()
      .waitFor();
    await screenshot(page, 'hr-leave-balances');
    await expectAccessible(page);

    // A type requests use is kept: the refusal is shown and nothing changes.
    await types.getByRole('button', { name: 'Delete Vacation' }).click();
    await page.getByRole('dialog', { name: 'Delete the absence type Vacation?' }).getByRole('button', { name: 'Delete absence type' }).click();
    await types.getByRole('alert').waitFor();
    expect((await query('query ($id: Int!) { absenceType(id: $id) { id } }', { id: vacationId })).absenceType.id).to.equal(vacationId);

    // An unused one is deleted after confirming (Cancel first keeps it).
    await types.getByRole('button', { name: 'Delete Training' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the absence type Training?' });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await readType()).to.not.equal(undefined);
    await types.getByRole('button', { name: 'Delete Training' }).click();
    await dialog.getByRole('button', { name: 'Delete absence type' }).click();
    await types.getByRole('rowheader', { name: 'Training' }).waitFor({ state: 'detached' });
    expect(await readType()).to.equal(undefined);
    await expectNoHorizontalCutOff(page, 'hr-leave-balances');
  });
});
