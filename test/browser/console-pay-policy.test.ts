import { expect } from 'chai';
import { createPunch, createShift } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createEmployee, createKey, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

// The Pay policy page: an HR signer (a `write` key) reads a company's pay policy in words and changes
// it with the form; the API's refusal is shown and changes nothing; a change asks first (it recomputes
// the company's days) and then shows in the API and in a day. A default shift 09:00–17:00 (no break),
// Monday to Friday, UTC; the employee worked Tuesday 2026-06-02 09:00–18:00 (60 min overtime).
// "Acme Other" is listed first, so reaching Acme Payroll's policy needs its choice (or a link carrying it).
describe('console in the browser: a company pay policy', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let employeeId: number;
  let hrKey: string;
  let readKey: string;
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const policy = async () =>
    (
      await query(
        'query ($id: Int!) { company(id: $id) { payPolicy { overtimeRequiresApproval nightStart nightEnd nightPremiumPercent overtimeRatePercent weekStart } } }',
        { id: companyId },
      )
    ).company.payPolicy;
  const dayOf = async (date: string) =>
    (
      await query(
        'query ($e: Int, $d: String!) { timesheet(employeeId: $e, startDate: $d, endDate: $d) { nodes { overtimeMinutes pendingOvertimeMinutes } } }',
        {
          e: employeeId,
          d: date,
        },
      )
    ).timesheet.nodes[0] as { overtimeMinutes: number; pendingOvertimeMinutes: number } | undefined;
  /** Waits until the day reads as wanted (the worker recomputes a company's days after a policy change). */
  const dayBecomes = (date: string, wanted: { overtimeMinutes: number; pendingOvertimeMinutes: number }) =>
    waitUntil(
      `day ${date} is ${JSON.stringify(wanted)}`,
      () => dayOf(date),
      (day) => day?.overtimeMinutes === wanted.overtimeMinutes && day.pendingOvertimeMinutes === wanted.pendingOvertimeMinutes,
    );

  before(async () => {
    t = await startTestApp({}, 'console-pay-policy');
    ws = await createWorkspace(t.url, { maxCompanies: 2 });
    await createCompany(t.url, ws.key, { name: 'Acme Other' });
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Payroll' })).id;
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Office clock', mode_type: 'att' })).id;
    employeeId = (await createEmployee(t.url, ws.key, companyId, { name: 'Eli', lastname: 'Paid', pin: '9901', code: 'EP-1' })).id;
    for (const [time, state] of [
      ['09:00', '0'],
      ['18:00', '1'],
    ]) {
      await createPunch(t.url, ws.key, { employeeId, companyId, deviceId: clockId, punchTime: `2026-06-02T${time}:00Z`, punchState: state });
    }
    await dayBecomes('2026-06-02', { overtimeMinutes: 60, pendingOvertimeMinutes: 0 });
    hrKey = await createKey(t.url, ws.key, ['write']);
    readKey = await createKey(t.url, ws.key, ['read']);
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

  it('HR reads the policy in words, sees a refusal of the API, and changes it after confirming; the day follows', async () => {
    const page = await signedIn(hrKey);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Pay policy' }).click();
    await page.getByRole('heading', { name: 'Pay policy', exact: true }).waitFor();
    await page.getByLabel('Company').selectOption({ label: 'Acme Payroll' });
    const words = page.getByRole('definition');
    await words.filter({ hasText: 'Overtime and double time count as soon as they are worked.' }).waitFor();
    await words.filter({ hasText: "Paid time beyond the day's scheduled minutes is overtime." }).waitFor();
    await words.filter({ hasText: 'Overtime 150 %, double time 200 % of the base rate' }).waitFor();
    await screenshot(page, 'hr-pay-policy');
    await expectAccessible(page);

    // A night window with a start and no end: the API refuses, the page says why, nothing changes.
    const editor = page.getByRole('region', { name: 'Change the pay policy' });
    await editor.getByLabel('Night starts at').fill('22:00');
    await editor.getByRole('button', { name: 'Save pay policy' }).click();
    const confirm = page.getByRole('dialog', { name: "Change Acme Payroll's pay policy?" });
    await confirm.getByRole('button', { name: 'Change pay policy' }).click();
    await editor.getByRole('alert').filter({ hasText: 'A night window needs both nightStart and nightEnd.' }).waitFor();
    await screenshot(page, 'hr-pay-policy-refused');
    expect(await policy()).to.deep.include({ nightStart: null, nightEnd: null, overtimeRequiresApproval: false });

    // The whole change: approval required, a night window with a 12.5 % premium, the week from Sunday.
    await editor.getByLabel('Night ends at').fill('06:00');
    await editor.getByLabel('Night premium (%)').fill('12.5');
    await editor.getByRole('checkbox', { name: 'Overtime counts only once approved' }).check();
    await editor.getByLabel('Pay week starts on').selectOption({ label: 'Sunday' });
    await editor.getByRole('button', { name: 'Save pay policy' }).click();
    await confirm.getByText('Overtime and double time count only once an approver approves them; until then they wait.').waitFor();
    await confirm.getByText('12.5 % on top for time worked from 22:00 to 06:00 (the next day).').waitFor();
    await confirm.getByText('Every day of Acme Payroll outside a locked pay period is recomputed').waitFor();
    await screenshot(page, 'hr-pay-policy-confirm');
    await expectAccessible(page);
    // Cancel first: nothing changes.
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    expect((await policy()).overtimeRequiresApproval).to.equal(false);

    await editor.getByRole('button', { name: 'Save pay policy' }).click();
    await confirm.getByRole('button', { name: 'Change pay policy' }).click();
    await editor.getByRole('status').filter({ hasText: "Saved. Acme Payroll's days are being recomputed" }).waitFor();
    expect(await policy()).to.deep.equal({
      overtimeRequiresApproval: true,
      nightStart: '22:00',
      nightEnd: '06:00',
      nightPremiumPercent: 12.5,
      overtimeRatePercent: 150,
      weekStart: 7,
    });
    await dayBecomes('2026-06-02', { overtimeMinutes: 0, pendingOvertimeMinutes: 60 });
    await words.filter({ hasText: 'Overtime and double time count only once an approver approves them' }).waitFor();
    await words.filter({ hasText: 'Sunday' }).waitFor();
    expect(await editor.getByRole('alert').count()).to.equal(0);
    await screenshot(page, 'hr-pay-policy-saved');
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'hr-pay-policy');
    expectNoPageProblems(page);
  });

  it("a read-only signer follows the Pay periods page's link to the chosen company's policy: in words, and no form", async () => {
    const page = await signedIn(readKey);
    await page.getByRole('link', { name: 'Pay periods' }).click();
    const periods = page.getByRole('region', { name: 'Pay periods' });
    await periods.getByLabel('Company').selectOption({ label: 'Acme Payroll' });
    await periods.getByRole('link', { name: 'Pay policy' }).click();
    await page.getByRole('definition').filter({ hasText: 'Overtime and double time count only once an approver approves them' }).waitFor();
    expect(await page.getByLabel('Company').inputValue()).to.equal(String(companyId));
    await page.getByRole('note').filter({ hasText: 'Changing the pay policy needs the write scope' }).waitFor();
    expect(await page.getByRole('region', { name: 'Change the pay policy' }).count()).to.equal(0);
    expect(await page.getByRole('button', { name: 'Save pay policy' }).count()).to.equal(0);
    // The policy is shown once, on its own page, not below the periods.
    await page.getByRole('link', { name: 'Pay periods' }).click();
    await periods.waitFor();
    expect(await page.getByRole('region', { name: 'Pay policy', exact: true }).count()).to.equal(0);
    await screenshot(page, 'hr-pay-periods-policy-link');
    await expectAccessible(page);
  });
});
