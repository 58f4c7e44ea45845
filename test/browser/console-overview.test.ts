import { expect } from 'chai';
import type { Page } from 'playwright-core';
import { accessibilityViolations, launchBrowser, screenshot, type TestBrowser } from '../support/browser';
import { createCompany, createDevice, createWorkspace, type TestWorkspace } from '../support/factories';
import { startTestApp, type TestApp } from '../support/test-app';

/** An API request of the page that read doors or door events: its variables and its answer. */
interface DoorRead {
  variables: Record<string, unknown>;
  data: any;
}

/**
 * What the overview and the door board ask the API for: the doors of every controller and the newest
 * door events in one request each, however many controllers there are (they took one request per
 * controller, and two on the door board: 26 requests for 10 controllers).
 */
describe('console in the browser: overview and door board read in one request', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let browser: TestBrowser;
  let controllers: Array<{ id: number }>;
  let alarmedDoorId: number;

  before(async () => {
    t = await startTestApp({}, 'console-overview');
    ws = await createWorkspace(t.url, { maxDevices: 20 });
    const companyId = (await createCompany(t.url, ws.key, { name: 'Acme Doors' })).id;
    controllers = [];
    for (const name of ['Gate', 'Loading bay', 'Lab']) controllers.push(await createDevice(t.url, ws.key, companyId, { name, mode_type: 'acc' }));
    // The third controller's door is held open, as its rtstate would have left it before the page opens.
    const rows = await t.app.database.orm.em.fork().getConnection().execute('select id from door where device_id = ?', [controllers[2]!.id]);
    alarmedDoorId = rows[0].id;
    await t.app.database.orm.em.fork().getConnection().execute(`update door set alarms = '{held_open}' where id = ?`, [alarmedDoorId]);
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
    await t?.stop();
  });

  /** A page signed in with the key, noting every API request that read doors or door events. */
  async function pageReadingDoors(): Promise<{ page: Page; doorReads: DoorRead[]; eventReads: DoorRead[]; errors: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    await context.addInitScript(`sessionStorage.setItem('timegate.apiKey', ${JSON.stringify(ws.key)})`);
    const page = await context.newPage();
    const doorReads: DoorRead[] = [];
    const eventReads: DoorRead[] = [];
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('response', async (response) => {
      if (!response.url().endsWith('/graphql') || response.request().method() !== 'POST') return;
      const { query, variables } = response.request().postDataJSON() as { query: string; variables?: Record<string, unknown> };
      const read = { variables: variables ?? {}, data: (await response.json()).data };
      if (/\b(deviceDoors|doors)\s*\(/.test(query)) doorReads.push(read);
      if (/\bdoorEvents\s*\(/.test(query) && read.data?.doorEvents) eventReads.push(read);
    });
    return { page, doorReads, eventReads, errors };
  }

  it('the door board reads every controller’s doors, and the newest door events, in one request each', async () => {
    const { page, doorReads, eventReads, errors } = await pageReadingDoors();
    await page.goto(`${t.url}/console#/doors`);
    await page.getByRole('list', { name: 'Alarms open now' }).getByText('held open', { exact: true }).waitFor();
    const rows = page.getByRole('region', { name: 'Doors' }).getByRole('row');
    await rows.nth(controllers.length).waitFor();
    for (const name of ['Gate', 'Loading bay', 'Lab']) await page.getByRole('region', { name: 'Doors' }).getByRole('link', { name }).first().waitFor();
    await screenshot(page, 'door-board-one-request');

    // No request per controller: each read of the board has no device in it and brings every controller's door.
    expect(doorReads.length).to.be.greaterThan(0);
    expect(doorReads.map((r) => r.variables.deviceId ?? null)).to.deep.equal(doorReads.map(() => null));
    expect(doorReads[0]!.data.doors.nodes.map((d: any) => d.deviceId)).to.include.members(controllers.map((c) => c.id));
    expect(eventReads.length).to.be.greaterThan(0);
    expect(eventReads.map((r) => r.variables.deviceId ?? null)).to.deep.equal(eventReads.map(() => null));
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await page.context().close();
  });

  it('the overview reads the open alarms of every controller in one request, only the doors in alarm', async () => {
    const { page, doorReads, errors } = await pageReadingDoors();
    await page.goto(`${t.url}/console`);
    await page.getByRole('list', { name: 'Open alarms' }).getByText('held open', { exact: true }).waitFor();
    await page
      .getByRole('list', { name: 'Status board' })
      .getByRole('listitem')
      .nth(controllers.length - 1)
      .waitFor();
    await screenshot(page, 'overview-open-alarms-one-request');

    expect(doorReads.length).to.be.greaterThan(0);
    expect(doorReads.map((r) => r.variables.deviceId ?? null)).to.deep.equal(doorReads.map(() => null));
    expect(doorReads[0]!.data.doors.nodes.map((d: any) => d.id)).to.deep.equal([alarmedDoorId]);
    expect(await accessibilityViolations(page)).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await page.context().close();
  });
});
