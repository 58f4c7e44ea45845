import { expect } from 'chai';
import { createPunch, createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

// A company whose pay policy requires overtime approval, a default shift 09:00–17:00 (no break),
// Monday to Friday, UTC. 2026-03-02 and 2026-03-09 are Mondays. Punches of 09:00 until later than
// 17:00 give a day overtime that waits for an approver.
describe('console in the browser: overtime approvals', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let clockId: number;
  let writeKey: string;
  let approverKey: string;
  const people: Record<string, { id: number }> = {};
  const query = (document: string, variables: Record<string, unknown> = {}, key = ws.key) => gqlData(t.url, key, document, variables);

  type Day = { overtimeMinutes: number; pendingOvertimeMinutes: number; payItems: { code: string; minutes: number }[] };
  const dayOf = async (employeeId: number, date: string): Promise<Day | undefined> =>
    (
      await query(
        'query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { overtimeMinutes pendingOvertimeMinutes payItems { code minutes } } } }',
        { e: employeeId, d: date },
      )
    ).timesheet.nodes[0];
  const approvalsOf = async (employeeId: number, date: string) =>
    (
      await query(
        'query ($e: Int, $d: String) { overtimeApprovals(employeeId: $e, startDate: $d, endDate: $d) { nodes { id state minutes decisionComment } } }',
        { e: employeeId, d: date },
      )
    ).overtimeApprovals.nodes;
  const pay = (day: Day | undefined, code: string) => day?.payItems.find((p) => p.code === code)?.minutes ?? 0;

  /** Punches 09:00 and `until` on `date`, then waits until the day holds its overtime back as pending. */
  async function work(name: string, date: string, until: string, pending: number): Promise<void> {
    for (const [time, state] of [
      ['09:00', '0'],
      [until, '1'],
    ]) {
      await createPunch(t.url, ws.key, { employeeId: people[name].id, companyId, deviceId: clockId, punchTime: `${date}T${time}:00Z`, punchState: state });
    }
    await waitUntil(
      `day computed: ${name} ${date}`,
      () => dayOf(people[name].id, date),
      (computed) => computed?.pendingOvertimeMinutes === pending,
    );
  }

  before(async () => {
    t = await startTestApp({}, 'console-overtime');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Overtime' })).id;
    // The policy through the API, as a payroll administrator would set it.
    const policy = await query(
      'mutation ($id: Int!, $input: UpdateCompanyInput!) { updateCompany(id: $id, input: $input) { payPolicy { overtimeRequiresApproval } } }',
      { id: companyId, input: { payPolicy: { overtimeRequiresApproval: true } } },
    );
    expect(policy.updateCompany.payPolicy.overtimeRequiresApproval).to.equal(true);
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' })).id;
    for (const [name, lastname, pin] of [
      ['Ada', 'Over', '9701'],
      ['Bob', 'Extra', '9702'],
      ['Cy', 'Late', '9703'],
    ]) {
      people[name] = await createEmployee(t.url, ws.key, companyId, { name, lastname, pin, code: `${name[0]}${lastname[0]}-1` });
    }
    writeKey = await createKey(t.url, ws.key, ['write']);
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

  const file = (name: string, date: string, note: string) =>
    query(
      'mutation ($input: CreateOvertimeApprovalInput!) { createOvertimeApproval(input: $input) { id } }',
      { input: { employeeId: people[name].id, date, note } },
      writeKey,
    ).then((r) => r.createOvertimeApproval.id as number);

  let adaId: number;
  let bobId: number;

  it('lists overtime waiting on the Requests page, read-only without the approve scope', async () => {
    await work('Ada', '2026-03-02', '18:00', 60);
    await work('Bob', '2026-03-02', '18:30', 90);
    adaId = await file('Ada', '2026-03-02', 'Stock count');
    bobId = await file('Bob', '2026-03-02', 'Stayed to chat');
    expect(pay(await dayOf(people.Ada.id, '2026-03-02'), 'overtime')).to.equal(0);

    // Without the approve scope: listed read-only.
    const reader = await signedIn(writeKey);
    await reader.getByRole('link', { name: 'Requests' }).click();
    const readOnly = reader.getByRole('region', { name: 'Overtime approvals' });
    await readOnly.getByRole('cell', { name: '60 min waiting' }).waitFor();
    expect(await readOnly.getByRole('button').count()).to.equal(0);
    expect(await reader.getByRole('region', { name: 'Approve overtime for a period' }).count()).to.equal(0);
    await screenshot(reader, 'hr-overtime-read-only');
    await expectAccessible(reader);
  });

  it('an approver approves one with a cap (its pay item counts) and rejects another, each after confirming', async () => {
    const page = await signedIn(approverKey);
    await page.getByRole('link', { name: 'Requests' }).click();
    const list = page.getByRole('region', { name: 'Overtime approvals' });
    const adaRow = list.getByRole('row', { name: /Ada Over/ });
    await adaRow.getByRole('cell', { name: '60 min waiting' }).waitFor();
    await adaRow.getByRole('cell', { name: 'Stock count' }).waitFor();
    await list
      .getByRole('row', { name: /Bob Extra/ })
      .getByRole('cell', { name: '90 min waiting' })
      .waitFor();
    await screenshot(page, 'hr-overtime-requests');
    await expectAccessible(page);

    await list.getByRole('button', { name: 'Approve Ada Over, overtime, 2026-03-02' }).click();
    const approve = page.getByRole('dialog', { name: 'Approve Ada Over, overtime, 2026-03-02?' });
    await approve.getByLabel('At most this many overtime minutes count').fill('45');
    await approve.getByLabel('Comment (optional)').fill('Only until 17:45');
    await screenshot(page, 'hr-overtime-approve-one');
    await approve.getByRole('button', { name: 'Approve', exact: true }).click();
    await list.getByRole('row', { name: /Ada Over/ }).waitFor({ state: 'detached' });
    expect((await approvalsOf(people.Ada.id, '2026-03-02'))[0]).to.deep.include({
      id: adaId,
      state: 'approved',
      minutes: 45,
      decisionComment: 'Only until 17:45',
    });
    const approved = await dayOf(people.Ada.id, '2026-03-02');
    expect(approved).to.deep.include({ overtimeMinutes: 45, pendingOvertimeMinutes: 0 });
    expect(pay(approved, 'overtime')).to.equal(45);
    expect(pay(approved, 'regular')).to.equal(480);

    // Reject: Back changes nothing; confirmed, the overtime is not paid and nothing waits.
    await list.getByRole('button', { name: 'Reject Bob Extra, overtime, 2026-03-02' }).click();
    const reject = page.getByRole('dialog', { name: 'Reject Bob Extra, overtime, 2026-03-02?' });
    await reject.getByRole('button', { name: 'Back' }).click();
    expect((await approvalsOf(people.Bob.id, '2026-03-02'))[0].state).to.equal('pending');
    await list.getByRole('button', { name: 'Reject Bob Extra, overtime, 2026-03-02' }).click();
    await reject.getByLabel('Comment (optional)').fill('Not agreed beforehand');
    await reject.getByRole('button', { name: 'Reject', exact: true }).click();
    await list.getByText('No overtime approvals here.').waitFor();
    expect((await approvalsOf(people.Bob.id, '2026-03-02'))[0]).to.deep.include({ id: bobId, state: 'rejected', decisionComment: 'Not agreed beforehand' });
    const rejected = await dayOf(people.Bob.id, '2026-03-02');
    expect(rejected).to.deep.include({ overtimeMinutes: 0, pendingOvertimeMinutes: 0 });
    expect(pay(rejected, 'overtime')).to.equal(0);
    expect(pay(rejected, 'regular')).to.equal(480);

    // Filtered by status: the approved one with its cap and decision.
    await page.getByLabel('Status').selectOption({ label: 'Approved' });
    const row = list.getByRole('row', { name: /Ada Over/ });
    await row.getByRole('cell', { name: '45 min counted (capped at 45 min)' }).waitFor();
    await row.getByText('Only until 17:45').waitFor();
    await screenshot(page, 'hr-overtime-approved');
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'hr-overtime-requests');
  });

  it("approves a period's overtime after a confirmation that counts its days; a rejected day stays rejected", async () => {
    await work('Cy', '2026-03-03', '19:00', 120);
    await work('Ada', '2026-03-05', '18:00', 60);
    const page = await signedIn(approverKey);
    await page.getByRole('link', { name: 'Requests' }).click();
    const period = page.getByRole('region', { name: 'Approve overtime for a period' });
    await period.getByLabel('From', { exact: true }).fill('2026-03-02');
    await period.getByLabel('Until', { exact: true }).fill('2026-03-06');
    await period.getByRole('button', { name: 'Approve overtime for the period' }).click();
    const confirm = page.getByRole('dialog', { name: 'Approve overtime from 2026-03-02 to 2026-03-06?' });
    await confirm.getByText('2 days have overtime waiting (180 min)').waitFor();
    await confirm.getByLabel('Comment (optional)').fill('March week 1');
    await screenshot(page, 'hr-overtime-period-confirm');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect(await approvalsOf(people.Cy.id, '2026-03-03')).to.deep.equal([]);
    await period.getByRole('button', { name: 'Approve overtime for the period' }).click();
    await confirm.getByRole('button', { name: 'Approve overtime', exact: true }).click();
    await period.getByRole('status').filter({ hasText: 'Approved overtime of 2 days.' }).waitFor();

    expect((await approvalsOf(people.Cy.id, '2026-03-03'))[0]).to.deep.include({ state: 'approved', decisionComment: 'March week 1' });
    expect(pay(await dayOf(people.Cy.id, '2026-03-03'), 'overtime')).to.equal(120);
    expect(pay(await dayOf(people.Ada.id, '2026-03-05'), 'overtime')).to.equal(60);
    expect((await approvalsOf(people.Bob.id, '2026-03-02'))[0].state).to.equal('rejected');
    expect(pay(await dayOf(people.Bob.id, '2026-03-02'), 'overtime')).to.equal(0);
    await screenshot(page, 'hr-overtime-period');
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'hr-overtime-period');
  });

  it('the timesheet day shows its overtime waiting; an approver approves one day and rejects another there', async () => {
    await work('Ada', '2026-03-09', '18:00', 60);
    await work('Bob', '2026-03-09', '18:15', 75);
    const page = await signedIn(approverKey);
    await page.getByRole('link', { name: 'Timesheets' }).click();
    await page.getByLabel('Company').selectOption({ label: 'Acme Overtime' });
    await page.getByLabel('Month').fill('2026-03');

    await page.getByRole('button', { name: /^Ada Over, 2026-03-09: / }).click();
    const ada = page.getByRole('dialog', { name: 'Ada Over, 2026-03-09' });
    await ada.getByText('60 min overtime waiting for approval').waitFor();
    await screenshot(page, 'hr-overtime-day');
    await expectAccessible(page);
    await ada.getByRole('button', { name: 'Approve overtime' }).click();
    await page.getByRole('dialog', { name: "Approve Ada Over's overtime on 2026-03-09?" }).getByRole('button', { name: 'Approve overtime' }).click();
    await ada.getByText('60 min overtime waiting for approval').waitFor({ state: 'detached' });
    expect(pay(await dayOf(people.Ada.id, '2026-03-09'), 'overtime')).to.equal(60);
    expect((await approvalsOf(people.Ada.id, '2026-03-09'))[0].state).to.equal('approved');
    await ada.getByRole('button', { name: 'Close day' }).click();

    await page.getByRole('button', { name: /^Bob Extra, 2026-03-09: / }).click();
    const bob = page.getByRole('dialog', { name: 'Bob Extra, 2026-03-09' });
    await bob.getByText('75 min overtime waiting for approval').waitFor();
    await bob.getByRole('button', { name: 'Reject overtime' }).click();
    const reject = page.getByRole('dialog', { name: "Reject Bob Extra's overtime on 2026-03-09?" });
    await reject.getByLabel('Comment (optional)').fill('Left late by choice');
    await reject.getByRole('button', { name: 'Reject overtime' }).click();
    await bob.getByText('75 min overtime waiting for approval').waitFor({ state: 'detached' });
    const day = await dayOf(people.Bob.id, '2026-03-09');
    expect(day).to.deep.include({ overtimeMinutes: 0, pendingOvertimeMinutes: 0 });
    expect(pay(day, 'overtime')).to.equal(0);
    expect((await approvalsOf(people.Bob.id, '2026-03-09'))[0]).to.deep.include({ state: 'rejected', decisionComment: 'Left late by choice' });
    await expectNoHorizontalCutOff(page, 'hr-overtime-day');
  });
});
