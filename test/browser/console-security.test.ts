import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { SimulatedTerminal } from '../../src/simulator';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createArea, createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startSimulatedController } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** A security operator's work in the console, each task done as a person would and checked through the API. */
describe('console in the browser: security', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let controller: { id: number; serial_number: string };
  let sim: SimulatedTerminal;
  let door: { id: number; name: string };
  let eve: { id: number };
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const doorNow = async () => (await query('query ($d: Int!) { deviceDoors(deviceId: $d) { id name state { alarms } } }', { d: controller.id })).deviceDoors;

  before(async () => {
    t = await startTestApp({ TIMEGATE_PRESENCE_FLUSH_MS: '200' }, 'console-security');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Security' })).id;
    eve = await createEmployee(t.url, ws.key, companyId, { name: 'Eve', lastname: 'Guard', pin: '7001', code: 'EG-1' });
    ({
      device: controller,
      sim,
      doors: [door],
    } = await startSimulatedController(t.url, ws.key, companyId, 'Gate controller'));
    // Before anyone opens the console: a held-open alarm, and two refusals (Eve outside her schedule, an unknown pin).
    sim.doorAlarm('held_open');
    sim.punch({ pin: '7001', event: 22 });
    sim.punch({ pin: '7999', event: 27 });
    await waitUntil('the alarm is on the door', doorNow, (doors) => doors[0].state.alarms.includes('held_open'));
    await waitUntil(
      'the refusals are stored',
      async () =>
        (await query('query ($d: Int!) { doorEvents(deviceId: $d) { nodes { eventClass } } }', { d: controller.id })).doorEvents.nodes.filter(
          (e: any) => e.eventClass === 'denied',
        ).length,
      (n) => n === 2,
    );
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

  /** Runs a door command from the page and answers the action id the console got from the API. */
  async function doorCommand(page: Page, click: () => Promise<void>): Promise<string> {
    const answered = page.waitForResponse((r) => r.url().endsWith('/graphql') && (r.request().postData() ?? '').includes('performDoorAction'));
    await click();
    const body = await (await answered).json();
    expect(body.errors).to.equal(undefined);
    return body.data.performDoorAction.actionId;
  }
  const actionOf = async (actionId: string) => (await query('query ($a: String!) { doorAction(actionId: $a) { action status } }', { a: actionId })).doorAction;

  it('the overview and the door board show the alarm that was open before the page loaded; hold open, close and cancel alarm, each followed to the controller', async () => {
    const page = await signedIn();
    await page.getByRole('list', { name: 'Open alarms' }).getByText('held open', { exact: true }).waitFor();
    await screenshot(page, 'security-overview-alarm');

    await page.getByRole('link', { name: 'Door board' }).first().click();
    const alarms = page.getByRole('list', { name: 'Alarms open now' });
    await alarms.getByText('held open', { exact: true }).waitFor();
    const events = page.getByRole('region', { name: 'Last door events' });
    await events.getByRole('row', { name: /Eve Guard refused: outside the access schedule/ }).waitFor();
    await events.getByRole('row', { name: /unknown person \(pin 7999\) refused: not registered/ }).waitFor();
    await screenshot(page, 'security-door-board');
    await expectAccessible(page);

    // Hold open asks first; the controller takes it.
    const doors = page.getByRole('region', { name: 'Doors' });
    const held = await doorCommand(page, async () => {
      await doors.getByRole('button', { name: `Hold open ${door.name}` }).click();
      await page
        .getByRole('dialog', { name: `Hold ${door.name} of Gate controller open?` })
        .getByRole('button', { name: 'Hold open' })
        .click();
    });
    await page.getByRole('status', { name: `Hold open ${door.name}: succeeded` }).waitFor({ timeout: 15_000 });
    expect(await actionOf(held)).to.deep.equal({ action: 'hold_open', status: 'succeeded' });

    const closed = await doorCommand(page, () => doors.getByRole('button', { name: `Close ${door.name}` }).click());
    await page.getByRole('status', { name: `Close ${door.name}: succeeded` }).waitFor({ timeout: 15_000 });
    expect(await actionOf(closed)).to.deep.equal({ action: 'close', status: 'succeeded' });

    // Cancel the alarm from the alarm list: Cancel in the dialog changes nothing, confirming clears it.
    await alarms.getByRole('button', { name: `Cancel alarm ${door.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Cancel the alarm of ${door.name} of Gate controller?` });
    await screenshot(page, 'security-cancel-alarm-confirm');
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await doorNow())[0].state.alarms).to.include('held_open');
    const cancelled = await doorCommand(page, async () => {
      await alarms.getByRole('button', { name: `Cancel alarm ${door.name}` }).click();
      await confirm.getByRole('button', { name: 'Cancel alarm' }).click();
    });
    await page.getByText('No door is in alarm.').waitFor({ timeout: 15_000 });
    expect(await actionOf(cancelled)).to.deep.equal({ action: 'cancel_alarm', status: 'succeeded' });
    expect((await doorNow())[0].state.alarms).to.deep.equal([]);
    await screenshot(page, 'security-door-board-cleared');
    await expectNoHorizontalCutOff(page, 'security-door-board');
  });

  it('who was refused today, with reasons, filtered by person, door and time; a new refusal appears by itself', async () => {
    const page = await signedIn();
    await page.getByRole('link', { name: 'Refused today' }).click();
    const table = page.getByRole('region', { name: 'Who was refused today' });
    await table.getByRole('row', { name: /Eve Guard .* outside the access schedule/ }).waitFor();
    await table.getByRole('row', { name: /unknown person \(pin 7999\) .* not registered on this controller/ }).waitFor();
    await screenshot(page, 'security-refused');
    await expectAccessible(page);

    await page.getByLabel('Person').selectOption({ label: 'Eve Guard' });
    await page.getByText('1 of 2 refusals today').waitFor();
    await page.getByLabel('Person').selectOption({ label: 'Everyone' });
    await page.getByLabel('Door').selectOption({ label: `${door.name} (Gate controller)` });
    await page.getByText('2 of 2 refusals today').waitFor();
    await page.getByLabel('From (time)').fill('23:59');
    await page.getByText(/^0 of 2 refusals today/).waitFor();
    await page.getByLabel('From (time)').fill('');
    await page.getByLabel('Reason').selectOption({ label: 'not registered on this controller' });
    await page.getByText('1 of 2 refusals today').waitFor();
    await table.getByRole('row', { name: /unknown person \(pin 7999\)/ }).waitFor();
    expect(await table.getByRole('row', { name: /Eve Guard/ }).count()).to.equal(0);
    await page.getByLabel('Reason').selectOption({ label: 'Every reason' });

    sim.punch({ pin: '7001', event: 29 });
    await table.getByRole('row', { name: /Eve Guard .* access expired/ }).waitFor({ timeout: 15_000 });
    const denied = (
      await query('query ($d: Int!) { doorEvents(deviceId: $d) { nodes { eventClass eventCode employeeId } } }', { d: controller.id })
    ).doorEvents.nodes.filter((e: any) => e.eventClass === 'denied');
    expect(denied.map((e: any) => [e.eventCode, e.employeeId]).sort()).to.deep.equal(
      [
        [22, eve.id],
        [27, null],
        [29, eve.id],
      ].sort(),
    );
    await expectNoHorizontalCutOff(page, 'security-refused');
  });

  it('creates a schedule and an access level with a door, adds a member with a validity and removes one after confirming; the controller lists the people it reaches', async () => {
    const bob = await createEmployee(t.url, ws.key, companyId, { name: 'Bob', lastname: 'Byarea', pin: '7002', code: 'BB-1' });
    const area = await createArea(t.url, ws.key, companyId, { name: 'Lobby' });
    await query('mutation ($a: Int!, $e: Int!) { addAreaEmployees(areaId: $a, items: [{ employeeId: $e }]) { id } }', { a: area.id, e: bob.id });
    const page = await signedIn();
    await page.getByRole('link', { name: 'Access' }).click();
    await page.getByLabel('Schedule name').fill('Office hours');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await page.getByRole('rowheader', { name: 'Office hours' }).waitFor();
    const { accessSchedules } = await query(
      'query ($c: Int) { accessSchedules(companyId: $c) { nodes { id name intervals { weekday startTime endTime } } } }',
      { c: companyId },
    );
    const office = accessSchedules.nodes.find((s: any) => s.name === 'Office hours');
    expect(office.intervals.map((i: any) => i.weekday)).to.deep.equal([1, 2, 3, 4, 5]);

    await page.getByLabel('Level name').fill('Day staff');
    await page.getByLabel('Schedule', { exact: true }).selectOption({ label: 'Office hours' });
    await page.getByLabel(`${door.name} (Gate controller)`).check();
    await page.getByRole('button', { name: 'Create level' }).click();
    await page.getByRole('rowheader', { name: 'Day staff' }).waitFor();
    const level = (
      await query('query ($c: Int) { accessLevels(companyId: $c) { nodes { id name scheduleId doorIds } } }', { c: companyId })
    ).accessLevels.nodes.find((l: any) => l.name === 'Day staff');
    expect(level).to.deep.include({ scheduleId: office.id, doorIds: [door.id] });
    await query('mutation ($l: Int!, $a: Int!) { addAccessLevelAreas(accessLevelId: $l, items: [{ areaId: $a }]) { areaId } }', { l: level.id, a: area.id });

    await page.getByRole('button', { name: 'Members of Day staff' }).click();
    const members = page.getByRole('region', { name: 'Members of Day staff' });
    await members.getByLabel('Person').selectOption({ label: 'Eve Guard (EG-1)' });
    await members.getByLabel('Valid until').fill('2027-03-31');
    await members.getByRole('button', { name: 'Add member' }).click();
    await members.getByRole('rowheader', { name: 'Eve Guard' }).waitFor();
    await members.getByText('Areas in this level: Lobby').waitFor();
    const listed = async () =>
      (await query('query ($l: Int!) { accessLevelEmployees(accessLevelId: $l) { nodes { employeeId startDate endDate } } }', { l: level.id }))
        .accessLevelEmployees.nodes;
    expect(await listed()).to.deep.equal([{ employeeId: eve.id, startDate: null, endDate: '2027-03-31' }]);
    await screenshot(page, 'security-access');
    await expectAccessible(page);

    // The controller's page names the people it reaches through the level: Eve directly, Bob by his area.
    await page.goto(`${t.url}/console#/devices/${controller.id}`);
    const reach = page.getByRole('region', { name: 'People who reach it through access levels' });
    await reach.getByRole('row', { name: 'Eve Guard Day staff (until 2027-03-31)' }).waitFor();
    await reach.getByRole('row', { name: 'Bob Byarea Day staff (by area)' }).waitFor();
    await screenshot(page, 'security-controller-reach');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Access' }).click();
    await page.getByRole('button', { name: 'Members of Day staff' }).click();
    await members.getByRole('button', { name: 'Remove Eve Guard from Day staff' }).click();
    await page.getByRole('dialog', { name: 'Remove Eve Guard from Day staff?' }).getByRole('button', { name: 'Remove member' }).click();
    await members.getByText('No person is a member of this level directly.').waitFor();
    expect(await listed()).to.deep.equal([]);
    await expectNoHorizontalCutOff(page, 'security-access');
  });
  it('a busy day is complete: a refusal older than the thousand newest door events is listed, found by its reason on the server', async () => {
    const count = async () =>
      (await query('query ($d: Int!) { doorEvents(deviceId: $d, first: 1) { totalCount } }', { d: controller.id })).doorEvents.totalCount;
    const before = await count();
    sim.punch({ pin: '7001', event: 24 });
    for (let i = 0; i < 1000; i++) sim.punch({ pin: '7001', event: 0 });
    await waitUntil('the busy day is stored', count, (n) => n === before + 1001);
    const page = await signedIn();
    await page.getByRole('link', { name: 'Refused today' }).click();
    const table = page.getByRole('region', { name: 'Who was refused today' });
    await page.getByLabel('Reason').selectOption({ label: 'anti-passback' });
    await table.getByRole('row', { name: /Eve Guard .* anti-passback/ }).waitFor();
    await page.getByText('1 of 4 refusals today').waitFor();
    const refusals = (
      await query('query ($e: Int) { doorEvents(eventClass: denied, employeeId: $e, reason: anti_passback) { nodes { eventCode } } }', { e: eve.id })
    ).doorEvents.nodes;
    expect(refusals).to.deep.equal([{ eventCode: 24 }]);
    await screenshot(page, 'security-refused-busy-day');
  });
});
