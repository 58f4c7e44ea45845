import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { expectAccessible, expectNoHorizontalCutOff, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { consoleTab, type ConsoleTab } from '../support/console-sign-in';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startSimulatedController } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** A security operator locks down and evacuates doors from the console; real (simulated) controllers confirm door by door. */
describe('console in the browser: lockdowns', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let gate: { id: number; serial_number: string };
  let side: { id: number; serial_number: string };
  let gateSim: SimulatedTerminal;
  let sideSim: SimulatedTerminal;
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const doorsOf = async (deviceId: number): Promise<Array<{ id: number; name: string; number: number }>> =>
    (await query('query ($d: Int!) { deviceDoors(deviceId: $d) { id name number } }', { d: deviceId })).deviceDoors;
  const lockdowns = async () =>
    (
      await query('query ($c: Int) { lockdowns(companyId: $c) { nodes { id scope mode reason status doors { doorId state detail returnCode } } } }', {
        c: companyId,
      })
    ).lockdowns.nodes;

  before(async () => {
    t = await startTestApp({}, 'console-lockdowns');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Security' })).id;
    // The gate controller refuses to lock its door 2 (Return -11), as a controller with a broken lock output would.
    ({ device: gate, sim: gateSim } = await startSimulatedController(t.url, ws.key, companyId, 'Gate controller', {
      lockCount: 2,
      failCommands: (c) => (c.verb === 'CONTROL DEVICE' && c.operand === '06020100' ? -11 : null),
    }));
    ({ device: side, sim: sideSim } = await startSimulatedController(t.url, ws.key, companyId, 'Side controller'));
    // The side controller loses its network: its door waits for it.
    sideSim.goOffline();
    browser = await launchBrowser();
    tab = consoleTab(browser, t.url);
  });
  after(async () => {
    await gateSim?.stop();
    await sideSim?.stop();
    await browser?.close();
    await t?.stop();
  });

  /** The file's console tab, signed in once through the form (consoleTab). */
  let tab: ConsoleTab;
  const signedIn = () => tab(ws.key);

  it('locks down the company after confirming, shows each door confirmed, failed (and why) or waiting as its controller answers, marks the doors on the board, releases after confirming', async () => {
    const [gate1, gate2] = await doorsOf(gate.id);
    const [side1] = await doorsOf(side.id);
    const page = await signedIn();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Lockdowns' }).click();
    await page.getByText('No door of Acme Security is locked down').waitFor();
    const form = page.getByRole('region', { name: 'Lock down or evacuate' });
    await form.getByRole('radio', { name: 'Every door of the company' }).check();
    await form.getByLabel('Reason').fill('Intruder in building B');
    await form.getByText('3 doors on 2 controller(s).').waitFor();

    // Cancel in the dialog starts nothing.
    await form.getByRole('button', { name: 'Lock down', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Lock down every door of Acme Security?' });
    await dialog.getByText('Reason: Intruder in building B').waitFor();
    await screenshot(page, 'security-lockdown-confirm');
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect(await lockdowns()).to.deep.equal([]);

    await form.getByRole('button', { name: 'Lock down', exact: true }).click();
    await dialog.getByRole('button', { name: 'Lock down now' }).click();

    // Door by door, as each controller answers: the gate's door 1 confirmed, its door 2 refused, the side door waiting for its offline controller.
    const active = page.getByRole('region', { name: 'Active lockdowns' });
    const lockdown = active.getByRole('article', { name: 'Lockdown of every door of Acme Security: Intruder in building B' });
    await lockdown.getByRole('row', { name: new RegExp(`^${gate1.name} Gate controller confirmed`) }).waitFor({ timeout: 15_000 });
    await lockdown
      .getByRole('row', { name: `${gate2.name} Gate controller failed the controller refused the command (code -11)` })
      .waitFor({ timeout: 15_000 });
    await lockdown.getByRole('row', { name: `${side1.name} Side controller waiting for the controller —` }).waitFor();
    await lockdown.getByRole('status').filter({ hasText: '1 of 3 doors confirmed, 1 waiting, 1 failed' }).waitFor();
    await screenshot(page, 'security-lockdown-progress');
    const [started] = await lockdowns();
    expect(started).to.deep.include({ scope: 'company', mode: 'lockdown', reason: 'Intruder in building B', status: 'active' });
    expect(started.doors.map((d: any) => [d.doorId, d.state, d.detail, d.returnCode]).sort()).to.deep.equal(
      [
        [gate1.id, 'confirmed', null, 0],
        [gate2.id, 'failed', 'device_refused', -11],
        [side1.id, 'pending', null, null],
      ].sort(),
    );

    // The side controller comes back: its door turns confirmed on the page by itself.
    sideSim.goOnline();
    await lockdown.getByRole('row', { name: new RegExp(`^${side1.name} Side controller confirmed`) }).waitFor({ timeout: 15_000 });
    await lockdown.getByRole('status').filter({ hasText: '2 of 3 doors confirmed, 1 failed' }).waitFor();
    expect([...gateSim.store.lockedDownDoors]).to.deep.equal([1]);
    expect([...sideSim.store.lockedDownDoors]).to.deep.equal([1]);
    await screenshot(page, 'security-lockdown-confirmed');
    await expectAccessible(page);

    // The door board says which doors are locked down.
    await page.getByRole('link', { name: 'Door board' }).click();
    const doors = page.getByRole('region', { name: 'Doors' });
    await doors.getByText('3 doors are in a lockdown or evacuation').waitFor();
    await doors.getByRole('row', { name: new RegExp(`^${side1.name} Side controller .* locked down`) }).waitFor();
    await doors.getByRole('row', { name: new RegExp(`^${gate2.name} Gate controller .* lockdown failed`) }).waitFor();
    await screenshot(page, 'security-door-board-lockdown');
    await expectAccessible(page);

    // Release asks first; then every door follows its controller back.
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Lockdowns' }).click();
    await lockdown.getByRole('button', { name: 'Release' }).click();
    await page.getByRole('dialog', { name: 'Release the lockdown of every door of Acme Security?' }).getByRole('button', { name: 'Release now' }).click();
    const past = page.getByRole('region', { name: 'Past lockdowns' });
    await past
      .getByRole('row', { name: /^Lockdown of every door of Acme Security Intruder in building B .* 3 of 3 doors released/ })
      .waitFor({ timeout: 15_000 });
    await active.getByText('No door of Acme Security is locked down').waitFor();
    expect((await lockdowns()).map((l: any) => [l.status, l.doors.map((d: any) => d.state)])).to.deep.equal([
      ['released', ['released', 'released', 'released']],
    ]);
    await waitUntil(
      'the controllers unlock',
      () => gateSim.store.lockedDownDoors.size + sideSim.store.lockedDownDoors.size,
      (n) => n === 0,
    );
    await screenshot(page, 'security-lockdown-released');
    await expectNoHorizontalCutOff(page, 'security-lockdowns');
  });

  it('evacuates chosen doors: the chosen door is held open by its controller until released', async () => {
    const [side1] = await doorsOf(side.id);
    const page = await signedIn();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Lockdowns' }).click();
    const form = page.getByRole('region', { name: 'Lock down or evacuate' });
    await form.getByRole('radio', { name: /^Evacuate/ }).check();
    await form.getByRole('radio', { name: 'Chosen doors' }).check();
    expect(await form.getByRole('button', { name: 'Evacuate', exact: true }).isDisabled()).to.equal(true);
    await form.getByRole('checkbox', { name: `${side1.name} (Side controller)` }).check();
    await form.getByLabel('Reason').fill('Fire alarm in the side wing');
    await form.getByRole('button', { name: 'Evacuate', exact: true }).click();
    await page.getByRole('dialog', { name: 'Evacuate the chosen doors?' }).getByRole('button', { name: 'Evacuate now' }).click();
    const evacuation = page.getByRole('article', { name: 'Evacuation of 1 chosen door: Fire alarm in the side wing' });
    await evacuation.getByRole('row', { name: new RegExp(`^${side1.name} Side controller confirmed`) }).waitFor({ timeout: 15_000 });
    const [current] = (await lockdowns()).filter((l: any) => l.status === 'active');
    expect(current).to.deep.include({ scope: 'doors', mode: 'evacuate', reason: 'Fire alarm in the side wing' });
    expect(current.doors.map((d: any) => [d.doorId, d.state])).to.deep.equal([[side1.id, 'confirmed']]);
    expect([...sideSim.store.emergencyOpenDoors]).to.deep.equal([1]);
    await screenshot(page, 'security-evacuation');

    await evacuation.getByRole('button', { name: 'Release' }).click();
    await page.getByRole('dialog', { name: 'Release the evacuation of 1 chosen door?' }).getByRole('button', { name: 'Release now' }).click();
    await page
      .getByRole('region', { name: 'Past lockdowns' })
      .getByRole('row', { name: /^Evacuation of 1 chosen door Fire alarm/ })
      .waitFor({ timeout: 15_000 });
    await waitUntil(
      'the controller closes the door',
      () => sideSim.store.emergencyOpenDoors.size,
      (n) => n === 0,
    );
  });
});
