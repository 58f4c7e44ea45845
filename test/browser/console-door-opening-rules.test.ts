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

/** A security operator sets a door's first-person-in from the controller's page, sees it applied, has a refusal explained and clears the rule. */
describe('console in the browser: door opening rules', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let sim: SimulatedTerminal;
  let doors: ControllerDoor[];
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  let level: { id: number };
  let always: { id: number; name: string };
  const openingRules = async (doorId: number) =>
    (
      await query(
        'query ($d: Int!) { doorOpeningRules(doorId: $d) { firstPersonIn { scheduleId accessLevelIds } multiPerson { count } firstCardValue multiCardValue firstCardRows deliveryStatus } }',
        { d: doorId },
      )
    ).doorOpeningRules;

  before(async () => {
    t = await startTestApp({}, 'console-door-opening-rules');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Doors' })).id;
    ({ sim, doors } = await startSimulatedController(t.url, ws.key, companyId, 'Hall controller', { enforceAccess: true, lockCount: 2 }));
    // Eve may pass both doors at any hour: the controller decides by its rights, then by its rules.
    const eve = await createEmployee(t.url, ws.key, companyId, { name: 'Eve', lastname: 'Guard', pin: '8101', code: 'EG-1' });
    ({ level, schedule: always } = await grantDoorsAtAllHours(t.url, ws.key, companyId, {
      levelName: 'Both doors',
      doorIds: doors.map((d) => d.id),
      employeeIds: [eve.id],
    }));
    await waitUntilControllerHolds(sim, '8101', 'Eve');
    browser = await launchBrowser();
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await t?.stop();
  });

  it('sets first-person-in on a door, applied by the controller; a refused two-person rule is explained; the rule is cleared after confirming', async () => {
    const [door1, door2] = doors;
    const page = await signInWithKey(browser, t.url, ws.key);
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('link', { name: 'Hall controller' }).click();
    const section = page.getByRole('region', { name: 'Door opening rules' });
    const first = section.getByRole('region', { name: door1.name, exact: true });
    const second = section.getByRole('region', { name: door2.name, exact: true });
    await first
      .getByRole('status', { name: `${door1.name} opening rules delivery` })
      .getByText('never set')
      .waitFor();

    // Door 1: first-person-in during the all-day schedule, started by a member of "Both doors".
    await first.getByRole('radio', { name: /^First-person-in/ }).check();
    await first.getByLabel('Open during', { exact: true }).selectOption({ label: always.name });
    await first.getByRole('group', { name: 'Levels whose members may start it' }).getByRole('checkbox', { name: 'Both doors' }).check();
    await first.getByRole('button', { name: `Save opening rule of ${door1.name}` }).click();
    await first
      .getByRole('status', { name: `${door1.name} opening rules delivery` })
      .getByText('applied by the controller')
      .waitFor({ timeout: 15_000 });
    await first.getByText(`open during ${always.name} once a member of Both doors has verified`).waitFor();
    expect(await openingRules(door1.id)).to.deep.equal({
      firstPersonIn: { scheduleId: always.id, accessLevelIds: [level.id] },
      multiPerson: null,
      firstCardValue: 1,
      multiCardValue: 0,
      firstCardRows: 1,
      deliveryStatus: 'applied',
    });
    expect(sim.store.parameters.get(`Door${door1.number}FirstCardOpenDoor`)).to.equal('1');
    await waitUntil(
      'the controller holds Eve as a first person of door 1',
      () => sim.store.firstCards.has(`8101/${door1.number}`),
      (held) => held,
    );
    await screenshot(page, 'security-door-opening-rules');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // Door 2: a two-person rule counting no level is refused; the page shows the API's own words.
    await second.getByRole('radio', { name: /^Two-person rule/ }).check();
    await second.getByLabel('People needed').fill('2');
    await second.getByRole('button', { name: `Save opening rule of ${door2.name}` }).click();
    const said = await second.getByRole('alert').textContent();
    const refusal = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ws.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'mutation ($d: Int!, $i: DoorOpeningRulesInput!) { updateDoorOpeningRules(doorId: $d, input: $i) { doorId } }',
        variables: { d: door2.id, i: { firstPersonIn: null, multiPerson: { count: 2, accessLevelIds: [] } } },
      }),
    });
    const error = ((await refusal.json()) as any).errors[0];
    expect(said).to.include(error.message);
    expect(await openingRules(door2.id)).to.deep.include({ multiPerson: null, deliveryStatus: 'none' });
    await screenshot(page, 'security-door-opening-rules-refused');

    // Door 1's rule cleared, after confirming.
    await first.getByRole('button', { name: `Clear opening rule of ${door1.name}` }).click();
    await page
      .getByRole('dialog', { name: `Clear the opening rule of ${door1.name}?` })
      .getByRole('button', { name: 'Clear rule' })
      .click();
    await waitUntil(
      'the rule is off on the controller',
      () => openingRules(door1.id),
      (r) => r.deliveryStatus === 'applied' && r.firstCardValue === 0,
    );
    expect((await openingRules(door1.id)).firstPersonIn).to.equal(null);
    await first.getByText(`Door${door1.number}FirstCardOpenDoor=0`).waitFor({ timeout: 15_000 });
    await first
      .getByRole('status', { name: `${door1.name} opening rules delivery` })
      .getByText('applied by the controller')
      .waitFor({ timeout: 15_000 });
    await first.getByText(`open during ${always.name} once a member of Both doors has verified`).waitFor({ state: 'detached' });
    await first.getByRole('button', { name: `Clear opening rule of ${door1.name}` }).waitFor({ state: 'detached' });
    expect(sim.store.parameters.get(`Door${door1.number}FirstCardOpenDoor`)).to.equal('0');
    await expectNoHorizontalCutOff(page, 'security-door-opening-rules');
    expectNoPageProblems(page);
    await page.close();
  });
});
