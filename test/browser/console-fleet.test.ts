import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { accessibilityViolations, expectAccessible, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createDevice, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startTestApp, type TestApp } from '../support/test-app';

/** A field engineer's work on a terminal's page, each task done as a person would and checked through the API. */
describe('console in the browser: fleet', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let sim: SimulatedTerminal;
  let clock: { id: number; serial_number: string };
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const actions = async (deviceId: number) =>
    (await query('query ($d: Int!) { deviceActions(deviceId: $d) { nodes { type status statusDetail options { startDate endDate } } } }', { d: deviceId }))
      .deviceActions.nodes;

  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '200' }, 'console-fleet');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Fleet' })).id;
    clock = await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' });
    sim = new SimulatedTerminal({ serverUrl: t.url, serialNumber: clock.serial_number, family: 'att', pollIntervalMs: 100 });
    sim.start();
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await t?.stop();
  });

  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  const signedIn = () => tab(ws.key);

  it('a terminal that never called in says why, and an action waiting for it says what it waits for', async () => {
    const spare = await createDevice(t.url, ws.key, companyId, { name: 'Spare clock', mode_type: 'att' });
    const page = await signedIn();
    await page.goto(`${t.url}/console#/devices/${spare.id}`);
    await page.getByText('It has never called in').waitFor();
    await page.getByRole('button', { name: 'Read info' }).click();
    const row = page.locator('tr[data-action]').filter({ hasText: 'info.refresh' });
    await row.getByRole('cell', { name: 'waiting for a terminal that has never connected' }).waitFor({ timeout: 15_000 });
    expect(await actions(spare.id)).to.deep.equal([
      { type: 'info.refresh', status: 'queued', statusDetail: 'device_pending', options: { startDate: null, endDate: null } },
    ]);
    await screenshot(page, 'fleet-never-connected');
    await expectAccessible(page);
  });

  it("backfills a date range, clears logs only after confirming and after the guard is met, with every action's status detail; the table fits at 1366 px and 390 px", async () => {
    const day = new Date().toISOString().slice(0, 10);
    const monthStart = `${day.slice(0, 7)}-01`;
    sim.punch({ pin: '5001' });
    sim.punch({ pin: '5002' });
    const page = await signedIn();
    await page.goto(`${t.url}/console#/devices/${clock.id}`);
    await page.getByText('Last error').waitFor();
    await page.locator('.badge-online').first().waitFor({ timeout: 15_000 });

    // Clear logs without a fresh count: the dialog explains the guard, and the service's refusal is shown.
    await page.getByRole('button', { name: 'Clear logs' }).click();
    const dialog = page.getByRole('dialog', { name: "Clear the terminal's attendance records?" });
    await dialog.getByText('record count from the last hour').waitFor();
    await screenshot(page, 'fleet-clear-logs-confirm');
    await dialog.getByRole('button', { name: 'Clear logs' }).click();
    await page
      .getByRole('alert')
      .getByText(/needs the terminal's record count/)
      .waitFor();
    expect((await actions(clock.id)).filter((a: any) => a.type === 'logs.clear')).to.deep.equal([]);

    await page.getByLabel('Backfill from').fill(monthStart);
    await page.getByLabel('Backfill to').fill(day);
    await page.getByRole('button', { name: 'Backfill', exact: true }).click();
    const backfill = page.locator('tr[data-action]').filter({ hasText: `attendance.backfill ${monthStart} to ${day}` });
    await backfill.locator('.badge-succeeded').waitFor({ timeout: 20_000 });
    await backfill.getByText(/queries, \d+ records found/).waitFor();
    expect((await actions(clock.id)).find((a: any) => a.type === 'attendance.backfill')).to.deep.include({
      status: 'succeeded',
      options: { startDate: monthStart, endDate: day },
    });

    await page.getByRole('button', { name: 'Read info' }).click();
    await page.locator('tr[data-action]').filter({ hasText: 'info.refresh' }).locator('.badge-succeeded').waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Clear logs' }).click();
    await dialog.getByRole('button', { name: 'Clear logs' }).click();
    await page.locator('tr[data-action]').filter({ hasText: 'logs.clear' }).locator('.badge-succeeded').waitFor({ timeout: 20_000 });
    expect((await actions(clock.id)).find((a: any) => a.type === 'logs.clear')).to.deep.include({ status: 'succeeded' });

    // Nothing of the actions table is cut off: it fits its card at 1366 px, and the page fits a phone.
    const fits = () =>
      page.evaluate(`(() => {
      const table = document.querySelector('table.actions-table');
      const card = table.closest('.card');
      return table.getBoundingClientRect().right <= card.getBoundingClientRect().right && card.scrollWidth <= card.clientWidth && document.documentElement.scrollWidth <= innerWidth;
    })()`);
    expect(await fits(), '1366 px').to.equal(true);
    await screenshot(page, 'fleet-device-actions');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await fits(), '390 px').to.equal(true);
    await screenshot(page, 'fleet-device-actions-phone');
    expectNoPageProblems(page);
  });
});
