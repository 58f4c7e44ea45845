import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createPunch } from '../support/attendance-seeding';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday } from '../support/test-dates';

/** HR saves a pay period's payroll file from the Pay periods page; a locked period's file is the frozen one. */
describe('console in the browser: payroll export', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let ada: { id: number };
  const day = lastWeekday();
  const name = `${day} to ${day}`;

  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);

  before(async () => {
    t = await startTestApp({}, 'console-payroll-export');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Payroll' })).id;
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' })).id;
    ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Paid', pin: '9501', code: 'AP-1' });
    for (const [time, state] of [
      ['08:00:00', '0'],
      ['18:30:00', '1'],
    ])
      await createPunch(t.url, ws.key, { employeeId: ada.id, companyId, deviceId: clockId, punchTime: `${day}T${time}`, punchState: state });
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url, { acceptDownloads: true });
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  const signedIn = () => tab(ws.key);

  /** Clicks the period's export button and returns the saved file's name and text. */
  async function exportFile(page: Page): Promise<{ file: string; text: string }> {
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: `Export for payroll ${name}` }).click()]);
    const text = Buffer.concat((await (await download.createReadStream()).toArray()) as Buffer[]).toString('utf8');
    return { file: download.suggestedFilename(), text };
  }

  const apiExport = async (id: number) =>
    (
      await query(
        'query ($id: Int!) { payPeriodExport(id: $id) { locked csv rows { employeeCode employeeName payCode minutes hours hoursMinutes ratePercent } } }',
        { id },
      )
    ).payPeriodExport;

  it("saves the period's payroll CSV, the API's rows; once locked, the frozen file", async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Pay periods' }).click();
    await page.getByLabel('First day').fill(day);
    await page.getByLabel('Last day').fill(day);
    await page.getByRole('button', { name: 'Create pay period' }).click();
    await page.getByRole('rowheader', { name }).waitFor();
    const periodId = (await query('query ($c: Int) { payPeriods(companyId: $c) { nodes { id } } }', { c: companyId })).payPeriods.nodes[0].id;

    // Open: the file is the API's export of the period, row for row.
    const open = await exportFile(page);
    expect(open.file).to.equal(`payroll-${day}_${day}.csv`);
    const api = await apiExport(periodId);
    expect(api.locked).to.equal(false);
    expect(api.rows.length).to.be.at.least(1);
    expect(open.text).to.equal(api.csv);
    const lines = open.text.trimEnd().split('\r\n');
    expect(lines[0]).to.equal(
      'employee_id,employee_code,employee_name,company_code,company_name,start_date,end_date,pay_code,minutes,hours,hours_minutes,rate_percent',
    );
    expect(lines.slice(1).map((l) => l.split(',').slice(7, 11))).to.deep.equal(
      api.rows.map((r: any) => [r.payCode, String(r.minutes), r.hours, r.hoursMinutes]),
    );
    expect(lines.slice(1).every((l) => l.includes(',AP-1,Ada Paid,'))).to.equal(true);

    // Locked: the export is frozen; a rename afterwards does not reach the file.
    await page.getByRole('button', { name: `Lock ${name}`, exact: true }).click();
    await page
      .getByRole('dialog', { name: `Lock ${name}?` })
      .getByRole('button', { name: 'Lock period' })
      .click();
    await page.getByRole('button', { name: `Unlock ${name}` }).waitFor();
    const lockedFile = (await exportFile(page)).text;
    await query('mutation ($id: Int!, $input: UpdateEmployeeInput!) { updateEmployee(id: $id, input: $input) { id } }', {
      id: ada.id,
      input: { lastname: 'Renamed' },
    });
    const later = await exportFile(page);
    expect(later.text).to.equal(lockedFile);
    expect(later.text).to.include('Ada Paid');
    const frozen = await apiExport(periodId);
    expect(frozen.locked).to.equal(true);
    expect(later.text).to.equal(frozen.csv);

    await screenshot(page, 'payroll-export-pay-periods');
    await expectAccessible(page);
    await expectNoHorizontalCutOff(page, 'payroll-export-pay-periods');
  });

  it('shows the API refusal when the export is refused', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Pay periods' }).click();
    await page.getByRole('rowheader', { name }).waitFor();
    const periodId = (await query('query ($c: Int) { payPeriods(companyId: $c) { nodes { id } } }', { c: companyId })).payPeriods.nodes[0].id;
    // The period disappears behind the page's back: the export answers 404 and the page says so.
    await query('mutation ($id: Int!) { unlockPayPeriod(id: $id) { id } }', { id: periodId });
    await query('mutation ($id: Int!) { deletePayPeriod(id: $id) { id } }', { id: periodId });
    await page.getByRole('button', { name: `Export for payroll ${name}` }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Payroll export failed: / })
      .waitFor();
    const said = await page.getByRole('alert').textContent();
    const refusal = await fetch(`${t.url}/public/v2/pay_periods/${periodId}/export?format=csv`, { headers: { authorization: `Bearer ${ws.key}` } });
    expect(refusal.status).to.equal(404);
    expect(said).to.equal(`Payroll export failed: ${((await refusal.json()) as any).error.message}`);
  });
});
