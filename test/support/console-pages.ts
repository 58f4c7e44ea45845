// Every page of the console as a person meets it, at 1366 px and on a 390 px phone: the sweep of
// test/browser/console-pages-*.test.ts. The 22 pages are checked in three files, a group each, so
// that the two workers of a parallel run share them; each file starts its own app with the same
// data (this set-up), so every page is checked against what it was checked against in one file.
import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { createPunch, createShift } from './attendance-seeding';
import { accessibilityViolations, launchBrowser, screenshot, type TestBrowser } from './browser';
import { consoleTab } from './console-sign-in';
import { createArea, createCompany, createDevice, createEmployee, createWorkspace, type TestWorkspace } from './factories';
import { gqlData, rest } from './http';
import { startSimulatedController, type SimulatedController } from './simulated-controller';
import { startTestApp, type TestApp } from './test-app';
import { lastWeekday } from './test-dates';
import { waitUntil } from './wait-until';

/**
 * The console's navigation, in its order, in the three groups the files sweep: each file checks
 * that the navigation holds exactly these 22 links, so no page is left out of the sweep.
 */
export const PAGE_GROUPS = {
  operations: ['Overview', 'Devices', 'Employees', 'Punches', 'Timesheets', 'Attendance report', 'Shifts'],
  time: ['Rosters and overrides', 'Requests', 'Leave balances', 'Holidays', 'Pay periods', 'Pay policy'],
  doors: ['Door board', 'Refused today', 'Lockdowns', 'Visitor passes', 'Linkage rules', 'Access', 'Webhooks', 'API keys', 'Directory sync'],
} as const;

/** What the console says while a page is still reading. */
const LOADING = /Loading/;

export interface ConsolePagesData {
  t: TestApp;
  ws: TestWorkspace;
  browser: TestBrowser;
  companyId: number;
  controllers: SimulatedController[];
  ada: { id: number };
  leaver: { id: number };
  /** A past workday: Ada present, Lee on approved leave. */
  day: string;
  month: string;
  stop(): Promise<void>;
}

/**
 * An app of its own with a company of twelve people (Ada present on `day`, Lee on approved leave
 * that day), a default shift, an attendance clock, and four simulated controllers of four doors in
 * two areas (sixteen doors); answers once the day's timesheet shows Ada present and Lee on leave.
 */
export async function setUpConsolePages(label: string): Promise<ConsolePagesData> {
  const day = lastWeekday();
  const t = await startTestApp({}, label);
  const controllers: SimulatedController[] = [];
  const stop = async () => {
    await Promise.all(controllers.map((c) => c.sim.stop()));
    await browser?.close();
    await t.stop();
  };
  let browser: TestBrowser | undefined;
  try {
    const ws = await createWorkspace(t.url);
    const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
    const companyId = (await createCompany(t.url, ws.key, { name: 'Acme Pages' })).id;
    await createShift(t.url, ws.key, companyId, { name: 'Day', startTime: '09:00', endTime: '17:00', isDefault: true });
    const clockId = (await createDevice(t.url, ws.key, companyId, { name: 'Hall clock', mode_type: 'att' })).id;
    const ada = await createEmployee(t.url, ws.key, companyId, { name: 'Ada', lastname: 'Present', pin: '7101', code: 'AP-1' });
    const leaver = await createEmployee(t.url, ws.key, companyId, { name: 'Lee', lastname: 'Onleave', pin: '7102', code: 'LO-1' });
    // Ten more people, created side by side (their order in lists is their names').
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => n + 3).map((i) =>
        createEmployee(t.url, ws.key, companyId, { name: 'Person', lastname: String(i).padStart(2, '0'), code: `PP-${i}` }),
      ),
    );
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
    // Four controllers of four doors in two areas: sixteen doors to choose among (started side by
    // side). Nothing here waits on a command, so they poll once a second, not ten times (online for
    // 60 s after a poll): four controllers at 100 ms sent the app 40 requests a second the whole file
    // long.
    controllers.push(
      ...(await Promise.all(
        ['North gate', 'North side', 'South gate', 'South side'].map((name) =>
          startSimulatedController(t.url, ws.key, companyId, name, { lockCount: 4, pollIntervalMs: 1000 }),
        ),
      )),
    );
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
    return { t, ws, browser, companyId, controllers, ada, leaver, day, month: day.slice(0, 7), stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** The data of a sweep file and its console tab, signed in with the workspace's key (consoleTab). */
export type ConsolePages = ConsolePagesData & { signedIn(): Promise<Page> };

/**
 * Registers the file's set-up and tear-down (mocha `before` and `after` of the calling describe):
 * the app and data of setUpConsolePages, and one console tab. The answer is filled in by `before`,
 * so tests read it, never the describe body.
 */
export function useConsolePages(label: string): ConsolePages {
  const pages = {} as ConsolePages;
  before(async function () {
    this.timeout(120_000);
    const data = await setUpConsolePages(label);
    const tab = consoleTab(data.browser, data.t.url);
    Object.assign(pages, data, { signedIn: () => tab(data.ws.key) });
  });
  after(async () => {
    await pages.stop?.();
  });
  return pages;
}

/** Waits until the page has read what it shows (no "Loading…" left). */
export const settled = (page: Page) =>
  waitUntil(
    'the page has read its data',
    () => page.getByText(LOADING).count(),
    (n) => n === 0,
  );

/**
 * The navigation holds the 22 links of PAGE_GROUPS, in order; then each page of `group`, chosen
 * from the navigation at 1366 px, has one level-one heading (its name), nothing moderate or worse
 * for axe and nothing running off the side; on a 390 px phone its heading comes first, the links
 * wait folded behind "Menu", and again nothing runs off the side and axe finds nothing. Leaves the
 * page at 390 px.
 */
export async function sweepPages(page: Page, group: keyof typeof PAGE_GROUPS): Promise<void> {
  const nav = page.getByRole('navigation', { name: 'Pages' });
  const labels = await nav.getByRole('link').allTextContents();
  expect(labels).to.have.length(22);
  expect(labels).to.deep.equal([...PAGE_GROUPS.operations, ...PAGE_GROUPS.time, ...PAGE_GROUPS.doors]);
  for (const label of PAGE_GROUPS[group]) {
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
}
