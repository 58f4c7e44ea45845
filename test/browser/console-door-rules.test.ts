import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { grantDoorsAtAllHours, waitUntilControllerHolds } from '../support/access-seeding';
import { accessibilityViolations, expectNoHorizontalCutOff, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startSimulatedController, type ControllerDoor } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** A security operator sets a controller's anti-passback and interlock from its page; the controller enforces them and the refusals are named. */
describe('console in the browser: door rules', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let controller: { id: number; serial_number: string };
  let sim: SimulatedTerminal;
  let doors: ControllerDoor[];
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const rules = async () =>
    (
      await query(
        'query ($d: Int!) { deviceDoorRules(deviceId: $d) { antiPassback { type doorIds pairs { entryDoorIds } } interlock { groups } antiPassbackValue interlockValue deliveryStatus } }',
        { d: controller.id },
      )
    ).deviceDoorRules;

  before(async () => {
    t = await startTestApp({}, 'console-door-rules');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Doors' })).id;
    ({ device: controller, sim, doors } = await startSimulatedController(t.url, ws.key, companyId, 'Hall controller', { enforceAccess: true, lockCount: 2 }));
    // Eve may pass both doors at any hour: the controller decides by its rights, then by its rules.
    const eve = await createEmployee(t.url, ws.key, companyId, { name: 'Eve', lastname: 'Guard', pin: '8101', code: 'EG-1' });
    await grantDoorsAtAllHours(t.url, ws.key, companyId, { levelName: 'Both doors', doorIds: doors.map((d) => d.id), employeeIds: [eve.id] });
    await waitUntilControllerHolds(sim, '8101', 'Eve');
    browser = await launchBrowser();
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await t?.stop();
  });

  it('a combination the controller lacks is refused with the ones it takes; anti-passback and interlock are applied, enforced by the controller and its refusals named', async () => {
    const [door1, door2] = doors;
    const page = await signInWithKey(browser, t.url, ws.key);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('link', { name: 'Hall controller' }).click();
    const section = page.getByRole('region', { name: 'Door rules' });
    await section.getByRole('status', { name: 'Door rules delivery' }).getByText('never set').waitFor();

    // Door 1 on both sides of a between-doors pair: no parameter value of a 2-door controller; the API says which it takes.
    await section.getByRole('radio', { name: /^Between doors/ }).check();
    await section.getByRole('group', { name: 'Pair 1: entry doors' }).getByRole('checkbox', { name: door1.name }).check();
    await section.getByRole('group', { name: 'Pair 1: exit doors' }).getByRole('checkbox', { name: door1.name }).check();
    await section.getByRole('button', { name: 'Save door rules' }).click();
    await section
      .getByRole('alert')
      .getByText(/A 2-door controller has no anti-passback setting for these doors; by door number it takes: /)
      .waitFor();
    await screenshot(page, 'security-door-rules-refused');
    expect(await rules()).to.deep.include({ antiPassback: null, interlock: null, deliveryStatus: 'none' });

    // Per door: door 1's readers alternate; doors 1 and 2 interlocked.
    await section.getByRole('radio', { name: /^Per door/ }).check();
    await section.getByRole('group', { name: 'Doors whose readers alternate' }).getByRole('checkbox', { name: door1.name }).check();
    const group = section.getByRole('group', { name: 'Group 1: one door open at a time' });
    await group.getByRole('checkbox', { name: door1.name }).check();
    await group.getByRole('checkbox', { name: door2.name }).check();
    await section.getByRole('button', { name: 'Save door rules' }).click();
    await section.getByRole('status', { name: 'Door rules delivery' }).getByText('applied by the controller').waitFor({ timeout: 15_000 });
    await section.getByText(`in and out readers of ${door1.name} (hard)`).waitFor();
    await section.getByText(`${door1.name} + ${door2.name}`).waitFor();
    expect(await rules()).to.deep.equal({
      antiPassback: { type: 'in_out', doorIds: [door1.id], pairs: null },
      interlock: { groups: [[door1.id, door2.id]] },
      antiPassbackValue: 1,
      interlockValue: 1,
      deliveryStatus: 'applied',
    });
    expect(sim.store.parameters.get('AntiPassback')).to.equal('1');
    expect(sim.store.parameters.get('InterLock')).to.equal('1');
    await screenshot(page, 'security-door-rules');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // The controller enforces them: Eve enters door 1; door 2 is refused while door 1 is open (interlock);
    // door 1 again without an exit is refused (anti-passback). Refused today names both reasons.
    expect(sim.punch({ pin: '8101', door: 1, status: 0 }).event).to.equal(0);
    expect(sim.punch({ pin: '8101', door: 2, status: 0 }).event).to.equal(25);
    sim.closeDoor(1);
    expect(sim.punch({ pin: '8101', door: 1, status: 0 }).event).to.equal(24);
    // The page reads the day's refusals once, then follows new ones live: refusals stored between its
    // read and the start of its subscription would be seen only at the next read, so the test opens
    // it once the controller's two refusals are stored.
    await waitUntil(
      "the controller's two refusals are stored",
      async () => (await query('{ doorEvents(eventClass: denied, first: 10) { totalCount } }')).doorEvents.totalCount,
      (n) => n === 2,
    );
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Refused today' }).click();
    const refused = page.getByRole('region', { name: 'Who was refused today' });
    await refused.getByRole('row', { name: new RegExp(`Eve Guard ${door2.name} \\(Hall controller\\) interlock`) }).waitFor({ timeout: 15_000 });
    await refused.getByRole('row', { name: new RegExp(`Eve Guard ${door1.name} \\(Hall controller\\) anti-passback`) }).waitFor({ timeout: 15_000 });
    await screenshot(page, 'security-door-rules-refusals');

    // Off again, from the page.
    await page.goto(`${t.url}/console#/devices/${controller.id}`);
    await section.getByRole('radio', { name: 'Off' }).check();
    await group.getByRole('checkbox', { name: door1.name }).uncheck();
    await group.getByRole('checkbox', { name: door2.name }).uncheck();
    await section.getByRole('button', { name: 'Save door rules' }).click();
    await waitUntil('the rules are off on the controller', rules, (r) => r.deliveryStatus === 'applied' && r.antiPassbackValue === 0 && r.interlockValue === 0);
    await section.getByText('AntiPassback=0, InterLock=0').waitFor({ timeout: 15_000 });
    expect(sim.store.parameters.get('AntiPassback')).to.equal('0');
    await expectNoHorizontalCutOff(page, 'security-door-rules');
    expectNoPageProblems(page);
    await page.close();
  });
});
