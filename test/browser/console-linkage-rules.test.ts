import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { accessibilityViolations, expectNoHorizontalCutOff, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createCompany, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startSimulatedController } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** A security operator sets up linkage rules from the console; a forced door on a (simulated) controller sets one off. */
describe('console in the browser: linkage rules', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let controller: { id: number; serial_number: string };
  let sim: SimulatedTerminal;
  let door: { id: number; name: string };
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const rules = async () =>
    (
      await query(
        'query ($c: Int) { linkageRules(companyId: $c) { nodes { id name trigger deviceId doorId refusalCount refusalWindowMinutes lockdownMode lockdownAreaId lockdownDoorIds auxOutput auxOutputSeconds lastTriggeredAt } } }',
        { c: companyId },
      )
    ).linkageRules.nodes;

  before(async () => {
    t = await startTestApp({}, 'console-linkage-rules');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Linkage' })).id;
    ({
      device: controller,
      sim,
      doors: [door],
    } = await startSimulatedController(t.url, ws.key, companyId, 'Gate controller'));
    browser = await launchBrowser();
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await t?.stop();
  });

  it('creates a forced-open rule that locks the company down and a refusals rule; a forced door sets the first off; deleting asks first', async () => {
    const page = await signInWithKey(browser, t.url, ws.key);
    const nav = page.getByRole('navigation', { name: 'Pages' });
    await nav.getByRole('link', { name: 'Linkage rules' }).click();
    const form = page.getByRole('region', { name: 'New linkage rule' });
    await form.getByLabel('Rule name').fill('Forced entry');
    await form.getByLabel('When').selectOption({ label: 'a door is forced open' });
    await form.getByLabel('Where').selectOption({ label: `${door.name} (Gate controller)` });
    await form.getByRole('checkbox', { name: 'Start a lockdown or evacuation' }).check();
    await form.getByLabel('Mode').selectOption({ label: 'Lock down' });
    await form.getByLabel('Of', { exact: true }).selectOption({ label: 'every door of the company' });
    await form.getByRole('checkbox', { name: 'Pulse an auxiliary output of the controller' }).check();
    await form.getByLabel('Output', { exact: true }).fill('1');
    await form.getByLabel('For (seconds)').fill('5');
    await form.getByRole('button', { name: 'Create rule' }).click();
    const list = page.getByRole('region', { name: 'Linkage rules' });
    await list
      .getByRole('row', {
        name: `Forced entry forced open at ${door.name} (Gate controller) lock down every door of the company; pulse auxiliary output 1 for 5 s; send linkage.triggered never`,
      })
      .waitFor();

    await form.getByLabel('Rule name').fill('Badge probing');
    await form.getByLabel('When').selectOption({ label: 'refusals pile up' });
    await form.getByLabel('Where').selectOption({ label: 'any door of Gate controller' });
    await form.getByLabel('Refusals').fill('3');
    await form.getByLabel('Within (minutes)').fill('5');
    await form.getByRole('button', { name: 'Create rule' }).click();
    await list.getByRole('row', { name: /^Badge probing 3 refusals within 5 min at any door of Gate controller send linkage.triggered never/ }).waitFor();
    const [forced, probing] = await rules();
    expect(forced).to.deep.include({
      name: 'Forced entry',
      trigger: 'forced_open',
      doorId: door.id,
      lockdownMode: 'lockdown',
      lockdownAreaId: null,
      lockdownDoorIds: null,
      auxOutput: 1,
      auxOutputSeconds: 5,
      lastTriggeredAt: null,
    });
    expect(probing).to.deep.include({
      name: 'Badge probing',
      trigger: 'refusals',
      deviceId: controller.id,
      doorId: null,
      refusalCount: 3,
      refusalWindowMinutes: 5,
      lockdownMode: null,
    });
    await screenshot(page, 'security-linkage-rules');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // The door is forced: the service runs the rule and the controller locks the door down.
    sim.doorAlarm('forced_open');
    const lockdown = await waitUntil(
      'the rule starts a lockdown',
      async () => (await query('query ($c: Int) { lockdowns(companyId: $c) { nodes { reason mode status } } }', { c: companyId })).lockdowns.nodes,
      (l: any[]) => l.length === 1,
    );
    expect(lockdown[0]).to.deep.include({ reason: `Linkage rule ${forced.id}: Forced entry`, mode: 'lockdown', status: 'active' });
    await waitUntil(
      'the controller locks the door',
      () => sim.store.lockedDownDoors.has(1),
      (locked) => locked,
    );
    await nav.getByRole('link', { name: 'Lockdowns' }).click();
    await page.getByRole('article', { name: `Lockdown of every door of Acme Linkage: Linkage rule ${forced.id}: Forced entry` }).waitFor();
    await nav.getByRole('link', { name: 'Linkage rules' }).click();
    await list.getByRole('row', { name: /^Forced entry .* send linkage.triggered \d/ }).waitFor();

    // Delete asks first: Cancel keeps the rule.
    await list.getByRole('button', { name: 'Delete Badge probing' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete the rule Badge probing?' });
    await dialog.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await rules()).map((r: any) => r.name)).to.deep.equal(['Forced entry', 'Badge probing']);
    await list.getByRole('button', { name: 'Delete Badge probing' }).click();
    await dialog.getByRole('button', { name: 'Delete rule' }).click();
    await list.getByRole('row', { name: /^Badge probing/ }).waitFor({ state: 'detached' });
    expect((await rules()).map((r: any) => r.name)).to.deep.equal(['Forced entry']);
    await screenshot(page, 'security-linkage-rules-fired');

    await expectNoHorizontalCutOff(page, 'security-linkage-rules');
    expectNoPageProblems(page);
    await page.close();
  });
});
