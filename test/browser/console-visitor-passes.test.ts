import { expect } from 'chai';
import { SimulatedTerminal } from '../../src/simulator';
import { accessibilityViolations, expectNoPageProblems, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { signInWithKey } from '../support/console-sign-in';
import { createCompany, createEmployee, createWorkspace, type TestWorkspace } from '../support/factories';
import { gqlData } from '../support/http';
import { startSimulatedController } from '../support/simulated-controller';
import { startTestApp, type TestApp } from '../support/test-app';
import { waitUntil } from '../support/wait-until';

/** A security operator issues, follows and revokes a visitor pass; a controller deciding from its own tables admits and then refuses the visitor. */
describe('console in the browser: visitor passes', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let companyId: number;
  let sim: SimulatedTerminal;
  let host: { id: number };
  let door: { id: number; name: string };
  const query = (document: string, variables: Record<string, unknown> = {}) => gqlData(t.url, ws.key, document, variables);
  const passes = async () =>
    (
      await query('query ($c: Int) { visitorPasses(companyId: $c) { id name hostEmployeeId doorIds cardNo pin status revokedAt } }', {
        c: companyId,
      })
    ).visitorPasses;

  before(async () => {
    t = await startTestApp({}, 'console-visitor-passes');
    ws = await createWorkspace(t.url);
    companyId = (await createCompany(t.url, ws.key, { name: 'Acme Visitors' })).id;
    host = await createEmployee(t.url, ws.key, companyId, { name: 'Harriet', lastname: 'Host', pin: '5001', code: 'HH-1' });
    ({
      sim,
      doors: [door],
    } = await startSimulatedController(t.url, ws.key, companyId, 'Lobby controller', { enforceAccess: true }));
    browser = await launchBrowser();
  });
  after(async () => {
    await sim?.stop();
    await browser?.close();
    await t?.stop();
  });

  const signedIn = () => signInWithKey(browser, t.url, ws.key);

  it('issues a pass (the generated PIN shown), the controller admits the visitor, the use is listed; a bad window is refused precisely; revoking asks first and the controller refuses the visitor afterwards', async () => {
    const page = await signedIn();
    await page.getByRole('navigation', { name: 'Pages' }).getByRole('link', { name: 'Visitor passes' }).click();
    const form = page.getByRole('region', { name: 'Issue a visitor pass' });
    await form.getByLabel("Visitor's name").fill('Grace Visitor');
    await form.getByLabel('Host').selectOption({ label: 'Harriet Host (HH-1)' });
    await form.getByRole('checkbox', { name: `${door.name} (Lobby controller)` }).check();
    await form.getByLabel('Card number (optional)').fill('10293847');

    // A window that ended yesterday is refused, with the API's reason, and nothing is issued.
    const yesterday = new Date(Date.now() - 86_400_000);
    const local = (at: Date) =>
      `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}T${String(at.getHours()).padStart(2, '0')}:00`;
    const validUntil = await form.getByLabel('Valid until').inputValue();
    await form.getByLabel('Valid until').fill(local(yesterday));
    await form.getByRole('button', { name: 'Issue pass' }).click();
    await form.getByRole('alert').waitFor();
    const refusal = await form.getByRole('alert').textContent();
    expect(refusal).to.match(/valid_until|validUntil|future|after/i);
    expect(await passes()).to.deep.equal([]);

    await form.getByLabel('Valid until').fill(validUntil);
    await form.getByRole('button', { name: 'Issue pass' }).click();
    const issued = page.getByRole('status').filter({ hasText: 'Pass issued for Grace Visitor' });
    await issued.waitFor();
    const pin = /PIN (\d+)/.exec((await issued.textContent()) ?? '')?.[1];
    const [pass] = await passes();
    expect(pass).to.deep.include({ name: 'Grace Visitor', hostEmployeeId: host.id, doorIds: [door.id], cardNo: '10293847', status: 'active', revokedAt: null });
    expect(pin, 'the PIN shown is the pass PIN').to.equal(pass.pin);
    expect(pass.pin).to.match(/^9\d{7}$/);
    const list = page.getByRole('region', { name: 'Visitor passes' });
    await list.getByRole('row', { name: new RegExp(`^Grace Visitor Harriet Host .* ${door.name} \\(Lobby controller\\) active PIN ${pin}`) }).waitFor();
    await screenshot(page, 'security-visitor-pass-issued');

    // The controller holds the visitor and admits them; the use is listed with the pass.
    await waitUntil(
      'the controller holds the visitor',
      () => sim.store.users.has(pass.pin),
      (held) => held,
    );
    expect(sim.punch({ pin: pass.pin }).event).to.equal(0);
    await list.getByRole('button', { name: 'Uses of Grace Visitor' }).click();
    const uses = page.getByRole('region', { name: "Uses of Grace Visitor's pass" });
    await waitUntil(
      'the use is stored',
      async () => (await query('query ($id: Int!) { visitorPass(id: $id) { uses { eventCode opened } } }', { id: pass.id })).visitorPass.uses,
      (u: any[]) => u.length === 1,
    );
    await list.getByRole('button', { name: 'Uses of Grace Visitor' }).click();
    await list.getByRole('button', { name: 'Uses of Grace Visitor' }).click();
    await uses.getByRole('row', { name: new RegExp(`${door.name} \\(Lobby controller\\) admitted`) }).waitFor();
    await screenshot(page, 'security-visitor-pass-uses');
    expect(await accessibilityViolations(page)).to.deep.equal([]);

    // Revoke asks first: Cancel keeps the pass, confirming ends it and the controller forgets the visitor.
    await list.getByRole('button', { name: "Revoke Grace Visitor's pass" }).click();
    const confirm = page.getByRole('dialog', { name: "Revoke Grace Visitor's pass?" });
    await confirm.getByRole('button', { name: 'Cancel', exact: true }).click();
    expect((await passes())[0].revokedAt).to.equal(null);
    await list.getByRole('button', { name: "Revoke Grace Visitor's pass" }).click();
    await confirm.getByRole('button', { name: 'Revoke pass' }).click();
    await list.getByRole('row', { name: /^Grace Visitor .* revoked/ }).waitFor();
    const [revoked] = await passes();
    expect(revoked.status).to.equal('ended');
    expect(revoked.revokedAt).to.be.a('string');
    await waitUntil(
      'the controller deletes the visitor',
      () => sim.store.users.has(pass.pin),
      (held) => !held,
    );
    expect(sim.punch({ pin: pass.pin }).event).to.equal(27);
    await screenshot(page, 'security-visitor-pass-revoked');
    expectNoPageProblems(page);

    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: 900 });
      expect(await page.evaluate('document.documentElement.scrollWidth <= innerWidth'), `visitor passes at ${width} px`).to.equal(true);
    }
    await screenshot(page, 'security-visitor-passes-phone');
    await page.close();
  });
});
