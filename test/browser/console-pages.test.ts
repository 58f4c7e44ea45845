import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { addDays } from '../../src/kernel/calendar-date';
import { createPunch, createShift } from '../support/attendance-seeding';
import { accessibilityViolations, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData, rest } from '../support/http';
import { startSimulatedController, type SimulatedController } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { lastWeekday } from '../support/test-dates';
import { waitUntil } from '../support/wait-until';

/** What the console says while a page is still reading. */
const LOADING = /Loading/;

/** Every page of the console as a person meets it, at 1366 px and on a 390 px phone. */
describe('console in the browser: every page, its heading, its navigation and its accessibility', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  const controllers: SimulatedController[] = [];
  let ada: { id: number };
  let leaver: { id: number };
  const day = lastWeekday();
  const month = day.slice(0, 7);
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);

  before(async () => {
    t = await startTestApp({}, 'console-pages');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Pages' })).id;
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' })).id;
    ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Present', pin: '7101', code: 'AP-1' });
    leaver = await createEmployee(t.url, ws.key, companyId, { name: 'Lee', lastname: 'Onleave', pin: '7102', code: 'LO-1' });
    for (let i = 3; i <= 12; i++) await createEmployee(t.url, ws.key, companyId, { name: 'Person', lastname: String(i).padStart(2, '0'), code: `PP-${i}` });
    await createPunch(t.url, ws.key, { employeeId: ada.id, companyId, deviceId: clockId, punchTime: `${day}T09:00:00`, punchState: '0' });
    await createPunch(t.url, ws.key, { employeeId: ada.id, companyId, deviceId: clockId, punchTime: `${day}T17:00:00`, punchState: '1' });
    // Lee is on approved leave that day.
    const vacation = (await query('query ($c: Int) { absenceTypes(companyId: $c) { nodes { id code } } }', { c: companyId })).absenceTypes.nodes.find(
      (x: any) => x.code === 'VAC',
    ).id;
    const request = await query('mutation ($input: CreateAbsenceRequestInput!) { createAbsenceRequest(input: $input) { id } }', {
      input: { employeeId: leaver.id, absenceTypeId: vacation, startDate: day, endDate: day },
    });
    await query('mutation ($id: Int!) { approveAbsenceRequest(id: $id) { state } }', { id: request.createAbsenceRequest.id });
    // Four controllers of four doors in two areas: sixteen doors to choose among.
    for (const name of ['North gate', 'North side', 'South gate', 'South side']) {
      controllers.push(await startSimulatedController(t.url, ws.key, companyId, name, { lockCount: 4 }));
    }
    for (const [area, members] of [
      ['North wing', controllers.slice(0, 2)],
      ['South wing', controllers.slice(2)],
    ] as const) {
      const created = await createArea(t.url, ws.key, companyId, { name: area });
      const added = await rest(t.url, 'POST', `/public/v2/areas/${created.id}/devices`, {
        key: ws.key,
        body: members.map((c) => ({ device_id: c.device.id })),
      });
      expect(added.status, added.text).to.be.below(300);
    }
    await waitUntil(
      'the days of the month computed',
      async () =>
        (
          await query('query ($c: Int!, $d: String!) { timesheet(companyId: $c, startDate: $d, endDate: $d) { nodes { employeeId status } } }', {
            c: companyId,
            d: day,
          })
        ).timesheet.nodes as Array<{ employeeId: number; status: string }>,
      (days) => days.some((d) => d.employeeId === ada.id && d.status === 'present') && days.some((d) => d.employeeId === leaver.id && d.status === 'leave'),
    );
    browser = await launchBrowser();
  });
  after(async () => {
    await Promise.all(controllers.map((c) => c.sim.stop()));
    await browser?.close();
    await t?.stop();
  });

  /** Waits until the page has read what it shows (no "Loading…" left). */
  const settled = (page: Page) =>
    waitUntil(
      'the page has read its data',
      () => page.getByText(LOADING).count(),
      (n) => n === 0,
    );

  it('every page has one level-one heading (its name), nothing moderate or worse for axe and nothing running off the side; at 390 px "Menu" folds the navigation', async function () {
    // 22 pages, each checked by axe at two widths.
    this.timeout(900_000);
    const page = await signInWithKey(browser, t.url, ws.key);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    const labels = await nav.getByRole('link').allTextContents();
    expect(labels).to.have.length(22);
    for (const label of labels) {
      await page.setViewportSize({ width: 1366, height: 900 });
      await nav.getByRole('link', { name: label, exact: true }).click();
      await page.getByRole('heading', { level: 1, name: label, exact: true }).waitFor();
      expect(await page.getByRole('heading', { level: 1 }).count(), label).to.equal(1);
      await settled(page);
      const file = `page-${label.toLowerCase().replaceAll(/[^a-z]+/g, '-')}`;
      await screenshot(page, file);
      expect(await accessibilityViolations(page), `${label} at 1366 px`).to.deep.equal([]);
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `${label} at 1366 px`).to.equal(true);

      // A phone: the page's heading comes first, the 22 links wait behind "Menu".
      await page.setViewportSize({ width: 390, height: 844 });
      const menu = nav.getByRole('button', { name: /^Menu/ });
      expect(await menu.getAttribute('aria-expanded'), label).to.equal('false');
      expect(await nav.getByRole('link').count(), `${label}: no link shown while folded`).to.equal(0);
      const top = await page.getByRole('heading', { level: 1 }).evaluate((h) => h.getBoundingClientRect().top);
      expect(top, `${label}: the heading at ${top} px`).to.be.below(160);
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `${label} at 390 px`).to.equal(true);
      expect(await accessibilityViolations(page), `${label} at 390 px`).to.deep.equal([]);
      await screenshot(page, `${file}-phone`);
    }

    // Unfolded, the links are there; choosing one folds the list again.
    const menu = nav.getByRole('button', { name: /^Menu/ });
    await menu.click();
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await nav.getByRole('link', { name: 'Holidays' }).waitFor();
    await screenshot(page, 'page-menu-open-phone');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await nav.getByRole('link', { name: 'Holidays' }).click();
    await page.getByRole('heading', { level: 1, name: 'Holidays' }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).to.equal('false');
    expect(await nav.getByRole('link').count()).to.equal(0);
    // With the keyboard: Enter on "Menu" opens it and focus reaches the links.
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).to.equal('true');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement?.textContent')).to.equal('Overview');
    expectNoPageProblems(page);
    await page.close();
  });

  it('pages by address (a device, an employee) have their heading too', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);
    for (const [path, heading] of [
      [`devices/${controllers[0]!.device.id}`, 'Devices'],
      [`employees/${ada.id}`, 'Employees'],
    ]) {
      await page.goto(`${t.url}/console#/${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await settled(page);
      expect(await page.getByRole('heading', { level: 1 }).count()).to.equal(1);
      expect(await accessibilityViolations(page), path).to.deep.equal([]);
    }
    await page.close();
  });

  it('the month timesheet: leave days coloured and in the legend, the whole month in view at 1366 px, Month → Week keeps the month shown, people found by name', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);
    await page.goto(`${t.url}/console#/timesheets/${month}`);
    const grid = page.getByRole('table', { name: new RegExp(`^Timesheet ${month}-01 to `) });
    const leave = page.getByRole('button', { name: `Lee Onleave, ${day}: leave, 0.0 h` });
    await leave.waitFor();
    // Leave has its colour, and the legend names it.
    const colour = await leave.evaluate((b) => (globalThis as any).getComputedStyle(b.parentElement).backgroundColor as string);
    expect(colour).to.not.equal('rgba(0, 0, 0, 0)');
    expect(colour).to.not.equal('rgb(255, 255, 255)');
    const legend = page.getByRole('list', { name: 'Legend' });
    await legend.getByText('leave (approved absence)').waitFor();
    expect(await legend.locator('.cell-leave').evaluate((swatch) => (globalThis as any).getComputedStyle(swatch).backgroundColor as string)).to.equal(colour);

    // At 1366 px the 31 days and the totals are in view: nothing scrolls sideways.
    const box = page.locator('.sheet-scroll');
    expect(await box.evaluate((b) => b.scrollWidth <= b.clientWidth), 'no sideways scroll at 1366 px').to.equal(true);
    const lastColumn = await page.getByRole('columnheader', { name: 'Late' }).evaluate((th) => th.getBoundingClientRect().right);
    expect(lastColumn).to.be.at.most(1366);
    await screenshot(page, 'timesheet-month-1366');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    // On a phone the grid scrolls sideways inside its box, whose scroll bar is in view.
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await box.evaluate((b) => b.scrollWidth > b.clientWidth)).to.equal(true);
    await page.getByText('scroll the grid sideways for the other days and the totals').waitFor();
    // The box is shorter than the screen: scrolled to, its rows and its scroll bar are in view at once.
    await box.evaluate((b) => b.scrollIntoView({ block: 'center' }));
    const { top, bottom } = await box.evaluate((b) => ({ top: b.getBoundingClientRect().top, bottom: b.getBoundingClientRect().bottom }));
    expect(top, 'the top of the box in view').to.be.at.least(0);
    expect(bottom, 'the bottom of the box (its scroll bar) in view').to.be.at.most(844);
    await screenshot(page, 'timesheet-month-phone');
    await page.setViewportSize({ width: 1366, height: 900 });

    // Rows: every person counted, each drawn row numbered.
    expect(await grid.getAttribute('aria-rowcount')).to.equal('13');
    expect(await grid.locator('tbody tr[aria-rowindex]').count()).to.equal(12);

    // Find a person by name.
    await page.getByLabel('Find a person').fill('onleave');
    await page.getByText('1 of 12 people match').waitFor();
    expect(await grid.getAttribute('aria-rowcount')).to.equal('2');
    expect(await grid.getByRole('rowheader').allTextContents()).to.deep.equal(['Lee Onleave']);
    await page.getByLabel('Find a person').fill('');

    // Month → Week: the week shown is one of the month shown, not this week.
    const other = addDays(`${month}-01`, -40).slice(0, 7);
    await page.getByLabel('Month', { exact: true }).fill(other);
    await page.getByRole('table', { name: new RegExp(`^Timesheet ${other}-01 to `) }).waitFor();
    await page.getByLabel('View').selectOption('Week');
    const weekOf = await page.getByLabel('Week of').inputValue();
    expect(weekOf).to.equal(`${other}-01`);
    // The table is the week holding that day.
    const label = (await page.getByRole('table', { name: /^Timesheet / }).getAttribute('aria-label'))!;
    const [, from, until] = /^Timesheet (\S+) to (\S+)$/.exec(label)!;
    expect(from! <= weekOf && weekOf <= until! && addDays(from!, 6) === until).to.equal(true);
    // And back: the week's month.
    await page.getByLabel('View').selectOption('Month');
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).to.equal(weekOf.slice(0, 7));
    expectNoPageProblems(page);
    await page.close();
  });

  it('the lockdown form lists the doors by area and finds them by name', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);
    await page.goto(`${t.url}/console#/lockdowns`);
    const form = page.getByRole('region', { name: 'Lock down or evacuate' });
    await form.getByRole('radio', { name: 'Chosen doors' }).check();
    const north = form.getByRole('group', { name: 'North wing' });
    const south = form.getByRole('group', { name: 'South wing' });
    expect(await north.getByRole('checkbox').count()).to.equal(8);
    expect(await south.getByRole('checkbox').count()).to.equal(8);
    await form.getByLabel('Find doors by name, controller or area').fill('South side');
    await form.getByText('0 chosen; 4 of 16 listed').waitFor();
    expect(await north.count()).to.equal(0);
    await south.getByRole('button', { name: 'Tick the 4 listed in South wing' }).click();
    await form.getByText('4 chosen; 4 of 16 listed').waitFor();
    await form.getByLabel('Find doors by name, controller or area').fill('');
    // The ticks stay while the search changes; the count says what the lockdown would take.
    expect(await form.getByRole('checkbox', { checked: true }).count()).to.equal(4);
    await form.getByLabel('Reason').fill('Drill');
    await form.getByText('4 doors on 1 controller(s).').waitFor();
    await screenshot(page, 'lockdown-doors-by-area');
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth')).to.equal(true);
    await screenshot(page, 'lockdown-doors-by-area-phone');
    expectNoPageProblems(page);
    await page.close();
  });

  it('the door board reads its door events without asking for their count', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);
    const documents: string[] = [];
    page.on('request', (request) => {
      const body = request.postData() ?? '';
      if (body.includes('doorEvents')) documents.push(body);
    });
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Door board' }).click();
    await page.getByRole('region', { name: 'Last door events' }).waitFor();
    await waitUntil(
      'the door board read its events',
      () => documents.length,
      (n) => n > 0,
    );
    for (const body of documents.filter((b) => b.includes('query DoorBoard'))) {
      expect((JSON.parse(body) as { query: string }).query).to.not.include('totalCount');
    }
    expect(documents.some((b) => b.includes('query DoorBoard'))).to.equal(true);
    await page.close();
  });
});
